"""A Landsdraad round's deadline under the moderator's hand: ``/round remind``, ``/round extend by|to``, ``/round
pause`` and ``/round resume``. Each is announced in the game channel, recorded as an event, and wakes the
scheduler. (The receipt and DMs of a reminder are shared: ``bot/actions/deadlines.py``.)"""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as, reminded
from bot.actions.landsdraad.render import round_timing_text
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from engine.core.durations import parse_duration
from engine.core.errors import RuleError
from engine.service.landsdraad.views import RoundView
from engine.service.reminders import Reminder
from engine.service.views import GameView

ROUTES = Routes()
"""The commands of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)


def _announce(app: App, g: GameView, view: RoundView, what: str, read: str = "") -> list[Outgoing]:
    app.deadlines_changed()
    text = round_timing_text(view, app.clerk.clock.now())
    return [reply(f"Done: {what}. {text}{read}", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"The moderators {what}. {text}")]


@command("round remind", "DM every player who has not voted in the open round (and AG election) a reminder now.",
         moderator=True)
async def round_remind(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The open round's non-voters, and the open AG election's (also one that closes with the round); each
    reminder is recorded as a ``ReminderSent`` event under the command's source id (the AG one with ``:ag``)."""
    g = require_game(game)
    now = app.clerk.clock.now()
    current = await app.clerk.landsdraad.rounds.round_of(g.id) if g.current_round else None
    if current is not None and current.status == "open" and current.deadline is not None and current.deadline <= now:
        raise RuleError(f"Round {current.number}'s deadline has passed, so a ballot sent now would be refused as late; "
                        "nobody was reminded. The round closes now.")
    reminders: list[Reminder] = []
    no_round: RuleError | None = None
    try:
        reminders.append(await app.clerk.reminders.send_reminder(g.id, kind="round", actor=ctx.actor.id,
                                                                 source_id=ctx.source_id))
    except RuleError as error:  # no round is open: the AG election alone, if there is one
        no_round = error
    election = await app.clerk.landsdraad.adjutant.election(g.id)
    if election is not None and election.status == "open":
        reminders.append(await app.clerk.reminders.send_reminder(
            g.id, kind="ag", actor=ctx.actor.id, source_id=f"{ctx.source_id}:ag" if ctx.source_id else None))
    if not reminders:
        assert no_round is not None
        raise RuleError(f"{no_round} No Adjutant General election is open either; there is nobody to remind.")
    return reminded(app, reminders)


@command("round extend", "Move the open round's deadline: by a duration, or to a time.",
         Option("by", str, "a duration to add, such as 2h or 1d"),
         Option("to", str, "the new deadline: a time such as 2026-03-01 20:00, or a Discord timestamp"),
         moderator=True)
async def round_extend(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    by = parse_duration(o["by"]) if o.get("by") else None
    read = await game_deadline(app, g.id, o["to"]) if o.get("to") else None
    before = (await app.clerk.landsdraad.rounds.round_of(g.id)).deadline if read is not None else None
    view = await app.clerk.landsdraad.rounds.extend_round(g.id, by=by, to=read.when if read else None,
                                                          actor=ctx.actor.id, source_id=ctx.source_id)
    earlier = before is not None and read is not None and read.when < before  # `to` may shorten the round too
    what = f"moved round {view.number}'s deadline earlier" if earlier else f"extended round {view.number}"
    return _announce(app, g, view, what, read_as(o.get("to"), read))


@command("round pause", "Stop the open round's deadline (ballots are still accepted).", moderator=True)
async def round_pause(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    view = await app.clerk.landsdraad.rounds.pause_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    return _announce(app, g, view, f"paused round {view.number}")


@command("round resume", "Start a paused round's deadline again with the time it had left.", moderator=True)
async def round_resume(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    view = await app.clerk.landsdraad.rounds.resume_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    return _announce(app, g, view, f"resumed round {view.number}")
