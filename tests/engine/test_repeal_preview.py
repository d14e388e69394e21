"""A Motion of Repeal before it is moved (``/motion preview``, engine/convocate/repeal_preview.py): it runs the
Repeal's own count (R4-17, P4-05) on the board without changing it, and says what would turn it."""

from __future__ import annotations

from dataclasses import replace

from convocate_f4 import character, f4, location, statute

from engine.convocate.board import Board
from engine.convocate.repeal import repeal
from engine.convocate.repeal_preview import preview_repeal
from engine.convocate.rulings import Rulings
from engine.convocate.votes import standing_votes


def board_with(mover_after: int, controller: int) -> Board:
    """As in test_r4_17_repeal: A moves with K_A on HW_A; after its activation A counts ``mover_after`` and B,
    who controls Statute X, ``controller``."""
    def lands(player: str, total: int) -> list:
        return [location(f"L{player}{i}", player, min(2, total - 2 * i)) for i in range((total + 1) // 2)]
    board = f4(0, character("K_A", "A", 1, at="HW_A"), *lands("A", mover_after - 1), *lands("B", controller - 1),
               seats=())
    return board.with_statute(statute("X", "B", owner="C"))


def test_a_repeal_that_would_destroy_and_the_margin_to_keep_it() -> None:
    board = board_with(5, 3)
    p = preview_repeal(board, "A", "X", "K_A")
    assert (p.mover_votes, p.controller_votes, p.destroyed, p.to_turn, p.counted_after) == (5, 3, True, 2, True)
    assert (p.mover_votes, p.controller_votes) == (repeal(board, "A", "X", "K_A")[1].mover_votes, 3)
    assert board.statute("X").controller == "B" and board.card("K_A").readied  # nothing changed


def test_a_tie_keeps_it_and_one_more_would_repeal() -> None:
    p = preview_repeal(board_with(4, 4), "A", "X", "K_A")
    assert (p.destroyed, p.to_turn) == (False, 1)


def test_the_count_before_activation_follows_the_ruling() -> None:
    board = replace(board_with(4, 4), rulings=Rulings(repeal_count="before"))
    p = preview_repeal(board, "A", "X", "K_A")
    assert (p.mover_votes, p.counted_after, p.destroyed) == (5, False, True)  # K_A's own Vote still counts


def test_a_repeal_that_may_not_be_moved_is_counted_as_the_board_stands() -> None:
    board = board_with(4, 3)
    p = preview_repeal(board, "B", "X", "K_A")  # in A's Action Phase, and B controls X
    assert p.refused == "You move a Motion of Repeal in your own Action Phase; it is A's Action Phase."
    assert not p.destroyed
    assert (p.mover_votes, p.controller_votes) == (standing_votes(board)["B"], standing_votes(board)["B"])
