"""Plain messages: DMs (the forms the rulesets register, and the one DM fallback: a Landsdraad crisis ballot
``Vote: Aye, 14``), messages in the threads of a game channel, button presses, menu choices, and the timed work of
each pass (what closes at its deadline, the reminders, the rulesets' other due work)."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timedelta
from functools import partial

from bot.actions.commands import AmbiguousGame, App
from bot.actions.context import Ctx
from bot.actions.deadlines import reminder_messages
from bot.actions.dm_choice import ask_which
from bot.actions.errors import apology, logged, storage_refusal
from bot.actions.front import Front
from bot.actions.outbox import LIVE, SETTLED, TIMED, AnswerWith, Here, Outgoing, reply
from bot.actions.routes import first_line
from engine.core.errors import ClerkError, ParseError
from engine.core.text import later_lines, normalise, split_game_tag, struck_out
from engine.service.reminders import Reminder, reminder_source
from engine.service.uow import Duplicate
from engine.service.views import GameView
from engine.store.faults import StorageFault

log = logging.getLogger("clerk.messages")

HELP_FOR_MORE = "DM me `help` for everything else I read."
NOTHING_MATCHED = "I could not read that; DM me `help` to see what I take. Nothing was recorded."
"""The answer to a DM that no form matches, in an app with no DM fallback (``Routes.dm_fallback``)."""
NO_TEXT = ("Your message had no text I can read (I read only text: not pictures, files or stickers). What I read is "
           "below.")
"""Before the help, for a DM of no text: an attachment or a sticker alone reaches Clerk with none (play-test P5.1)."""


def struck_refusal(parts: list[str], rest: str) -> str:
    """The answer to a DM with struck-out text on its first line: it is read neither as meant nor as not meant, and
    nothing is recorded; the line without it is suggested (play-test P4.6: ``Vote: ~~Aye~~ Nay`` suggested Aye)."""
    shown = ", ".join(f"~~{p[:40]}~~" for p in parts[:3])
    meant = f"\nDid you mean “{rest[:200]}”?" if rest else ""
    return (f"Your message has struck-out text ({shown}). I don't read struck-out text as what you mean, nor guess "
            f"what you do: send the line without it.{meant}\nNothing was recorded.")


async def handle_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """A DM to the bot: a form of a ruleset (else the DM fallback, a crisis ballot), or an answer that says what was
    wrong. Nothing unreadable counts. The text
    is read after ``normalise`` (docs/input.md: fullwidth forms, zero-width characters, markdown, a mention in
    front)."""
    stripped = normalise(text).strip()
    if not stripped or stripped.lower() in {"help", "?", "!help", "/help"}:
        from bot.actions.help import answer, help_for  # for the games of the sender, by ruleset

        why = [] if stripped else [reply(NO_TEXT)]  # a picture, a file or a sticker alone (play-test P5.1)
        return [*why, *(answer(item, ephemeral=False) for item in await help_for(app, ctx, slash=False))]
    struck = struck_out(text)
    if struck is not None:  # ``Vote: ~~Aye~~ Nay``: what is struck out is not meant, the rest may be (P4.6)
        return [reply(struck_refusal(*struck))]
    try:
        for matches, handler in app.routes.dm_forms:
            if matches(stripped):
                return await handler(app, ctx, stripped)
        return await unmatched_dm(app, ctx, stripped)
    except AmbiguousGame as error:  # kept, and answered with a menu of the games it fits
        return await ask_which(app, ctx, text, error)
    except ParseError as error:
        return [reply(f"{error}\nNothing was recorded.")]
    except StorageFault:  # logged in one line by the service (storage_health.py)
        return [reply(storage_refusal("your ballot"))]
    except ClerkError as error:
        return [reply(f"{error}\nNothing was recorded.")]
    except Exception:
        error_id = logged("DM from %s (%s) failed: %r", ctx.actor.name, ctx.actor.id, text)
        return [reply(apology("your message was NOT recorded; please send it again in a minute", error_id))]


async def unmatched_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """A DM that no form matched: the DM fallback (a ruleset's, ``Routes.dm_fallback``) reads it. When it cannot
    (``ParseError``), the answer follows the rulesets of the sender's games: a sender who plays the fallback's
    ruleset (or no game) gets its answer, with what their other rulesets would have read (``Front.dm_meant``:
    ``Vote: Debs`` -> ``Primary: Debs``) under it; any other sender gets their own rulesets' near miss and forms.
    A refusal that is not about the text (a crisis ballot from a player of no such game) is answered as it is."""
    if app.routes.fallback is None:
        return await _not_read(app, ctx, text, None, NOTHING_MATCHED)
    try:
        return await app.routes.fallback(app, ctx, text)
    except ParseError as error:
        owner = next((f for f in app.fronts if f.routes.fallback is not None), None)
        # the fallback's refusal lists its own forms only: a try at another form of the game (a transfer, say)
        # is pointed to the rest
        return await _not_read(app, ctx, text, owner, f"{error}\n{HELP_FOR_MORE}\nNothing was recorded.", error)


async def _not_read(app: App, ctx: Ctx, text: str, owner: Front | None, answer: str,
                    error: ParseError | None = None) -> list[Outgoing]:
    """The answer to a DM that nothing read (``answer``, the fallback's when it has one), by the sender's rulesets
    (the remembered list of their games, else a fresh one)."""
    games = app.clerk.games.known_games(ctx.actor.id)
    if games is None:
        games = tuple(await app.clerk.games.games_of_user(ctx.actor.id))
    rows = [row for row in text.strip().splitlines() if row.strip()]
    quoted = first_line(text)  # a form is a message's first line: quoted alone, the others counted (play-test M5.10)
    quoted = f"“{quoted if len(quoted) <= 200 else quoted[:197] + '...'}”"
    if len(rows) > 1:
        quoted += f" (the first of your message's {len(rows)} lines)"
    if not games and error is not None:  # a stranger's "hi": who Clerk is and how a game starts, not a form's refusal
        from bot.actions.help import no_game

        return [reply(f"I couldn't read {quoted}. {no_game(app, dm=True)}\nNothing was recorded.")]
    rulesets = list(dict.fromkeys(g.ruleset for g in games))
    others = [f for name in rulesets if (f := app.front(name)) is not None and f is not owner]
    below = _form_below(app, text)
    if not others or (owner is not None and owner.name in rulesets):
        hints = await _meant(app, ctx.actor.id, others, games, text, several=True)
        if error is None or not hints:
            return [reply(answer)]
        return [reply("\n".join([str(error), *hints, HELP_FOR_MORE, "Nothing was recorded."]))]
    forms = "; ".join(f"`{example}`" for f in others for example, _ in f.dm_help)
    hints = ([f"Only a message's first line is read, and “{below}” is below it: send that line as a message of "
              "its own."] if below is not None
             else await _meant(app, ctx.actor.id, others, games, text, several=len(others) > 1))
    return [reply("\n".join([f"I couldn't read {quoted}.", *hints,
                             f"Accepted: {forms}; DM me `help` for what each does.", "Nothing was recorded."]))]


def _form_below(app: App, text: str) -> str | None:
    """The first of a message's next few lines that a DM form reads, collapsed (``Hello`` then ``Primary: Kit``):
    only the first line is read, so the answer points to it (play-test M5.10)."""
    for _, line in later_lines(text):
        if any(matches(line) for matches, _ in app.routes.dm_forms):
            return line[:100]
    return None


async def _meant(app: App, user_id: int, fronts: list[Front], games: tuple[GameView, ...], text: str, *,
                 several: bool) -> list[str]:
    """``Did you mean “Primary: Debs”?`` for each of ``fronts`` that has a near miss of ``text``; with ``several``,
    each names its games: ``In #m (Mylantium), did you mean …``. A near miss is suggested only in the games that
    would take it (``Front.dm_meant_refusal``); where none would, the answer says why instead (play-test M5.4)."""
    lines = []
    for front in fronts:
        meant = front.dm_meant(text)
        if meant is None:
            continue
        mine = [g for g in games if g.ruleset == front.name]
        named = split_game_tag(meant)[1]
        if named is not None:
            mine = [g for g in mine if g.name.lower() == named.lower()] or mine
        refusals: dict[int, str] = {}
        if front.dm_meant_refusal is not None:
            for g in mine:
                why = await front.dm_meant_refusal(app, g, user_id, meant)
                if why is not None:
                    refusals[g.id] = why
        taking = [g for g in mine if g.id not in refusals]
        if not taking and mine:
            first = mine[0]
            where = f" in #{first.name}" if several or len(mine) > 1 else ""
            lines.append(f"If you meant “{meant}”, it would not be taken{where} either: "
                         f"{refusals[first.id].rstrip('.')}.")
        elif several or len(taking) < len(mine):
            names = ", ".join(f"#{g.name}" for g in taking)
            lines.append(f"In {names} ({front.name.capitalize()}), did you mean “{meant}”?")
        else:
            lines.append(f"Did you mean “{meant}”?")
    return lines


async def handle_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of one of Clerk's buttons (``ctx.source_id`` is the interaction's, so a redelivered press counts
    once). The answer to the presser is ephemeral; a refusal says why and that nothing was recorded."""
    handler = app.routes.buttons.handler(custom_id)
    if handler is None:
        return [reply("This button is no longer in use; nothing was recorded.", ephemeral=True)]
    try:
        out = await handler(app, ctx, custom_id)
    except StorageFault:
        return [reply(storage_refusal("your answer", "press again in a minute"), ephemeral=True)]
    except ClerkError as error:
        return [reply(f"{error}\nNothing was recorded.", ephemeral=True)]
    except Exception:
        error_id = logged("button %r pressed by %s (%s) failed", custom_id, ctx.actor.name, ctx.actor.id)
        return [reply(apology("your answer was NOT recorded; please press again in a minute, or answer by DM",
                              error_id), ephemeral=True)]
    done = {} if any(o.extra.get(LIVE) for o in out) else {SETTLED: "yes"}
    return [dataclasses.replace(o, ephemeral=True, extra={**o.extra, **done}) if isinstance(o.to, Here)
            else o for o in out]


async def handle_select(app: App, ctx: Ctx, custom_id: str, values: tuple[str, ...]) -> list[Outgoing]:
    """A choice in one of Clerk's select menus (``ctx.source_id`` is the interaction's). The answer to the chooser
    is a normal message in a DM (a receipt stays in the history like the reply to a typed DM), else ephemeral; a
    refusal says why and that nothing was recorded."""
    handler = app.routes.selects.handler(custom_id)
    if handler is None:
        return [reply("This menu is no longer in use; nothing was recorded.", ephemeral=not ctx.place.is_dm)]
    try:
        out = await handler(app, ctx, custom_id, values)
    except StorageFault:
        return [reply(storage_refusal("your choice", "choose again in a minute"), ephemeral=not ctx.place.is_dm)]
    except ClerkError as error:
        return [reply(f"{error}\nNothing was recorded.", ephemeral=not ctx.place.is_dm)]
    except Exception:
        error_id = logged("menu %r chosen %r by %s (%s) failed", custom_id, values, ctx.actor.name, ctx.actor.id)
        return [reply(apology("your choice was NOT recorded; please choose again in a minute", error_id),
                      ephemeral=not ctx.place.is_dm)]
    return [dataclasses.replace(o, ephemeral=not ctx.place.is_dm) if isinstance(o.to, Here) else o for o in out]


async def handle_channel_message(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """A message in a server channel. Only the first line of a message in a thread of a game channel is read
    (Discord's stand-in for a post title, R0-40); chat that is not a vote gets no answer."""
    text = normalise(text)  # as in a DM (docs/input.md)
    if ctx.place.channel_id is None or not text.strip():
        return []
    game = await app.clerk.games.game_in_channel(ctx.place.channel_id)
    if game is None:
        return []
    line = first_line(text)
    try:
        for matches, handler, anywhere in app.routes.thread_forms:
            if matches(line):
                if ctx.place.thread_id is None and not anywhere:
                    return [reply("Votes go in a thread of this channel (the first line of your message is its "
                                  "title), by DM for `AG Vote:`, or with /pv support and /ag vote. Nothing was "
                                  "recorded.")]
                return await handler(app, ctx, game, text)
    except StorageFault:
        return [reply(storage_refusal("your vote", "post it again in a minute"))]
    except ClerkError as error:
        return [reply(f"{error}\nNothing was recorded.")]
    except Exception:
        error_id = logged("thread message from %s (%s) failed: %r", ctx.actor.name, ctx.actor.id, text)
        return [reply(apology("your vote was NOT recorded; please post it again in a minute", error_id))]
    return []


async def close_due(app: App, now: datetime) -> list[Outgoing]:
    """The timed work of a pass: what closes at its deadline (``Front.closing``; each closes exactly once), the
    reminders whose instant has come, then the rulesets' other due work (``Front.due``). One that fails is logged
    and left for the next pass; the others are still done."""
    out: list[Outgoing] = []
    for front in app.fronts:
        for task in front.closing:
            out += await task(app, now)
    out += await remind_due(app, now)
    for front in app.fronts:
        for task in front.due:
            out += await task(app, now)
    return out


def too_late(instant: datetime, offset: int, now: datetime) -> bool:
    """Is a reminder of ``instant``, ``offset`` seconds before its deadline, done so late (``now``) that the deadline
    has come? Then it is not sent (``remind_due``), and the console says so (play-test M4.10)."""
    return instant + timedelta(seconds=offset) <= now


def _reminded(app: App, now: datetime, sent: bool, reminder: Reminder) -> list[Outgoing]:
    """The DMs of ``reminder`` when it is ``sent`` (the latest due of its round or election, not too late)."""
    return reminder_messages(app, reminder, now) if sent else []


async def remind_due(app: App, now: datetime) -> list[Outgoing]:
    """Send every reminder whose instant has come, once (recorded under its ``remind:`` source id). When several
    of one round or election are due at once (the bot was offline), only the latest is delivered. Its DMs are owed
    in the transaction that records it (``TIMED``), so a kill between the two loses none."""
    due = [r for r in await app.clerk.reminders.pending_reminders() if r[4] <= now]
    last = {(g, kind, n): offset for g, kind, n, offset, _ in due}  # offsets are descending per target in time
    out: list[Outgoing] = []
    for game_id, kind, number, offset, instant in due:
        # a reminder done so late that its deadline has come asks for a vote that can no longer count: recorded as
        # done, not delivered (play-test M4.10)
        past = too_late(instant, offset, now)
        sent = last[(game_id, kind, number)] == offset and not past
        answered: AnswerWith[Reminder] = AnswerWith(TIMED.get(), partial(_reminded, app, now, sent))
        try:
            reminder = await app.clerk.reminders.send_reminder(game_id, kind=kind, number=number, offset=offset,
                                                               actor=None,
                                                               source_id=reminder_source(game_id, kind, number, offset),
                                                               skipped="its deadline had come" if past else None,
                                                               answer=answered.owed)
        except Duplicate:
            continue
        except Exception:
            log.exception("the %s reminder of %s %s in game %s failed", offset, kind, number, game_id)
            continue
        out += answered.out(reminder)
    return out
