"""Deadlines under the moderator's hand: ``/round remind``, ``/round extend by|to``, ``/round pause`` and
``/round resume``. Each is announced in the game channel, recorded as an event, and wakes the scheduler."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, command, require_game
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.render import reminder_messages, round_timing_text
from engine.core.durations import parse_deadline, parse_duration
from engine.service.views import GameView, RoundView


def _announce(app: App, g: GameView, view: RoundView, what: str) -> list[Outgoing]:
    app.deadlines_changed()
    text = round_timing_text(view, app.clerk.clock.now())
    return [reply(f"Done: {what}. {text}", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"The moderators {what}. {text}")]


@command("round remind", "DM every player who has not voted in the open round a reminder now.", moderator=True)
async def round_remind(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    reminder = await app.clerk.send_reminder(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    names = ", ".join(name for _, name in reminder.waiting) or "nobody (everyone has voted)"
    return [reply(f"Reminded: {names}.", ephemeral=True), *reminder_messages(reminder, app.clerk.clock.now())]


@command("round extend", "Move the open round's deadline: by a duration, or to a UTC time.",
         Option("by", str, "a duration to add, such as 2h or 1d"),
         Option("to", str, "the new deadline, a UTC time such as 2026-03-01 20:00"),
         moderator=True)
async def round_extend(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    by = parse_duration(o["by"]) if o.get("by") else None
    to = parse_deadline(o["to"], app.clerk.clock.now()) if o.get("to") else None
    view = await app.clerk.extend_round(g.id, by=by, to=to, actor=ctx.actor.id, source_id=ctx.source_id)
    return _announce(app, g, view, f"extended round {view.number}")


@command("round pause", "Stop the open round's deadline (ballots are still accepted).", moderator=True)
async def round_pause(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    view = await app.clerk.pause_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    return _announce(app, g, view, f"paused round {view.number}")


@command("round resume", "Start a paused round's deadline again with the time it had left.", moderator=True)
async def round_resume(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    view = await app.clerk.resume_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    return _announce(app, g, view, f"resumed round {view.number}")
