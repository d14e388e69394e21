"""``/round preview`` and ``/ag preview``: the moderators' look at a close before it happens (exact odds over the d6
factions not yet rolled, the tie-break of an AG election, what would turn either). Private, and recorded as nothing:
the service only reads (``engine/service/landsdraad/previews.py``)."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, require_game
from bot.actions.context import Ctx
from bot.actions.landsdraad.preview_render import election_preview_card, round_preview_card
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.outbox import Outgoing, reply
from bot.actions.routes import Routes
from engine.service.views import GameView

ROUTES = Routes()
command = commands_on(ROUTES)


@command("round preview", "The close before it happens: the tally now, exact odds over unrolled d6 factions (only "
         "you see it).", moderator=True)
async def round_preview(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    r = await app.clerk.landsdraad.previews.round(require_game(game).id)
    return [reply(card=round_preview_card(r), ephemeral=True)]


@command("ag preview", "The open AG election as it would close now: tie-break, what would turn it (only you see it).",
         moderator=True)
async def ag_preview(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    e = await app.clerk.landsdraad.previews.election(require_game(game).id)
    return [reply(card=election_preview_card(e), ephemeral=True)]
