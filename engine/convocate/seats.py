"""Convocate Seats and the GOVT lockout (R4-09, R4-10; P4-11, P4-12, P4-14; the rulings of 2026-10-17).

Retired, and deliberately absent: a Political Center's +1 Vote to whoever holds it, Motions from any Political
Center, and the Directive X+1/X−1 modifier. Directive now does exactly one thing: on a face that prints it, it
keeps the Seat active while its controller's current Directive is GOVT."""

from __future__ import annotations

from dataclasses import dataclass

from engine.convocate.board import GOVT, SOVEREIGNTIES, Board, Card, Kind, PlayerState, signed


@dataclass(frozen=True)
class Activity:
    active: bool
    why: str


def govt_range(board: Board, seat: Card) -> frozenset[int]:
    """The GOVT values where the Seat's current face is active: its printed range, else the default range of the
    Seat's bloc (P4-14). A captured Seat keeps its own range (R4-09)."""
    face = seat.current_face
    if face.active_govt is not None:
        return face.active_govt
    sign = SOVEREIGNTIES[(seat.sovereignty or "").lower()][1] if seat.sovereignty else 0
    low, high = board.rulings.seat_range_plus if sign >= 0 else board.rulings.seat_range_minus
    return frozenset(range(low, high + 1))


def range_text(values: frozenset[int]) -> str:
    """``0..+4``, ``−4..−1``, ``−4..−2, +3``; ``none`` for an empty range."""
    if not values:
        return "none"
    runs: list[tuple[int, int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return ", ".join(signed(a) if a == b else f"{signed(a)}..{signed(b)}" for a, b in runs)


def seat_active(board: Board, seat: Card) -> Activity:
    """R4-09: active if (a) GOVT is 0 (P4-12), (b) GOVT is in the current face's range, or (c) the face prints
    Directive and the Seat's controller's current Directive is GOVT. Off the Map, it is nothing."""
    if seat.kind is not Kind.SEAT:
        return Activity(False, f"{seat.name} is not a Convocate Seat")
    if not seat.on_map:
        return Activity(False, "off the Map")
    govt = board.govt
    face = seat.current_face
    values = govt_range(board, seat)
    where = f"{face.name} face" if len(seat.faces) > 1 else "its range"
    if govt == 0 and board.rulings.govt_zero_all_seats:
        return Activity(True, "GOVT 0: every Seat is active")
    if govt in values:
        return Activity(True, f"GOVT {signed(govt)} is in {range_text(values)} ({where})")
    if face.prints_directive and seat.controller is not None:
        directive = _directive(board, seat.controller)
        if directive is not None and directive.lower() == GOVT.lower():
            return Activity(True, f"Directive: {seat.controller}'s Directive is GOVT and its {face.name} face "
                                  "prints Directive")
    return Activity(False, f"GOVT {signed(govt)} is outside {range_text(values)} ({where})")


def _directive(board: Board, player: str) -> str | None:
    return next((p.directive for p in board.players if p.name == player), None)


def active_seats(board: Board, player: str) -> list[Card]:
    """The active Seats a player controls (R4-09: an inactive Seat gives no Vote and no access)."""
    return [s for s in board.controlled_by(player, [Kind.SEAT]) if seat_active(board, s).active]


def pref_sign(board: Board, player: PlayerState) -> int:
    """The sign of the player's Homeworld's preferred GOVT; the Emberates per P4-11 (default: none)."""
    if player.sovereignty.lower() == "emberates":
        return {"plus": 1, "minus": -1}.get(board.rulings.emberates_govt, 0)
    return player.pref_sign


def govt_against(board: Board, player: PlayerState) -> bool:
    """R4-10's condition: GOVT is on the opposite side of 0 from the player's preferred GOVT. GOVT 0 is against
    nobody, and a player with no preferred side (the Emberates, P4-11) never has it against them."""
    govt = board.govt
    sign = pref_sign(board, player)
    return sign != 0 and govt != 0 and (govt > 0) != (sign > 0)


def locked_out(board: Board, player: PlayerState) -> bool:
    """R4-10: GOVT is against the player and they control no active Seat (a captured Seat whose own range is active,
    or one a Directive keeps active, keeps the Seat route open), so no route to the floor is open: the one test
    for access (``access``), the offer's skip reason, ``/board`` and the export."""
    return govt_against(board, player) and not active_seats(board, player.name)
