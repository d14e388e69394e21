"""``/why`` in Mylantium games (docs/commands.md, "Mylantium: /why"): the subjects it explains, each asking
``clerk.mylantium.explain`` for the whole derivation (the common command keeps what the asker may see)."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.front import Explainer, WhyAsk
from engine.core.derivation import Derivation
from engine.service.views import GameView


async def election(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """A closed election's totals: ``round`` the turn, ``name`` primary or general (the latest closed if left out)."""
    return await app.clerk.mylantium.explain.election(game.id, turn=ask.round, stage=ask.name)


EXPLAIN: dict[str, Explainer] = {"election": election}
HELP = {"election": "a Primary's or General Election's totals; round: the turn, name: primary or general"}
