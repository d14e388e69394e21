"""A player's votes V(p) and its breakdown (R0-01..R0-07)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.core.derivation import Derivation, Step
from engine.landsdraad.model import Attributes, Elector, Planet, Quality, Tier

PLANET_VOTES = {Quality.POOR: 2, Quality.AVERAGE: 3, Quality.RICH: 4}
"""R0-04: votes a non-Homeworld planet gives by quality."""

ELECTOR_BONUS_MIN_D = {Tier.STRONG: 3, Tier.AVERAGE: 4, Tier.WEAK: 5}
PLANET_BONUS_MIN_D = {Quality.RICH: 3, Quality.AVERAGE: 4, Quality.POOR: 5}
"""R0-06: the lowest current Diplomacy that earns +2 for a holding of each tier."""

DIPLOMACY_BONUS = 2


def base_vote(attributes: Attributes) -> int:
    """R0-01/R0-02 (P0-02): 2·D_max + I_max + r; it never falls."""
    return base_votes(attributes.diplomacy_max, attributes.intrigue_max, attributes.roll)


def base_votes(diplomacy_max: int, intrigue_max: int, roll: int) -> int:
    """``base_vote`` from the three numbers (for a tally of many players without building their Attributes)."""
    return 2 * diplomacy_max + intrigue_max + roll


def planet_votes(planet: Planet) -> int:
    """R0-04: poor 2, average 3, rich 4; a Homeworld 0."""
    return 0 if planet.homeworld or planet.quality is None else PLANET_VOTES[planet.quality]


def diplomacy_bonus(diplomacy: int, electors: Iterable[Elector], planets: Iterable[Planet]) -> int:
    """R0-06: +2 per Elector or non-Homeworld planet whose tier the *current* D reaches."""
    count = sum(1 for e in electors if diplomacy >= ELECTOR_BONUS_MIN_D[e.tier])
    count += sum(1 for p in planets if not p.homeworld and p.quality is not None
                 and diplomacy >= PLANET_BONUS_MIN_D[p.quality])
    return DIPLOMACY_BONUS * count


@dataclass(frozen=True)
class VoteBreakdown:
    """V(p) and where each vote comes from (R0-07)."""

    base: int
    electors: int
    planets: int
    misc: int
    bonus: int

    @property
    def total(self) -> int:
        return self.base + self.electors + self.planets + self.misc + self.bonus


def vote_breakdown(
    attributes: Attributes, electors: Iterable[Elector], planets: Iterable[Planet], misc: int = 0
) -> VoteBreakdown:
    electors = tuple(electors)
    planets = tuple(planets)
    return VoteBreakdown(
        base=base_vote(attributes),
        electors=sum(e.votes for e in electors),
        planets=sum(planet_votes(p) for p in planets),
        misc=misc,
        bonus=diplomacy_bonus(attributes.diplomacy, electors, planets),
    )


def holding_votes(diplomacy: int, electors: Sequence[Elector] = (), planets: Sequence[Planet] = ()) -> int:
    """What a player's holdings add to V(p): their votes and the Diplomacy bonus they earn (R0-03..R0-06)."""
    return (sum(e.votes for e in electors) + sum(planet_votes(p) for p in planets)
            + diplomacy_bonus(diplomacy, electors, planets))


def total_votes(diplomacy: int, diplomacy_max: int, intrigue_max: int, roll: int, misc: int,
                electors: Sequence[Elector] = (), planets: Sequence[Planet] = ()) -> int:
    """V(p) alone (the ``total`` of ``vote_breakdown``), cheap for the many players who hold nothing."""
    base = base_votes(diplomacy_max, intrigue_max, roll) + misc
    if not electors and not planets:
        return base
    return base + holding_votes(diplomacy, electors, planets)


def vote_breakdown_explained(
    subject: str, attributes: Attributes, electors: Sequence[Elector], planets: Sequence[Planet], misc: int = 0, *,
    attribute_events: tuple[int, ...] = (), holding_events: Mapping[str, tuple[int, ...]] | None = None,
    seen_by: frozenset[str] | None = None,
) -> tuple[VoteBreakdown, Derivation]:
    """``vote_breakdown`` and its steps: the base vote from the highest D and I and the d3, each holding's votes and
    Diplomacy Bonus, misc, the total. ``seen_by``: whose the number is (a player's own V(p) is theirs only)."""
    b = vote_breakdown(attributes, electors, planets, misc)
    held = holding_events or {}
    a = attributes
    steps = [Step(f"Base vote: 2 × highest Diplomacy {a.diplomacy_max} + highest Intrigue {a.intrigue_max} + the d3 "
                  f"roll {a.roll} = {b.base}", "the base vote is twice the highest Diplomacy held, plus the highest "
                  "Intrigue held, plus the d3 rolled once at creation; it never falls", "R0-01, R0-02",
                  attribute_events, seen_by)]
    for e in electors:
        bonus = a.diplomacy >= ELECTOR_BONUS_MIN_D[e.tier]
        steps.append(Step(f"{e.name} ({e.tier.value} Elector): {e.votes} votes" + _bonus_text(
            bonus, a.diplomacy, ELECTOR_BONUS_MIN_D[e.tier]), "an Elector adds its printed votes; Diplomacy at "
            "least its tier's minimum (strong 3, average 4, weak 5) adds 2", "R0-03, R0-06",
            held.get(e.name, ()), seen_by))
    for p in planets:
        if p.homeworld or p.quality is None:
            steps.append(Step(f"{p.name} (Homeworld): 0 votes, no bonus", "a Homeworld adds no votes and no bonus",
                              "R0-04, R0-06", held.get(p.name, ()), seen_by))
            continue
        bonus = a.diplomacy >= PLANET_BONUS_MIN_D[p.quality]
        steps.append(Step(f"{p.name} ({p.quality.value} planet): {planet_votes(p)} votes" + _bonus_text(
            bonus, a.diplomacy, PLANET_BONUS_MIN_D[p.quality]), "a planet adds poor 2, average 3, rich 4; Diplomacy "
            "at least its quality's minimum (rich 3, average 4, poor 5) adds 2", "R0-04, R0-06",
            held.get(p.name, ()), seen_by))
    if misc:
        steps.append(Step(f"Other votes: {misc}", "any other source of votes adds its amount", "R0-05",
                          attribute_events, seen_by))
    steps.append(Step(f"Total: base {b.base} + Electors {b.electors} + planets {b.planets} + other {b.misc} + "
                      f"Diplomacy Bonus {b.bonus} = {b.total}", "a player's votes are the sum of these", "R0-07",
                      (), seen_by))
    return b, Derivation(subject, f"{b.total} votes", tuple(steps), value=b.total)


def _bonus_text(earned: bool, diplomacy: int, minimum: int) -> str:
    if earned:
        return f"; Diplomacy {diplomacy} ≥ {minimum}: +{DIPLOMACY_BONUS}"
    return f"; Diplomacy {diplomacy} < {minimum}: no bonus"
