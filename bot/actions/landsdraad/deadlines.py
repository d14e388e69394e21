"""A Landsdraad round's deadline under the moderator's hand: ``/round remind``, ``/round extend by|to``, ``/round
pause`` and ``/round resume``. Each is announced in the game channel, recorded as an event, and wakes the
scheduler. (The receipt and DMs of a reminder are shared: ``bot/actions/deadlines.py``.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as, reminded_reply, reminder_messages
from bot.actions.landsdraad.render import round_timing_text
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from engine.core.durations import parse_duration
from engine.core.errors import RuleError
from engine.service.landsdraad.views import RoundView
from engine.service.reminders import Reminder
from engine.service.views import GameView

ROUTES = Routes()
"""The commands of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)


def _announced(app: App, ctx: Ctx, g: GameView, what: Callable[[RoundView], str], read: str = ""
               ) -> AnswerWith[RoundView]:
    """The moderator's answer and the line in the game channel, made of the write's result (``what`` it did) and
    owed in its transaction (``AnswerWith``)."""

    def said(view: RoundView) -> list[Outgoing]:
        text = round_timing_text(view, app.clerk.clock.now())
        return [reply(f"Done: {what(view)}. {text}{read}", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=f"The moderators {what(view)}. {text}")]

    return AnswerWith(ctx.answering, said)


@command("round remind", "DM every player who has not voted in the open round (and AG election) a reminder now.",
         moderator=True)
async def round_remind(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The open round's non-voters, and the open AG election's (also one that closes with the round); each
    reminder is recorded as a ``ReminderSent`` event under the command's source id (the AG one with ``:ag``), its
    DMs owed in that transaction (``AnswerWith``)."""
    g = require_game(game)
    now = app.clerk.clock.now()
    current = await app.clerk.landsdraad.rounds.round_of(g.id) if g.current_round else None
    if current is not None and current.status == "open" and current.deadline is not None and current.deadline <= now:
        raise RuleError(f"Round {current.number}'s deadline has passed, so a ballot sent now would be refused as late; "
                        "nobody was reminded. The round closes now.")
    reminders: list[Reminder] = []
    dms: list[Outgoing] = []

    async def remind(kind: str, source_id: str | None) -> None:
        answered: AnswerWith[Reminder] = AnswerWith(ctx.answering, lambda r: reminder_messages(app, r, now))
        reminder = await app.clerk.reminders.send_reminder(g.id, kind=kind, actor=ctx.actor.id, source_id=source_id,
                                                           answer=answered.owed)
        reminders.append(reminder)
        dms.extend(answered.out(reminder))

    no_round: RuleError | None = None
    try:
        await remind("round", ctx.source_id)
    except RuleError as error:  # no round is open: the AG election alone, if there is one
        no_round = error
    election = await app.clerk.landsdraad.adjutant.election(g.id)
    if election is not None and election.status == "open":
        await remind("ag", f"{ctx.source_id}:ag" if ctx.source_id else None)
    if not reminders:
        assert no_round is not None
        raise RuleError(f"{no_round} No Adjutant General election is open either; there is nobody to remind.")
    return [reminded_reply(app, reminders), *dms]


@command("round extend", "Move the open round's deadline: by a duration, or to a time.",
         Option("by", str, "a duration to add, such as 2h or 1d"),
         Option("to", str, "the new deadline: a time such as 2026-03-01 20:00, or a Discord timestamp"),
         moderator=True)
async def round_extend(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    by = parse_duration(o["by"]) if o.get("by") else None
    read = await game_deadline(app, g.id, o["to"]) if o.get("to") else None
    before = (await app.clerk.landsdraad.rounds.round_of(g.id)).deadline if read is not None else None
    earlier = before is not None and read is not None and read.when < before  # `to` may shorten the round too
    answered = _announced(app, ctx, g, lambda view: f"moved round {view.number}'s deadline earlier" if earlier
                          else f"extended round {view.number}", read_as(o.get("to"), read))
    view = await app.clerk.landsdraad.rounds.extend_round(g.id, by=by, to=read.when if read else None,
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(view)


@command("round pause", "Stop the open round's deadline (ballots are still accepted).", moderator=True)
async def round_pause(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    answered = _announced(app, ctx, g, lambda view: f"paused round {view.number}")
    view = await app.clerk.landsdraad.rounds.pause_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                         answer=answered.owed)
    app.deadlines_changed()
    return answered.out(view)


@command("round resume", "Start a paused round's deadline again with the time it had left.", moderator=True)
async def round_resume(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    answered = _announced(app, ctx, g, lambda view: f"resumed round {view.number}")
    view = await app.clerk.landsdraad.rounds.resume_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(view)
