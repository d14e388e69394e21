"""Vote values, Standing Vote and political control (R4-01..R4-06; P4-01, P4-08, P4-09)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.convocate.board import Board, Card, Kind
from engine.convocate.seats import seat_active
from engine.core.derivation import Derivation, Step


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


SEAT_LINE = "active Seat, readied occupant"
"""The note of a Seat's +1 line (P4-01), beside the Seat's own Vote line."""
EMPTY_SEAT_LINE = "active Seat, no readied occupant"
"""The note of an active Seat's 0 line: no readied Character of its controller occupies it, so it adds nothing
(P4-01), shown so that a player sees why it does not count (play-test C5.6)."""
SEAT_LINES = (SEAT_LINE, EMPTY_SEAT_LINE)
"""The notes of a Seat's lines that are not the Seat's own Vote (a correction of its Vote never moves them)."""


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
    return standing_explained(board, player)[0]


def _rule(words: str, rule_id: str) -> tuple[str, str]:
    """A rule in words and its id (which ``/why`` shows moderators only)."""
    return words, rule_id


LINE_RULES = {
    "readied": _rule("a readied Character or Ground Unit on the Map adds its Vote", rule_id="R4-04"),
    "activated": _rule("an activated card adds nothing until it readies", rule_id="R4-04, P4-08"),
    "off the Map": _rule("a permanent off the Map adds nothing", rule_id="R4-04"),
    "Vote suppressed": _rule("a permanent whose Vote is suppressed adds nothing", rule_id="R4-04"),
    SEAT_LINE: _rule("an active Seat adds 1 to its controller while a readied Character they "
                                           "control occupies it", rule_id="R4-04, P4-01"),
    EMPTY_SEAT_LINE: _rule("an active Seat adds nothing while no readied Character its controller controls "
                           "occupies it", rule_id="R4-04, P4-01"),
    "until end of turn": _rule("a temporary effect on the Standing Vote counts while it lasts",
                               rule_id="R4-04, P4-09"),
}
PERMANENT = _rule("a permanent on the Map, not suppressed, adds its Vote", rule_id="R4-04")


def line_step(line: Line, events: Mapping[str, tuple[int, ...]]) -> Step:
    """One line of a Standing Vote as a step: the card, what it adds and the rule."""
    rule, rule_id = LINE_RULES.get(line.note, PERMANENT)
    why = f" ({line.note})" if line.note else ""
    return Step(f"{line.source}{why}: {'+' if line.votes else ''}{line.votes}", rule, rule_id,
                events.get(line.source, ()))


def standing_explained(board: Board, player: str, events: Mapping[str, tuple[int, ...]] | None = None,
                       ) -> tuple[StandingVote, Derivation]:
    """``standing_vote`` and its steps (``/why standing``): one per card that counts or would count, the rule it
    follows and the events (``events``: card name -> event numbers) that put the card where it is."""
    lines: list[Line] = []
    for card in board.controlled_by(player):
        line = _card_line(board, card)
        if line is not None:
            lines.append(line)
        if card.kind is Kind.SEAT and seat_bonus(board, card):
            lines.append(Line(card.name, 1, SEAT_LINE))
        elif card.kind is Kind.SEAT and seat_active(board, card).active:
            lines.append(Line(card.name, 0, EMPTY_SEAT_LINE))
    temp = board.player(player).temp
    if temp:
        lines.append(Line("temporary effects", temp, "until end of turn"))
    vote = StandingVote(player, tuple(lines))
    return vote, vote_explained(vote, events)


def vote_explained(vote: StandingVote, events: Mapping[str, tuple[int, ...]] | None = None,
                   subject: str | None = None) -> Derivation:
    """A Standing Vote's steps from its lines (read from the board now, or as a turn's end recorded them): one per
    line, then the sum."""
    steps = [line_step(line, events or {}) for line in vote.lines]
    counted = " + ".join(str(line.votes) for line in vote.lines if line.votes) or "0"
    steps.append(Step(f"{vote.player}'s Standing Vote: {counted} = **{vote.total}**", "the Standing Vote is the sum, "
                      "read from the board when needed and never spent", rule_id="R4-04"))
    return Derivation(subject or f"{vote.player}'s Standing Vote", str(vote.total), tuple(steps), vote.total)


def control_explained(board: Board, events: Mapping[str, tuple[int, ...]] | None = None) -> Derivation:
    """Every player's Standing Vote (each a part) and who has political control (R4-05), for ``/why standing``."""
    return control_of([standing_explained(board, p.name, events) for p in board.players])


def control_of(pairs: Sequence[tuple[StandingVote, Derivation]], subject: str = "The Standing Vote",
               events: tuple[int, ...] = ()) -> Derivation:
    """Who has political control (R4-05) from every player's Standing Vote and its derivation (each a part)."""
    votes = {vote.player: vote.total for vote, _ in pairs}
    parts = tuple(derivation for _, derivation in pairs)
    holder = political_control(votes)
    said = ", ".join(f"{name} {v}" for name, v in votes.items()) or "no players"
    top = max(votes.values(), default=0)
    control = (f"{holder} has more than every other player ({top}): political control" if holder is not None else
               "nobody has political control: " + (" and ".join(n for n, v in votes.items() if v == top) +
                                                   f" are tied at {top}" if votes else "no players"))
    step = Step(control, "the player whose Standing Vote is greater than every other player's has political control; "
                "a tie for the most gives it to nobody", rule_id="R4-05", events=events)
    return Derivation(subject, said, (step,), votes, parts=parts)


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
