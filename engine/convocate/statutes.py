"""Statutes (R4-11, R4-12; P4-04, P4-10): declared by the player with political control from an active Seat they
control, never from a Homeworld; controlled by the declarer for ever; one Section in force, changed or the
Statute destroyed in its controller's Admin Phase; a one-time Section resolves each time it comes into force."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.convocate.board import Board, Kind, Phase, Section, Statute
from engine.convocate.seats import seat_active
from engine.convocate.votes import is_convocant, political_control, standing_votes
from engine.core.errors import RuleError


@dataclass(frozen=True)
class Resolution:
    """A one-time Section that resolves now, and its printed cost (paid each time it resolves)."""

    statute: str
    section: int
    cost: str | None


@dataclass(frozen=True)
class Declared:
    statute: Statute
    character: str
    seat: str
    votes: dict[str, int]
    """Standing Vote when political control was checked."""
    resolves: Resolution | None
    cost: str | None


def sections_of(count: int, one_time: tuple[int, ...] = (), costs: dict[int, str] | None = None
                ) -> tuple[Section, ...]:
    if count < 1:
        raise RuleError("A Statute prints at least one Section.")
    for number in one_time:
        if not 1 <= number <= count:
            raise RuleError(f"Section {number} is not one of the Statute's {count} Sections.")
    costs = costs or {}
    return tuple(Section(n, n in one_time, costs.get(n)) for n in range(1, count + 1))


def declare(board: Board, player: str, name: str, character: str, section: int, sections: tuple[Section, ...],
            owner: str | None = None, cost: str | None = None) -> tuple[Board, Declared]:
    """R4-11: in the player's own Action Phase, with political control (checked before the activation, P4-04),
    activate a readied Character they control on an active Seat they control (any Character, P4-10), pay the
    printed cost, and select a Section. A Statute is never declared from a Homeworld."""
    board.player(player)
    if not board.in_phase(player, Phase.ACTION):
        raise RuleError(f"A Statute is declared only in your own Action Phase; it is {board.when()}.")
    name = " ".join(name.split())
    if not name:
        raise RuleError("Name the Statute.")
    if any(s.name.lower() == name.lower() for s in board.statutes):
        raise RuleError(f"{name} is already in force.")
    before = standing_votes(board)
    if board.rulings.statute_control_check == "before":
        _require_control(board, player, before)
    card = board.card(character)
    if card.kind is not Kind.CHARACTER:
        raise RuleError(f"{card.name} is a {card.kind.label}; a Statute is declared by activating a Character.")
    if card.controller != player:
        raise RuleError(f"You do not control {card.name}.")
    if not card.readied:
        raise RuleError(f"{card.name} is activated; it must be readied to declare a Statute.")
    if board.rulings.statute_character == "convocant" and not is_convocant(card, board.rulings.temp_vote_convocant):
        raise RuleError(f"{card.name} has 0 Vote; this game's ruling lets only a Convocant declare.")
    place = board.find(card.at) if card.at else None
    if place is not None and place.kind is Kind.HOMEWORLD:
        raise RuleError(f"{card.name} is on the Homeworld {place.name}: a Statute is never declared from a "
                        "Homeworld.")
    if place is None or place.kind is not Kind.SEAT:
        where = f"on {card.at}" if card.at else "on no card"
        raise RuleError(f"{card.name} is {where}; a Statute is declared from an active Convocate Seat you control.")
    if place.controller != player:
        raise RuleError(f"{place.name} is not your Seat; a Statute is declared from an active Seat you control.")
    activity = seat_active(board, place)
    if not activity.active:
        raise RuleError(f"{place.name} is inactive ({activity.why}); a Statute needs an active Seat.")
    chosen = _section(name, sections, section)
    board = board.activate(card)
    if board.rulings.statute_control_check == "after":
        _require_control(board, player, standing_votes(board))
    statute = Statute(name, player, owner or player, chosen.number, sections)
    board = board.with_statute(statute)
    resolves = Resolution(name, chosen.number, chosen.cost) if chosen.one_time else None
    return board, Declared(statute, card.name, place.name, before, resolves, cost)


def _require_control(board: Board, player: str, votes: dict[str, int]) -> None:
    holder = political_control(votes)
    if holder == player:
        return
    mine = votes[player]
    top = max(votes.values())
    leaders = [p for p, v in votes.items() if v == top]
    if len(leaders) > 1:
        tied = " and ".join(f"{p} {votes[p]}" for p in leaders)
        why = f"the most Standing Vote is tied ({tied}), so nobody has it"
    else:
        why = f"{leaders[0]} has {top} Standing Vote to your {mine}"
    raise RuleError(f"You need political control to declare a Statute, and {why}.")


def _section(name: str, sections: tuple[Section, ...], number: int) -> Section:
    for s in sections:
        if s.number == number:
            return s
    raise RuleError(f"{name} has Sections 1 to {len(sections)}, not {number}.")


@dataclass(frozen=True)
class SectionChanged:
    statute: str
    old: int
    new: int
    resolves: Resolution | None


def change_section(board: Board, player: str, name: str, number: int) -> tuple[Board, SectionChanged]:
    """R4-12: in its controller's Admin Phase, select a different Section, once a phase. A one-time Section
    resolves (and its cost is paid) each time it comes into force; keeping the same Section is not a change."""
    statute = board.statute(name)
    _require_admin(board, player, statute)
    chosen = statute.numbered(number)
    if chosen.number == statute.section:
        raise RuleError(f"Section {number} of {statute.name} is already in force; keeping it is not a change, and "
                        "nothing resolves.")
    if statute.changed_turn == board.turn:
        raise RuleError(f"{statute.name}'s Section has already been selected this turn; it can change again in your "
                        "next Admin Phase.")
    board = board.with_statute(replace(statute, section=number, changed_turn=board.turn))
    resolves = Resolution(statute.name, number, chosen.cost) if chosen.one_time else None
    return board, SectionChanged(statute.name, statute.section, number, resolves)


def destroy(board: Board, player: str, name: str) -> tuple[Board, Statute]:
    """R4-12: its controller may destroy a Statute in their Admin Phase; it goes to its owner's Depleted Pile."""
    statute = board.statute(name)
    _require_admin(board, player, statute)
    return board.without_statute(statute.name), statute


def _require_admin(board: Board, player: str, statute: Statute) -> None:
    if statute.controller != player:
        raise RuleError(f"{statute.name} is controlled by {statute.controller}; only its controller can change its "
                        "Section or destroy it (an opponent can move a Motion of Repeal).")
    if not board.in_phase(player, Phase.ADMIN):
        raise RuleError(f"A Statute's Section is changed, or the Statute destroyed, in its controller's Admin Phase; "
                        f"it is {board.when()}.")
