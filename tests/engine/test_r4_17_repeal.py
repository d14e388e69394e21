"""R4-17: the Motion of Repeal (P4-05, P4-06).

"During the player's own Action Phase, against a Statute the player does not control … any Convocant the player
controls, under R4-13 (lockout included) … no Morality … cannot be seconded. Compute SV(mover's player) and
SV(Statute's controller) after the activation … If SV(mover's player) > SV(controller), destroy the Statute. A tie
goes to the controller … Only those two players are compared … A failed repeal still leaves the mover activated.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import character, f4, location, statute

from engine.convocate.board import Board, Phase
from engine.convocate.motions import second
from engine.convocate.repeal import REPEAL, repeal
from engine.convocate.rulings import Rulings
from engine.convocate.turns import next_phase
from engine.convocate.votes import political_control, standing_votes
from engine.core.errors import RuleError


def board_with(mover_after: int, controller: int, c: int = 1, govt: int = 0) -> Board:
    """A moves with K_A on HW_A; after its activation A counts ``mover_after``, B (controller of X) ``controller``,
    C ``c``. No Seats."""
    def lands(player: str, total: int) -> list:
        return [location(f"L{player}{i}", player, min(2, total - 2 * i)) for i in range((total + 1) // 2)]
    board = f4(govt, character("K_A", "A", 1, at="HW_A"), *lands("A", mover_after - 1), *lands("B", controller - 1),
               *lands("C", c - 1), seats=())
    return board.with_statute(statute("X", "B", owner="C"))


def test_TV4_I10_a_successful_repeal() -> None:
    """TV4-I10: after the activation A counts 3 and B (B2 activated earlier) 2: X is destroyed and goes to its
    owner's Depleted Pile."""
    board = board_with(3, 3).with_card(character("B2", "B", 1, readied=False))
    board = board.with_card(replace(board.card("LB0"), vote=1))
    board, done = repeal(board, "A", "X", "K_A")
    assert (done.mover_votes, done.controller_votes, done.destroyed) == (3, 2, True)
    assert done.statute.owner == "C" and board.statutes == ()


def test_TV4_I12_repeal_compares_only_the_mover_and_the_controller() -> None:
    """TV4-I12: A 3, B 2, C 10 with political control: A's Repeal destroys B's Statute; C's Vote does not matter and
    A needs no political control."""
    board = board_with(3, 2, c=10)
    assert political_control(standing_votes(board)) == "C"
    board, done = repeal(board, "A", "X", "K_A")
    assert done.destroyed and (done.mover_votes, done.controller_votes) == (3, 2)


def test_TV4_I19_a_repeal_tie_goes_to_the_controller() -> None:
    """TV4-I19: mover 5, controller 5 after the activation: the Statute stays."""
    board, done = repeal(board_with(5, 5), "A", "X", "K_A")
    assert (done.mover_votes, done.controller_votes, done.destroyed) == (5, 5, False)
    assert board.statute("X").controller == "B"


def test_P4_05_the_movers_own_vote_and_a_seat_bonus_it_alone_held_do_not_count() -> None:
    """P4-05: counted after the activation, so the mover's Vote and the +1 of a Seat whose only readied occupant
    was the mover are both lost: 5 before, 3 after, against 4."""
    board = f4(1, character("K_A", "A", 1, at="S_U"), location("L1", "A", 2), location("LB", "B", 2),
               location("LB2", "B", 1))
    board = board.with_statute(statute("X", "B"))
    assert standing_votes(board)["A"] == 5 and standing_votes(board)["B"] == 4
    _, done = repeal(board, "A", "X", "K_A")
    assert (done.mover_votes, done.controller_votes, done.destroyed) == (3, 4, False)
    before = replace(board, rulings=Rulings(repeal_count="before"))
    assert repeal(before, "A", "X", "K_A")[1].destroyed


@pytest.mark.parametrize(("case", "reason"), [
    ("own statute", "You control Y; a Motion of Repeal is against a Statute you do not control"),
    ("locked out", "A is locked out"),
    ("B's phase", "own Action Phase; it is B's Action Phase"),
    ("vote 0", "0 Vote can never move or second"),
])
def test_TV4_I13_illegal_repeals(case: str, reason: str) -> None:
    """TV4-I13: against A's own Statute; locked out (GOVT −2, no active Seat) with Pallarch P_A; in B's Action Phase;
    with Z_A (Vote 0) on HW_A at GOVT 0."""
    board = board_with(3, 2).with_card(character("P_A", "A", 2, pallarch=True)).with_card(
        character("Z_A", "A", 0, at="HW_A")).with_statute(statute("Y", "A"))
    name, who = "X", "K_A"
    if case == "own statute":
        name = "Y"
    elif case == "locked out":
        board, who = board.with_factor("GOVT", -2), "P_A"
    elif case == "B's phase":
        board = replace(board, active="B")
    else:
        who = "Z_A"
    with pytest.raises(RuleError, match=reason):
        repeal(board, "A", name, who)


def test_TV4_I13_a_repeal_cannot_be_seconded() -> None:
    """TV4-I13: after A's Repeal, B offers to second it: not legal; it has no Seconded box and no offer is made."""
    board = board_with(3, 2).with_card(character("K_B", "B", 1, at="HW_B"))
    with pytest.raises(RuleError, match="cannot be seconded and no offer is made"):
        second(board, "B", REPEAL, "K_B")
    assert REPEAL.morality is None


def test_TV4_I13_a_failed_repeal_still_activates_the_mover_until_its_next_ready_phase() -> None:
    board, done = repeal(board_with(2, 2), "A", "X", "K_A")
    assert not done.destroyed and not board.card("K_A").readied
    while True:
        board, changed = next_phase(board)
        if changed.started == ("A", Phase.READY):
            break
        assert not board.card("K_A").readied
    assert "K_A" in changed.readied and board.card("K_A").readied


def test_P4_06_several_repeals_a_turn_each_with_a_different_convocant() -> None:
    """P4-06: the natural limit is one Motion per Convocant; a group may rule one Repeal a turn."""
    board = board_with(6, 2).with_card(character("J_A", "A", 1, at="HW_A")).with_statute(statute("Z", "C"))
    board2, first = repeal(board, "A", "X", "K_A")
    assert first.destroyed
    assert repeal(board2, "A", "Z", "J_A")[1].destroyed
    one = replace(board, rulings=Rulings(repeals_per_turn="one"))
    one, _ = repeal(one, "A", "X", "K_A")
    with pytest.raises(RuleError, match="already moved a Motion of Repeal this turn"):
        repeal(one, "A", "Z", "J_A")
