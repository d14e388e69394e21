"""R4-13..R4-16: Motions — access, their nature, seconding and the order of play (P4-13).

R4-13: "Seat route: the player controls at least one active Seat. The Convocant may then be anywhere. Homeworld
route: the Convocant occupies the player's own Homeworld. Closed while the player is locked out. Pallarch route:
the Convocant is a Pallarch, anywhere. Closed while the player is locked out. A Character with Vote 0 can never
move or second a Motion."
R4-14: "Each Convocant can be involved in at most one Motion per turn, because it is activated. The mover chooses
every target … Nothing stops a Motion."
R4-15: "the offer to second goes to the players in turn order starting with the mover … The first player who
accepts seconds the Motion … A Motion with no Seconded box cannot be seconded and no offer is made. Seconded text
adds to the Moved text. If the Seconded text begins with "Instead", it replaces the Moved text."
R4-16: "Activate the mover … Offer the second … Resolve the Moved text, then the Seconded text … Apply each
Convocant's Penalty.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import S_K, S_T, S_U, character, f4

from engine.convocate.access import Route, access, eligible
from engine.convocate.board import Phase
from engine.convocate.motions import Box, MotionCard, can_second, move, offer_order, resolve, second
from engine.convocate.rulings import Rulings
from engine.core.errors import RuleError

M1 = MotionCard("M1", morality="Loyal", moved="Draw a card.", seconded="Draw another card.")
M2 = MotionCard("M2")


def test_TV4_I15_one_motion_per_convocant_per_turn() -> None:
    """TV4-I15: K_A moved M1 and is activated: it cannot move M2, nor second B's Motion in B's turn; J_A (readied,
    with access) can move M2."""
    board = f4(1, character("K_A", "A", 1), character("J_A", "A", 1), character("K_B", "B", 1, at="HW_B"))
    board, moved = move(board, "A", M1, "K_A")
    assert moved.access.route is Route.SEAT and not board.card("K_A").readied
    with pytest.raises(RuleError, match="K_A is activated until A's next Ready Phase"):
        move(board, "A", M2, "K_A")
    b_turn = replace(board, active="B", phase=Phase.ACTION).with_factor("GOVT", 0)
    b_turn, _ = move(b_turn, "B", M1, "K_B")
    with pytest.raises(RuleError, match="activated until A's next Ready Phase"):
        second(b_turn, "A", M1, "K_A")
    _, moved = move(board, "A", M2, "J_A")
    assert moved.mover == "A" and moved.access.convocant == "J_A"


def test_the_seat_route_works_from_anywhere() -> None:
    """R4-13: while A controls an active Seat (S_U at GOVT +1), A's Convocants move Motions from anywhere."""
    board = f4(1, character("K_A", "A", 1, at="far away"), seats=(S_U,))
    how = access(board, "A", "K_A")
    assert how.route is Route.SEAT and how.why == "A controls the active Seat S_U"


def test_the_homeworld_and_pallarch_routes_without_a_seat() -> None:
    """R4-13: with no active Seat, a Convocant on its player's own Homeworld, or a Pallarch anywhere."""
    board = f4(0, character("K_A", "A", 1, at="HW_A"), character("P_A", "A", 2, pallarch=True, at="L9"),
               character("J_A", "A", 1, at="L9"), character("H_A", "A", 1, at="HW_B"), seats=())
    assert access(board, "A", "K_A").route is Route.HOMEWORLD
    assert access(board, "A", "P_A").route is Route.PALLARCH
    with pytest.raises(RuleError, match=r"J_A is on L9, not on A's Homeworld \(HW_A\); it is not a Pallarch"):
        access(board, "A", "J_A")
    with pytest.raises(RuleError, match="not on A's Homeworld"):
        access(board, "A", "H_A")  # someone else's Homeworld is no route


def test_the_lockout_closes_the_homeworld_and_pallarch_routes() -> None:
    """R4-10/R4-13: at GOVT −2 A (Union, +) is locked out: with no active Seat neither K_A on HW_A nor the Pallarch
    can move or second; a captured − bloc Seat, active by its own range, opens the Seat route again."""
    board = f4(-2, character("K_A", "A", 1, at="HW_A"), character("P_A", "A", 2, pallarch=True))
    for name in ("K_A", "P_A"):
        with pytest.raises(RuleError, match="A is locked out: GOVT −2 is on the opposite side of 0 from the Union's"):
            access(board, "A", name)
    captured = board.with_card(replace(S_K, controller="A"))
    assert access(captured, "A", "P_A").route is Route.SEAT


