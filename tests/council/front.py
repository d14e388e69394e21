"""The council on Discord and in the console: its commands (``/council seat``, ``/council open``, ``/council
close``), its DM form (``Council: yes`` / ``Council: no``), its Yes/No buttons on the DM the open sends each member,
its timed work (the reminder, the close at the deadline), the announcement of a result again after a crash, and its
front record ``FRONT``. Everything is registered on its own ``ROUTES``; nothing here edits a shared module."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, game_of_user, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.front import Front
from bot.actions.outbox import LIVE, POSTED, Button, Card, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import Routes
from engine.core.durations import format_remaining, format_utc, parse_deadline
from engine.service.announcements import posted_marker
from engine.service.uow import Duplicate
from engine.service.views import GameView
from engine.store.faults import StorageFault

from .rules import looks_like, parse_ballot
from .service import NAME, REMIND_BEFORE, Cast, Closed, CouncilService, Opened, Reminder

log = logging.getLogger("clerk.council")

ROUTES = Routes()
M = CommandFlags(moderator=True, ruleset=NAME)
PRESS = "clerk:council"
"""The buttons' prefix: ``clerk:council:<game>:<vote>:yes|no``."""


def council(app: App) -> CouncilService:
    service = app.clerk.plugged[NAME]
    assert isinstance(service, CouncilService)
    return service


