"""Message context-menu commands (right-click a message, Apps, ``Count as vote``): the thread forms applied to a
message the bot could not read because it runs without Discord's privileged Message Content intent. Discord sends
the message's content with the interaction whatever the intents (its "resolved" messages).

Each ruleset declares its entries (``Front.message_commands``); this module never names one. A player applies an
entry to their own message; a moderator (or whom the entry's ``for_others`` allows) to anyone's, and the event is
then marked as entered by them (``engine.service.proxy``). The message is recorded under its own source id
(``msg:<id>``), as if the bot had read it, so a message both read (it @mentioned the bot) and applied counts once."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx
from bot.actions.errors import apology, logged, storage_refusal
from bot.actions.explain_this import EXPLAIN_THIS, explain_this, explains_posts
from bot.actions.front import Front, MessageCommand
from bot.actions.outbox import (
    Answering,
    AnswerWith,
    Here,
    Outgoing,
    ToChannel,
    ToUser,
    answered_by_dm,
    owed_with,
    reply,
)
from bot.actions.routes import first_line
from engine.core.errors import ClerkError
from engine.core.text import normalise
from engine.service.marks import UNREAD
from engine.service.proxy import Proxy, entered_by
from engine.service.views import GameView
from engine.store.faults import StorageFault

log = logging.getLogger("clerk.messages")

TOLD = "told"
"""The value of a game's ``unread`` mark (``clerk.marks``): its channel was told how to post without the text of posts
being read."""


@dataclass(frozen=True)
class TargetMessage:
    """The message a context-menu command was used on, as Discord resolved it."""

    id: int
    author_id: int
    author_name: str
    author_is_bot: bool
    content: str


def message_command_names(app: App) -> list[str]:
    """Every entry's name once, in the fronts' order, and **Explain this** (every ruleset's that explains its
    posts): what the bot registers with Discord."""
    names = list(dict.fromkeys(m.name for f in app.fronts for m in f.message_commands))
    return [*names, EXPLAIN_THIS] if explains_posts(app) else names


def reads_messages(app: App) -> bool:
    """Whether the front end reads the text of server messages (Discord: the Message Content intent granted);
    the console always does."""
    return bool(app.settings.get("reads_messages", True))


def reading_lines(app: App, ruleset: str) -> list[str]:
    """What ``/help`` and a new game's reply say about posting forms, when the bot cannot read server messages."""
    if reads_messages(app):
        return []
    front = app.front(ruleset)
    if front is None or not front.thread_help:
        return []
    return ["This server's Clerk cannot read messages that do not mention it (no Message Content intent): "
            f"start a form with @Clerk to have it read{_menus(front)}; the slash commands and DMs work as usual."]


def _menus(front: Front) -> str:
    """How to count a message the bot could not read, in the words of ``/help``: the front's menu entries."""
    menus = " or ".join(f"**{m.name}**" for m in front.message_commands)
    return f", or right-click (long-press) your message, Apps, {menus}" if menus else ""


def unread_notice(app: App, game: GameView) -> str | None:
    """What a running game's channel is told when the bot starts without reading server messages (play-test R4.3),
    in the words of ``/help`` and a new game's reply (``reading_lines``), with an example: None when its ruleset
    reads no form from posts (``Front.thread_help``)."""
    front = app.front(game.ruleset)
    if front is None or not front.thread_help:
        return None
    example = front.thread_help[0][0]
    return (f"⚠️ **{game.name}**: from now on Clerk cannot read messages that do not mention it, here or in this "
            f"channel's threads (no Message Content intent: Discord no longer gives it their text). Start a form "
            f"with @Clerk to have it read (`@Clerk {example}`){_menus(front)}; a form posted without either is not "
            "read and gets no answer. The slash commands, buttons and DMs work as usual.")


def reading_again_notice(game: GameView) -> str:
    """What a channel told ``unread_notice`` is told when the bot starts reading server messages again."""
    return (f"✅ **{game.name}**: Clerk reads the messages posted in this channel and its threads again: forms work "
            "without @Clerk (and with it).")


async def reading_notices(app: App, answering: Answering | None = None) -> list[Outgoing]:
    """At a start of the front end (play-test R4.3): without the text of server messages, each running game whose
    ruleset reads forms from posts is told so once in its channel, and marked (``clerk.marks``, ``unread``), so a
    restart does not tell it again; with it, each game so marked is told that it reads them again, and the mark is
    cleared (a later start without it tells the game again). Each notice is owed in the transaction of its mark's
    write when the front end lets it (``answering``, as a handler's ``Ctx.answering``): a kill between the two
    cannot leave a game marked and never told, nor told twice."""
    marked = await app.clerk.marks.marked_games(UNREAD)
    reads = reads_messages(app)
    if reads and not marked:
        return []
    out: list[Outgoing] = []
    for game in await app.clerk.games.running_games():
        try:
            if reads:
                if game.id in marked:
                    back = _told(answering, game, reading_again_notice(game))
                    out += back.out(await app.clerk.marks.unmark(game.id, UNREAD, back.owed))
                continue
            text = unread_notice(app, game)
            if text is not None and game.id not in marked:
                told = _told(answering, game, text)
                out += told.out(await app.clerk.marks.mark(game.id, UNREAD, TOLD, told.owed))
        except Exception:  # neither marked nor told: the next start tries again; the other games are told now
            log.exception("telling game %s (%s) whether its posts are read failed", game.id, game.name)
    return out


