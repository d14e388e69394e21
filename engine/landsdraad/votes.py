"""A player's votes V(p) and its breakdown (R0-01..R0-07)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
