"""rules-spec §4.5 ``fixture_F4`` as a Board, and small card builders for the Convocate engine tests."""

from __future__ import annotations

from dataclasses import replace

from engine.convocate.board import Board, Card, Face, Kind, Phase, PlayerState, Section, Statute, printed_vote
from engine.convocate.rulings import Rulings

PLUS = frozenset(range(0, 5))
MINUS = frozenset(range(-4, 1))


def character(name: str, controller: str, vote: int = 1, *, pallarch: bool = False, at: str | None = None,
              readied: bool = True, morality: str | None = None, penalty: str | None = None, bonus: int = 0) -> Card:
    return Card(name, Kind.CHARACTER, controller, controller, printed_vote(Kind.CHARACTER, vote, pallarch), pallarch,
                morality, penalty, at, readied, bonus=bonus)


def location(name: str, controller: str | None, vote: int = 1, *, suppressed: bool = False, readied: bool = True,
             kind: Kind = Kind.LOCATION) -> Card:
    return Card(name, kind, controller, controller, printed_vote(kind, vote), suppressed=suppressed, readied=readied)


def unit(name: str, controller: str, vote: int = 1, *, readied: bool = True) -> Card:
    return Card(name, Kind.GROUND_UNIT, controller, controller, vote, readied=readied)


def homeworld(name: str, controller: str, sovereignty: str) -> Card:
    return Card(name, Kind.HOMEWORLD, controller, controller, printed_vote(Kind.HOMEWORLD, 1), sovereignty=sovereignty)


def seat(name: str, controller: str | None, sovereignty: str, *faces: Face, face: str | None = None) -> Card:
    return Card(name, Kind.SEAT, controller, controller, 0, sovereignty=sovereignty, faces=faces, face=face)


S_U = seat("S_U", "A", "Union", Face("prime", PLUS))
S_K = seat("S_K", "B", "Kingdom", Face("prime", MINUS))
S_T = seat("S_T", "C", "Republic", Face("prime", PLUS, True), Face("contested", PLUS))


def f4(govt: int = 0, *cards: Card, seats: tuple[Card, ...] = (S_U, S_K, S_T), homeworlds: bool = True,
       active: str | None = "A", phase: Phase | None = Phase.ACTION, rulings: Rulings | None = None,
       **directives: str) -> Board:
    """Players A (Union, +), B (Kingdom, −), C (Republic, +) in that turn order, their Homeworlds (Vote 1 each) and
    the three Seats of the fixture, plus ``cards``. Directives by player name: ``f4(A="GOVT")``."""
    players = (
        PlayerState("A", "Union", 1, directives.get("A"), "HW_A"),
        PlayerState("B", "Kingdom", 2, directives.get("B"), "HW_B"),
        PlayerState("C", "Republic", 3, directives.get("C"), "HW_C"),
    )
    hws = (homeworld("HW_A", "A", "Union"), homeworld("HW_B", "B", "Kingdom"),
           homeworld("HW_C", "C", "Republic")) if homeworlds else ()
    board = Board(players=players, cards=(*hws, *seats, *cards), active=active, phase=phase, turn=1,
                  rulings=rulings or Rulings())
    return board.with_factor("GOVT", govt)


def only_ab(board: Board) -> Board:
    """The same board with C gone (two-player vectors)."""
    return replace(board, players=tuple(p for p in board.players if p.name != "C"),
                   cards=tuple(c for c in board.cards if c.controller != "C"))


def statute(name: str, controller: str, section: int = 1, count: int = 3, owner: str | None = None) -> Statute:
    return Statute(name, controller, owner or controller, section, tuple(Section(n) for n in range(1, count + 1)))
