"""What every Convocate command and form shares: the ruleset's name, the guarded ``command`` (``dispatch`` and the
guard refuse it in a game of another ruleset), and small readers of a command's options."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.actions.commands import App, Handler, Option, Reads
from bot.actions.context import Ctx, UserRef
from bot.actions.outbox import Outgoing
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.service.views import GameView

RULESET = "convocate"
TWICE = "That message reached me twice; it was recorded once, the first time. Nothing was changed."


def convocate_game(game: GameView | None, name: str) -> GameView:
    """The game, if it plays the Convocate; a clear refusal otherwise (forms; commands are refused by dispatch)."""
    if game is None:
        raise RuleError("This command needs a game.")
    if game.ruleset != RULESET:
        raise RuleError(f"{name} is a Convocate command; {game.name} plays {game.ruleset.capitalize()}.")
    return game


def command(routes: Routes, name: str, description: str, *options: Option, moderator: bool = False,
            game: str = "channel", reads: Reads = False, public: bool = False) -> Callable[[Handler], Handler]:
    """``routes.command`` for the Convocate: ``dispatch`` refuses it in a game of another ruleset, and the handler
    is given the game checked by ``convocate_game``."""
    def register(handler: Handler) -> Handler:
        async def guarded(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
            return await handler(app, ctx, convocate_game(g, f"/{name}"), o)

        routes.command(name, description, *options, moderator=moderator, game=game, ruleset=RULESET,
                       reads=reads, public=public)(guarded)
        return handler

    return register


def moderates(ctx: Ctx, g: GameView | None) -> bool:
    return g is not None and ctx.actor.moderates(g.moderator_role_id)


def user_id_of(o: dict[str, Any], name: str) -> int | None:
    value = o.get(name)
    return value.id if isinstance(value, UserRef) else None
