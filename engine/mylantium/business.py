"""What happened in a turn, as the moderator records it (R1-21, R1-31, R1-32), and what is in play: monopolies,
the Income Tax, Faction Taxes, tariffs, subsidies, pensions and wars. Recording a happening moves the counts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from engine.core.errors import RuleError
from engine.core.words import plural


class Happening(Enum):
    """``subject change``, as ``/event <subject> change:<change>`` names it."""

    INCOME_TAX_CREATED = "income-tax created"
    INCOME_TAX_RAISED = "income-tax raised"
    INCOME_TAX_CUT = "income-tax cut"
    INCOME_TAX_ABOLISHED = "income-tax abolished"
    WAR_DECLARED = "war declared"
    WAR_VICTORY = "war victory"
    WAR_DEFEAT = "war defeat"
    PENSION_CREATED = "pension created"
    PENSION_ABOLISHED = "pension abolished"
    PENSION_UNFUNDED = "pension unfunded"
    MONOPOLY_CREATED = "monopoly created"
    MONOPOLY_ABOLISHED = "monopoly abolished"
    FACTION_TAX_CREATED = "faction-tax created"
    FACTION_TAX_RAISED = "faction-tax raised"
    FACTION_TAX_CUT = "faction-tax cut"
    FACTION_TAX_ABOLISHED = "faction-tax abolished"
    SUBSIDY_CREATED = "subsidy created"
    SUBSIDY_REPEALED = "subsidy repealed"
    TARIFF_CREATED = "tariff created"
    TARIFF_REPEALED = "tariff repealed"
    SCANDAL = "scandal"
    COVER_UP_EXPOSED = "cover-up exposed"
    FIAT_MONEY = "fiat-money"
    MISSED_ORDERS = "missed-orders"
    WAR_TABLE = "war-table"

    @property
    def subject(self) -> str:
        return self.value.split(" ")[0]

    @property
    def change(self) -> str | None:
        parts = self.value.split(" ")
        return parts[1] if len(parts) > 1 else None


AMOUNT_MEANING = {
    Happening.INCOME_TAX_CREATED: "rate",
    Happening.INCOME_TAX_RAISED: "points",
    Happening.INCOME_TAX_CUT: "points",
    Happening.FIAT_MONEY: "dollars",
    Happening.WAR_TABLE: "delta",
}
"""What ``amount`` means; every other happening counts instances (default 1)."""

SUBJECTS: dict[str, tuple[Happening, ...]] = {}
for _h in Happening:
    SUBJECTS.setdefault(_h.subject, ())
    SUBJECTS[_h.subject] += (_h,)


def happening(subject: str, change: str | None) -> Happening:
    for h in SUBJECTS.get(subject, ()):
        if h.change == change:
            return h
    changes = [h.change for h in SUBJECTS.get(subject, ()) if h.change]
    raise RuleError(f"“{subject} {change or ''}”".replace(" ”", "”") + " is not something Clerk records"
                    + (f"; a {subject} change is {', '.join(changes)}." if changes else "."))


@dataclass(frozen=True)
class Occurrence:
    """One recorded happening. ``amount``: a count (default 1), Income Tax points or rate, fiat dollars, or the
    signed result of the Conducting-a-War table."""

    what: Happening
    amount: int = 1

    def __post_init__(self) -> None:
        meaning = AMOUNT_MEANING.get(self.what, "count")
        if meaning == "delta":
            return
        if meaning == "count" and self.amount < 1:
            raise RuleError(f"A count is 1 or more, not {self.amount}.")
        if meaning in ("points", "dollars") and self.amount < 1:
            raise RuleError(f"Give the {meaning} (1 or more), not {self.amount}.")
        if meaning == "rate" and not 0 <= self.amount <= 100:
            raise RuleError(f"An Income Tax rate is 0 to 100 percent, not {self.amount}.")

    @property
    def text(self) -> str:
        w, n = self.what, self.amount
        words = {
            Happening.INCOME_TAX_CREATED: f"Income Tax created at {n}%",
            Happening.INCOME_TAX_RAISED: f"Income Tax raised by {plural(n, 'point')}",
            Happening.INCOME_TAX_CUT: f"Income Tax cut by {plural(n, 'point')}",
            Happening.INCOME_TAX_ABOLISHED: "Income Tax abolished",
            Happening.WAR_DECLARED: "war declared",
            Happening.WAR_VICTORY: "a war ended in victory",
            Happening.WAR_DEFEAT: "a war ended in defeat or surrender",
            Happening.PENSION_CREATED: "pension created",
            Happening.PENSION_ABOLISHED: "pension abolished",
            Happening.PENSION_UNFUNDED: "pension unfunded",
            Happening.MONOPOLY_CREATED: "Monopoly created",
            Happening.MONOPOLY_ABOLISHED: "Monopoly abolished",
            Happening.FACTION_TAX_CREATED: "Faction Tax created",
            Happening.FACTION_TAX_RAISED: "Faction Tax raised",
            Happening.FACTION_TAX_CUT: "Faction Tax cut",
            Happening.FACTION_TAX_ABOLISHED: "Faction Tax abolished",
            Happening.SUBSIDY_CREATED: "subsidy created",
            Happening.SUBSIDY_REPEALED: "subsidy repealed",
            Happening.TARIFF_CREATED: "Tariff created",
            Happening.TARIFF_REPEALED: "Tariff repealed",
            Happening.SCANDAL: "scandal",
            Happening.COVER_UP_EXPOSED: "cover-up exposed",
            Happening.FIAT_MONEY: f"${n} created by fiat",
            Happening.MISSED_ORDERS: "the President failed to send Business Round orders",
            Happening.WAR_TABLE: f"Conducting-a-War table {n:+d}",
        }[w]
        counted = AMOUNT_MEANING.get(w, "count") == "count"
        return f"{words} ×{n}" if counted and n > 1 else words


@dataclass(frozen=True)
class InPlay:
    """What is in effect (§2.1 Republic). ``income_tax`` is its rate, None when there is no Income Tax."""

    monopolies: int = 0
    income_tax: int | None = None
    faction_taxes: int = 0
    tariffs: int = 0
    subsidies: int = 0
    pensions: int = 0
    wars: int = 0

    def __post_init__(self) -> None:
        for name in ("monopolies", "faction_taxes", "tariffs", "subsidies", "pensions", "wars"):
            if getattr(self, name) < 0:
                raise RuleError(f"{name.replace('_', ' ')} cannot be fewer than 0.")
        if self.income_tax is not None and not 0 <= self.income_tax <= 100:
            raise RuleError(f"An Income Tax rate is 0 to 100 percent, not {self.income_tax}.")


def _less(state: InPlay, name: str, n: int, what: str) -> InPlay:
    have = int(getattr(state, name))
    if have < n:
        raise RuleError(f"Only {plural(have, what)} in play, so {n} cannot end; correct the counts with "
                        "/government set.")
    return replace(state, **{name: have - n})


ONCE_A_TURN = (Happening.MISSED_ORDERS,)
"""There is one President and one Business Round a turn, so the President fails to send its orders at most once."""


def check_turn(earlier: Iterable[Occurrence], o: Occurrence, state: InPlay, turn: int) -> None:
    """What ``o`` may add to the turn's entries so far (``earlier``): a once-a-turn happening is recorded once, and
    the turn's unfunded pensions together are no more than the pensions in play (the approval table's −4 is per
    pension that goes unfunded, so there are no more to count than there are pensions)."""
    before = tuple(earlier)
    undo = "/event undo takes back the turn's latest entry."
    if o.what in ONCE_A_TURN and o.amount != 1:
        raise RuleError(f"“{o.what.value}” happens at most once a turn, not {o.amount} times. Nothing was recorded.")
    if o.what in ONCE_A_TURN and any(e.what is o.what for e in before):
        raise RuleError(f"“{o.what.value}” is already recorded for turn {turn}; it happens at most once a turn "
                        f"(one President, one Business Round). Nothing was recorded; {undo}")
    if o.what is Happening.PENSION_UNFUNDED:
        already = sum(e.amount for e in before if e.what is Happening.PENSION_UNFUNDED)
        if already and already + o.amount > state.pensions:
            left = max(0, state.pensions - already)
            raise RuleError(f"Only {plural(state.pensions, 'pension')} in play, and {already} already recorded "
                            f"unfunded in turn {turn}, so {o.amount} more cannot go unfunded (at most {left} more). "
                            f"Nothing was recorded; {undo}")


def after(state: InPlay, o: Occurrence) -> InPlay:
    """The counts after ``o``; refuses what cannot happen (abolishing an Income Tax that does not exist)."""
    w, n = o.what, o.amount
    if w is Happening.INCOME_TAX_CREATED:
        if state.income_tax is not None:
            raise RuleError(f"There is already an Income Tax ({state.income_tax}%); record a raise or a cut.")
        return replace(state, income_tax=n)
    if w in (Happening.INCOME_TAX_RAISED, Happening.INCOME_TAX_CUT, Happening.INCOME_TAX_ABOLISHED):
        if state.income_tax is None:
            raise RuleError("There is no Income Tax; record `income-tax created` first.")
        if w is Happening.INCOME_TAX_ABOLISHED:
            return replace(state, income_tax=None)
        rate = state.income_tax + (n if w is Happening.INCOME_TAX_RAISED else -n)
        if not 0 <= rate <= 100:
            raise RuleError(f"The Income Tax is {state.income_tax}%; {o.text} would make it {rate}%.")
        return replace(state, income_tax=rate)
    if w is Happening.WAR_DECLARED:
        return replace(state, wars=state.wars + n)
    if w in (Happening.WAR_VICTORY, Happening.WAR_DEFEAT):
        return _less(state, "wars", n, "war")
    if w is Happening.PENSION_CREATED:
        return replace(state, pensions=state.pensions + n)
    if w is Happening.PENSION_ABOLISHED:
        return _less(state, "pensions", n, "pension")
    if w is Happening.PENSION_UNFUNDED:
        if n > state.pensions:
            raise RuleError(f"Only {plural(state.pensions, 'pension')} in play, so {n} cannot go unfunded.")
        return state
    if w is Happening.MONOPOLY_CREATED:
        return replace(state, monopolies=state.monopolies + n)
    if w is Happening.MONOPOLY_ABOLISHED:
        return _less(state, "monopolies", n, "Monopoly")
    if w is Happening.FACTION_TAX_CREATED:
        return replace(state, faction_taxes=state.faction_taxes + n)
    if w is Happening.FACTION_TAX_ABOLISHED:
        return _less(state, "faction_taxes", n, "Faction Tax")
    if w in (Happening.FACTION_TAX_RAISED, Happening.FACTION_TAX_CUT) and state.faction_taxes == 0:
        raise RuleError("No Faction Tax is in play; record `faction-tax created` first.")
    if w is Happening.SUBSIDY_CREATED:
        return replace(state, subsidies=state.subsidies + n)
    if w is Happening.SUBSIDY_REPEALED:
        return _less(state, "subsidies", n, "subsidy")
    if w is Happening.TARIFF_CREATED:
        return replace(state, tariffs=state.tariffs + n)
    if w is Happening.TARIFF_REPEALED:
        return _less(state, "tariffs", n, "Tariff")
    return state
