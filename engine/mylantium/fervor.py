"""Revolutionary Fervor (R1-30..R1-33): the conditions evaluated at the end of the Business Phase, and the VP
every Faction in play loses for each point, floored at 0 (P1-08). Social Collapse (R1-50)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.core.derivation import Derivation, Step
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


ONE_POINT = "each condition that holds at the end of the Business Phase adds 1, whether or not it held before"


def fervor_change(at_end: InPlay, happenings: Iterable[Occurrence], unfunded_last_turn: int,
                  rules: Rules = DEFAULT) -> FervorResult:
    """R1-31 (one point each, whether or not it held before) and R1-32 (several points); all add up (R1-33).
    Pensions unfunded count here one turn after they went unfunded (P1-17); a put-down Revolution is counted when
    it happens, not here (P1-10)."""
    events = list(happenings)
    changes: list[Change] = []
    if at_end.monopolies >= 4:
        changes.append(Change(f"{at_end.monopolies} Monopolies in play (4 or more)", 1, ONE_POINT, rule_id="R1-31"))
    if at_end.income_tax is not None and at_end.faction_taxes <= 2:
        changes.append(Change(f"an Income Tax and only {plural(at_end.faction_taxes, 'Faction Tax')} (2 or fewer)", 1,
                              ONE_POINT, rule_id="R1-31"))
    if at_end.tariffs >= 3:
        changes.append(Change(f"{at_end.tariffs} Tariffs in effect (3 or more)", 1, ONE_POINT, rule_id="R1-31"))
    cover_ups = _count(events, Happening.COVER_UP_EXPOSED)
    if cover_ups:
        each = rules.cover_up_each
        changes.append(Change(f"{plural(cover_ups, 'cover-up')} exposed" if each or cover_ups == 1
                              else f"{cover_ups} cover-ups exposed (+1 in all)", cover_ups if each else 1,
                              "a cover-up exposed this turn adds 1 in all (or 1 each, as this game rules)",
                              rule_id="R1-31, P1-09"))
    if at_end.wars > 0:
        changes.append(Change("a war is being waged", 1, ONE_POINT, rule_id="R1-31"))
    if unfunded_last_turn > 0:
        changes.append(Change(f"{plural(unfunded_last_turn, 'pension')} went unfunded in the previous turn", 1,
                              ONE_POINT, rule_id="R1-31, P1-17"))
    fiat = _count(events, Happening.FIAT_MONEY)
    inflation = floor(Fraction(fiat, 20))
    if inflation:
        changes.append(Change(f"inflation: ${fiat} created by fiat (1 per whole $20)", inflation,
                              "inflation adds 1 per whole $20 created by fiat this turn", rule_id="R1-32, P1-14"))
    excess = at_end.subsidies - at_end.pensions
    if excess > 0:
        changes.append(Change(f"{plural(at_end.subsidies, 'subsidy')} but only "
                              f"{plural(at_end.pensions, 'pension')}", excess,
                              "each subsidy beyond the pensions adds 1", rule_id="R1-32"))
    defeats = _count(events, Happening.WAR_DEFEAT)
    if defeats:
        changes.append(Change("a war ended in defeat or surrender" + (f" ×{defeats}" if defeats > 1 else ""),
                              3 * defeats, "a war ended in defeat or surrender adds 3", rule_id="R1-32"))
    if _count(events, Happening.MISSED_ORDERS):
        changes.append(Change("the President failed to send Business Round orders", 3,
                              "the President's missing orders add 3", rule_id="R1-32"))
    return FervorResult(tuple(changes))


def fervor_explained(at_end: InPlay, happenings: Iterable[Occurrence], unfunded_last_turn: int, start: int,
                     rules: Rules = DEFAULT, subject: str = "Fervor", events: tuple[int, ...] = (),
                     ) -> tuple[FervorResult, Derivation]:
    """``fervor_change`` and its steps (``/why fervor``): each condition that held, the sum added to ``start``."""
    result = fervor_change(at_end, happenings, unfunded_last_turn, rules)
    steps = [Step(f"{c.delta:+d}: {c.cause}", c.rule, rule_id=c.rule_id, events=events) for c in result.changes]
    if not steps:
        steps.append(Step("No Fervor condition held", ONE_POINT, rule_id="R1-31, R1-32", events=events))
    sums = " + ".join(str(c.delta) for c in result.changes) or "0"
    steps.append(Step(f"Fervor {start} + ({sums}) = **{start + result.total}**", "all increases add up; Fervor "
                      "only rises", rule_id="R1-33, R1-30", events=events))
    return result, Derivation(subject, f"+{result.total}: now {start + result.total}", tuple(steps),
                              (result.total, start + result.total))


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
