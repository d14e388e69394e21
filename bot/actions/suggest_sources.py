"""What each kind of name an option takes lists (``Option.autocomplete``; ``bot.actions.suggest`` ranks it): from
the game of the channel, only what the asker may see or act on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.actions.commands import App
from bot.actions.context import Ctx
from engine.convocate.board import Board, Kind
from engine.convocate.votes import is_convocant
from engine.service.convocate_views import BoardView
from engine.service.views import GameView


@dataclass(frozen=True)
class Suggestion:
    name: str
    """What the asker sees, e.g. ``Alice (House Atreides)``."""
    value: str
    """What the option gets if it is picked, e.g. ``Alice``."""
    aliases: tuple[str, ...] = ()
    """Other texts that find it as they are typed, e.g. the faction ``House Atreides``."""


@dataclass(frozen=True)
class Asking:
    """Who asks, in which game, with the other options typed so far (what a source may narrow by)."""

    app: App
    ctx: Ctx
    game: GameView
    options: Mapping[str, Any]

    @property
    def moderator(self) -> bool:
        return self.ctx.actor.moderates(self.game.moderator_role_id)


Source = Callable[[Asking], Awaitable[list[Suggestion]]]
SOURCES: dict[str, Source] = {}
"""What each kind of name lists. ``game`` is handled by ``suggest`` itself (it needs no game)."""
GAME = "game"


def source(kind: str) -> Callable[[Source], Source]:
    def register(fn: Source) -> Source:
        SOURCES[kind] = fn
        return fn

    return register


# -- Mylantium (the government page is public, rules-spec §2.2.7) ------------------------------------------------


@source("territory")
async def _territories(a: Asking) -> list[Suggestion]:
    return [Suggestion(t.name, t.name) for t in (await a.app.clerk.government(a.game.id)).territories]


@source("building")
async def _buildings(a: Asking) -> list[Suggestion]:
    """Named buildings, in the territory of the ``territory`` option if one is given."""
    where = str(a.options.get("territory") or "").strip().casefold()
    kind = str(a.options.get("kind") or "").strip().casefold()
    found = []
    for t in (await a.app.clerk.government(a.game.id)).territories:
        if where and t.name.casefold() != where:
            continue
        for plural, names in t.names.items():
            if kind and not plural.casefold().startswith(kind):
                continue
            found += [Suggestion(f"{n} ({plural}, {t.name})", n) for n in names]
    return found


@source("unit")
async def _units(a: Asking) -> list[Suggestion]:
    return [Suggestion(f"{u.name} ({u.territory})", u.name) for u in (await a.app.clerk.government(a.game.id)).units]


@source("candidate")
async def _candidates(a: Asking) -> list[Suggestion]:
    """Candidates not discarded, running or not."""
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title}{'' if c.running else ', not running'})",
                       c.name)
            for c in (await a.app.clerk.government(a.game.id)).candidates if not c.discarded]


@source("nominee")
async def _nominees(a: Asking) -> list[Suggestion]:
    """Running candidates, of the party of the ``party`` option if one is given."""
    party = str(a.options.get("party") or "").strip().casefold()
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title})", c.name)
            for c in (await a.app.clerk.government(a.game.id)).candidates
            if c.running and not c.discarded and (not party or c.party.value == party)]


# -- the Convocate (the board is public: /board lists every card) ------------------------------------------------


async def _board(a: Asking) -> tuple[Board, str | None]:
    """The board, and the asker's name at the table (None if they have no seat)."""
    view: BoardView = await a.app.clerk.cv_board(a.game.id)
    me = next((s.player for s in view.standings if s.user_id == a.ctx.actor.id), None)
    return view.board, me


def _card(name: str, what: str) -> Suggestion:
    return Suggestion(f"{name} ({what})", name)


@source("card")
async def _cards(a: Asking) -> list[Suggestion]:
    """Cards the asker may change: their own; every card for a moderator."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label + (f", {c.controller}" if c.controller else "")) for c in board.cards
            if a.moderator or (me is not None and c.controller == me)]


@source("cards")
async def _own_cards(a: Asking) -> list[Suggestion]:
    """The readied cards the asker controls (what /commit activates)."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if me is not None and c.controller == me and c.readied]


@source("place")
async def _places(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if c.kind.place]


@source("homeworld")
async def _homeworlds(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.sovereignty or "Homeworld") for c in board.cards if c.kind is Kind.HOMEWORLD]


@source("character")
async def _characters(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.controller or "Character") for c in board.cards if c.kind is Kind.CHARACTER]


@source("own-character")
async def _own_characters(a: Asking) -> list[Suggestion]:
    """The readied Characters the asker controls."""
    board, me = await _board(a)
    return [_card(c.name, "readied") for c in board.cards
            if c.kind is Kind.CHARACTER and me is not None and c.controller == me and c.readied]


@source("convocant")
async def _convocants(a: Asking) -> list[Suggestion]:
    """The asker's readied Convocants on the Map (R4-02): who could move or second."""
    board, me = await _board(a)
    return [_card(c.name, "Pallarch" if c.pallarch else f"Vote {c.vote}") for c in board.cards
            if me is not None and c.controller == me and c.readied and c.on_map and is_convocant(c)]


@source("factor")
async def _factors(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [Suggestion(f"{name} ({value:+d})", name) for name, value in board.factors]


@source("statute")
async def _statutes(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker controls (every one for a moderator)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes
            if a.moderator or (me is not None and s.controller == me)]


@source("repealable")
async def _repealable(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker does not control (a Motion of Repeal is against another's)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes if s.controller != me]
