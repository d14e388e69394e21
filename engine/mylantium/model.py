"""Mylantium's data model (rules-spec §2.0, §2.1): Factions, Parties, territories, buildings, military units,
and the Faction Votes computed from them (R1-02)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import inert_name, name_key


class Party(Enum):
    WHIG = "whig"
    FEDERALIST = "federalist"

    @property
    def title(self) -> str:
        return self.value.capitalize()

    @property
    def other(self) -> Party:
        return Party.FEDERALIST if self is Party.WHIG else Party.WHIG


class FactionCode(Enum):
    """The eight Factions, in the order the document lists them (§2.0)."""

    PL = "Plutocrat"
    RB = "Robber Baron"
    GR = "Granger"
    SH = "Snake-Handler"
    BH = "Brass Hat"
    PR = "Prole"
    BU = "Bureaucrat"
    RN = "Redneck"

    @property
    def title(self) -> str:
        return self.value

    @property
    def plural(self) -> str:
        return self.value + "s"

    @property
    def government(self) -> str:
        """What a victorious Vanguard installs (the document's list); the Rednecks take Avalon out instead."""
        return _GOVERNMENTS[self]


_GOVERNMENTS = {
    FactionCode.PL: "an Oligarchic Capitalism",
    FactionCode.RB: "an Industrial Fascism",
    FactionCode.GR: "an Agrarian Communism",
    FactionCode.SH: "a Serpentine Theocracy",
    FactionCode.BH: "a military dictatorship",
    FactionCode.PR: "a Proletarian Socialism",
    FactionCode.BU: "a Nanny-State Nomenklatura",
    FactionCode.RN: "the secession of Avalon from the Republic",
}

PRECEDENCE = (FactionCode.BH, FactionCode.PR, FactionCode.SH, FactionCode.RN, FactionCode.GR, FactionCode.BU,
              FactionCode.RB, FactionCode.PL)
"""R1-41: who becomes the Vanguard first when several Factions are at 0; the Plutocrats lose every tie."""


class Building(Enum):
    PORT = "port"
    CITY = "city"
    TEMPLE = "temple"
    VILLAGE = "village"

    @property
    def plural(self) -> str:
        return "cities" if self is Building.CITY else self.value + "s"


class UnitStatus(Enum):
    """Where a military unit is. Only units on station or in battle fund the Brass Hats (R1-43, R1-44)."""

    ON_STATION = "on-station"
    IN_BATTLE = "in-battle"
    ELSEWHERE = "elsewhere"

    @property
    def label(self) -> str:
        return self.value.replace("-", " ")


AVALON = "Avalon"
"""The territory the Rednecks take out of the Republic (R1-43)."""

_FACTION_WORDS: dict[str, FactionCode] = {}
for _code in FactionCode:
    for _word in (_code.name, _code.title, _code.plural, _code.title.replace("-", " "), _code.plural.replace("-", " "),
                  _code.title.replace(" ", ""), _code.plural.replace(" ", "")):
        _FACTION_WORDS[_word.lower()] = _code
_PARTY_WORDS = {"whig": Party.WHIG, "whigs": Party.WHIG, "federalist": Party.FEDERALIST,
                "federalists": Party.FEDERALIST, "fed": Party.FEDERALIST, "feds": Party.FEDERALIST}

FACTION_CHOICES = tuple(c.title for c in FactionCode)
PARTY_CHOICES = tuple(p.title for p in Party)


def faction_code(text: str) -> FactionCode:
    """``BH``, ``Brass Hat``, ``brass hats`` -> FactionCode.BH; anything else is a ParseError with a suggestion."""
    word = " ".join(text.strip().lower().split()).removeprefix("the ")
    found = _FACTION_WORDS.get(word) or _FACTION_WORDS.get(name_key(inert_name(text)).removeprefix("the "))
    if found is None:  # ``**Plutocrats**`` is the Plutocrats, as a name typed with markdown is found (P4.1)
        near = nearest(word, [c.title for c in FactionCode])
        raise ParseError(text, "a Faction: " + ", ".join(FACTION_CHOICES) + " (or PL, RB, GR, SH, BH, PR, BU, RN)",
                         suggestion=near)
    return found


def party_of(text: str) -> Party:
    word = " ".join(text.strip().lower().split()).removeprefix("the ").removesuffix(" party").strip()
    found = _PARTY_WORDS.get(word)
    if found is None:
        raise ParseError(text, "a Party: Whig or Federalist", suggestion=nearest(word, PARTY_CHOICES))
    return found


@dataclass(frozen=True)
class Territory:
    """A territory and what is built in it (R1-02, R1-43)."""

    name: str
    buildings: Mapping[Building, int] = field(default_factory=dict)

    def count(self, kind: Building) -> int:
        return int(self.buildings.get(kind, 0))


@dataclass(frozen=True)
class Unit:
    name: str
    territory: str
    maintenance: int
    cost: int
    status: UnitStatus = UnitStatus.ON_STATION

    @property
    def active(self) -> bool:
        """On station or in battle (R1-43)."""
        return self.status in (UnitStatus.ON_STATION, UnitStatus.IN_BATTLE)


@dataclass(frozen=True)
class VoteBase:
    """Where a Faction's votes come from (R1-02): ``per`` building kind in each territory (the Plutocrat's
    "2 per port"), plus a number the moderator entered for a territory (the other formulas are not in the
    document, A1-09)."""

    per: Mapping[Building, int] = field(default_factory=dict)
    entered: Mapping[str, int] = field(default_factory=dict)

    def in_territory(self, territory: Territory) -> int:
        from_rules = sum(n * territory.count(kind) for kind, n in self.per.items())
        return from_rules + int(self.entered.get(territory.name, 0))

    def by_territory(self, territories: Iterable[Territory]) -> dict[str, int]:
        """Faction Votes per territory, every territory listed, plus any entered for a territory not (yet)
        registered."""
        found = {t.name: self.in_territory(t) for t in territories}
        for name, n in self.entered.items():
            found.setdefault(name, int(n))
        return found

    def national(self, territories: Iterable[Territory]) -> int:
        """R1-02: National Faction Votes are the sum over territories."""
        return sum(self.by_territory(territories).values())


DEFAULT_VOTE_BASES: Mapping[FactionCode, VoteBase] = {FactionCode.PL: VoteBase(per={Building.PORT: 2})}
"""R1-02: the one formula the document gives, the Plutocrat's 2 votes per port in play."""


def default_base(code: FactionCode) -> VoteBase:
    return DEFAULT_VOTE_BASES.get(code, VoteBase())


@dataclass(frozen=True)
class Faction:
    """A Faction as the rules see it (§2.1). ``votes`` is its National Faction Vote."""

    code: FactionCode
    party: Party
    vp: int
    treasury: int
    in_play: bool = True
    votes: int = 0


def total_vp(factions: Iterable[Faction]) -> int:
    """``S`` (P1-15): the current VP of the Factions in play, net of Fervor deductions."""
    return sum(f.vp for f in factions if f.in_play)