def _told(answering: Answering | None, game: GameView, text: str) -> AnswerWith[bool]:
    """``text`` posted in ``game``'s channel if its mark's write changed the mark (its result: True)."""
    return AnswerWith(answering, lambda changed: [Outgoing(ToChannel(game.channel_id), text=text)] if changed else [])


async def made_unread(app: App, game: GameView) -> None:
    """A game made while the bot cannot read server messages: its ``/game new`` reply says how to post
    (``reading_lines``), so it is marked as told, and a later start without the text of posts does not tell its
    channel again (a start with it says they are read again)."""
    if not reading_lines(app, game.ruleset):
        return
    try:
        await app.clerk.marks.mark(game.id, UNREAD, TOLD)
    except Exception as error:  # the game is made: at worst its channel is told again at the next start
        log.warning("could not mark game %s as told that its posts are not read: %s", game.id, error)


def _private(out: list[Outgoing]) -> list[Outgoing]:
    return [dataclasses.replace(o, ephemeral=True) if isinstance(o.to, Here) else o for o in out]


async def handle_message_command(app: App, ctx: Ctx, name: str, message: TargetMessage) -> list[Outgoing]:
    """``name`` applied by ``ctx.actor`` to ``message`` (in ``ctx.place``): the answer to the applier (ephemeral)
    and what the form posts; a refusal says what was wrong and that nothing was recorded. **Explain this**
    (``bot/actions/explain_this.py``) records nothing: it answers what ``/why`` would of the result posted."""
    try:
        if name == EXPLAIN_THIS:
            return await explain_this(app, ctx, message.id)
        return await _apply(app, ctx, name, message)
    except StorageFault:
        return [reply(storage_refusal("the vote", "use the menu again in a minute"), ephemeral=True)]
    except ClerkError as error:
        return [reply(f"{error}\nNothing was recorded.", ephemeral=True)]
    except Exception:
        error_id = logged("%s by %s (%s) on message %s failed: %r", name, ctx.actor.name, ctx.actor.id, message.id,
                          message.content)
        return [reply(apology("it was NOT recorded; please try again in a minute", error_id), ephemeral=True)]


def _refuse(text: str) -> list[Outgoing]:
    return [reply(f"{text} Nothing was recorded.", ephemeral=True)]


async def _apply(app: App, ctx: Ctx, name: str, message: TargetMessage) -> list[Outgoing]:
    game = (await app.clerk.games.game_in_channel(ctx.place.channel_id)
            if ctx.place.channel_id is not None else None)
    if game is None:
        return _refuse(f"**{name}** is for messages in a game channel or its threads.")
    front = app.front(game.ruleset)
    entry: MessageCommand | None = next((m for m in (front.message_commands if front else ()) if m.name == name),
                                        None)
    if entry is None:
        own = [m.name for m in (front.message_commands if front else ())]
        return _refuse(f"**{name}** is not used in {game.name} ({game.ruleset.capitalize()})"
                       + (f"; its menu entries: {', '.join(own)}." if own else "."))
    if message.author_is_bot:
        return _refuse(f"That is a bot's message; **{name}** reads a player's.")
    own_message = message.author_id == ctx.actor.id
    if not own_message and not ctx.actor.moderates(game.moderator_role_id) and not (
            entry.for_others is not None and await entry.for_others(app, ctx, game, message.content)):
        return _refuse(f"Only its author or a moderator can use **{name}** on someone else's message.")
    text = normalise(message.content)
    line = first_line(text)
    # what the form posts is owed in its write's transaction, as for the applier's own interaction
    author = Ctx(Actor(message.author_id, message.author_name), ctx.place, f"msg:{message.id}", ctx.at, ctx.answering)
    if await app.clerk.pending_dms.recorded_in(f"msg:{message.id}") is not None:
        # read when it was posted (it mentioned the bot, or the bot had the intent), or through a menu before: it
        # counts once, and the answer says so in these words, not "it reached me twice" (play-test S5.3)
        return _refuse("That message was read already (when it was posted, or through this menu before) and "
                       "counted once then.")
    for matches, handler, anywhere in app.routes.thread_forms:
        if handler not in entry.forms or not matches(line):
            continue
        if ctx.place.thread_id is None and not anywhere:
            return _refuse(f"“{line[:100]}” counts only in a thread of the game channel.")
        if own_message:
            return _private(await handler(app, author, game, text))
        def told_them(told: str) -> str:
            return f"{ctx.actor.name} counted your message “{line[:100]}” in {game.name} ({name}).\n{told}"

        # the DM telling the author what the form answered, owed in the form's write's transaction with what it posts
        answering = answered_by_dm(ctx.answering, message.author_id, told_them)
        counted = dataclasses.replace(author, answering=answering)
        with entered_by(author.source_id, Proxy(ctx.actor.id, message.author_id, f"{name} on their message")):
            out = await handler(app, counted, game, text)
        if any(owed_with(answering, o) for o in out if isinstance(o.to, Here)):
            return _private(out)
        told = "\n".join(o.text for o in out if isinstance(o.to, Here) and o.text)
        return [*_private(out), Outgoing(ToUser(message.author_id), text=told_them(told))]  # a refusal: told after
    forms = "; ".join(f"`{example}`" for example, _ in (front.thread_help if front else ()))
    return _refuse(f"I could not read “{line[:100]}” as {entry.what}" + (f" (the forms: {forms})." if forms else "."))
