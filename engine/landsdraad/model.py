"""The Landsdraad's data model (rules-spec §1.1): players, electors, planets, options."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine.core.errors import RuleError


class Option(Enum):
    """A crisis ballot's option (R0-10)."""

    AYE = "aye"
    NAY = "nay"
    ABSTAIN = "abstain"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Tier(Enum):
    """An Elector's tier (R0-03)."""

    WEAK = "weak"
    AVERAGE = "average"
    STRONG = "strong"


class Quality(Enum):
    """A planet's quality (R0-04)."""

    POOR = "poor"
    AVERAGE = "average"
    RICH = "rich"


def quality_of(grade: str | None) -> Quality | None:
    """A stored planet grade: a quality, or None for a Homeworld entered without one (it needs none: a Homeworld
    gives no votes and no Diplomacy Bonus, R0-04/R0-06)."""
    return Quality(grade) if grade else None


ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 5
"""The range of a D/C/I score a moderator enters: the rules' scale ends at "a 5 in Diplomacy" (the Diplomacy Bonus,
R0-06) and no score is below 1 (docs/rulings.md, issue 16). ``Attributes`` itself keeps taking 0 (C plays no part in
voting, and the test vectors leave it 0)."""


@dataclass(frozen=True)
class Attributes:
    """A player's D/C/I, the d3 rolled once at creation, and the highest D and I ever held (P0-02)."""

    diplomacy: int
    command: int
    intrigue: int
    roll: int
    diplomacy_max: int
    intrigue_max: int

    @staticmethod
    def start(diplomacy: int, command: int, intrigue: int, roll: int) -> Attributes:
        for label, value in (("diplomacy", diplomacy), ("command", command), ("intrigue", intrigue)):
            if value < 0:
                raise RuleError(f"{label} must be 0 or more, not {value}.")
        if roll not in (1, 2, 3):
            raise RuleError(f"the d3 roll must be 1, 2 or 3, not {roll}.")
        return Attributes(diplomacy, command, intrigue, roll, diplomacy, intrigue)

    def with_scores(
        self, diplomacy: int | None = None, command: int | None = None, intrigue: int | None = None
    ) -> Attributes:
        """New scores; the maxima only ever rise (R0-02)."""
        for label, value in (("diplomacy", diplomacy), ("command", command), ("intrigue", intrigue)):
            if value is not None and value < 0:
                raise RuleError(f"{label} must be 0 or more, not {value}.")
        d = self.diplomacy if diplomacy is None else diplomacy
        i = self.intrigue if intrigue is None else intrigue
        return replace(
            self,
            diplomacy=d,
            command=self.command if command is None else command,
            intrigue=i,
            diplomacy_max=max(self.diplomacy_max, d),
            intrigue_max=max(self.intrigue_max, i),
        )

    def corrected(
        self, diplomacy: int | None = None, command: int | None = None, intrigue: int | None = None
    ) -> Attributes:
        """New scores as they should have been from the start (a correction before the first round: no score was
        ever held in play, so the highest held are the new ones; docs/rulings.md)."""
        changed = self.with_scores(diplomacy, command, intrigue)
        return replace(changed, diplomacy_max=changed.diplomacy, intrigue_max=changed.intrigue)


@dataclass(frozen=True)
class Elector:
    name: str
    tier: Tier
    votes: int


@dataclass(frozen=True)
class Planet:
    name: str
    quality: Quality | None
    """None only for a Homeworld, whose quality plays no part (R0-04, R0-06)."""
    homeworld: bool = False

    def __post_init__(self) -> None:
        if self.quality is None and not self.homeworld:
            raise ValueError(f"the planet {self.name} is not a Homeworld, so it has a quality")
