"""A game that has ended is closed (issue 16): ``/game reopen`` to correct a mistake, and ``/game close`` for the games
whose ruleset has no ending of its own that a moderator runs (``Front.ends_with`` names it for those that have one,
a command that also scores the game).

Once a game has ended, dispatch refuses every command not marked ``reads`` with the closed line, and the event append
(``engine.service.uow``) refuses every change made any other way (DMs, presses, menus, thread posts, timed work)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from engine.core.durations import format_utc
from engine.core.errors import RuleError
from engine.service.games import Closed, Reopened
from engine.service.views import GameView

ROUTES = Routes()
"""``/game reopen`` and ``/game close`` (``bot/actions/rulesets.py`` merges them)."""
REASON = 300
"""Characters of a reason at most."""


def ends_with(app: App, game: GameView) -> str:
    """The command that ends a game of ``game``'s ruleset: its front's own, else ``/game close``."""
    front = app.front(game.ruleset)
    return front.ends_with if front is not None and front.ends_with else "/game close"


def moved(done: Reopened) -> str:
    """What a reopening's announcement says of the deadlines that were running when the game ended: each runs on
    from the reopening with the time it had left then, so it now ends later (play-test X5.6). Empty when none ran."""
    if not done.deadlines:
        return ""
    each = "; ".join(f"{what} now ends {format_utc(when)}" for what, when in done.deadlines)
    return (f"\nWhat was running when it ended runs on with the time it had left then: {each}.")


def _reason(o: dict[str, Any]) -> str | None:
    reason = (o.get("reason") or "").strip()
    if len(reason) > REASON:
        raise RuleError(f"The reason is at most {REASON} characters (this one has {len(reason)}); nothing was changed.")
    return reason or None


@ROUTES.command("game reopen", "Reopen an ended game to correct a mistake (moderators; recorded and announced).",
                Option("reason", str, "what is to be corrected, e.g. erin was added after the end"),
                moderator=True, closing=True)
async def game_reopen(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    again = ends_with(app, g)

    def said(done: Reopened) -> list[Outgoing]:  # owed in the reopening's transaction (``AnswerWith``)
        why = f" ({done.reason})" if done.reason else ""
        return [reply(f"{g.name} is open again: every command works as before it ended on "
                      f"{format_utc(done.ended_at)}. When the correction is made, end it again with {again}."
                      + moved(done), ephemeral=True),
                Outgoing(ToChannel(g.channel_id),
                         f"**{g.name}** was reopened by <@{ctx.actor.id}> to correct a mistake{why}. It had ended on "
                         f"{format_utc(done.ended_at)}; the moderators end it again with {again} once it is "
                         "corrected." + moved(done))]

    answered = AnswerWith(ctx.answering, said)
    done = await app.clerk.games.reopen(g.id, actor=ctx.actor.id, reason=_reason(o), source_id=ctx.source_id,
                                        answer=answered.owed)
    app.deadlines_changed()
    return answered.out(done)


@ROUTES.command("game close", "End a game whose ruleset has no end a moderator runs: its ledger closes "
                "(moderators).", Option("reason", str, "why it ends, e.g. the table has finished"),
                moderator=True)
async def game_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    front = app.front(g.ruleset)
    if front is not None and front.ends_with:
        raise RuleError(f"{g.ruleset.capitalize()} games end with {front.ends_with}; nothing was changed.")

    def said(done: Closed) -> list[Outgoing]:  # owed in the close's transaction (``AnswerWith``)
        why = f" ({done.reason})" if done.reason else ""
        text = f"**{g.name}** has ended{why}: its ledger is closed. A moderator's /game export has everything."
        if done.again:  # what changed while it was reopened, read in the close's transaction
            kinds = Counter(done.changes)
            listed = ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in kinds.items()) or "nothing"
            text = (f"**Correction: {g.name}** has ended again, closed by <@{ctx.actor.id}>{why}. Changed while it "
                    f"was reopened: {listed} (the moderators' /log has each).")
        return [reply(f"{g.name} is closed.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text)]

    answered = AnswerWith(ctx.answering, said)
    done = await app.clerk.games.close(g.id, actor=ctx.actor.id, reason=_reason(o), source_id=ctx.source_id,
                                       answer=answered.owed)
    app.deadlines_changed()
    out = answered.out(done)
    if front is not None and front.final_post is not None:  # the game as it ended (play-test X4.1)
        ended = await app.clerk.games.game_in_channel(g.channel_id)
        out += await front.final_post(app, ended if ended is not None else g)
    return out
