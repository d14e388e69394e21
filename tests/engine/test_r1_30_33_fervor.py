"""R1-30..R1-33 and R1-50: Revolutionary Fervor and Social Collapse.

"Revolutionary Fervor can only rise, never fall, and is reflected not on a chart but by subtracting Victory Points
from the players. With each rise of a point in Fervor, one Victory Point is subtracted from each player's score."
"If the accumulated number of Victory Points ever falls below 10, then the game ends immediately with no winner."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.mylantium.business import Happening, InPlay, Occurrence
from engine.mylantium.fervor import collapsed, deduct, fervor_change, vp_of
from engine.mylantium.model import Faction, FactionCode, Party, total_vp
from engine.mylantium.revolution import vanguard_order
from engine.mylantium.settings import Rules

H = Happening
C = FactionCode


def factions(vp: dict[str, int]) -> tuple[Faction, ...]:
    return tuple(Faction(C[k], Party.WHIG, v, 0) for k, v in vp.items())


def test_TV1_I07_fervor_at_the_end_of_a_business_phase_and_the_vp_deduction() -> None:
    """TV1-I07 (P1-08, P1-09): 6 one-point conditions + floor(45/20) = 2 + (3 − 1) = 2 → +10; GR 9 − 10 floors at
    0; S = 83; no collapse; GR is the Vanguard."""
    at_end = InPlay(monopolies=5, income_tax=20, faction_taxes=2, tariffs=3, subsidies=3, pensions=1, wars=1)
    events = [Occurrence(H.COVER_UP_EXPOSED, 2), Occurrence(H.FIAT_MONEY, 45)]
    result = fervor_change(at_end, events, unfunded_last_turn=1)
    assert result.total == 10
    before = factions({"PL": 30, "RB": 12, "GR": 9, "SH": 15, "BH": 20, "PR": 11, "BU": 25, "RN": 40})
    after, lost = deduct(before, result.total)
    assert vp_of(after) == {C.PL: 20, C.RB: 2, C.GR: 0, C.SH: 5, C.BH: 10, C.PR: 1, C.BU: 15, C.RN: 30}
    assert lost[C.GR] == 9
    assert total_vp(after) == 83
    assert not collapsed(after)
    assert vanguard_order(after) == (C.GR,)


def test_each_one_point_condition() -> None:
    """R1-31: each condition that holds adds 1, whether or not it held before."""
    cases = [
        (InPlay(monopolies=4), [], 0, 1), (InPlay(monopolies=3), [], 0, 0),
        (InPlay(income_tax=0, faction_taxes=2), [], 0, 1), (InPlay(income_tax=10, faction_taxes=3), [], 0, 0),
        (InPlay(faction_taxes=0), [], 0, 0),
        (InPlay(tariffs=3), [], 0, 1), (InPlay(tariffs=2), [], 0, 0),
        (InPlay(), [Occurrence(H.COVER_UP_EXPOSED)], 0, 1),
        (InPlay(wars=2), [], 0, 1),
        (InPlay(), [], 1, 1), (InPlay(), [], 3, 1),
    ]
    for state, events, unfunded, points in cases:
        assert fervor_change(state, events, unfunded).total == points, (state, events, unfunded)


def test_each_multi_point_condition() -> None:
    """R1-32: inflation floor(fiat/20) (P1-14); excess subsidies; defeat +3; missed orders +3."""
    assert fervor_change(InPlay(), [Occurrence(H.FIAT_MONEY, 19)], 0).total == 0
    assert fervor_change(InPlay(), [Occurrence(H.FIAT_MONEY, 20), Occurrence(H.FIAT_MONEY, 25)], 0).total == 2
    assert fervor_change(InPlay(subsidies=4, pensions=1), [], 0).total == 3
    assert fervor_change(InPlay(subsidies=1, pensions=4), [], 0).total == 0
    assert fervor_change(InPlay(), [Occurrence(H.WAR_DEFEAT)], 0).total == 3
    assert fervor_change(InPlay(), [Occurrence(H.MISSED_ORDERS)], 0).total == 3


def test_P1_09_cover_ups_once_or_each() -> None:
    """P1-09: +1 in all by default; the game setting makes it +1 per cover-up."""
    events = [Occurrence(H.COVER_UP_EXPOSED, 3)]
    assert fervor_change(InPlay(), events, 0).total == 1
    assert fervor_change(InPlay(), events, 0, Rules(cover_up_each=True)).total == 3


def test_P1_17_unfunded_pensions_count_for_fervor_only_the_next_turn() -> None:
    """P1-17: the unfunding itself does not raise Fervor in its own turn."""
    assert fervor_change(InPlay(pensions=1), [Occurrence(H.PENSION_UNFUNDED)], 0).total == 0


def test_P1_10_a_put_down_revolution_is_not_counted_at_the_business_phase() -> None:
    """P1-10: no happening here stands for it; it is applied when it happens (revolution.py)."""
    assert "revolution" not in " ".join(h.value for h in Happening)


def test_R1_30_deductions_skip_withdrawn_factions_and_never_go_below_zero() -> None:
    before = (Faction(C.PL, Party.WHIG, 2, 0), Faction(C.RB, Party.WHIG, 5, 0, in_play=False))
    after, lost = deduct(before, 3)
    assert vp_of(after) == {C.PL: 0, C.RB: 5}
    assert lost == {C.PL: 2}
    with pytest.raises(RuleError, match="only rises"):
        deduct(before, -1)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=8), st.integers(0, 30))
def test_fervor_never_raises_vp_nor_takes_more_than_it_should(vps: list[int], points: int) -> None:
    before = tuple(Faction(code, Party.WHIG, vp, 0) for code, vp in zip(C, vps, strict=False))
    after, lost = deduct(before, points)
    for b, a in zip(before, after, strict=True):
        assert a.vp == max(0, b.vp - points)
        assert lost.get(b.code, 0) == b.vp - a.vp


@pytest.mark.parametrize(("s", "collapse"), [(9, True), (10, False), (11, False)])
def test_R1_50_social_collapse_below_10(s: int, collapse: bool) -> None:
    """R1-50: S < 10 collapses; S = 10 does not."""
    assert collapsed(factions({"PL": s})) is collapse
