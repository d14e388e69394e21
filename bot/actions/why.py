"""``/why``: where a posted number comes from, step by step, for every ruleset (docs/commands.md, "/why").

Shared code: each front names its subjects and their ``Explainer`` (``Front.explain``); this command finds the
game, the asker's standing in it (player, moderator), asks the ruleset's explainer for the whole derivation and keeps
what the asker may see (``engine.core.derivation.Derivation.seen_by``). Only the asker sees the answer."""

from __future__ import annotations

from typing import Any

from bot.actions.admin import split_messages
from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx, UserRef
from bot.actions.front import Front, WhyAsk
from bot.actions.outbox import Outgoing, reply
from bot.actions.routes import Routes
from bot.actions.suggest_sources import Asking, Suggestion, source
from engine.core.derivation import Derivation, lines
from engine.core.errors import RuleError
from engine.service.views import GameView

ROUTES = Routes()


def subjects_line(front: Front) -> str:
    """``result`` (the round's result; round), ``votes`` (...): what ``/why`` explains in this ruleset's games."""
    return "; ".join(f"`{name}`" + (f" ({front.explain_help[name]})" if name in front.explain_help else "")
                     for name in front.explain)


@source("why")
async def subjects(asking: Asking) -> list[Suggestion]:
    """The subjects ``/why`` explains in the game's ruleset, each with what it explains."""
    front = asking.app.front(asking.game.ruleset)
    if front is None:
        return []
    return [Suggestion(f"{name}: {front.explain_help[name]}" if name in front.explain_help else name, name)
            for name in front.explain]


async def asker(app: App, ctx: Ctx, game: GameView) -> tuple[str | None, bool]:
    """The asker's player name in ``game`` (None if they play none of it) and whether they moderate it."""
    names = await app.clerk.games.player_names(game.id)
    return names.get(ctx.actor.id), ctx.actor.moderates(game.moderator_role_id)


async def explain(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The derivation ``ask`` names, as the asker may see it (the explainer gives it whole)."""
    front = app.front(game.ruleset)
    if front is None or not front.explain:
        raise RuleError(f"/why has nothing to explain in {game.name} yet.")
    what = ask.what or next(iter(front.explain))
    explainer = front.explain.get(what)
    if explainer is None:
        raise RuleError(f"/why cannot explain “{what}” in {game.name}. It explains: {subjects_line(front)}.")
    viewer, moderator = await asker(app, ctx, game)
    ask = WhyAsk(what, ask.round, ask.player, ask.name, viewer, moderator)
    return (await explainer(app, ctx, game, ask)).seen_by(viewer, moderator)


def answer(derivation: Derivation, moderator: bool) -> list[Outgoing]:
    """The derivation as the asker's private messages (as few as it fits in)."""
    head, *rest = lines(derivation, moderator)
    return [reply(t, ephemeral=True) for t in split_messages(head, rest)]


@ROUTES.command("why", "Where a number Clerk posted comes from, step by step (only you see it).",
                Option("what", str, "what to explain (the result of a round, a player's votes, a score, ...)",
                       autocomplete="why"),
                Option("round", int, "the round (turn, election) it belongs to; the latest if left out", min_value=0),
                Option("player", UserRef, "the player whose number it is"),
                Option("name", str, "a category or award of a score, a candidate, a card or a statute"),
                game="any", reads=True)
async def why(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    player = o.get("player")
    assert player is None or isinstance(player, UserRef)
    ask = WhyAsk((o.get("what") or "").strip().lower(), o.get("round"), player, o.get("name"))
    derivation = await explain(app, ctx, g, ask)
    return answer(derivation, ctx.actor.moderates(g.moderator_role_id))
