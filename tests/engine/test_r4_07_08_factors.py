"""R4-07, R4-08: committed Votes, the Resource Pool, and Galactic Factor step costs (P4-02, P4-03, P4-07, P4-15).

R4-08: "Moving it one step from p to p ± 1 costs 4 + max(|p|, |p ± 1|) committed Votes: 5 for a step between 0
and ±1, 6 between ±1 and ±2, 7 between ±2 and ±3, and 8 between ±3 and ±4. The same cost applies in both
directions. Each step is paid in full from the pool when it is made. … A step beyond ±4 is illegal.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import character, f4, location
from hypothesis import given
from hypothesis import strategies as st

from engine.convocate.board import Phase
from engine.convocate.factors import commit, push, push_cost, step_cost, steps
from engine.convocate.turns import next_phase
from engine.convocate.votes import standing_vote
from engine.core.errors import RuleError


@pytest.mark.parametrize(("frm", "to", "cost"), [(0, 1, 5), (1, 2, 6), (2, 3, 7), (3, 4, 8), (0, -1, 5), (-3, -4, 8)])
def test_TV4_S01_gf_per_step_cost_table(frm: int, to: int, cost: int) -> None:
    """TV4-S01: the printed table, both directions."""
    assert step_cost(frm, to) == cost


def test_TV4_S02_the_26_vote_push_from_neutral_to_4() -> None:
    """TV4-S02 / P4-07: the document says 6 + 7 + 8 = 21, but by its own table 0 → ±4 is 5 + 6 + 7 + 8 = 26; 21 is
    the cost from ±1."""
    assert steps(0, 4) == [5, 6, 7, 8] and push_cost(0, 4) == 26
    assert steps(0, -4) == [5, 6, 7, 8] and push_cost(0, -4) == 26
    assert push_cost(1, 4) == 21


def test_TV4_S02_the_26_vote_push_on_the_board() -> None:
    """TV4-S02 played: a pool of 26 pushes GOVT from 0 to +4 in one command and is empty; 25 moves nothing."""
    board = f4(0)
    board = board.with_player(replace(board.player("A"), pool=25))
    with pytest.raises(RuleError, match=r"5 \+ 6 \+ 7 \+ 8 = 26 committed Votes.*holds 25"):
        push(board, "A", "GOVT", +1, 4)
    board = board.with_player(replace(board.player("A"), pool=26))
    board, pushed = push(board, "A", "GOVT", +1, 4)
    assert (pushed.frm, pushed.to, pushed.costs, pushed.paid, pushed.pool) == (0, 4, (5, 6, 7, 8), 26, 0)
    assert board.govt == 4


def test_P4_03_the_same_cost_in_reverse() -> None:
    """A4-02 / P4-03: keyed on the step, so 4 → 3 costs 8 and 1 → 0 costs 5; a round trip 0 → 4 → 0 is 52 and
    +1 → −1 is two steps of 5."""
    assert step_cost(4, 3) == 8 and step_cost(1, 0) == 5
    assert push_cost(0, 4) + push_cost(4, 0) == 52
    assert steps(1, -1) == [5, 5]


def test_P4_02_no_step_beyond_4() -> None:
    """P4-02: the range is −4..+4."""
    with pytest.raises(RuleError, match="off the track"):
        step_cost(4, 5)
    board = f4(4)
    board = board.with_player(replace(board.player("A"), pool=50))
    with pytest.raises(RuleError, match="beyond ±4"):
        push(board, "A", "GOVT", +1)
    with pytest.raises(RuleError):
        board.with_factor("GOVT", -5)


def test_TV4_I04_two_gfs_paid_separately_from_one_pool_that_empties_at_the_end_of_the_phase() -> None:
    """TV4-I04: activations P_A 2, K_A 1, J_A 1, M_A 1 and a card effect's 6 make a pool of 11; SV 10 → 5. GOVT 0→1
    (5) and TRADE 2→3 (7) cost 12 > 11; after GOVT the pool is 6 and TRADE cannot be paid; the Phase ends: 6 lost."""
    board = f4(0, character("P_A", "A", 2, pallarch=True), character("K_A", "A"), character("J_A", "A"),
               character("M_A", "A"), location("L1", "A", 2), location("L2", "A", 2), seats=())
    board = board.with_factor("TRADE", 2)
    assert standing_vote(board, "A").total == 10
    board, done = commit(board, "A", ["P_A", "K_A", "J_A", "M_A"], added=6)
    assert done.pool == 11 and done.cards == (("P_A", 2), ("K_A", 1), ("J_A", 1), ("M_A", 1))
    assert standing_vote(board, "A").total == 5
    assert push_cost(0, 1) + push_cost(2, 3) == 12 > board.player("A").pool  # cannot pay both
    board, pushed = push(board, "A", "GOVT", +1)
    assert (board.govt, pushed.pool) == (1, 6)
    with pytest.raises(RuleError, match=r"costs 7 committed Votes.*holds 6\. Nothing was moved"):
        push(board, "A", "TRADE", +1)
    board, changed = next_phase(board)
    assert changed.lost == (("A", 6),) and board.player("A").pool == 0


def test_P4_15_each_step_in_full_no_partial_credit() -> None:
    """P4-15: a pool of 10 cannot make two steps 0 → 2 (5 + 6 = 11): nothing moves and nothing is paid; the 10 is
    not carried towards a later step (the pool empties at the end of the Phase)."""
    board = f4(0)
    board = board.with_player(replace(board.player("A"), pool=10))
    with pytest.raises(RuleError, match=r"5 \+ 6 = 11"):
        push(board, "A", "GOVT", +1, 2)
    assert board.player("A").pool == 10 and board.govt == 0


def test_committing_and_pushing_have_their_times() -> None:
    """Committing is in your own turn; pushing in your own Action Phase (rules-spec §4.2.8)."""
    board = f4(0, character("K_A", "A"), active="B")
    with pytest.raises(RuleError, match="own turn; it is B's Action Phase"):
        commit(board, "A", ["K_A"])
    board = replace(board, active="A", phase=Phase.ADMIN)
    board, _ = commit(board, "A", ["K_A"])
    with pytest.raises(RuleError, match="own Action Phase; it is A's Admin Phase"):
        push(board, "A", "GOVT", +1)


def test_what_cannot_be_committed() -> None:
    board = f4(0, character("K_A", "A", readied=False), character("K_B", "B"), character("Z_A", "A", 0))
    with pytest.raises(RuleError, match="already activated"):
        commit(board, "A", ["K_A"])
    with pytest.raises(RuleError, match="You do not control K_B"):
        commit(board, "A", ["K_B"])
    with pytest.raises(RuleError, match="0 Vote"):
        commit(board, "A", ["Z_A"])
    with pytest.raises(RuleError, match="Standing Vote and cannot be committed"):
        commit(board, "A", ["S_U"])
    with pytest.raises(RuleError, match="named twice"):
        commit(board, "A", ["HW_A", "hw_a"])


@given(st.integers(-4, 4), st.integers(-4, 4), st.integers(-4, 4))
def test_push_costs_add_up_along_the_track(a: int, b: int, c: int) -> None:
    """Property: cost(a, c) = cost(a, b) + cost(b, c) when b lies between them; symmetric; 5..8 a step."""
    if a == c:
        return
    assert push_cost(a, c) == push_cost(c, a)
    if min(a, c) <= b <= max(a, c):
        assert push_cost(a, c) == (push_cost(a, b) if a != b else 0) + (push_cost(b, c) if b != c else 0)
    assert all(5 <= s <= 8 for s in steps(a, c))
    assert push_cost(a, c) == sum(4 + max(abs(v), abs(v + (1 if c > a else -1)))
                                  for v in range(a, c, 1 if c > a else -1))
