"""R1-20, R1-21: the Approval Rating.

"The "incumbent party" in an election is whichever Party has aligned with it the Faction that controlled the
Presidency during the Business Phase of the previous turn. That party collects a percentage of the Independent Vote
equal to the Approval Rating ... The GM also applies the results of the Conducting a War table ... He makes changes
to the Approval Rating at the end of each turn's Business Phase."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.mylantium.approval import approval_change, delta_of, incumbent_party
from engine.mylantium.business import Happening, InPlay, Occurrence, after, check_turn, happening
from engine.mylantium.model import FactionCode, Party

H = Happening


def end(start: int, *events: Occurrence, state: InPlay | None = None) -> int:
    at_end = state or InPlay()
    return approval_change(start, events, at_end).end


@pytest.mark.parametrize(("start", "events", "delta", "final"), [
    (95, [Occurrence(H.INCOME_TAX_ABOLISHED)], 16, 100),
    (10, [Occurrence(H.WAR_DEFEAT)], -24, 0),
    (50, [Occurrence(H.INCOME_TAX_CUT, 15)], 2, 52),
    (50, [Occurrence(H.INCOME_TAX_RAISED, 25)], -6, 44),
    (50, [Occurrence(H.MONOPOLY_CREATED), Occurrence(H.MONOPOLY_CREATED)], -12, 38),
    (50, [Occurrence(H.MISSED_ORDERS)], -30, 20),
], ids=["abolished-clamped-100", "defeat-clamped-0", "cut-15-points", "raised-25-points", "two-monopolies",
        "missed-orders"])
def test_TV1_I06_approval_clamp_and_income_tax_percentages(start: int, events: list[Occurrence], delta: int,
                                                           final: int) -> None:
    """TV1-I06 (P1-05, P1-06): clamped to [0, 100]; Income Tax per full 10 points; each instance its own delta."""
    result = approval_change(start, events, InPlay())
    assert sum(c.delta for c in result.changes) == delta
    assert result.end == final


def test_the_whole_table() -> None:
    """R1-21: every row of the table, one instance each."""
    table = {
        H.INCOME_TAX_ABOLISHED: 16, H.WAR_DECLARED: 12, H.WAR_VICTORY: 8, H.PENSION_CREATED: 6,
        H.MONOPOLY_ABOLISHED: 4, H.FACTION_TAX_CREATED: 4, H.FACTION_TAX_RAISED: 4, H.SUBSIDY_REPEALED: 4,
        H.WAR_DEFEAT: -24, H.INCOME_TAX_CREATED: -20, H.PENSION_ABOLISHED: -8, H.PENSION_UNFUNDED: -4,
        H.MONOPOLY_CREATED: -6, H.FACTION_TAX_CUT: -6, H.FACTION_TAX_ABOLISHED: -6, H.SUBSIDY_CREATED: -3,
        H.SCANDAL: -3, H.MISSED_ORDERS: -30, H.TARIFF_CREATED: 0, H.COVER_UP_EXPOSED: 0,
    }
    for what, delta in table.items():
        amount = 10 if what is H.INCOME_TAX_CREATED else 1
        assert delta_of(Occurrence(what, amount)) == delta, what
    assert delta_of(Occurrence(H.INCOME_TAX_CUT, 10)) == 2
    assert delta_of(Occurrence(H.INCOME_TAX_RAISED, 10)) == -3
    assert delta_of(Occurrence(H.WAR_TABLE, -5)) == -5
    assert delta_of(Occurrence(H.PENSION_UNFUNDED, 2)) == -8


def test_P1_06_income_tax_abolished_or_created_counts_only_once() -> None:
    """P1-06: abolishing gives only +16 (not also a cut); creating gives only −20; a cut of 9 points gives 0."""
    assert end(50, Occurrence(H.INCOME_TAX_ABOLISHED)) == 66
    assert end(50, Occurrence(H.INCOME_TAX_CREATED, 30)) == 30
    assert end(50, Occurrence(H.INCOME_TAX_CUT, 9)) == 50


def test_P1_07_war_declared_and_waged_both_apply_once() -> None:
    """P1-07: +12 for the declaration and −4 once for the war still being waged at the end, however many wars."""
    assert end(50, Occurrence(H.WAR_DECLARED), state=InPlay(wars=1)) == 58
    assert end(50, state=InPlay(wars=3)) == 46
    result = approval_change(50, [Occurrence(H.WAR_DECLARED)], InPlay(wars=1))
    assert [c.cause for c in result.changes] == ["war declared", "a war is being waged"]


def test_P1_05_the_sum_is_clamped_not_each_step() -> None:
    """P1-05: all events are summed, then clamped: 95 +16 −24 = 87, not clamp(111) − 24 = 76."""
    result = approval_change(95, [Occurrence(H.INCOME_TAX_ABOLISHED), Occurrence(H.WAR_DEFEAT)], InPlay())
    assert result.end == 87 and not result.clamped


def test_the_conducting_a_war_table_is_entered() -> None:
    """R1-21: the GM's random movement, entered as data."""
    assert end(50, Occurrence(H.WAR_TABLE, 7)) == 57
    assert end(50, Occurrence(H.WAR_TABLE, -7)) == 43


