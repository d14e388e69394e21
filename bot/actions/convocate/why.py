"""``/why`` in Convocate games (docs/commands.md, "Convocate: /why"): the subjects it explains, each asking
``clerk.convocate.explain`` for the derivation (the common command keeps what the asker may see; the Convocate's
numbers are all public)."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.front import Explainer, PostAsks, WhyAsk
from engine.core.derivation import Derivation
from engine.core.errors import RuleError
from engine.service.announcements import Announced
from engine.service.views import GameView


async def player_name(app: App, game: GameView, ask: WhyAsk) -> str | None:
    """The seat the ``player`` option names (None if left out)."""
    if ask.player is None:
        return None
    name = (await app.clerk.games.player_names(game.id)).get(ask.player.id)
    if name is None:
        raise RuleError(f"{ask.player.name} has no seat at the table in {game.name}.")
    return name


async def standing(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """Every Standing Vote now and political control; ``player``: one player's, card by card; ``round``: as they
    stood when that turn ended."""
    return await app.clerk.convocate.explain.standing(game.id, await player_name(app, game, ask), ask.round)


async def push(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The latest push's cost, step by step; ``player`` and ``name`` (a Factor) pick an earlier one."""
    return await app.clerk.convocate.explain.push(game.id, player=await player_name(app, game, ask), factor=ask.name)


async def repeal(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The latest Motion of Repeal's count; ``name``: the one against that Statute; ``round``: Motion #round."""
    return await app.clerk.convocate.explain.repeal(game.id, statute=ask.name, motion=ask.round)


async def repealed(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """A Motion of Repeal's card: that Motion's count (the card's number)."""
    return [WhyAsk("repeal", round=card.number)]


async def resolved(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """An ordinary Motion's resolution: nothing on it is counted, so there is nothing to explain."""
    raise RuleError(f"Motion #{card.number} resolves as its card says: who seconded it, what it does and who pays a "
                    f"Penalty are read from the board, not counted, so there is no number to explain. `/why` "
                    "explains: `standing` (every Standing Vote now), `push` (a Factor push's cost), `repeal` (a "
                    "Motion of Repeal's count).")


POSTS: dict[str, str | PostAsks] = {"repeal": repealed, "motion": resolved}
"""Announcement kind (``card_tag`` of a Motion's card) -> what **Explain this** asks of it."""


EXPLAIN: dict[str, Explainer] = {"standing": standing, "push": push, "repeal": repeal}
HELP = {"standing": "every Standing Vote now and political control; player: one player's, card by card; "
                    "round: as they stood when that turn ended",
        "push": "a Galactic Factor push's cost; player, name: the Factor (the latest push if left out)",
        "repeal": "a Motion of Repeal's count; name: the Statute (the latest if left out), round: the Motion's number"}
