"""What the Convocate's options suggest as they are typed (``Option.autocomplete``): cards, places, Characters,
Convocants, Factors and Statutes from the board. The board is public (/board lists every card); what a player may
change or act with is narrowed to theirs. ``SOURCES`` is listed in the package's ``FRONT.sources``."""

from __future__ import annotations

from bot.actions.suggest_sources import Asking, Source, Suggestion
from engine.convocate.board import Board, Kind
from engine.convocate.votes import is_convocant
from engine.service.convocate.views import BoardView


async def _board(a: Asking) -> tuple[Board, str | None]:
    """The board, and the asker's name at the table (None if they have no seat)."""
    view: BoardView = await a.app.clerk.convocate.board.board(a.game.id)
    me = next((s.player for s in view.standings if s.user_id == a.ctx.actor.id), None)
    return view.board, me


def _card(name: str, what: str) -> Suggestion:
    return Suggestion(f"{name} ({what})", name)


async def _cards(a: Asking) -> list[Suggestion]:
    """Cards the asker may change: their own; every card for a moderator."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label + (f", {c.controller}" if c.controller else "")) for c in board.cards
            if a.moderator or (me is not None and c.controller == me)]


async def _own_cards(a: Asking) -> list[Suggestion]:
    """The readied cards the asker controls (what /commit activates)."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if me is not None and c.controller == me and c.readied]


async def _places(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if c.kind.place]


async def _homeworlds(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.sovereignty or "Homeworld") for c in board.cards if c.kind is Kind.HOMEWORLD]


async def _characters(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.controller or "Character") for c in board.cards if c.kind is Kind.CHARACTER]


async def _own_characters(a: Asking) -> list[Suggestion]:
    """The readied Characters the asker controls."""
    board, me = await _board(a)
    return [_card(c.name, "readied") for c in board.cards
            if c.kind is Kind.CHARACTER and me is not None and c.controller == me and c.readied]


async def _convocants(a: Asking) -> list[Suggestion]:
    """The asker's readied Convocants on the Map (R4-02): who could move or second."""
    board, me = await _board(a)
    return [_card(c.name, "Pallarch" if c.pallarch else f"Vote {c.vote}") for c in board.cards
            if me is not None and c.controller == me and c.readied and c.on_map and is_convocant(c)]


async def _factors(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [Suggestion(f"{name} ({value:+d})", name) for name, value in board.factors]


async def _statutes(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker controls (every one for a moderator)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes
            if a.moderator or (me is not None and s.controller == me)]


async def _repealable(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker does not control (a Motion of Repeal is against another's)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes if s.controller != me]


async def _ended_statutes(a: Asking) -> list[Suggestion]:
    """Statutes repealed or destroyed (what /statute restore puts back; a moderator's command)."""
    return [_card(name, how) for name, how in await a.app.clerk.convocate.turns.ended_statutes(a.game.id)]


SOURCES: dict[str, Source] = {
    "card": _cards,
    "cards": _own_cards,
    "place": _places,
    "homeworld": _homeworlds,
    "character": _characters,
    "own-character": _own_characters,
    "convocant": _convocants,
    "factor": _factors,
    "statute": _statutes,
    "repealable": _repealable,
    "ended-statute": _ended_statutes,
}
