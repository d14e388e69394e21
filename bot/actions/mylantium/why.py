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


async def approval(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The Approval Rating's change at a Business Phase's close: ``round`` the turn (the latest if left out)."""
    return await app.clerk.mylantium.explain.business(game.id, "approval", turn=ask.round)


async def fervor(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """Revolutionary Fervor's rise at a Business Phase's close: ``round`` the turn (the latest if left out)."""
    return await app.clerk.mylantium.explain.business(game.id, "fervor", turn=ask.round)


async def revolution(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """An attempt of the latest Revolution chain: ``round`` its number (the latest resolved if left out)."""
    return await app.clerk.mylantium.explain.revolution(game.id, attempt=ask.round)


EXPLAIN: dict[str, Explainer] = {"election": election, "approval": approval, "fervor": fervor,
                                 "revolution": revolution}
HELP = {"election": "a Primary's or General Election's totals; round: the turn, name: primary or general",
        "approval": "the Approval Rating's change at a Business Phase's close; round: the turn",
        "fervor": "Revolutionary Fervor's rise at a Business Phase's close; round: the turn",
        "revolution": "a Revolution's or coup's treasuries; round: the attempt in the latest chain"}
