"""``/player remove user``: a moderator takes a player out of a game (issue 16). The command is shared; what
leaving means (which ballots stop counting, what is recomputed, what is announced) is the game's ruleset's
(``Front.remover``). Every ruleset keeps the player's history: the event log, ``/log`` and the export still name
them; the player is told by DM and the game channel is told what changed."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.outbox import Here, Outgoing, ToUser
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.service.views import GameView

ROUTES = Routes()
"""The shared ``/player remove`` and ``/player dms`` (``bot/actions/rulesets.py`` merges them)."""


@ROUTES.command("player remove", "Remove a player from the game: their open ballots stop counting, their history "
                "stays.", Option("user", UserRef, "the player", True), moderator=True)
async def player_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    user = user_option(o, "user")
    front = app.front(g.ruleset)
    if front is None or front.remover is None:
        raise RuleError(f"Players cannot be removed from {g.ruleset.capitalize()} games; nothing changed.")
    return await front.remover(app, ctx, g, user)


@ROUTES.command("player dms", "Try DMing a player again after Discord refused a DM to them (their DMs were closed).",
                Option("user", UserRef, "the player", True), moderator=True)
async def player_dms(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """After a DM to a player is refused (403) the bot stops DMing them (``clerk.closed_dms``, delivery.py) until
    they DM it or a moderator runs this, having heard that they opened their DMs."""
    g = require_game(game)
    user = user_option(o, "user")
    if user.id not in await app.clerk.games.player_names(g.id):
        raise RuleError(f"{user.name} is not a player in {g.name}; nothing changed.")
    if not await app.clerk.closed_dms.reopen(user.id):
        return [Outgoing(Here(), f"I was still DMing {user.name}: no DM to them has been refused. Nothing changed.",
                         ephemeral=True)]
    return [Outgoing(Here(), f"I will DM {user.name} again (ballots, receipts, reminders). If Discord refuses the "
                     "next DM too, you are told again.", ephemeral=True)]


def removal_dm(user_id: int, game: GameView, actor: Ctx, lines: list[str]) -> Outgoing:
    """The removed player's DM: who removed them, what of theirs stopped counting (``lines``), and that their
    history stays."""
    told = " ".join(lines)
    return Outgoing(ToUser(user_id), text=(
        f"The moderator {actor.actor.name} removed you from {game.name}. {told + ' ' if told else ''}"
        "Your history stays in the game's log and export; if this is a mistake, ask the moderators to bring you "
        "back."))