def test_a_vote_0_character_never_moves_or_seconds_and_restrictions() -> None:
    board = f4(1, character("Z_A", "A", 0, at="S_U"), character("K_A", "A", 1), character("Kista", "A", 1))
    with pytest.raises(RuleError, match="0 Vote can never move or second"):
        move(board, "A", M1, "Z_A")
    only_kista = MotionCard("M3", only="Kista")
    with pytest.raises(RuleError, match="may only be moved by Kista"):
        move(board, "A", only_kista, "K_A")
    assert move(board, "A", only_kista, "Kista")[1].access.convocant == "Kista"


def test_a_motion_is_moved_in_your_own_action_phase() -> None:
    board = f4(1, character("K_A", "A", 1), phase=Phase.ADMIN)
    with pytest.raises(RuleError, match="own Action Phase; it is A's Admin Phase"):
        move(board, "A", M1, "K_A")


@pytest.mark.parametrize(("mover", "order", "rule"), [
    ("A", ("A", "B", "C"), "from-mover"), ("B", ("B", "C", "A"), "from-mover"), ("C", ("C", "A", "B"), "from-mover"),
    ("B", ("C", "A", "B"), "mover-last")])
def test_P4_13_seconding_order(mover: str, order: tuple[str, ...], rule: str) -> None:
    """P4-13: round the seating order starting with the mover; each player once."""
    assert offer_order(f4(0, rulings=Rulings(second_order=rule)), mover) == order


def test_R4_15_a_motion_with_no_seconded_box_gets_no_offer() -> None:
    board = f4(1, character("K_A", "A", 1), character("K_B", "B", 1, at="HW_B"))
    plain = MotionCard("Plain", seconded="none")
    assert plain.box is Box.NONE
    board, moved = move(board, "A", plain, "K_A")
    assert moved.offer == ()
    assert can_second(board, "B", plain) == []
    with pytest.raises(RuleError, match="cannot be seconded"):
        second(board, "B", plain, "K_B")


def test_R4_15_the_mover_may_second_with_another_convocant_and_anyone_may_second() -> None:
    """R4-15: the mover first, with a second Convocant of their own; an opponent may second too, under their own
    access (B at GOVT 1 is locked out unless a Convocant … B has no active Seat and S_K is inactive)."""
    board = f4(1, character("K_A", "A", 1), character("J_A", "A", 1), character("K_B", "B", 1, at="HW_B"),
               character("K_C", "C", 1, at="S_T"))
    board, moved = move(board, "A", M1, "K_A")
    assert moved.offer == ("A", "B", "C")
    assert [a.convocant for a in can_second(board, "A", M1)] == ["J_A"]
    assert can_second(board, "B", M1) == []  # locked out at GOVT +1 with no active Seat
    assert [a.convocant for a in can_second(board, "C", M1)] == ["K_C"]
    board2, how = second(board, "A", M1, "J_A")
    assert how.route is Route.SEAT and not board2.card("J_A").readied


def test_R4_16_resolution_adds_or_replaces_and_penalties_follow() -> None:
    """R4-15/R4-16: Moved then Seconded; an "Instead" box resolves alone and the Moved targets are released; then
    each Convocant whose Morality differs pays its Penalty (a Penalty never stops the Motion)."""
    board = f4(1, character("K_A", "A", 1, morality="Loyal"),
               character("K_C", "C", 1, morality="Ruthless", penalty="Lose 1 Story Point"),
               character("X_B", "B", 1))
    plain = resolve(board, M1, ("A", "K_A"), None)
    assert plain.effects == (("Moved", "Draw a card."),) and plain.penalties == () and not plain.released
    both = resolve(board, M1, ("A", "K_A"), ("C", "K_C"))
    assert both.effects == (("Moved", "Draw a card."), ("Seconded", "Draw another card."))
    assert [(p.convocant, p.player, p.morality, p.penalty) for p in both.penalties] == [
        ("K_C", "C", "Ruthless", "Lose 1 Story Point")]
    instead = MotionCard("M4", morality="Ruthless", moved="Exhaust target Unit.", seconded="Instead, destroy it.")
    assert instead.box is Box.INSTEAD
    up = resolve(board, instead, ("A", "K_A"), ("C", "K_C"))
    assert up.effects == (("Seconded", "Instead, destroy it."),) and up.released
    assert [p.convocant for p in up.penalties] == ["K_A"]
    unknown = resolve(board, instead, ("A", "K_A"), ("B", "X_B"))
    assert unknown.unknown == ("X_B",)


def test_eligible_lists_every_convocant_with_access() -> None:
    board = f4(0, character("K_A", "A", 1, at="HW_A"), character("P_A", "A", 2, pallarch=True),
               character("J_A", "A", 1, at="Nowhere"), character("Z_A", "A", 0, at="HW_A"), seats=())
    assert [(a.convocant, a.route) for a in eligible(board, "A")] == [("K_A", Route.HOMEWORLD),
                                                                     ("P_A", Route.PALLARCH)]
    assert S_T.faces[0].prints_directive
