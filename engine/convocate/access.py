"""Who may move or second a Motion (R4-13, with the GOVT lockout of R4-10).

Three routes, for a readied Convocant the player controls: the Seat route (the player controls an active Seat;
the Convocant may be anywhere), the Homeworld route (the Convocant occupies the player's own Homeworld) and the
Pallarch route (a Pallarch, anywhere). The last two close while the player is locked out, Pallarchs included."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.convocate.board import Board, Card, Kind, signed
from engine.convocate.seats import active_seats, locked_out, pref_sign
from engine.convocate.votes import is_convocant, vote_of
from engine.core.errors import RuleError


class Route(Enum):
    SEAT = "seat"
    HOMEWORLD = "homeworld"
    PALLARCH = "pallarch"


@dataclass(frozen=True)
class Access:
    convocant: str
    route: Route
    why: str


def ready_character(board: Board, player: str, name: str) -> Card:
    """A Character the player controls that is readied (acting activates it, R4-14)."""
    card = board.card(name)
    if card.kind is not Kind.CHARACTER:
        raise RuleError(f"{card.name} is a {card.kind.label}, not a Character.")
    if card.controller != player:
        owner = f" ({card.controller} does)" if card.controller else ""
        raise RuleError(f"{player} does not control {card.name}{owner}.")
    if not card.on_map:
        raise RuleError(f"{card.name} is not on the Map.")
    if not card.readied:
        raise RuleError(f"{card.name} is activated until {player}'s next Ready Phase, so it cannot act again "
                        "(one Motion per Convocant per turn).")
    return card


def lockout_text(board: Board, player: str) -> str:
    me = board.player(player)
    side = "+" if pref_sign(board, me) > 0 else "−"
    return (f"{player} is locked out: GOVT {signed(board.govt)} is on the opposite side of 0 from the "
            f"{me.sovereignty}'s preferred GOVT ({side}), and {player} controls no active Convocate Seat, so the "
            "Homeworld and Pallarch routes are closed")


def access(board: Board, player: str, name: str, only: str | None = None) -> Access:
    """R4-13: how ``name`` may move or second a Motion for ``player``; RuleError says why it may not."""
    card = ready_character(board, player, name)
    if not is_convocant(card, board.rulings.temp_vote_convocant):
        raise RuleError(f"{card.name} has {vote_of(card)} Vote; a Character with 0 Vote can never move or second a "
                        "Motion, wherever it stands.")
    if only and only.strip().lower() != card.name.lower():
        raise RuleError(f"This Motion may only be moved by {only.strip()}.")
    seats = active_seats(board, player)
    if seats:
        return Access(card.name, Route.SEAT, f"{player} controls the active Seat {seats[0].name}")
    me = board.player(player)
    if locked_out(board, me):
        raise RuleError(lockout_text(board, player) + ".")
    if me.homeworld and card.at and card.at.lower() == me.homeworld.lower():
        return Access(card.name, Route.HOMEWORLD, f"{card.name} is on {player}'s Homeworld {me.homeworld}")
    if card.pallarch:
        return Access(card.name, Route.PALLARCH, f"{card.name} is a Pallarch")
    where = f"on {card.at}" if card.at else "on no card"
    home = f" ({me.homeworld})" if me.homeworld else ""
    raise RuleError(f"{card.name} is {where}, not on {player}'s Homeworld{home}; it is not a Pallarch; and {player} "
                    "controls no active Convocate Seat.")


def eligible(board: Board, player: str, only: str | None = None) -> list[Access]:
    """Every Convocant that could move or second a Motion for ``player`` now."""
    found: list[Access] = []
    for card in board.controlled_by(player, [Kind.CHARACTER]):
        try:
            found.append(access(board, player, card.name, only))
        except RuleError:
            continue
    return found
