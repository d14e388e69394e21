"""Vote values, Standing Vote and political control (R4-01..R4-06; P4-01, P4-08, P4-09)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.convocate.board import Board, Card, Kind
from engine.convocate.seats import seat_active


def vote_of(card: Card) -> int:
    """A card's Vote now: printed (R4-01) plus any temporary effect on it. The Seat bonus is never added to a
    Character (R4-02)."""
    return max(0, card.vote + card.bonus)


def is_convocant(card: Card, temp_counts: bool = True) -> bool:
    """R4-02: a Character with Vote 1 or more, Pallarchs included. A temporary +Vote on the Character counts while
    it lasts (P4-09, switchable)."""
    if card.kind is not Kind.CHARACTER:
        return False
    return (vote_of(card) if temp_counts else card.vote) >= 1


@dataclass(frozen=True)
class Line:
    source: str
    votes: int
    note: str = ""


@dataclass(frozen=True)
class StandingVote:
    player: str
    lines: tuple[Line, ...]

    @property
    def total(self) -> int:
        return sum(line.votes for line in self.lines)


def _card_line(board: Board, card: Card) -> Line | None:
    vote = vote_of(card)
    if card.kind in (Kind.CHARACTER, Kind.GROUND_UNIT):
        if not card.on_map:
            return None
        if not card.readied:
            return Line(card.name, 0, "activated") if vote else None
        return Line(card.name, vote, "readied") if vote else None
    if not card.on_map:
        return Line(card.name, 0, "off the Map") if vote else None
    if card.suppressed:
        return Line(card.name, 0, "Vote suppressed") if vote else None
    if not card.readied and board.rulings.committed_cards == "out":
        return Line(card.name, 0, "activated") if vote else None
    return Line(card.name, vote, card.kind.label) if vote else None


def seat_bonus(board: Board, seat: Card) -> bool:
    """P4-01: an active Seat adds 1 to its controller's Standing Vote while a readied Character that same player
    controls occupies it; once per Seat, whoever else stands there."""
    if seat.controller is None or not seat_active(board, seat).active:
        return False
    return any(c.readied and c.on_map and c.controller == seat.controller for c in board.occupants(seat.name))


def standing_vote(board: Board, player: str) -> StandingVote:
    """R4-04: Characters and Ground Units while readied; Locations, Homeworlds and other permanents while on the Map
    and not suppressed (and, P4-08, not activated to commit Votes); +1 per active Seat with a readied occupant the
    player controls; temporary effects while they last. Read from the board when needed; never spent."""
    lines: list[Line] = []
    for card in board.controlled_by(player):
        line = _card_line(board, card)
        if line is not None:
            lines.append(line)
        if card.kind is Kind.SEAT and seat_bonus(board, card):
            lines.append(Line(card.name, 1, "active Seat, readied occupant"))
    temp = board.player(player).temp
    if temp:
        lines.append(Line("temporary effects", temp, "until end of turn"))
    return StandingVote(player, tuple(lines))


def standing_votes(board: Board) -> dict[str, int]:
    return {p.name: standing_vote(board, p.name).total for p in board.players}


def political_control(votes: Mapping[str, int]) -> str | None:
    """R4-05: the player whose Standing Vote is greater than every other player's; a tie for the most gives
    nobody political control. Plurality, not majority."""
    if not votes:
        return None
    top = max(votes.values())
    leaders = [p for p, v in votes.items() if v == top]
    return leaders[0] if len(leaders) == 1 else None
