"""What the Convocate services return to the front ends: plain frozen data built from the pure board."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.convocate.access import eligible
from engine.convocate.board import Board, Card, Kind, Statute
from engine.convocate.seats import locked_out, seat_active
from engine.convocate.votes import StandingVote, political_control, seat_bonus, standing_vote, standing_votes
from engine.service.views import GameView


@dataclass(frozen=True)
class Standing:
    player: str
    user_id: int
    sovereignty: str
    order: int
    directive: str | None
    homeworld: str | None
    pool: int
    vote: StandingVote
    locked_out: bool


@dataclass(frozen=True)
class SeatView:
    name: str
    controller: str | None
    sovereignty: str | None
    face: str
    active: bool
    why: str
    bonus: bool


@dataclass(frozen=True)
class BoardView:
    game: GameView
    board: Board
    standings: tuple[Standing, ...]
    control: str | None
    tied: tuple[str, ...]
    """The players tied for the most Standing Vote when nobody has political control (empty if all are 0)."""
    seats: tuple[SeatView, ...]
    motion: MotionView | None


def board_view(game: GameView, board: Board, users: dict[str, int], motion: MotionView | None) -> BoardView:
    votes = standing_votes(board)
    control = political_control(votes)
    top = max(votes.values(), default=0)
    tied = tuple(p for p, v in votes.items() if v == top) if control is None and len(votes) > 1 else ()
    standings = tuple(Standing(p.name, users.get(p.name, 0), p.sovereignty, p.order, p.directive, p.homeworld, p.pool,
                               standing_vote(board, p.name), locked_out(board, p)) for p in board.turn_order())
    seats = []
    for card in board.cards:
        if card.kind is Kind.SEAT:
            activity = seat_active(board, card)
            seats.append(SeatView(card.name, card.controller, card.sovereignty, card.current_face.name,
                                  activity.active, activity.why, seat_bonus(board, card)))
    return BoardView(game, board, standings, control, tied, tuple(seats), motion)


@dataclass(frozen=True)
class Answer:
    player: str
    answer: str
    """``seconded``, ``declined``, ``skipped`` (no Convocant with access), ``timed out`` or ``passed`` (by a
    moderator)."""
    convocant: str | None = None
    why: str | None = None


@dataclass(frozen=True)
class TakenBack:
    """A second a moderator took back (``/motion reopen``): it had resolved the Motion by mistake."""

    player: str
    convocant: str
    reason: str | None
    not_readied: str | None
    """Why the Convocant was not readied again (None: it was)."""


@dataclass(frozen=True)
class AskedAgain:
    """A player's answer to the offer to second that a moderator took back (``/motion ask-again``): a decline, or a
    moderator's ``/motion skip``, made by mistake. The player is asked again."""

    player: str
    answer: str
    """``declined`` or ``passed`` (by a moderator), the answer taken back."""
    reason: str | None
    offer_was_with: str | None
    """Whom the offer was with when it went back to the player (None: the Motion had resolved without a second)."""
    reopened: bool
    """The Motion had resolved without a second, and was unresolved."""
    when_reached: bool
    """The player's answer stood after the player asked then: they are asked when the offer reaches them."""


def what_was_taken(player: str, answer: str) -> str:
    """An answer a moderator took back (``AskedAgain``), in words: ``bob's decline`` / ``the /motion skip of bob``."""
    return f"{player}'s decline" if answer == "declined" else f"the /motion skip of {player}"


@dataclass(frozen=True)
class Withdrawal:
    """A Motion the moderators withdrew while it was offered (``/motion withdraw``)."""

    offer_was_with: str | None
    reason: str | None
    not_readied: str | None
    """Why the mover's Convocant was not readied again (None: it was)."""


@dataclass(frozen=True)
class MotionView:
    game: GameView
    number: int
    kind: str
    name: str
    mover: str
    mover_user: int
    convocant: str
    route: str
    details: dict[str, Any]
    status: str
    order: tuple[str, ...]
    answers: tuple[Answer, ...]
    offer_to: str | None
    offer_user: int | None
    deadline: datetime | None
    candidates: tuple[str, ...]
    """The Convocants the player now offered the second could use."""
    seconder: str | None
    seconder_convocant: str | None
    outcome: dict[str, Any] | None
    duplicate: bool = False
    offer_index: int = 0
    """Where the offer is in ``order`` (with the number, what a button for this offer names)."""
    withdrawn: Withdrawal | None = None
    taken_back: tuple[TakenBack, ...] = ()
    """Seconds taken back by the moderators, oldest first."""
    standing: tuple[Answer, ...] = ()
    """Answers of players the offer has not reached again since a moderator took back an earlier answer (``/motion
    ask-again``): given in turn order after it, they stand and are taken as given when the offer reaches them."""
    asked_again: tuple[AskedAgain, ...] = ()
    """Answers taken back by the moderators (``/motion ask-again``), oldest first."""

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"


@dataclass(frozen=True)
class StatuteView:
    game: GameView
    statute: Statute
    character: str | None
    seat: str | None
    resolves: tuple[int, str | None] | None
    """A one-time Section that resolves now, and its cost."""
    votes: dict[str, int] | None = None
    cost: str | None = None
    destroyed: bool = False


@dataclass(frozen=True)
class FactorSet:
    """A Galactic Factor a moderator set (``/factor set``): its name on the board, the value it had (None: it was
    added) and has now, and whether the table is still being set up (no turn begun: the set-up summary shows it,
    and the change is not announced on its own)."""

    name: str
    old: int | None
    new: int
    setting_up: bool
    setup: BoardView | None = None
    """While ``setting_up``: the board as the change leaves it, read in its transaction (the set-up summary, owed
    with it)."""


@dataclass(frozen=True)
class CardDone:
    """A card put on, changed or taken off the board (``/card add``, ``set``, ``remove``): the card (as it is now;
    as it was, taken off), and while the table is being set up (no turn begun) the board as the change leaves it,
    read in its transaction, so the set-up summary is made of it and owed with it."""

    card: Card
    setup: BoardView | None = None


def candidates(board: Board, player: str) -> tuple[str, ...]:
    return tuple(a.convocant for a in eligible(board, player))


def card_line(card: Card) -> str:
    """``K_A (Character, Vote 1, Pallarch, Loyal, on S_U, activated) — alice``."""
    bits = [card.kind.label]
    if card.kind in (Kind.CHARACTER, Kind.GROUND_UNIT, Kind.LOCATION, Kind.HOMEWORLD, Kind.PERMANENT) or card.vote:
        bits.append(f"Vote {card.vote}" + (f" {card.bonus:+d} this turn" if card.bonus else ""))
    if card.pallarch:
        bits.append("Pallarch")
    if card.morality:
        bits.append(card.morality)
    if card.sovereignty:
        bits.append(card.sovereignty)
    if card.at:
        bits.append(f"on {card.at}")
    if not card.readied:
        bits.append("activated")
    if not card.on_map:
        bits.append("off the Map")
    if card.suppressed:
        bits.append("Vote suppressed")
    if card.kind is Kind.SEAT and len(card.faces) > 1:
        bits.append(f"{card.current_face.name} face")
    who = card.controller or "nobody"
    return f"{card.name} ({', '.join(bits)}): {who}"
