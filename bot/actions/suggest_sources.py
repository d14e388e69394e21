"""What each kind of name an option takes lists (``Option.autocomplete``; ``bot.actions.suggest`` ranks it): from
the game of the channel, only what the asker may see or act on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.actions.commands import App
from bot.actions.context import Ctx
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