@given(st.integers(0, 100), st.lists(st.sampled_from(list(H)), max_size=12))
def test_approval_always_stays_between_0_and_100(start: int, kinds: list[Happening]) -> None:
    events = [Occurrence(k, 10) if k in (H.INCOME_TAX_CREATED, H.INCOME_TAX_CUT, H.INCOME_TAX_RAISED,
                                         H.FIAT_MONEY, H.WAR_TABLE) else Occurrence(k) for k in kinds]
    assert 0 <= approval_change(start, events, InPlay(wars=1)).end <= 100


def test_R1_20_the_incumbent_party() -> None:
    """R1-20: the party of the Faction that held the Presidency in the previous Business Phase."""
    parties = {FactionCode.BH: Party.FEDERALIST, FactionCode.PL: Party.WHIG}
    assert incumbent_party(FactionCode.BH, parties) is Party.FEDERALIST
    assert incumbent_party(None, parties) is None


def test_happenings_move_what_is_in_play() -> None:
    state = InPlay()
    for o in (Occurrence(H.INCOME_TAX_CREATED, 30), Occurrence(H.INCOME_TAX_CUT, 15), Occurrence(H.MONOPOLY_CREATED, 2),
              Occurrence(H.WAR_DECLARED), Occurrence(H.PENSION_CREATED), Occurrence(H.SUBSIDY_CREATED, 3),
              Occurrence(H.TARIFF_CREATED), Occurrence(H.FACTION_TAX_CREATED)):
        state = after(state, o)
    assert state == InPlay(monopolies=2, income_tax=15, faction_taxes=1, tariffs=1, subsidies=3, pensions=1, wars=1)
    state = after(state, Occurrence(H.WAR_DEFEAT))
    assert state.wars == 0
    assert after(state, Occurrence(H.INCOME_TAX_ABOLISHED)).income_tax is None


@pytest.mark.parametrize(("state", "o", "why"), [
    (InPlay(), Occurrence(H.MONOPOLY_ABOLISHED), "Only 0 Monopolies"),
    (InPlay(), Occurrence(H.INCOME_TAX_CUT, 10), "no Income Tax"),
    (InPlay(income_tax=5), Occurrence(H.INCOME_TAX_CUT, 10), "would make it -5%"),
    (InPlay(income_tax=5), Occurrence(H.INCOME_TAX_CREATED, 10), "already an Income Tax"),
    (InPlay(pensions=1), Occurrence(H.PENSION_UNFUNDED, 2), "cannot go unfunded"),
    (InPlay(), Occurrence(H.WAR_VICTORY), "war"),
])
def test_impossible_happenings_are_refused(state: InPlay, o: Occurrence, why: str) -> None:
    with pytest.raises(RuleError, match=why):
        after(state, o)


def test_missed_orders_once_a_turn_and_the_turns_unfunded_pensions_within_those_in_play() -> None:
    """The approval table: "President fails to send Business Round orders −30" (one President, one Business Round
    a turn) and "each pension unfunded −4" (no more unfunded than there are pensions)."""
    two = InPlay(pensions=2)
    check_turn([], Occurrence(H.MISSED_ORDERS), two, 1)
    with pytest.raises(RuleError, match="already recorded for turn 3"):
        check_turn([Occurrence(H.SCANDAL), Occurrence(H.MISSED_ORDERS)], Occurrence(H.MISSED_ORDERS), two, 3)
    with pytest.raises(RuleError, match="at most once a turn, not 2"):
        check_turn([], Occurrence(H.MISSED_ORDERS, 2), two, 1)
    check_turn([Occurrence(H.PENSION_UNFUNDED)], Occurrence(H.PENSION_UNFUNDED), two, 1)
    with pytest.raises(RuleError, match=r"1 already recorded unfunded in turn 1, so 2 more cannot go unfunded "
                                        r"\(at most 1 more\)"):
        check_turn([Occurrence(H.PENSION_UNFUNDED)], Occurrence(H.PENSION_UNFUNDED, 2), two, 1)


def test_happening_names() -> None:
    assert happening("income-tax", "cut") is H.INCOME_TAX_CUT
    assert happening("scandal", None) is H.SCANDAL
    with pytest.raises(RuleError, match="created, raised, cut, abolished"):
        happening("income-tax", "doubled")
    with pytest.raises(RuleError, match="1 or more"):
        Occurrence(H.SCANDAL, 0)
