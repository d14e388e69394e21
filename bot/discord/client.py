"""The bot: a ``discord.Client`` with an app-command tree built from the command table, a listener for DMs and
for messages in game channels and their threads, one error handler for slash commands, and the deadline
scheduler."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.actions.commands import App, dispatch
from bot.actions.errors import apology
from bot.actions.message_commands import (
    TargetMessage,
    handle_message_command,
    message_command_names,
    reading_notices,
)
from bot.actions.messages import handle_button, handle_channel_message, handle_dm, handle_select
from bot.actions.outbox import Outgoing, reply
from bot.actions.owed_files import charts_at_start
from bot.actions.recovery import unanswered_receipts
from bot.discord.autocomplete import choices
from bot.discord.backpressure import Intake, install_backpressure
from bot.discord.buttons import ClerkButton, disable_buttons, settled
from bot.discord.catch_up import CatchUp
from bot.discord.contexts import (
    DirectMessage,
    ctx_of_dm,
    ctx_of_guild_message,
    ctx_of_interaction,
    ctx_of_message,
    dm_of,
    option_value,
    uploaded,
)
from bot.discord.delivery import Courier
from bot.discord.health import Gateway, count_discord_errors
from bot.discord.http_tuning import tune_http
from bot.discord.pacing import DISCORD_GLOBAL_LIMIT, Pacer
from bot.discord.reconnect import install_reconnect_cap
from bot.discord.relief import Relief
from bot.discord.scheduler import DeadlineScheduler, deadline_lease
from bot.discord.selects import ClerkSelect, disable_select
from bot.discord.storage_reports import StorageReports
from bot.discord.threads import Locks
from bot.discord.tree import commands_for, message_menu
from bot.tasks import cancel_and_wait

log = logging.getLogger("clerk.discord")

DEFER_AFTER = 2.0
"""Seconds a command may take before its interaction is deferred (Discord wants an answer within 3 s)."""

SYNC_RETRY = 60.0
"""Seconds after a refused sync of the slash commands before it is tried again (then doubling: ``_sync_later``)."""
SYNC_RETRY_MAX = 3600.0

KEEP_DELIVERED = timedelta(days=2)
"""Delivered messages are kept this long: longer than a start looks back for ballots never owed a receipt (a day)."""

READABLE = (discord.MessageType.default, discord.MessageType.reply)
"""What a person writes; system messages (thread started, message pinned, member joined) are not read."""

READABLE_TYPES = frozenset(kind.value for kind in READABLE)

NO_PINGS = discord.AllowedMentions.none()
"""Nothing Clerk posts pings anyone: not @everyone/@here, not a role, not a user, not the author of a message it
answers. Mentions still show as names (``<@123>`` reads as @Bob), they just notify no one. Clerk never means to
ping: it reaches a player by DM. discord.py sends this with every message, reply, DM, interaction response,
followup and edit (the client's default), so a name or crisis text with ``@everyone`` in it is harmless."""


def intents(message_content: bool = True) -> discord.Intents:
    """Guilds, DMs, guild messages and, if asked, the privileged message content (for forms typed in threads and
    the game channel). No members intent. Without message content Discord still gives the text of DMs, of messages
    that mention the bot, and of the messages a context-menu command is used on."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    wanted.guild_messages = True
    wanted.message_content = message_content
    return wanted


def read_no_bot_messages(parsers: dict[str, Callable[[Any], None]],
                         direct: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Leave the gateway's messages written by a bot (this one's own receipts and posts, which Discord sends back to
    it, one per message it sends) unbuilt: discord.py would make a ``Message`` of each (its author, channel,
    embeds, components) only for ``on_message`` to drop it (``READABLE``, ``author.bot``); Clerk keeps no message
    cache (``max_messages=None``) and reads no channel's last message. The same test as ``message.author.bot``
    (discord.py reads the author's ``bot`` flag), before the object is made (issue 20: a DM's receipt costs one such
    message).

    With ``direct``, a person's DM (a message with no ``guild_id``: discord.py's own test for a DM,
    ``ConnectionState._get_guild_channel``) is given to it as the gateway's data, unbuilt as well (issue 20: the
    ``Message`` was about half of discord.py's work on a DM); messages in servers and their threads are built and
    dispatched as before. A person's DM edited (MESSAGE_UPDATE with an ``edited_timestamp``: Discord sends the whole
    message) goes to ``direct`` too, and is read as a new DM sent at the time of the edit (play-test R3.1): a player
    who corrects ``Vote: Aye`` to ``Vote: Nay`` by editing it revotes, and is answered."""
    build = parsers["MESSAGE_CREATE"]
    update = parsers["MESSAGE_UPDATE"]

    def message_create(data: dict[str, Any]) -> None:
        author = data.get("author")
        if isinstance(author, dict) and author.get("bot", False):
            return
        if direct is not None and "guild_id" not in data:
            direct(data)
            return
        build(data)

    def message_update(data: dict[str, Any]) -> None:
        author = data.get("author")
        if (direct is not None and "guild_id" not in data and isinstance(author, dict) and not author.get("bot", False)
                and data.get("edited_timestamp") and "content" in data):
            direct(data)
            return
        update(data)

    parsers["MESSAGE_CREATE"] = message_create
    parsers["MESSAGE_UPDATE"] = message_update


def without_mention(text: str, bot_id: int) -> str:
    """``text`` without the bot's own mentions (``<@id>``, ``<@!id>``), wherever they are: a form that @mentions
    Clerk so that Clerk may read it (no Message Content intent) reads as the form."""
    return re.sub(rf"<@!?{bot_id}>", " ", text).strip()


class ClerkTree(app_commands.CommandTree["ClerkBot"]):
    async def on_error(self, interaction: discord.Interaction[ClerkBot],
                       error: app_commands.AppCommandError) -> None:
        """The one error handler: log with context, answer with a short apology, never a traceback."""
        command = interaction.command.qualified_name if interaction.command is not None else "?"
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        error_id = secrets.token_hex(4)
        log.error("[error %s] /%s by %s (%s) in guild %s channel %s failed; data=%r", error_id, command,
                  interaction.user.name, interaction.user.id, interaction.guild_id, interaction.channel_id,
                  interaction.data, exc_info=cause, extra={"error_id": error_id, "command": command})
        text = apology("the command did not finish", error_id)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as failure:
            log.warning("could not send the apology for /%s: %s", command, failure)


class ClerkBot(discord.Client):
    def __init__(self, app: App, *, guild_ready_timeout: float = 2.0, sync_commands: bool = True,
                 dev_guild_id: int | None = None, rate_limit: int = DISCORD_GLOBAL_LIMIT,
                 message_content: bool = True, **options: Any) -> None:
        self.pacer = Pacer(rate_limit)
        self.gateway = Gateway()
        """Whether the gateway is connected, for /healthz (bot/discord/health.py)."""
        self.reads_messages = message_content
        """Whether it asks for the Message Content intent (and so reads every message of a game channel)."""
        app.settings["reads_messages"] = message_content  # /help and a new game's reply say what works without it
        trace = self.pacer.trace()
        trace.on_request_end.append(count_discord_errors)  # /metrics (bot/discord/health.py)
        # max_messages=None: no cache of the last 1,000 messages. Clerk never reads it (no on_message_edit, reaction
        # or poll events, no cached_message); every message it needs again is in its database (bot/discord/kept.py).
        super().__init__(intents=intents(message_content), guild_ready_timeout=guild_ready_timeout,
                         allowed_mentions=NO_PINGS, http_trace=trace, max_messages=None, **options)
        read_no_bot_messages(self._connection.parsers, self._direct_message)
        self.app = app
        self.sync_commands = sync_commands
        self.dev_guild_id = dev_guild_id
        self.tree = ClerkTree(self)
        for command in commands_for(self.app.routes):  # run by this bot's run_command and complete_option
            self.tree.add_command(command)
        for name in message_command_names(app):  # "Count as vote": right-click a message, Apps
            self.tree.add_command(message_menu(name, self.run_message_command))
        self.courier = Courier(self, app.clerk, self.pacer)
        self.storage_reports = StorageReports(self, app.clerk)  # the moderators hear of refused writes once
        self.intake = Intake()
        """Messages taken in and not yet handled: the gateway is not read further while it is full (backpressure.py)."""
        self.catch_up = self._new_catch_up()
        """The DMs sent while the bot was offline, read back at start (catch_up.py, play-test R3.2), and again after
        each new gateway session (``_session_began``, play-test V6.1)."""
        self._sessions = 0
        """Gateway sessions begun (READY; of shard 0 when sharded): the DMs of the gap before each after the first are
        read back."""
        self._catching_up: set[asyncio.Task[None]] = set()
        self.in_session = asyncio.Event()
        """Shard 0's gateway session is up (READY or RESUMED; after a new session, once its reading back of the DMs
        has begun): while it is not, the deadline scheduler's closes wait (``_before_close``)."""
        self.held_passes = 0
        """Scheduler passes that waited for a lost gateway session before closing what was due (the log, tests)."""
        self.scheduler = DeadlineScheduler(app, self.courier.deliver, lease=deadline_lease(app),
                                           settle=self._before_close, answering=self.courier.answering_posts)
        app.deadlines_changed = self.scheduler.wake
        app.game_moved = self.courier.game_moved  # what a deleted game channel could not take goes to the new one
        self._scheduler_task: asyncio.Task[None] | None = None
        self.closing = asyncio.Event()
        """Set when the bot starts closing (SIGTERM, Ctrl-C, the end of ``async with``): a start waiting to try Discord
        again gives up (bot/discord/run.py, ``run_clerk``)."""
        self._reading_told = False
        """The running games were told at this start whether their posts are read (``reading_notices``)."""
        self._sync_task: asyncio.Task[None] | None = None
        self._channel_turns = Locks()
        install_backpressure()
        install_reconnect_cap()  # at most a minute between tries to reconnect (reconnect.py, play-test V6.2)
        self.relief = Relief(self.intake, self.courier.outbox.drained, lambda: self.courier.outbox.waiting,
                             lambda: self.http._buckets)
        self._relief_task: asyncio.Task[None] | None = None
        self.add_dynamic_items(ClerkButton, ClerkSelect)

    async def login(self, token: str) -> None:
        tune_http(self.http)  # for bursts of DMs (http_tuning.py)
        await super().login(token)

    async def setup_hook(self) -> None:
        await self._resume_outbox()
        if self.sync_commands and not await self._sync():
            self._sync_task = asyncio.create_task(self._sync_later(), name="clerk-sync-commands")
        self._scheduler_task = asyncio.create_task(self._run_scheduler(), name="clerk-deadlines")
        self._relief_task = asyncio.create_task(self.relief.run(), name="clerk-relief")  # after bursts (relief.py)
        # matplotlib (about 0.5 s of imports and 40 MB) is not imported at start-up: the first chart imports it in the
        # drawing thread (bot/actions/drawing.py), off the event loop, and a command that takes longer than
        # DEFER_AFTER is deferred in time (``_in_time``).

    async def _sync(self) -> bool:
        """Register the slash commands with Discord (globally, or in the development server). A refusal (or an
        outage) is logged with Discord's error and does not stop the bot: it runs on with the commands Discord has
        registered from before, and DMs, buttons, menus and the deadline scheduler work as ever."""
        guild = discord.Object(id=self.dev_guild_id) if self.dev_guild_id is not None else None
        try:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
            where = f"to guild {self.dev_guild_id}" if guild is not None else "globally"
            log.error("could not sync the slash commands %s: %s; running on with those Discord has registered "
                      "(DMs, buttons and deadlines work), trying again later", where, error)
            return False
        if guild is not None:
            log.info("synced %d slash commands to guild %s", len(synced), self.dev_guild_id)
        else:
            log.info("synced %d global slash commands", len(synced))
        return True

    async def _sync_later(self) -> None:
        """Try the sync again, ``SYNC_RETRY`` after the failure and twice as long after each further one (at most
        ``SYNC_RETRY_MAX``), until Discord takes it."""
        delay = SYNC_RETRY
        while True:
            await asyncio.sleep(delay)
            if await self._sync():
                return
            delay = min(2 * delay, SYNC_RETRY_MAX)

    async def _resume_outbox(self) -> None:
        """Before the gateway connects: queue again what the last run owed (a card it left owed without its chart
        given it first: ``charts_at_start``) and start sending; then, beside the first messages, owe the receipts of
        ballots the last run committed and never owed a receipt for (those up to the newest event now, so none of
        this run's is taken for one)."""
        outbox = self.courier.outbox
        now = self.app.clerk.clock.now()
        if self.reads_dms:
            await self.catch_up.prepare()  # before anything is owed or forgotten (catch_up.py)
        await self.app.clerk.outbox.forget_delivered(now - KEEP_DELIVERED)
        await outbox.resume(partial(charts_at_start, self.app))  # a card a kill left without its chart is given it
        up_to = await self.app.clerk.outbox.last_event_id()
        outbox.start()
        self._recovering = asyncio.create_task(self._owe_unanswered(now, up_to), name="clerk-owe-unanswered")

    async def _owe_unanswered(self, now: datetime, up_to: int) -> None:
        try:
            await self.courier.owe_receipts(await unanswered_receipts(self.app, now, up_to))
        except Exception:
            log.exception("owing the receipts of ballots recorded before the last stop failed")

    async def warmed_up(self) -> None:
        """Wait for the start-up work that runs beside the first messages: the deadline scheduler's first pass. The
        benchmarks measure a bot that is running, not one that is starting."""
        while self.scheduler.passes < 1:
            await asyncio.sleep(0.01)

    async def _run_scheduler(self) -> None:
        await self.wait_until_ready()
        if self.reads_dms:
            self.catch_up.start()  # the DMs sent while the bot was offline (catch_up.py)
        await self.scheduler.run()

    @property
    def reads_dms(self) -> bool:
        """Whether Discord sends this process the DMs: they come on shard 0 (docs/deploy.md)."""
        shard_ids = getattr(self, "shard_ids", None)
        return not isinstance(self, discord.AutoShardedClient) or shard_ids is None or 0 in shard_ids

    async def _quiet(self) -> None:
        """Until no DM is being handled and nothing is waiting to be sent (the catch-up's background reads wait)."""
        await self.intake.emptied.wait()
        await self.courier.outbox.drained()

    async def _before_close(self) -> None:
        """Before the scheduler closes what is due: the DMs taken in (backpressure.py), and those sent while the bot
        was offline (catch_up.py), are handled first, so a ballot sent before its deadline counts. While the gateway
        session that brings the DMs is lost (Discord away, the host's network down), nothing is closed: the DMs sent
        meanwhile come when it is back (a RESUME sends them; a new session reads them back, ``_session_began``), and
        a result could not be posted before then either (play-test V6.1). A bot that stops meanwhile closes nothing."""
        if self.reads_dms and not self.in_session.is_set():
            self.held_passes += 1
            log.warning("the gateway session is lost: what is due waits until Discord is back and the DMs sent "
                        "meanwhile are read")
            await self._until(self.in_session)
        await self.intake.settle()
        while True:  # a new session's reading may replace the one waited for (``_catch_up_again``): wait for it too
            reading = self.catch_up
            await reading.before_close()
            if self.closing.is_set():  # the reading was stopped by the close, not done: close nothing now
                raise asyncio.CancelledError
            if reading is self.catch_up:
                return

    async def _until(self, event: asyncio.Event) -> None:
        """Wait for ``event``; the bot closing ends the wait (``CancelledError``: the pass is given up)."""
        waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(self.closing.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await cancel_and_wait(waits)
        if self.closing.is_set():
            raise asyncio.CancelledError

    async def stop_cleanly(self, wait: float) -> None:
        """A clean stop (SIGTERM, Ctrl-C): the messages still waiting to be sent (a round's DMs, a card behind its
        channel's rate limit) go out first, for at most ``wait`` seconds (``stop_wait``), then ``close``. What is not
        sent by then is still owed, and sent at the next start (play-test 1.3: a bot stopped for a long maintenance
        held its announcements that long). The bot goes on answering meanwhile; a second signal ends the wait."""
        outbox = self.courier.outbox
        if outbox.waiting and wait > 0 and not self.closing.is_set():
            log.info("stopping: sending the %d message(s) still waiting first (at most %s s; SIGTERM or Ctrl-C again "
                     "to stop at once)", outbox.waiting, f"{wait:g}")
            if not await outbox.drain(wait):
                log.info("stopping with %d message(s) still waiting: they are sent at the next start", outbox.waiting)
        await self.close()

    def hurry(self) -> None:
        """A second SIGTERM or Ctrl-C during ``stop_cleanly``: stop waiting for the messages."""
        self.courier.outbox.hurry()

    async def close(self) -> None:
        """Stop every task the bot started (each cancelled and awaited: ``bot.tasks.cancel_and_wait``), release the
        deadline lease, then discord.py's close; and discord.py's guild wait (``_delay_ready``), which its close
        leaves running."""
        self.closing.set()
        await cancel_and_wait([getattr(self, "_recovering", None), self._sync_task, self._relief_task,
                               *self._catching_up])
        await self.catch_up.stop()
        self._sync_task = self._relief_task = None
        await self.courier.stop()
        await self.storage_reports.stop()
        if self._scheduler_task is not None:
            await self.scheduler.stop(self._scheduler_task)  # a pass under way ends first (``DeadlineScheduler.stop``)
            self._scheduler_task = None
            try:
                await self.scheduler.release()
            except Exception as error:  # the database is gone: the lease expires by itself
                log.warning("could not release the deadline lease: %s", error)
        await super().close()
        state = self._connection
        await cancel_and_wait([state._ready_task, *getattr(state, "_ready_tasks", {}).values()])

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d server(s)", self.user, self.user.id if self.user else "?",
                 len(self.guilds))
        if not self._reading_told:  # once a start, not at every READY after a new session
            self._reading_told = True
            try:  # the games told whether their posts are read (play-test R4.3), owed with their marks
                answering = self.courier.answering_posts()
                await self.courier.deliver(await reading_notices(self.app, answering), answering)
            except Exception:
                log.exception("telling the games whether the bot reads their posts failed")

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A game's channel deleted: its moderators hear of it now, once (lost_channels.py)."""
        await self.courier.lost.deleted(channel.id)

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        sharded = isinstance(self, discord.AutoShardedClient)
        self.gateway.saw(event, args, sharded=sharded)  # for /healthz
        if (event == "shard_disconnect" and args[:1] == (0,)) if sharded else event == "disconnect":
            self.in_session.clear()
        elif (event == "shard_resumed" and args[:1] == (0,)) if sharded else event == "resumed":
            self.in_session.set()
        if event == ("shard_connect" if isinstance(self, discord.AutoShardedClient) else "connect") and (
                not isinstance(self, discord.AutoShardedClient) or args[:1] == (0,)):
            self._session_began()
        super().dispatch(event, *args, **kwargs)

    def _new_catch_up(self) -> CatchUp:
        return CatchUp(self, self.app.clerk, self.on_direct_message, lambda: self.courier._dm_channels, self._quiet,
                       lambda: self.relief.relieve())

    def _session_began(self) -> None:
        """A READY (discord.py's ``connect``; shard 0's, which gets the DMs, when sharded). Each one after the first
        is a new session after one Discord could not resume (an outage, the host's network down past Discord's
        window to resume, an INVALIDATE_SESSION): Discord does not send it the DMs of the gap, as it does not send a
        new process those of its downtime, so they are read back from the DM channels as at start (play-test V6.1:
        a ballot DMed then was never answered nor counted). A RESUME needs nothing: Discord sends the gap's events."""
        self._sessions += 1
        if self._sessions > 1 and self.reads_dms and not self.is_closed() and not self.closing.is_set():
            task = asyncio.get_running_loop().create_task(self._catch_up_again(), name="clerk-dm-catch-up-again")
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)
        else:
            self.in_session.set()

    async def _catch_up_again(self) -> None:
        try:
            fresh = self._new_catch_up()
            await fresh.prepare()  # from the newest answer owed to a DM (before the gap), less the margin
            old = self.catch_up
            if old.active:  # the reading of the start (or of an earlier gap) is not done: read from its lower bound
                fresh.newest = None if old.newest is None or fresh.newest is None else min(old.newest, fresh.newest)
            fresh.start()
            self.catch_up = fresh  # the scheduler's closes now wait for this reading (``_before_close``)
        finally:
            self.in_session.set()  # a close held for the session now waits for this reading instead
        await old.stop()
        log.info("a new gateway session: reading back the DMs sent while the bot could not receive them")

    def _schedule_event(self, coro: Callable[..., Coroutine[Any, Any, Any]], event_name: str, *args: Any,
                        **kwargs: Any) -> asyncio.Task[Any]:
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        if event_name == "on_message":  # counted until handled (backpressure.py)
            self.intake.track(task)
        return task

    async def run_command(self, interaction: discord.Interaction, name: str, values: dict[str, Any]) -> None:
        """Every slash command: Ctx, dispatch, deliver. Slow commands are deferred in time, with the visibility of
        their answer (``Command.public``)."""
        options = {key: option_value(value) for key, value in values.items() if value is not None}
        for key, value in options.items():
            if isinstance(value, discord.Attachment):
                try:
                    options[key] = await uploaded(interaction, value)
                except ValueError as refused:
                    await self.courier.to_interaction(interaction, [reply(str(refused), ephemeral=True)])
                    return
        spec = self.app.routes.commands.get(name)
        private = spec is None or not spec.public
        answering = self.courier.answering_posts()  # what it posts, owed in its write's transaction
        work = dispatch(self.app, ctx_of_interaction(interaction, answering), name, options)
        out, deferred = await self._in_time(interaction, work, f"/{name}", ephemeral=private)
        await self.courier.to_interaction(interaction, out, deferred, answering)

    async def run_message_command(self, interaction: discord.Interaction, name: str,
                                  message: discord.Message) -> None:
        """A message context-menu command (``Count as vote``) on ``message``, which Discord resolved with its content
        (``bot.actions.message_commands``); the answer is ephemeral, as are its refusals."""
        author = message.author
        target = TargetMessage(message.id, author.id, author.name, author.bot, message.content)
        answering = self.courier.answering_posts()
        work = handle_message_command(self.app, ctx_of_interaction(interaction, answering), name, target)
        out, deferred = await self._in_time(interaction, work, name)
        await self.courier.to_interaction(interaction, out, deferred, answering)

    async def complete_option(self, interaction: discord.Interaction, name: str, option: str,
                              typed: str) -> list[app_commands.Choice[str]]:
        """Suggestions for an option of /name as it is typed (``bot.discord.autocomplete``)."""
        return await choices(self.app, interaction, name, option, typed)

    async def on_press(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A press of one of Clerk's buttons (``ClerkButton``): Ctx (the presser, where the message is, the
        interaction as the source), ``handle_button``, the answer to the presser (ephemeral) and the rest
        delivered (what it posts elsewhere owed in its write's transaction: ``Courier.answering_posts``);
        after an answer that was recorded the message's buttons are shown disabled."""
        answering = self.courier.answering_posts()
        work = handle_button(self.app, ctx_of_interaction(interaction, answering), custom_id)
        out, deferred = await self._in_time(interaction, work, f"button {custom_id}")
        await self.courier.to_interaction(interaction, out, deferred, answering)
        if settled(out):
            await disable_buttons(interaction)

    async def on_choose(self, interaction: discord.Interaction, custom_id: str, values: tuple[str, ...]) -> None:
        """A choice in one of Clerk's menus (``ClerkSelect``): as ``on_press``, with ``handle_select``; after an
        answer that was recorded the menu is shown disabled."""
        answering = self.courier.answering_posts()
        work = handle_select(self.app, ctx_of_interaction(interaction, answering), custom_id, values)
        out, deferred = await self._in_time(interaction, work, f"menu {custom_id}")
        await self.courier.to_interaction(interaction, out, deferred, answering)
        if settled(out):
            await disable_select(interaction, values)

    async def _in_time(self, interaction: discord.Interaction, coro: Coroutine[Any, Any, list[Outgoing]],
                       what: str, *, ephemeral: bool = True) -> tuple[list[Outgoing], bool | None]:
        """The work's result, and whether the interaction was deferred: if the work takes longer than
        ``DEFER_AFTER`` it is, ephemerally unless the command's answer is public (``Command.public``), since
        Discord gives the first follow-up the deferred response's flags. None: not deferred."""
        work = asyncio.ensure_future(coro)
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        deferred: bool | None = None
        if not done:
            try:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                deferred = ephemeral
            except discord.HTTPException as error:  # too late: the work still finishes, answers are logged
                log.warning("could not defer %s (interaction %s): %s", what, interaction.id, error)
        return await work, deferred

    def _direct_message(self, data: dict[str, Any]) -> None:
        """A person's DM, from the gateway's data (``read_no_bot_messages``): handled by ``on_direct_message`` in a
        task started as discord.py starts ``on_message``'s (``_schedule_event``: its name, its error handling, and
        counted by the intake, backpressure.py)."""
        message = dm_of(data)
        if message.type not in READABLE_TYPES or not self.catch_up.delivered(message):
            return
        self._schedule_event(self.on_direct_message, "on_message", message)

    async def on_direct_message(self, message: DirectMessage, note: str | None = None) -> None:
        """A DM: handled and answered as ``on_message`` would the same DM's ``discord.Message``. ``note``: a line
        above each answer (a DM sent while the bot was offline, read back at start: catch_up.py)."""
        answering = self.courier.answering(message, note)  # a ballot's receipt is owed in the ballot's transaction
        out = await handle_dm(self.app, ctx_of_dm(message, answering), message.content)
        await self.courier.to_message(message, out, answering, note)

    async def on_message(self, message: discord.Message) -> None:
        """DMs, and messages in a game channel or its threads. Bots (this one included) are ignored. Messages of
        one channel (threads included) are handled one at a time, in order, so the running counts they update
        are posted in the same order. Without the message-content intent a server message has no text and is
        not read unless it mentions the bot (``/pv support`` and the ``Count as vote`` menu do the same job); the
        bot's mention is taken out before the form is read."""
        if message.author.bot or message.type not in READABLE:
            return
        if isinstance(message.channel, discord.DMChannel):  # not ``guild is None``: so is a server not cached yet
            answering = self.courier.answering(message)  # a ballot's receipt is owed in the ballot's transaction
            out = await handle_dm(self.app, ctx_of_message(message, answering), message.content)
            await self.courier.to_message(message, out, answering)
            return
        text = without_mention(message.content, self.user.id) if self.user is not None else message.content
        if not text.strip():
            return
        answering = self.courier.answering(message)  # a form's answer and posts, owed in its write's transaction
        ctx = await ctx_of_guild_message(self, message, answering)
        async with self._channel_turns(ctx.place.channel_id):
            out = await handle_channel_message(self.app, ctx, text)
            await self.courier.to_message(message, out, answering)


class ShardedClerkBot(ClerkBot, discord.AutoShardedClient):
    """The same bot over several gateway connections (shards): discord.py's ``AutoShardedClient``. Discord sends
    each server's events on shard ``(server id >> 22) % shard count`` and DMs on shard 0 (docs/deploy.md)."""


def make_bot(app: App, *, guild_ready_timeout: float = 2.0, sync_commands: bool = True,
             dev_guild_id: int | None = None, shard_count: int | None = None,
             shard_ids: tuple[int, ...] | None = None, message_content: bool = True) -> ClerkBot:
    """A ``ClerkBot``; with a shard count, a ``ShardedClerkBot`` running ``shard_ids`` (all of them if None)."""
    if shard_count is None:
        return ClerkBot(app, guild_ready_timeout=guild_ready_timeout, sync_commands=sync_commands,
                        dev_guild_id=dev_guild_id, message_content=message_content)
    return ShardedClerkBot(app, guild_ready_timeout=guild_ready_timeout, sync_commands=sync_commands,
                           dev_guild_id=dev_guild_id, shard_count=shard_count, message_content=message_content,
                           shard_ids=list(shard_ids) if shard_ids is not None else None)