def deadline_text(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return "none (a moderator closes it with /council close)"
    return f"{format_utc(deadline)} (in {format_remaining(deadline - now)})"


def ballot_text(cast: Cast) -> str:
    side = "yes" if cast.yes else "no"
    changed = " (it replaces your earlier one)" if cast.changed else ""
    return (f"Recorded: {side} on vote {cast.number} of {cast.game.name}, with your weight {cast.weight}{changed}. "
            "You may change it until the vote closes.")


def opened_messages(opened: Opened, now: datetime) -> list[Outgoing]:
    vote, game = opened.vote, opened.game
    card = Card(f"{game.name}: council vote {vote.number} is open", vote.question,
                (("Deadline", deadline_text(vote.deadline, now), False),
                 ("How to vote", "DM me `Council: yes` or `Council: no`, or press a button on my DM.", False)))
    out = [reply(f"Council vote {vote.number} is open and announced.", ephemeral=True),
           Outgoing(ToChannel(game.channel_id), card=card)]
    for user_id, (_, weight) in sorted(opened.members.items()):
        prefix = f"{PRESS}:{game.id}:{vote.number}"
        out.append(Outgoing(ToUser(user_id), f"Council vote {vote.number} of {game.name} is open: {vote.question}\n"
                            f"Your ballot carries your weight {weight}. Deadline: {deadline_text(vote.deadline, now)}."
                            "\nPress a button (or DM me `Council: yes|no`); a later one replaces it until the close.",
                            buttons=(Button("Yes", f"{prefix}:yes", "success"),
                                     Button("No", f"{prefix}:no", "danger"))))
    return out


def result_card(closed: Closed) -> Outgoing:
    r = closed.result
    verdict = "carried" if r.carried else "failed"
    fields = [("Yes", f"{r.yes} weight", True), ("No", f"{r.no} weight", True)]
    if r.abstained:
        fields.append(("Did not vote", ", ".join(r.abstained), False))
    card = Card(f"{closed.game.name}: council vote {closed.number} {verdict}", closed.question, tuple(fields),
                footer="Yes carries only with more weight than no.")
    marker = posted_marker(NAME, closed.game.id, closed.number)
    return Outgoing(ToChannel(closed.game.channel_id), card=card, extra={POSTED: marker})


def reminder_messages(reminder: Reminder, now: datetime) -> list[Outgoing]:
    return [Outgoing(ToUser(u), f"Reminder: council vote {reminder.number} of {reminder.game.name} "
                                f"({reminder.question}) closes {deadline_text(reminder.deadline, now)}, and you have "
                                "not voted. DM me `Council: yes` or `Council: no`.")
            for u in reminder.waiting]


# -- commands -----------------------------------------------------------------------------------------------------


@ROUTES.command("council seat", "Seat a member of the council with their weight, or change a member's weight.",
                Option("user", UserRef, "the member", True),
                Option("weight", int, "how much their ballot weighs (1 or more)", True, min_value=1), **M)
async def seat(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    user = user_option(o, "user")
    new = await council(app).seat(g.id, user_id=user.id, name=user.name, weight=o["weight"], actor=ctx.actor.id,
                                  source_id=ctx.source_id)
    what = "Seated" if new else "Changed the weight of"
    return [reply(f"{what} {user.name} in the council of {g.name}: weight {o['weight']}.", ephemeral=True)]


@ROUTES.command("council open", "Open a yes/no council vote; each member gets a DM with buttons.",
                Option("question", str, "what the council decides", True),
                Option("deadline", str, "when it closes: a duration (24h) or a UTC time (default: a moderator "
                                        "closes it)"), **M)
async def open_vote(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    now = app.clerk.clock.now()
    deadline = parse_deadline(o["deadline"], now) if o.get("deadline") else None
    opened = await council(app).open_vote(g.id, question=o["question"], deadline=deadline, actor=ctx.actor.id,
                                          source_id=ctx.source_id)
    app.deadlines_changed()
    return opened_messages(opened, now)


@ROUTES.command("council close", "Close the open council vote now and announce the result.", **M)
async def close_vote(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    closed = await council(app).close(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    app.deadlines_changed()
    return [reply(f"Council vote {closed.number} is closed.", ephemeral=True), result_card(closed)]


# -- ballots: by DM and by button -----------------------------------------------------------------------------


@ROUTES.dm_form(looks_like)
async def ballot_by_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    yes, named = parse_ballot(text)
    game = await game_of_user(app, ctx.actor.id, named, NAME, what="`Council: yes`", example="Council: yes")
    cast = await council(app).cast(game.id, user_id=ctx.actor.id, yes=yes, number=None, source_id=ctx.source_id)
    return [reply(ballot_text(cast))]


@ROUTES.button(PRESS)
async def ballot_by_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    game_id, number, answer = custom_id.removeprefix(PRESS + ":").split(":")
    cast = await council(app).cast(int(game_id), user_id=ctx.actor.id, yes=answer == "yes", number=int(number),
                                   source_id=ctx.source_id)
    out = reply(ballot_text(cast))
    return [Outgoing(out.to, out.text, extra={LIVE: "yes"})]  # the buttons stay: a changed mind presses again


# -- timed work and recovery ------------------------------------------------------------------------------------


async def due(app: App, now: datetime) -> list[Outgoing]:
    """Close each vote whose deadline has come (``deadline:<game>:council:<n>``: once, however many passes or
    processes), and send the one reminder of each that is ``REMIND_BEFORE`` from its deadline (``remind:...``)."""
    service = council(app)
    out: list[Outgoing] = []
    for game_id, vote in await service.open_votes():
        assert vote.deadline is not None
        remind_at = vote.reminder_due(REMIND_BEFORE)
        try:
            if vote.deadline <= now:
                closed = await service.close(game_id, actor=None, expected=vote.number,
                                             source_id=f"deadline:{game_id}:{NAME}:{vote.number}")
                out += [] if closed.already else [result_card(closed)]
            elif remind_at is not None and remind_at <= now:
                reminder = await service.remind(game_id, vote.number)
                out += reminder_messages(reminder, now) if reminder is not None else []
        except (Duplicate, StorageFault):  # done by another pass or process; or left for a pass once writes work
            continue
        except Exception:
            log.exception("the council's timed work on vote %s of game %s failed", vote.number, game_id)
    return out


async def again(app: App, game_id: int, number: int) -> list[Outgoing]:
    """A vote closed but never announced (the bot was killed between the two): its result card again."""
    closed = await council(app).closed_vote(game_id, number)
    return [result_card(closed)] if closed is not None else []


FRONT = Front(
    NAME,
    ROUTES,
    dm_help=(("Council: yes", "your ballot on the open council vote (`Council: no` against); a later one replaces "
                              "it until the close"),),
    next_steps="Seat the members with /council seat, then open a vote with /council open.",
    due=(due,),
    recover={NAME: again},
)
