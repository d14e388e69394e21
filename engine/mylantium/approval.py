"""The Approval Rating (R1-20, R1-21): the incumbent party, and the table applied at the end of the Business
Phase, every event instance with its own delta, clamped to [0, 100] (P1-05)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.core.derivation import Derivation, Step
from engine.core.errors import RuleError
from engine.core.rounding import floor
from engine.mylantium.business import AMOUNT_MEANING, Happening, InPlay, Occurrence
from engine.mylantium.model import FactionCode, Party

PER_INSTANCE: Mapping[Happening, int] = {
    Happening.INCOME_TAX_ABOLISHED: 16,
    Happening.WAR_DECLARED: 12,
    Happening.WAR_VICTORY: 8,
    Happening.PENSION_CREATED: 6,
    Happening.MONOPOLY_ABOLISHED: 4,
    Happening.FACTION_TAX_CREATED: 4,
    Happening.FACTION_TAX_RAISED: 4,
    Happening.SUBSIDY_REPEALED: 4,
    Happening.WAR_DEFEAT: -24,
    Happening.INCOME_TAX_CREATED: -20,
    Happening.PENSION_ABOLISHED: -8,
    Happening.PENSION_UNFUNDED: -4,
    Happening.MONOPOLY_CREATED: -6,
    Happening.FACTION_TAX_CUT: -6,
    Happening.FACTION_TAX_ABOLISHED: -6,
    Happening.SUBSIDY_CREATED: -3,
    Happening.SCANDAL: -3,
    Happening.MISSED_ORDERS: -30,
}
"""R1-21: the delta of one instance of each happening that counts instances."""
PER_TEN_POINTS = {Happening.INCOME_TAX_CUT: 2, Happening.INCOME_TAX_RAISED: -3}
"""R1-21 / P1-06: per full 10 percentage points of the change."""
WAR_WAGED = -4
"""R1-21 / P1-07: once, when a war is still being waged at the end of the Business Phase."""


def incumbent_party(president: FactionCode | None, parties: Mapping[FactionCode, Party]) -> Party | None:
    """R1-20: the party aligned with the Faction that controlled the Presidency in the previous Business Phase."""
    return parties.get(president) if president is not None else None


def clamp(value: int) -> int:
    """P1-05."""
    return max(0, min(100, value))


def delta_of(o: Occurrence) -> int:
    if o.what in PER_TEN_POINTS:
        return PER_TEN_POINTS[o.what] * floor(Fraction(o.amount, 10))
    if o.what is Happening.WAR_TABLE:
        return o.amount
    instances = o.amount if AMOUNT_MEANING.get(o.what, "count") == "count" else 1
    return PER_INSTANCE.get(o.what, 0) * instances


@dataclass(frozen=True)
class Change:
    """A change with its cause, for the breakdown that is posted and kept (approval or fervor)."""

    cause: str
    delta: int
    rule: str = ""
    """The rule that made it, in words (``/why``)."""
    rule_id: str = ""


@dataclass(frozen=True)
class ApprovalResult:
    start: int
    changes: tuple[Change, ...]
    end: int

    @property
    def raw(self) -> int:
        """The sum before clamping."""
        return self.start + sum(c.delta for c in self.changes)

    @property
    def clamped(self) -> bool:
        return self.raw != self.end


def approval_change(start: int, happenings: Iterable[Occurrence], at_end: InPlay) -> ApprovalResult:
    """R1-21 at the end of the Business Phase: every happening of the turn with its own delta (two Monopolies
    created give −12), −4 once if a war is still being waged (P1-07), the Conducting-a-War result as entered;
    then the sum is clamped to [0, 100] (P1-05). Happenings with no delta (tariffs, cover-ups, fiat money) are
    left out."""
    return approval_explained(start, happenings, at_end)[0]


TABLE = "each happening of the turn applies its own delta from the approval table"


def approval_explained(start: int, happenings: Iterable[Occurrence], at_end: InPlay, subject: str = "Approval",
                       events: tuple[int, ...] = (), recorded: Sequence[tuple[int, ...]] = (),
                       ) -> tuple[ApprovalResult, Derivation]:
    """``approval_change`` and its steps (``/why approval``): the start, each change, the sum, the clamp.
    ``events``: the close's event; ``recorded``: each happening's own events, in order."""
    if not 0 <= start <= 100:
        raise RuleError(f"An Approval Rating is between 0 and 100, not {start}.")
    changes: list[Change] = []
    read: list[tuple[int, ...]] = []
    for number, o in enumerate(happenings):
        if delta_of(o) != 0 or o.what in PER_TEN_POINTS:
            changes.append(Change(o.text, delta_of(o), TABLE, rule_id="R1-21, P1-06") if o.what in PER_TEN_POINTS
                           else Change(o.text, delta_of(o), TABLE, rule_id="R1-21"))
            read.append((recorded[number] if number < len(recorded) else ()) + events)
    if at_end.wars > 0:
        changes.append(Change("a war is being waged", WAR_WAGED, "−4 once while a war is still being waged at the "
                              "end of the Business Phase", rule_id="P1-07"))
        read.append(events)
    total = start + sum(c.delta for c in changes)
    result = ApprovalResult(start, tuple(changes), clamp(total))
    steps = [Step(f"Start: {start}%", "the Approval Rating before the Business Phase closed (the starting value or "
                  "the last one set)", rule_id="R1-21, P1-20", events=events)]
    steps += [Step(f"{c.delta:+d}: {c.cause}", c.rule, rule_id=c.rule_id, events=e) for c, e in zip(changes, read,
                                                                                                  strict=True)]
    sums = " ".join(f"{'+' if c.delta >= 0 else '−'} {abs(c.delta)}" for c in changes)
    steps.append(Step(f"{start} {sums} = " + (f"{result.raw}, clamped to **{result.end}**%" if result.clamped else
                                              f"**{result.end}**%"),
                      "the changes are summed at the end of the Business Phase, then kept within 0..100",
                      rule_id="R1-21, P1-05", events=events))
    return result, Derivation(subject, f"{start}% → {result.end}%", tuple(steps), result.end)
