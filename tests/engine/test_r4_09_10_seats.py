"""R4-09, R4-10: Convocate Seats and the GOVT lockout (rulings of 2026-10-17; P4-11, P4-12, P4-14).

R4-09: "A Seat is active if any of the following holds: (a) GOVT == 0 … (b) GOVT ∈ face.active_govt, the printed
range of the Seat's current face … even when the Seat has been captured … (c) Directive override: the current
face prints Directive and the Seat's controller's current Directive is GOVT … The retired rules (a Political
Centre giving +1 Vote to whoever holds it; any Convocant moving a Motion from any Political Centre; Directive
X+1/X−1) must not be implemented."
R4-10: "The player is locked out while sign(GOVT) == −s; GOVT = 0 never locks anyone out … this applies to
Pallarchs too.\""""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest
from convocate_f4 import MINUS, S_K, S_T, S_U, f4, seat

from engine.convocate.board import Board, Face, PlayerState
from engine.convocate.rulings import Rulings
from engine.convocate.seats import govt_against, govt_range, locked_out, seat_active


def with_controller(board: Board, name: str, controller: str) -> Board:
    return board.with_card(replace(board.card(name), controller=controller))


@pytest.mark.parametrize(
    ("govt", "seat", "face", "controller", "directives", "active"),
    [
        (-3, "S_U", None, "A", {"A": "GOVT"}, False),  # S_U prints no Directive
        (-3, "S_K", None, "B", {}, True),
        (-3, "S_T", "prime", "C", {"C": "GOVT"}, True),  # the Directive override
        (-3, "S_T", "prime", "C", {"C": "TRADE"}, False),
        (-3, "S_T", "contested", "C", {"C": "GOVT"}, False),  # the Contested face follows its range
        (3, "S_K", None, "B", {"B": "GOVT"}, False),  # S_K prints no Directive
        (-2, "S_K", None, "A", {}, True),  # captured by a + bloc player: its own range
        (-3, "S_T", "prime", "A", {"A": "GOVT", "C": "TRADE"}, True),  # the controller's Directive counts
    ],
)
def test_TV4_I05_seat_activity(govt: int, seat: str, face: str | None, controller: str, directives: dict[str, str],
                               active: bool) -> None:
    """TV4-I05: printed ranges, the Directive override only on a face that prints it, captured Seats."""
    board = with_controller(f4(govt, **directives), seat, controller)
    if face is not None:
        board = board.with_card(replace(board.card(seat), face=face))
    assert seat_active(board, board.card(seat)).active is active


def test_TV4_I05_govt_0_activates_a_seat_whose_card_data_omits_0() -> None:
    """TV4-I05 last case / P4-12: S_K with card data −4..−1 is active at GOVT 0."""
    board = f4(0, seats=(seat("S_K", "B", "Kingdom", Face("prime", frozenset({-4, -3, -2, -1}))),))
    activity = seat_active(board, board.card("S_K"))
    assert activity.active and activity.why == "GOVT 0: every Seat is active"
    strict = replace(board, rulings=Rulings(govt_zero_all_seats=False))
    assert not seat_active(strict, strict.card("S_K")).active


def test_P4_14_default_ranges_when_card_data_is_missing() -> None:
    """P4-14: + bloc Seats {0..+4}, − bloc Seats {−4..0}; a per-game setting."""
    plus, minus = seat("S_R", "C", "Republic"), seat("S_H", "B", "Hegemony")
    board = f4(0, seats=(plus, minus))
    assert govt_range(board, plus) == frozenset(range(0, 5)) and govt_range(board, minus) == MINUS
    other = replace(board, rulings=Rulings(seat_range_plus=(1, 4), seat_range_minus=(-4, -1)))
    assert govt_range(other, plus) == frozenset(range(1, 5))
    assert seat_active(other.with_factor("GOVT", -1), minus).active


def test_an_inactive_seat_says_why() -> None:
    board = f4(-1)
    assert seat_active(board, board.card("S_U")).why == "GOVT −1 is outside 0..+4 (its range)"
    assert seat_active(f4(2), S_U).why == "GOVT +2 is in 0..+4 (its range)"


@pytest.mark.parametrize(("player", "govt", "locked"), [
    ("A", -2, True), ("A", 0, False), ("A", 3, False), ("B", 1, True), ("B", -4, False), ("B", 0, False),
    ("C", -1, True)])
