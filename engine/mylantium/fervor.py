"""Revolutionary Fervor (R1-30..R1-33): the conditions evaluated at the end of the Business Phase, and the VP
every Faction in play loses for each point, floored at 0 (P1-08). Social Collapse (R1-50)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.core.errors import RuleError
from engine.core.rounding import floor
from engine.core.words import plural
from engine.mylantium.approval import Change
from engine.mylantium.business import Happening, InPlay, Occurrence
from engine.mylantium.model import Faction, FactionCode, total_vp
from engine.mylantium.settings import DEFAULT, Rules

PUT_DOWN = 3
"""R1-44.5 / R1-46.5: Fervor rises by 3 at once when a Revolution or a coup is put down (P1-10)."""
COLLAPSE_BELOW = 10
"""R1-50: the game ends with no winner when the VP of the Factions in play fall below 10."""


def _count(happenings: Iterable[Occurrence], what: Happening) -> int:
    return sum(o.amount for o in happenings if o.what is what)


@dataclass(frozen=True)
class FervorResult:
    changes: tuple[Change, ...]

    @property
    def total(self) -> int:
        return sum(c.delta for c in self.changes)


def fervor_change(at_end: InPlay, happenings: Iterable[Occurrence], unfunded_last_turn: int,
                  rules: Rules = DEFAULT) -> FervorResult:
    """R1-31 (one point each, whether or not it held before) and R1-32 (several points); all add up (R1-33).
    Pensions unfunded count here one turn after they went unfunded (P1-17); a put-down Revolution is counted when
    it happens, not here (P1-10)."""
    events = list(happenings)
    changes: list[Change] = []
    if at_end.monopolies >= 4:
        changes.append(Change(f"{at_end.monopolies} Monopolies in play (4 or more)", 1))
    if at_end.income_tax is not None and at_end.faction_taxes <= 2:
        changes.append(Change(f"an Income Tax and only {plural(at_end.faction_taxes, 'Faction Tax')} (2 or fewer)", 1))
    if at_end.tariffs >= 3:
        changes.append(Change(f"{at_end.tariffs} Tariffs in effect (3 or more)", 1))
    cover_ups = _count(events, Happening.COVER_UP_EXPOSED)
    if cover_ups:
        each = rules.cover_up_each
        changes.append(Change(f"{plural(cover_ups, 'cover-up')} exposed" if each or cover_ups == 1
                              else f"{cover_ups} cover-ups exposed (+1 in all)", cover_ups if each else 1))
    if at_end.wars > 0:
        changes.append(Change("a war is being waged", 1))
    if unfunded_last_turn > 0:
        changes.append(Change(f"{plural(unfunded_last_turn, 'pension')} went unfunded in the previous turn", 1))
    fiat = _count(events, Happening.FIAT_MONEY)
    inflation = floor(Fraction(fiat, 20))
    if inflation:
        changes.append(Change(f"inflation: ${fiat} created by fiat (1 per whole $20)", inflation))
    excess = at_end.subsidies - at_end.pensions
    if excess > 0:
        changes.append(Change(f"{plural(at_end.subsidies, 'subsidy')} but only "
                              f"{plural(at_end.pensions, 'pension')}", excess))
    defeats = _count(events, Happening.WAR_DEFEAT)
    if defeats:
        changes.append(Change("a war ended in defeat or surrender" + (f" ×{defeats}" if defeats > 1 else ""),
                              3 * defeats))
    if _count(events, Happening.MISSED_ORDERS):
        changes.append(Change("the President failed to send Business Round orders", 3))
    return FervorResult(tuple(changes))


def deduct(factions: Iterable[Faction], points: int) -> tuple[tuple[Faction, ...], Mapping[FactionCode, int]]:
    """R1-30 / P1-08: each Faction in play loses ``points`` VP, stopping at 0. Returns the Factions and what each
    actually lost."""
    if points < 0:
        raise RuleError("Fervor only rises.")
    out: list[Faction] = []
    lost: dict[FactionCode, int] = {}
    for f in factions:
        if f.in_play and points:
            taken = min(points, f.vp)
            lost[f.code] = taken
            f = replace(f, vp=f.vp - taken)
        out.append(f)
    return tuple(out), lost


def collapsed(factions: Iterable[Faction]) -> bool:
    """R1-50: ``S < 10``; ``S = 10`` does not collapse."""
    return total_vp(factions) < COLLAPSE_BELOW


def vp_of(factions: Iterable[Faction]) -> Mapping[FactionCode, int]:
    return {f.code: f.vp for f in factions}