def test_R4_10_the_lockout(player: str, govt: int, locked: bool) -> None:
    """R4-10: locked out while GOVT is on the other side of 0 from the player's preferred GOVT; never at 0."""
    board = f4(govt)
    assert locked_out(board, board.player(player)) is locked


def test_P4_11_the_emberates_are_never_locked_out_by_default() -> None:
    """P4-11: the Emberates have no preferred side (pending §2.1), so no lockout; a moderator may set one."""
    board = f4(-4).with_player(PlayerState("E", "Emberates", 4, homeworld="HW_E"))
    assert not locked_out(board, board.player("E"))
    assert not locked_out(board.with_factor("GOVT", 4), board.player("E"))
    ruled = replace(board, rulings=Rulings(emberates_govt="plus"))
    assert locked_out(ruled, ruled.player("E"))


def test_a_seat_off_the_map_and_an_uncontrolled_seat() -> None:
    board = f4(1, seats=(replace(S_U, on_map=False),))
    assert not seat_active(board, board.card("S_U")).active
    assert seat_active(f4(1, seats=(replace(S_K, controller=None),)), replace(S_K, controller=None)).why
    assert not seat_active(f4(1), S_K).active  # S_K at +1


def test_the_retired_rules_do_not_exist() -> None:
    """The rulings of 2026-10-17: no +1 for a Political Center's holder, no Motions from any Political Center, no
    Directive X+1/X−1. Nothing in engine/convocate models a Political Center or a Directive modifier; Directive is
    read only by the Seat override."""
    package = Path(__file__).resolve().parents[2] / "engine" / "convocate"
    words: set[str] = set()
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        words |= {n.id.lower() for n in ast.walk(tree) if isinstance(n, ast.Name)}
        words |= {n.attr.lower() for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        words |= {n.name.lower() for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert not {w for w in words if "political_center" in w or "politicalcenter" in w or "infiltrat" in w}
    users = [m.name for m in package.glob("*.py") if ".directive" in m.read_text(encoding="utf-8")]
    assert users == ["seats.py"]
    # a Seat captured by an opponent gives the occupant's player nothing: no Vote, no access
    from convocate_f4 import character

    from engine.convocate.access import access
    from engine.convocate.votes import standing_vote
    from engine.core.errors import RuleError

    board = f4(-2, character("K_A", "A", 1, at="S_K"))  # A is locked out; S_K is B's and active
    assert [line.source for line in standing_vote(board, "A").lines] == ["HW_A", "K_A"]  # no S_K bonus for A
    with pytest.raises(RuleError, match="locked out"):
        access(board, "A", "K_A")


def test_a_tribunate_prime_face_keeps_the_seat_open_when_the_factor_swings() -> None:
    """§6.6: "A government that has made GOVT its business keeps its chamber open when the Factor swings against
    it", and so C, with GOVT against it, keeps the Seat route and is not locked out (R4-10: the Seat route stays
    open)."""
    from convocate_f4 import character

    from engine.convocate.access import Route, access

    board = f4(-3, character("K_C", "C", 1, at="Far Away"), C="GOVT")
    assert govt_against(board, board.player("C")) and not locked_out(board, board.player("C"))
    assert access(board, "C", "K_C").route is Route.SEAT
    plain = f4(-3)  # without the Directive, S_T is inactive: locked out
    assert locked_out(plain, plain.player("C"))
    assert seat_active(board, S_T).why == "Directive: C's Directive is GOVT and its prime face prints Directive"


def test_R4_10_a_captured_seat_whose_own_range_is_active_keeps_its_holder_out_of_the_lockout() -> None:
    """R4-10: "The Seat route stays open if the player controls an active Seat, such as a captured Seat of the other
    bloc whose own range is active": B (−) holds a Republic Seat active at GOVT +2, so B is not locked out (the
    board, the export and the offer's skip reason read this one test)."""
    from convocate_f4 import character

    from engine.convocate.access import Route, access
    from engine.convocate.board import Card, Face, Kind

    hall = Card("Hall", Kind.SEAT, "B", vote=0, sovereignty="Republic",
                faces=(Face("prime", frozenset(range(1, 5))),))
    board = f4(2, character("K_B", "B", 1, at="Far Away")).with_card(hall)
    assert govt_against(board, board.player("B")) and not locked_out(board, board.player("B"))
    assert access(board, "B", "K_B").route is Route.SEAT
    assert locked_out(board.without_card("Hall"), board.player("B"))
