"""A small fake Discord: REST API and gateway on 127.0.0.1 for an unmodified discord.py client.

Facts it relies on are in ../shared/notes/offline-discord.md. In short: JSON bodies are sent with a Content-Type
of exactly ``application/json``; nothing ever answers 5xx (discord.py would retry and sleep); a route the fake
does not know is answered 404 *and recorded* in ``unhandled`` so the test fails; the gateway sends text frames
(no compression) and applies the intents to MESSAGE_CREATE; the bot's own messages are echoed back to it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

from fakediscord.channels import ChannelRoutes
from fakediscord.payloads import (
    DIRECT_MESSAGES,
    DM,
    EVERYONE_PERMISSIONS,
    GUILD_MESSAGES,
    MANAGE_GUILD,
    MESSAGE_CONTENT,
    PUBLIC_THREAD,
    Channel,
    Role,
    Snowflakes,
    User,
    iso,
    message_payload,
    snowflake_time,
)
from fakediscord.ratelimits import RateLimits
from fakediscord.records import Interaction, Sent
from fakediscord.responses import discord_error, json_response
from fakediscord.waiting import HANG

T = TypeVar("T")

TOKEN = "fake-bot-token"
INTERACTION_DEADLINE = 3.0
"""Discord's 3 s for the first answer to an interaction. The fake counts it in CPU seconds of the test's process as
well as in wall seconds (the in-process bot's work: a blocked event loop, a slow import in a handler), as a busy
machine stretches wall time whatever the bot does; past ``HANG`` of wall time it is late whatever the CPU says
(see ``_late``)."""
REFUSALS = {50013: "Missing Permissions", 50001: "Missing Access"}
"""The 403 errors Discord answers a post in a channel where the bot lacks a permission."""
POLL = 0.005
"""``wait_for`` checks its predicate after every request and at least this often (seconds)."""
MENTION = re.compile(r"<@!?(\d+)>")
OPTION_TYPES = {"subcommand": 1, "group": 2, "string": 3, "integer": 4, "boolean": 5, "user": 6, "role": 8}


class Connection:
    """One gateway websocket."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        """The sequence number of the last event (op 0) sent on this connection."""
        self.read_up_to = 0
        """The sequence number in the bot's last heartbeat (op 1): discord.py sends the number of the last event it
        has read, and reads the gateway in order (``FakeDiscord.sync``)."""
        self.intents = 0
        self.identified = False
        self.shard = (0, 1)
        """[shard id, shard count] from IDENTIFY: guild events go to the guild's shard, DMs to shard 0."""

    def receives(self, data: dict[str, Any]) -> bool:
        shard, count = self.shard
        guild = data.get("guild_id")
        return shard == ((int(guild) >> 22) % count if guild is not None else 0)

    async def send(self, op: int, data: Any = None, event: str | None = None) -> None:
        if self.ws.closed:
            return
        payload: dict[str, Any] = {"op": op, "d": data}
        if op == 0:
            self.seq += 1
            payload.update(t=event, s=self.seq)
        # The bot's process died (a test's SIGKILL) while its socket closes: as Discord does, the event is dropped
        # (the next session does not get it either).
        with contextlib.suppress(ConnectionResetError):
            await self.ws.send_str(json.dumps(payload))


class Attachment:
    """A file a user attaches to an attachment option of a slash command (``slash(..., file=Attachment(...))``):
    Discord uploads it first and sends its id, with the file in the interaction's ``resolved.attachments``; the
    bot downloads it from its ``url`` (served by the fake on 127.0.0.1)."""

    def __init__(self, filename: str, data: bytes, content_type: str = "text/csv") -> None:
        self.filename = filename
        self.data = data
        self.content_type = content_type


class FakeDiscord(ChannelRoutes):
    """One guild, some users and channels, a gateway and the REST routes discord.py uses.

    Inject with ``dm``, ``say`` (a channel or a thread), ``slash``, ``press`` (a button) and ``choose`` (an option
    of a select menu); change the world with ``delete_message``, ``delete_thread`` and ``archive`` (channels.py);
    read what the bot sent with ``messages``, ``dms``, ``message``, ``pinned``, ``thread_named``/``threads_of``,
    ``Sent.buttons``, ``Sent.selects`` and the ``Interaction`` records ``slash``, ``press`` and ``choose`` return;
    wait with ``wait_for`` (for something the bot does) and ``sync`` (until the bot has read every event sent)."""

    def __init__(self, now: Callable[[], datetime] | None = None, *, token: str = TOKEN) -> None:
        self.now = now or (lambda: datetime.now(UTC))
        self.token = token
        self.ids = Snowflakes(self.now)
        self.app_id = self.ids.next()
        self.guild_id = self.ids.next()
        self.bot = User(self.ids.next(), "Clerk", bot=True)
        self.roles: dict[int, Role] = {}
        self.manager_role = self.add_role("Server Manager", MANAGE_GUILD)
        """Members with Manage Server hold it, so their messages (not only their interactions) say so."""
        self.owner = User(self.ids.next(), "owner", roles=[self.manager_role], manage_guild=True)
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.outsiders: set[int] = set()
        """Users of Discord who are no members of the server."""
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.started = self.now()
        # What happened.
        self.sent: list[Sent] = []
        self.bodies: list[tuple[str, str, dict[str, Any]]] = []
        """(method, path, JSON body) of every message the bot sent, answered or edited, as it came (``pings``)."""
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.requests: list[tuple[str, str]] = []
        self.unhandled: list[str] = []
        self.errors: list[str] = []
        self.connections_lost = 0
        """Requests whose client went away while they were read or answered (a bot killed mid-request)."""
        self.dropped: list[dict[str, Any]] = []
        self.threads_created: list[Channel] = []
        self.bot_can_pin = True
        self.private_threads_refused = False
        """The bot lacks Create Private Threads (its private threads are refused, 403 50013)."""
        self.uploads: dict[int, Attachment] = {}
        """The files attached to commands, by attachment id (served at ``/attachments/<id>/<filename>``)."""
        self.downloads: list[int] = []
        """The attachment ids the bot downloaded, in order."""
        self.refusals: dict[int, int] = {}
        """Channel id -> the 403 error code the bot's posts there (and in its threads) get; see ``refuse_posts``."""
        self.dms_refused: Counter[int] = Counter()
        """User id -> the DMs to them refused (403 50007: their ``accepts_dms`` is false), as Discord refuses a DM to
        a user who allows none from the server's members or has blocked the app."""
        self.nonces: dict[tuple[int, str], Sent] = {}
        """Messages sent with ``enforce_nonce``: Discord returns the first again for a repeated nonce (it keeps them a
        few minutes; the fake for the whole test)."""
        self.nonce_repeats = 0
        self.stalls: dict[int, tuple[bool, asyncio.Event]] = {}
        """Channel id -> (recorded first, released): see ``stall_posts``."""
        self.stalled = 0
        self.identifies = 0
        self.resumes = 0
        self.message_content_granted = True
        """Whether the app has the privileged Message Content intent (switched on in the developer portal, or
        approved). False: an IDENTIFY asking for it is closed with 4014 (``_identify``)."""
        self.refused_identifies = 0
        self.dm_history: dict[int, list[dict[str, Any]]] = {}
        """DM channel id -> the messages users sent there (their payloads, as Discord keeps them: an edit changes
        the content and sets ``edited_timestamp``); with the bot's messages there (``sent``) they are the channel's
        history, read with ``GET /channels/{id}/messages`` (``_get_messages``). ``dm_offline`` puts a DM there that
        the bot, being down, never received."""
        self.history_reads = 0
        """``GET /channels/{id}/messages`` requests answered."""
        self.on_history: dict[int, Callable[[], Awaitable[None]]] = {}
        """Channel id -> what happens (once) when the bot next reads that channel's history, before the page is
        answered: a test stages a DM delivered on the gateway at the moment the bot reads it back."""
        self.at_ready: list[Callable[[], Awaitable[None]]] = []
        """What happens (once each) right after the next IDENTIFY's READY and GUILD_CREATE: events the gateway
        delivers before the bot has finished becoming ready."""
        self.said: dict[int, dict[str, Any]] = {}
        """The full payload (content included) of every message users wrote with ``say``, by id: what Discord
        resolves for a message context-menu command (``message_command``)."""
        self._connections: list[Connection] = []
        self.shards_identified: dict[str, tuple[int, int]] = {}
        """Each IDENTIFY's session id and its [shard id, shard count]."""
        self._activity = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.rates: RateLimits | None = None
        """Discord's rate limits, when a test asks for them (``limit_rates``); None: unlimited."""
        self.sync_refusals: list[tuple[int, int, str]] = []
        """(status, code, message) Discord answers the next syncs of the slash commands with, one each
        (``refuse_syncs``)."""
        self.syncs = 0
        """Syncs of the slash commands tried (PUT of the command list), refused ones included."""
        self.attachment_limit = 10 * 1024 * 1024
        """The ``attachment_size_limit`` each interaction says (10 MB, a server without boosts)."""
        self.attachments_refused_over: int | None = None
        """Discord refuses an interaction's answer, or a message, whose files are larger than this, 413 40005 Request
        entity too large; None: larger than ``attachment_limit`` (a test sets it lower to have Discord refuse what
        it said it would take)."""
        self.answer_refusals: list[tuple[int, int, str]] = []
        """(status, code, message) Discord answers the next interaction responses with, one each."""
        self.interactions_expired = False
        """Every first answer to an interaction is refused 10062 Unknown interaction, as Discord refuses one that comes
        after its 3 s (the bot was slow: a loaded machine, a locked database, a gateway read late)."""
        self.invalidations = 0
        self.token_lifetime = timedelta(minutes=15)
        """Discord: "Interaction tokens are valid for 15 minutes and can be used to send followup messages"
        (receiving-and-responding). Follow-ups, edits and deletions with an older token (by the fake's clock) are
        refused 401 50027 Invalid Webhook Token."""

    # ----------------------------------------------------------------- world

    def refuse_posts(self, channel: Channel, code: int | None = 50013) -> None:
        """The bot lacks a permission in ``channel``: its posts there and in its threads get 403 with ``code``
        (50013 Missing Permissions, 50001 Missing Access); None gives the permission back."""
        if code is None:
            self.refusals.pop(channel.id, None)
        else:
            self.refusals[channel.id] = code

    def refuse_syncs(self, count: int = 1, status: int = 400, code: int = 50035,
                     message: str = "Invalid Form Body") -> None:
        """Answer the next ``count`` syncs of the slash commands with this error (Discord refuses a command list
        it finds invalid, 400 50035, or an app without the ``applications.commands`` scope in a server, 403
        50001 Missing Access)."""
        self.sync_refusals.extend([(status, code, message)] * count)

    def limit_rates(self, per_second: int = 50, *, route_limit: int = 5, route_window: float = 5.0) -> RateLimits:
        """From now on, enforce Discord's global limit (``per_second`` requests per second, interactions exempt) and
        the per-channel buckets for posting and editing messages (ratelimits.py), answering 429 as Discord does.
        Returns the limits, which count the 429s sent."""
        self.rates = RateLimits(per_second, route_limit, route_window)
        return self.rates

    def stall_posts(self, channel: Channel, *, recorded: bool) -> None:
        """The bot's posts in ``channel`` (not its threads) never get an answer until ``release_posts``: Discord is
        slow, or the bot is killed while it waits. ``recorded``: Discord has the message (it is shown; only the
        answer is late); otherwise the request never got there, and it is refused once released. ``stalled``
        counts the posts that have stalled."""
        self.stalls[channel.id] = (recorded, asyncio.Event())

    def release_posts(self) -> None:
        for _, released in self.stalls.values():
            released.set()
        self.stalls.clear()

    def add_role(self, name: str, permissions: int = 0) -> Role:
        """A role that exists before the bot connects (sent in GUILD_CREATE)."""
        role = Role(self.ids.next(), name, permissions)
        self.roles[role.id] = role
        return role

    async def create_role(self, name: str, permissions: int = 0) -> Role:
        """A role made while the bot is connected: Discord tells it with GUILD_ROLE_CREATE."""
        role = self.add_role(name, permissions)
        await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(self.guild_id), "role": role.payload()})
        return role

    def add_user(self, name: str, *, roles: tuple[Role, ...] = (), manage_guild: bool = False,
                 member: bool = True) -> User:
        """A user of Discord; a member of the server unless ``member`` is False (someone elsewhere on Discord)."""
        extra = [self.manager_role] if manage_guild else []
        user = User(self.ids.next(), name, roles=[*extra, *roles], manage_guild=manage_guild)
        self.users[user.id] = user
        if not member:
            self.outsiders.add(user.id)
        return user

    def add_channel(self, name: str) -> Channel:
        channel = Channel(self.ids.next(), name, guild_id=self.guild_id)
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, name: str, parent: Channel, owner: User | None = None) -> Channel:
        thread = Channel(self.ids.next(), name, PUBLIC_THREAD, self.guild_id, parent.id, (owner or self.owner).id)
        self.channels[thread.id] = thread
        return thread

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = self.dm_channels[user.id] = Channel(self.ids.next(), f"dm-{user.name}", DM, recipient=user)
        return channel

    # ----------------------------------------------------------------- lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/gateway/", self._gateway)
        api = "/api/v10"
        routes: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
            ("GET", "/users/@me", self._me),
            ("GET", "/oauth2/applications/@me", self._application),
            ("GET", "/gateway/bot", self._gateway_bot),
            ("GET", "/gateway", self._gateway_bot),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user}", self._get_user),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages", self._get_messages),
            ("POST", "/channels/{channel}/typing", self._typing),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._edit_response),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_response),
            *self.channel_routes(),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, api + path, handler)
        app.router.add_get("/attachments/{attachment}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def problems(self) -> list[str]:
        """Routes the fake did not know and errors inside it; a test fails if there are any."""
        return [f"unhandled route: {r}" for r in self.unhandled] + [f"fake error: {e}" for e in self.errors]

    # ----------------------------------------------------------------- waiting

    def _touch(self) -> None:
        self._activity.set()
        self._activity = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], T | None], what: str = "the bot", timeout: float = HANG) -> T:
        """Wait until ``predicate()`` is truthy (checked after every request the bot makes, and every ``POLL`` s for
        what the fake does not see, such as a database or a log file) and return it. ``timeout`` only catches a
        hang: leave it at ``HANG``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            event = self._activity
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL))

    async def sync(self) -> None:
        """Wait until the bot has read every gateway event sent to it so far: ask each session for a heartbeat
        (op 1, as Discord may at any time) and wait for one that carries at least the sequence number of the last
        event sent. discord.py reads the gateway in order and has dispatched each event (started its handler task)
        before it reads the next frame, so a test that then waits for those handlers (``Harness.settle``) knows
        the bot did all it was going to do about them: this is how a test checks that something got *no* answer."""
        live = [c for c in self._connections if c.identified and not c.ws.closed]
        wanted = {id(c): c.seq for c in live}
        for conn in live:
            await conn.send(1)
        await self.wait_for(lambda: all(c.read_up_to >= wanted[id(c)] or c.ws.closed for c in live),
                            "the bot's heartbeat after the events sent so far")

    @property
    def events_sent(self) -> int:
        """How many gateway events (op 0) the fake has sent on the live connections."""
        return sum(c.seq for c in self._connections)

    # ----------------------------------------------------------------- reading what the bot sent

    def messages(self, channel: Channel) -> list[Sent]:
        """Messages the bot posted in a channel and that are still there, as they read now (replies included;
        interaction responses and system messages are not here)."""
        return [s for s in self.sent if s.channel_id == channel.id and s.kind == "message" and not s.deleted]

    def dms(self, user: User) -> list[Sent]:
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else self.messages(channel)

    def replies_to(self, message_id: int) -> list[Sent]:
        return [s for s in self.sent if s.reference == message_id and s.kind != "system"]

    async def reply_to(self, message_id: int) -> Sent:
        replies = await self.wait_for(lambda: self.replies_to(message_id), f"a reply to message {message_id}")
        return replies[0]

    async def answered(self, interaction: Interaction) -> Sent:
        """The first answer (after a deferral, "thinking…" as Discord shows it, the followup)."""
        await self.wait_for(lambda: interaction.responses, f"an answer to /{interaction.command}")
        return interaction.first

    async def posted(self, channel: Channel, count: int = 1) -> list[Sent]:
        """Wait until the bot has posted at least ``count`` messages in ``channel``; return them all."""
        return await self.wait_for(lambda: self.messages(channel) if len(self.messages(channel)) >= count else None,
                                   f"{count} message(s) in #{channel.name}")

    # ----------------------------------------------------------------- injecting events

    async def echo(self, event: str, data: dict[str, Any]) -> None:
        """The gateway event a bot's own REST call causes (THREAD_CREATE after it makes a thread, ...): sent to the
        connections there are; none is no error, as on Discord (a bot killed mid-request just never receives it)."""
        await self.dispatch(event, data, echo=True)

    async def dispatch(self, event: str, data: dict[str, Any], *, echo: bool = False) -> None:
        """Send a gateway event to every identified connection (MESSAGE_CREATE filtered by its intents). An event a
        test injects with no bot connected is the test's mistake, and fails it."""
        live = [c for c in self._connections if c.identified and not c.ws.closed and c.receives(data)]
        own_echo = echo or (event == "MESSAGE_CREATE" and data["author"]["id"] == str(self.bot.id))
        if not live and not own_echo:
            raise AssertionError(f"no bot is connected to receive {event}")
        for conn in live:
            payload = data
            if event == "MESSAGE_CREATE":
                filtered = self._apply_intents(conn, data)
                if filtered is None:
                    self.dropped.append(data)
                    continue
                payload = filtered
            await conn.send(0, payload, event)

    async def reconnect(self) -> None:
        """Ask the bot to reconnect (op 7), as Discord does; it should RESUME on ``resume_gateway_url``."""
        resumes = self.resumes
        for conn in [c for c in self._connections if c.identified and not c.ws.closed]:
            await conn.send(7)
        await self.wait_for(lambda: self.resumes > resumes, "the bot to RESUME")

    async def invalidate_session(self, resumable: bool = False) -> None:
        """Discord ends the session (op 9 INVALIDATE_SESSION, ``d`` false: not resumable): the bot must IDENTIFY
        anew, and what was sent meanwhile is not sent again. Returns once it has identified again."""
        identifies = self.identifies
        for conn in [c for c in self._connections if c.identified and not c.ws.closed]:
            conn.identified = False
            self.invalidations += 1
            await conn.send(9, resumable)
        await self.wait_for(lambda: self.identifies > identifies, "the bot to IDENTIFY again")

    async def edit(self, user: User, channel: Channel, message_id: int, text: str) -> None:
        """``user`` edits their message ``message_id`` (a DM: pass ``dm_channel(user)``) to read ``text``: Discord
        sends MESSAGE_UPDATE with the whole message and its ``edited_timestamp``."""
        payload = message_payload(id=message_id, channel=channel, author=user, content=text,
                                  at=snowflake_time(message_id))
        payload["edited_timestamp"] = iso(self.now())
        for kept in self.dm_history.get(channel.id, []):
            if kept["id"] == str(message_id):  # the history shows the message as edited
                kept.update(content=text, edited_timestamp=payload["edited_timestamp"])
        if channel.guild_id is not None:
            payload["member"] = user.member(self.started, with_user=False)
        await self.dispatch("MESSAGE_UPDATE", payload)

    async def delete_user_message(self, channel: Channel, message_id: int) -> None:
        """A user deletes their own message (a DM, or a post in a channel or thread): MESSAGE_DELETE."""
        data = {"id": str(message_id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.dispatch("MESSAGE_DELETE", data)

    async def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a text channel (and its threads): posts there are 404 10003 from now on."""
        assert not channel.is_thread
        for thread in self.threads_of(channel):
            del self.channels[thread.id]
        del self.channels[channel.id]
        for s in self.sent:
            if s.channel_id == channel.id:
                s.deleted = True
        await self.echo("CHANNEL_DELETE", channel.payload(self.started))

    def _apply_intents(self, conn: Connection, data: dict[str, Any]) -> dict[str, Any] | None:
        in_guild = "guild_id" in data
        if not conn.intents & (GUILD_MESSAGES if in_guild else DIRECT_MESSAGES):
            return None
        own = data["author"]["id"] == str(self.bot.id)
        mentioned = any(m.get("id") == str(self.bot.id) for m in data.get("mentions", []))
        if in_guild and not (conn.intents & MESSAGE_CONTENT or own or mentioned):
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        return data

    async def dm(self, user: User, text: str, *, message_id: int | None = None) -> int:
        """``user`` DMs the bot; returns the message id (pass it again to simulate a redelivery)."""
        channel = self.dm_channel(user)
        mid = message_id or self.ids.next()
        payload = message_payload(id=mid, channel=channel, author=user, content=text, at=self.now())
        if message_id is None:  # a redelivery is not a second message
            self.dm_history.setdefault(channel.id, []).append(payload)
        await self.dispatch("MESSAGE_CREATE", payload)
        return mid

    def dm_offline(self, user: User, text: str, at: datetime | None = None) -> int:
        """``user`` DMs the bot while it is down (no gateway session to deliver it to): Discord keeps the message in
        the DM channel's history and never sends it on the gateway. Its id (and so its time) is ``at``'s (now by
        default). Returns the message id."""
        channel = self.dm_channel(user)
        when = at or self.now()
        mid = self.ids.at(when)
        self.dm_history.setdefault(channel.id, []).append(
            message_payload(id=mid, channel=channel, author=user, content=text, at=when))
        return mid

    async def say(self, user: User, channel: Channel, text: str, *, message_id: int | None = None) -> int:
        """``user`` writes in a guild channel or thread."""
        mid = message_id or self.ids.next()
        member = user.member(self.started, with_user=False)
        payload = message_payload(id=mid, channel=channel, author=user, content=text, at=self.now(), member=member)
        # Discord lists the users the content mentions (``<@id>``); a message that mentions the bot keeps its
        # content without the Message Content intent (``_apply_intents``).
        payload["mentions"] = [self.users[int(uid)].payload() for uid in dict.fromkeys(MENTION.findall(text))
                               if int(uid) in self.users]
        self.said[mid] = payload
        await self.dispatch("MESSAGE_CREATE", payload)
        return mid

    async def message_command(self, user: User, name: str, message_id: int) -> Interaction:
        """``user`` right-clicks the message ``message_id`` (written with ``say``, or one the bot posted), Apps,
        ``name``: an application command interaction (type 2) of a MESSAGE command (``data.type`` 3). Discord's
        documentation (Application Commands, Message Commands): "Message commands are application commands that
        appear on the context menu (right click or tap) of messages"; the interaction's ``data`` has ``target_id``,
        the message's id, and ``resolved.messages`` holds it, content included, whatever the app's intents (the
        Message Content intent does not apply to "messages sent in ... interactions"). Only a command the bot
        registered can be chosen."""
        registered = [c for scope in (self.guild_id, None) for c in self.commands.get(scope, [])
                      if c.get("type") == 3 and c["name"] == name]
        assert registered, (f"no message command {name!r} is registered: "
                            f"{[c['name'] for cs in self.commands.values() for c in cs if c.get('type') == 3]}")
        message = self.said.get(message_id) or self._bots_message(message_id)
        where = self._channel(message["channel_id"])
        assert where is not None
        data = {"id": registered[0]["id"], "name": name, "type": 3, "target_id": str(message_id),
                "resolved": {"messages": {str(message_id): message}}, "guild_id": str(self.guild_id)}
        return await self._interact(user, where, 2, data, name)

    def _bots_message(self, message_id: int) -> dict[str, Any]:
        """A message the bot posted (``Explain this`` on a result card), as Discord resolves it: the bot's author,
        its content and embeds as they read now."""
        [sent] = [s for s in self.sent if s.id == message_id and s.kind == "message"]
        where = self._channel(str(sent.channel_id))
        assert where is not None
        return message_payload(id=sent.id, channel=where, author=self.bot, content=sent.content, at=self.now(),
                               embeds=sent.embeds)

    async def slash(self, user: User, command: str, channel: Channel | None = None, /,
                    **options: Any) -> Interaction:
        """``user`` runs ``/command`` (``"round close"`` for a subcommand) in ``channel`` (None: in a DM with the
        bot). Option types come from the commands the bot registered; unknown or missing options fail here,
        as Discord's client would not let the user send them."""
        where = channel or self.dm_channel(user)
        data = self._command_data(command, options, None if where.is_dm else self.guild_id)
        return await self._interact(user, where, 2, data, command)

    async def _interact(self, user: User, where: Channel, kind: int, data: dict[str, Any], name: str, *,
                        message: Sent | None = None, interaction_id: int | None = None,
                        autocomplete: bool = False) -> Interaction:
        """Record an interaction of ``kind`` (2 command, 3 component, 4 autocomplete) by ``user`` in ``where`` and
        send its INTERACTION_CREATE, as Discord builds it for a DM or a server channel."""
        iid = interaction_id or self.ids.next()
        token = f"itoken-{iid}"
        record = Interaction(iid, token, user, where, name, asyncio.get_running_loop().time(), time.process_time(),
                             message_id=message.id if message is not None else None, autocomplete=autocomplete,
                             created=self.now())
        self.interactions[iid] = record
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": kind, "token": token, "version": 1,
            "attachment_size_limit": self.attachment_limit, "data": data, "channel_id": str(where.id),
            "channel": where.payload(self.started), "locale": "en-US", "app_permissions": str((1 << 50) - 1),
            "entitlements": [],
        }
        if message is not None:
            payload["message"] = self._message_of(message, where)
        if where.is_dm:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(self.app_id)})
        else:
            payload.update(guild_id=str(self.guild_id), guild_locale="en-US", context=0,
                           member=user.member(self.started, permissions=True),
                           authorizing_integration_owners={"0": str(self.guild_id)})
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def press(self, user: User, message: Sent, label: str | None = None, *, custom_id: str | None = None,
                    interaction_id: int | None = None) -> Interaction:
        """``user`` presses the button with ``label`` (or ``custom_id``) on one of the bot's messages: a component
        interaction (type 3) with the message it was on. Pass ``interaction_id`` of an earlier press to simulate a
        redelivery. A disabled or missing button cannot be pressed (as in Discord's client)."""
        if custom_id is None:
            assert label is not None, "press needs a label or a custom_id"
            button = message.button(label)
        else:
            found = [b for b in message.buttons() if b.get("custom_id") == custom_id]
            assert found, f"no button {custom_id!r} on message {message.id}"
            button = found[0]
        assert not button.get("disabled"), f"the button {button.get('label')!r} is disabled"
        where = self._channel(str(message.channel_id))
        assert where is not None, f"message {message.id} is in no channel the fake knows"
        return await self._interact(user, where, 3, {"custom_id": button["custom_id"], "component_type": 2},
                                    f"button {button['custom_id']}", message=message, interaction_id=interaction_id)

    async def choose(self, user: User, message: Sent, value: str, *, custom_id: str | None = None,
                     interaction_id: int | None = None) -> Interaction:
        """``user`` chooses the option ``value`` (its value, or its label) in the string select (component type 3)
        of one of the bot's messages (the one with ``custom_id`` if it has several): a component interaction
        (type 3) with ``data.values``. Pass ``interaction_id`` of an earlier choice to simulate a redelivery. A
        disabled or missing menu, or an option it does not have, cannot be chosen (as in Discord's client)."""
        menus = [m for m in message.selects() if custom_id is None or m.get("custom_id") == custom_id]
        assert len(menus) == 1, f"no single select menu on message {message.id}: {message.selects()}"
        menu = menus[0]
        if interaction_id is None:  # a redelivery repeats a choice made while the menu was usable
            assert not menu.get("disabled"), f"the menu {menu.get('custom_id')!r} is disabled"
        found = [o["value"] for o in menu.get("options", []) if value in (o.get("value"), o.get("label"))]
        assert found, f"the menu has no option {value!r}: {[o.get('label') for o in menu.get('options', [])]}"
        where = self._channel(str(message.channel_id))
        assert where is not None, f"message {message.id} is in no channel the fake knows"
        return await self._interact(user, where, 3,
                                    {"custom_id": menu["custom_id"], "component_type": 3, "values": found[:1]},
                                    f"menu {menu['custom_id']}", message=message, interaction_id=interaction_id)

    def _registered(self, name: str, guild_id: int | None) -> tuple[dict[str, Any] | None, int | None]:
        for scope in ((guild_id, None) if guild_id is not None else (None,)):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return cmd, scope
        return None, None

    def _command_data(self, command: str, options: dict[str, Any], guild_id: int | None,
                      focused: str | None = None) -> dict[str, Any]:
        parts = command.split()
        spec, scope = self._registered(parts[0], guild_id)
        if spec is None and self.commands:
            raise AssertionError(f"/{parts[0]} is not registered (registered: "
                                 f"{sorted(c['name'] for cs in self.commands.values() for c in cs)})")
        resolved: dict[str, dict[str, Any]] = {}
        schema = spec.get("options", []) if spec else None
        for sub in parts[1:]:
            if schema is not None:
                found = next((o for o in schema if o["name"] == sub and o["type"] in (1, 2)), None)
                if found is None:
                    raise AssertionError(f"/{command}: {sub} is not a subcommand")
                schema = found.get("options", [])
        values = [self._focused(command, name, value, schema) if name == focused else
                  self._option(command, name, value, schema, resolved) for name, value in options.items()]
        if schema is not None and focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing:
                raise AssertionError(f"/{command}: required option(s) missing: {missing}")
        for sub in reversed(parts[1:]):
            values = [{"type": 1 if sub == parts[-1] else 2, "name": sub, "options": values}]
        data: dict[str, Any] = {"id": spec["id"] if spec else str(self.ids.next()), "name": parts[0], "type": 1,
                                "options": values}
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data

    @staticmethod
    def _focused(command: str, name: str, value: Any, schema: list[dict[str, Any]] | None) -> dict[str, Any]:
        """The option being typed in an autocomplete interaction: text so far, which Discord sends only for an
        option registered with ``autocomplete: true``."""
        assert isinstance(value, str), f"/{command} {name}: what is typed is text, got {value!r}"
        if schema is not None:
            spec = next((o for o in schema if o["name"] == name), None)
            assert spec is not None, f"/{command} has no option {name!r}"
            assert spec.get("autocomplete"), f"/{command} {name} is not registered with autocomplete"
            kind = spec["type"]
        else:
            kind = 3
        return {"type": kind, "name": name, "value": value, "focused": True}

    def _option(self, command: str, name: str, value: Any, schema: list[dict[str, Any]] | None,
                resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
        if schema is not None:
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise AssertionError(f"/{command} has no option {name!r}")
            kind = spec["type"]
            choices = [c["value"] for c in spec.get("choices", [])]
            if choices and value not in choices:
                raise AssertionError(f"/{command} {name}: {value!r} is not one of {choices}")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise AssertionError(f"/{command} {name}: {value!r} is out of range [{low}, {high}]")
        else:
            kind = (11 if isinstance(value, Attachment) else 6 if isinstance(value, User)
                    else 8 if isinstance(value, Role) else 7 if isinstance(value, Channel)
                    else 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3)
        if kind == 7:  # a channel option: Discord resolves it as a partial channel with the member's permissions
            assert isinstance(value, Channel), f"/{command} {name}: expected a Channel, got {value!r}"
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id), "name": value.name, "type": value.type, "permissions": str((1 << 50) - 1),
                **({"parent_id": str(value.parent_id)} if value.parent_id else {})}
            return {"type": 7, "name": name, "value": str(value.id)}
        if kind == 6:
            assert isinstance(value, User), f"/{command} {name}: expected a User, got {value!r}"
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            resolved.setdefault("members", {})[str(value.id)] = value.member(self.started, with_user=False,
                                                                              permissions=True)
            return {"type": 6, "name": name, "value": str(value.id)}
        if kind == 8:
            assert isinstance(value, Role), f"/{command} {name}: expected a Role, got {value!r}"
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return {"type": 8, "name": name, "value": str(value.id)}
        if kind == 11:
            assert isinstance(value, Attachment), f"/{command} {name}: expected an Attachment, got {value!r}"
            aid = self.ids.next()
            self.uploads[aid] = value
            url = f"http://127.0.0.1:{self.port}/attachments/{aid}/{value.filename}"
            resolved.setdefault("attachments", {})[str(aid)] = {
                "id": str(aid), "filename": value.filename, "size": len(value.data), "url": url, "proxy_url": url,
                "content_type": value.content_type, "ephemeral": True}
            return {"type": 11, "name": name, "value": str(aid)}
        expected = {3: str, 4: int, 5: bool}[kind]
        assert isinstance(value, expected), f"/{command} {name}: expected {expected.__name__}, got {value!r}"
        return {"type": kind, "name": name, "value": value}

    # ----------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False)
        await ws.prepare(request)
        conn = Connection(ws)
        self._connections.append(conn)
        try:
            await conn.send(10, {"heartbeat_interval": 41250})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op = payload.get("op")
                if op == 1:
                    conn.read_up_to = max(conn.read_up_to, int(payload.get("d") or 0))
                    self._touch()
                    await conn.send(11)
                elif op == 2:
                    await self._identify(conn, payload["d"])
                elif op == 6:
                    if payload["d"].get("token") != self.token:
                        await ws.close(code=4004)
                        break
                    conn.identified = True
                    conn.intents = self._last_intents
                    conn.seq = int(payload["d"].get("seq") or 0)
                    conn.shard = self.shards_identified.get(str(payload["d"].get("session_id")), (0, 1))
                    self.resumes += 1
                    await conn.send(0, {}, "RESUMED")
        finally:
            self._connections.remove(conn)
        return ws

    _last_intents = 0
    recommended_shards = 1
    """What GET /gateway/bot recommends (an AutoShardedClient without a shard count starts that many)."""
    _dm_by_id: dict[int, Channel] = {}  # noqa: RUF012 (replaced, never mutated, per instance in _channel)

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if int(data.get("intents", 0)) & MESSAGE_CONTENT and not self.message_content_granted:
            # Discord's documentation (Gateway, Close Event Codes): 4014 "Disallowed intent(s): You sent a
            # disallowed intent for a Gateway Intent. You may have tried to specify an intent that you have not
            # enabled or are not approved for." discord.py raises PrivilegedIntentsRequired for it.
            self.refused_identifies += 1
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self.identifies += 1
        conn.intents = self._last_intents = int(data.get("intents", 0))
        conn.identified = True
        shard_id, count = data.get("shard") or (0, 1)
        conn.shard = (int(shard_id), int(count))
        session = f"fake-session-{self.identifies}"
        self.shards_identified[session] = conn.shard
        ours = conn.receives({"guild_id": self.guild_id})  # the guild is on this shard
        me = {**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        await conn.send(0, {"v": 10, "user": me, "session_id": session,
                            "resume_gateway_url": self.gateway_url,
                            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if ours else [],
                            "application": {"id": str(self.app_id), "flags": 0}, "shard": list(conn.shard),
                            "private_channels": [], "relationships": []}, "READY")
        if ours:
            await conn.send(0, self._guild_payload(), "GUILD_CREATE")
        staged, self.at_ready = self.at_ready, []
        for then in staged:
            await then()

    def _guild_payload(self) -> dict[str, Any]:
        at = self.started
        everyone = Role(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0).payload()
        return {
            "id": str(self.guild_id), "name": "Fake Guild", "owner_id": str(self.owner.id), "member_count": 2,
            "large": False, "unavailable": False, "icon": None, "description": None, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "premium_tier": 0, "preferred_locale": "en-US", "system_channel_id": None, "afk_channel_id": None,
            "roles": [everyone, *(r.payload() for r in self.roles.values())],
            "channels": [c.payload(at) for c in self.channels.values() if c.type != PUBLIC_THREAD],
            "threads": [c.payload(at) for c in self.channels.values() if c.type == PUBLIC_THREAD and not c.archived],
            "members": [self.bot.member(at)], "presences": [], "voice_states": [], "emojis": [], "stickers": [],
            "features": [], "joined_at": iso(at), "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ----------------------------------------------------------------- REST

    @web.middleware
    async def _middleware(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        headers: dict[str, str] = {}
        if request.path.startswith("/api/"):
            self.requests.append((request.method, request.path_qs))
            if self.rates is not None:
                refused, headers = self.rates.check(request)
                if refused is not None:
                    self._touch()
                    return refused
        try:
            response = await handler(request)
            response.headers.update(headers)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the client went away mid-request (a test killed the bot): not the fake's fault
            self.connections_lost += 1
            raise
        except Exception as error:  # never 5xx: discord.py would retry with sleeps
            self.errors.append(f"{request.method} {request.path}: {error!r}")
            response = discord_error(400, 50035, f"fake error: {error!r}")
        finally:
            if request.path.startswith("/api/"):
                self._touch()
        return response

    def _authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        upload = self.uploads.get(int(request.match_info["attachment"]))
        if upload is None or upload.filename != request.match_info["filename"]:
            return web.Response(status=404, text="no such attachment")
        self.downloads.append(int(request.match_info["attachment"]))
        return web.Response(body=upload.data, content_type=upload.content_type)

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self.unhandled.append(f"{request.method} {request.path_qs}")
        return discord_error(404, 0, "404: Not Found")

    async def _me(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return discord_error(401, 0, "401: Unauthorized")
        return json_response({**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def _application(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return discord_error(401, 0, "401: Unauthorized")
        return json_response({"id": str(self.app_id), "name": "Clerk", "description": "", "icon": None,
                              "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.payload(),
                              "verify_key": "0" * 64, "flags": 0, "interactions_endpoint_url": None,
                              "team": None, "summary": ""})

    async def _gateway_bot(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.gateway_url.rstrip("/"), "shards": self.recommended_shards,
                              "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                      "max_concurrency": 1}})

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return discord_error(401, 0, "401: Unauthorized")
        self.syncs += 1
        if self.sync_refusals:
            return discord_error(*self.sync_refusals.pop(0))
        guild = request.match_info.get("guild")
        scope = int(guild) if guild else None
        body = await request.json()
        registered = []
        for cmd in body:
            # Discord's command object has a description always: "Empty string for USER and MESSAGE commands".
            saved = {"description": "", **cmd, "id": str(self.ids.next()), "application_id": str(self.app_id),
                     "version": "1", "type": cmd.get("type", 1)}
            if scope is not None:
                saved["guild_id"] = str(scope)
            registered.append(saved)
        self.commands[scope] = registered
        return json_response(registered)

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        guild = request.match_info.get("guild")
        return json_response(self.commands.get(int(guild) if guild else None, []))

    async def _open_dm(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        user = self.users.get(int(body["recipient_id"]))
        if user is None or user.bot:
            return discord_error(400, 50033, "Invalid Recipient(s)")
        return json_response(self.dm_channel(user).payload(self.started))

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        user = self.users.get(int(request.match_info["user"]))
        return json_response(user.payload()) if user else discord_error(404, 10013, "Unknown User")

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        """One member by id: a REST call Discord answers without the members intent."""
        user = self.users.get(int(request.match_info["user"]))
        if user is None or user.id in self.outsiders or int(request.match_info["guild"]) != self.guild_id:
            return discord_error(404, 10007, "Unknown Member")
        return json_response(user.member(self.started))

    def _channel(self, channel_id: str) -> Channel | None:
        cid = int(channel_id)
        found = self.channels.get(cid)
        if found is None:
            if len(self._dm_by_id) != len(self.dm_channels):  # an index, so a burst of 2,000 DMs is not quadratic
                self._dm_by_id = {c.id: c for c in self.dm_channels.values()}
            found = self._dm_by_id.get(cid)
        return found

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request.match_info["channel"])
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        return json_response(channel.payload(self.started))

    async def _get_messages(self, request: web.Request) -> web.StreamResponse:
        """A DM channel's history, as Discord's Get Channel Messages: at most ``limit`` (1-100, default 50) messages,
        newest first; with ``after``, the oldest ones after it (still newest first: discord.py's ``history`` pages
        on from the first), with ``before`` (or neither) the newest ones before it. One of them at a time."""
        if not self._authorised(request):
            return discord_error(401, 0, "401: Unauthorized")
        channel = self._channel(request.match_info["channel"])
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        query = request.query
        if sum(key in query for key in ("after", "before", "around")) > 1:
            return discord_error(400, 50035, "Invalid Form Body: only one of after, before and around")
        limit = int(query.get("limit", "50"))
        if not 1 <= limit <= 100:
            return discord_error(400, 50035, "Invalid Form Body: limit must be between 1 and 100")
        self.history_reads += 1
        staged = self.on_history.pop(channel.id, None)
        if staged is not None:
            await staged()
        messages = [dict(m) for m in self.dm_history.get(channel.id, [])]
        messages += [message_payload(id=s.id, channel=channel, author=self.bot, content=s.content,
                                     at=snowflake_time(s.id), embeds=s.embeds, reference=s.reference,
                                     flags=s.flags, components=s.components)
                     for s in self.sent if s.channel_id == channel.id and not s.deleted and s.kind == "message"]
        messages.sort(key=lambda m: int(m["id"]))
        if "after" in query:
            found = [m for m in messages if int(m["id"]) > int(query["after"])][:limit]
        else:
            before = int(query["before"]) if "before" in query else None
            found = [m for m in messages if before is None or int(m["id"]) < before][-limit:]
        return json_response(found[::-1])

    async def _typing(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """A JSON body, or multipart with ``payload_json`` and ``files[n]``."""
        if not request.content_type.startswith("multipart/"):
            body = await request.json()
            self.bodies.append((request.method, request.path, body))
            return body, []
        payload: dict[str, Any] = {}
        files: list[tuple[str, bytes]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                files.append((part.filename or part.name or "file", bytes(await part.read())))
        self.bodies.append((request.method, request.path, payload))
        return payload, files

    def _record(self, kind: str, channel: Channel, body: dict[str, Any], files: list[tuple[str, bytes]],
                flags: int = 0) -> tuple[Sent, dict[str, Any]]:
        ref = body.get("message_reference") or {}
        sent = Sent(self.ids.next(), channel.id, kind, body.get("content") or "", list(body.get("embeds") or []),
                    files, int(body.get("flags") or flags), int(ref["message_id"]) if ref.get("message_id") else None,
                    components=list(body.get("components") or []))
        self.sent.append(sent)
        return sent, self._message_of(sent, channel)

    def _message_of(self, sent: Sent, channel: Channel, *, kind: int | None = None) -> dict[str, Any]:
        """The message object Discord returns (and dispatches) for something the bot sent."""
        attachments = [{"id": str(self.ids.next()), "filename": name, "size": len(data),
                        "url": f"{self.api_base}/attachments/{name}", "proxy_url": f"{self.api_base}/{name}"}
                       for name, data in sent.files]
        message = message_payload(id=sent.id, channel=channel, author=self.bot, content=sent.content, at=self.now(),
                                  embeds=sent.embeds, attachments=attachments, reference=sent.reference,
                                  flags=sent.flags, member=self.bot.member(self.started, with_user=False),
                                  components=sent.components)
        if kind is not None:
            message["type"] = kind
        message["pinned"] = sent.pinned
        return message

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return discord_error(401, 0, "401: Unauthorized")
        channel = self._channel(request.match_info["channel"])
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        if channel.is_dm and channel.recipient is not None and not channel.recipient.accepts_dms:
            self.dms_refused[channel.recipient.id] += 1
            return discord_error(403, 50007, "Cannot send messages to this user")
        refused = self.refusals.get(channel.id) or self.refusals.get(channel.parent_id or 0)
        if refused:
            return discord_error(403, refused, REFUSALS[refused])
        if channel.is_thread and channel.archived:  # a new message unarchives the thread
            await self.archive(channel, False)
        body, files = await self._body(request)
        if not (body.get("content") or body.get("embeds") or files):
            return discord_error(400, 50006, "Cannot send an empty message")
        problem = self._too_long(body)
        if problem:
            return discord_error(400, 50035, f"Invalid Form Body: {problem}")
        if self._too_large(files):  # a channel's or a DM's limit, as an interaction's
            return discord_error(413, 40005, "Request entity too large")
        stall = self.stalls.get(channel.id)
        if stall is not None and not stall[0]:
            self.stalled += 1
            await stall[1].wait()
            return discord_error(400, 0, "the post never reached Discord (stall_posts)")
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None and (channel.id, str(nonce)) in self.nonces:  # Discord: the same message, not a new one
            self.nonce_repeats += 1
            return json_response(self._message_of(self.nonces[(channel.id, str(nonce))], channel))
        sent, message = self._record("message", channel, body, files)
        if nonce is not None:
            self.nonces[(channel.id, str(nonce))] = sent
        await self.echo("MESSAGE_CREATE", message)  # Discord echoes the bot's own messages
        if stall is not None:
            self.stalled += 1
            await stall[1].wait()
        return json_response(message)

    @staticmethod
    def _too_long(body: dict[str, Any]) -> str | None:
        if len(body.get("content") or "") > 2000:
            return "content longer than 2000"
        for embed in body.get("embeds") or []:
            if len(embed.get("description") or "") > 4096:
                return "embed description longer than 4096"
            if len(embed.get("fields") or []) > 25:
                return "more than 25 embed fields"
            for f in embed.get("fields") or []:
                if not f.get("value") or len(f["value"]) > 1024 or not f.get("name") or len(f["name"]) > 256:
                    return "embed field name/value empty or too long"
        return None

    @staticmethod
    def _late(record: Interaction) -> bool:
        """Whether the first answer to ``record`` comes too late (Discord: 10062 Unknown interaction): after
        ``INTERACTION_DEADLINE`` seconds both of wall time and of this process's CPU time (what the bot in it spent,
        and the fake: more than wall time when threads work at once), or after ``HANG`` of wall time."""
        cpu = time.process_time() - record.sent_cpu
        wall = asyncio.get_running_loop().time() - record.sent_at
        return min(cpu, wall) > INTERACTION_DEADLINE or wall > HANG

    def _interaction(self, token: str) -> Interaction | None:
        return next((i for i in self.interactions.values() if i.token == token), None)

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        record = self.interactions.get(int(request.match_info["interaction"]))
        if record is None or record.token != request.match_info["token"]:
            return discord_error(404, 10062, "Unknown interaction")
        if self._late(record) or self.interactions_expired:
            return discord_error(404, 10062, "Unknown interaction")
        if record.acknowledged:
            return discord_error(400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._body(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        if self.answer_refusals and kind == 4:
            return discord_error(*self.answer_refusals.pop(0))
        problem = self._too_long(data)
        if problem:
            return discord_error(400, 50035, f"Invalid Form Body: {problem}")
        if self._too_large(files):
            return discord_error(413, 40005, "Request entity too large")
        if record.autocomplete or kind == 8:
            return self._autocomplete_result(record, kind, data)
        record.response_type = kind
        record.response_flags = int(data.get("flags") or 0)
        ephemeral = bool(record.response_flags & 64)
        info = {"id": str(record.id), "type": 3 if record.message_id is not None else 2,
                "response_message_loading": kind == 5, "response_message_ephemeral": ephemeral}
        if kind in (6, 7) and record.message_id is None:
            return discord_error(400, 40004, "Interaction callback type is only for component interactions")
        if kind == 7:  # update the message the button was on
            pressed = self.message(record.message_id or 0)
            assert pressed is not None
            pressed.history.append((pressed.content, pressed.embeds))
            for key in ("content", "embeds", "components"):
                if key in data:
                    setattr(pressed, key, data[key] or ("" if key == "content" else []))
            updated = self._message_of(pressed, record.channel)
            return json_response({"interaction": info, "resource": {"type": 7, "message": updated}})
        if kind == 4:
            sent, message = self._record("callback", record.channel, data, files)
            record.responses.append(sent)
            info["response_message_id"] = str(sent.id)
            return json_response({"interaction": info, "resource": {"type": 4, "message": message}})
        return json_response({"interaction": info, "resource": {"type": kind}})

    def _too_large(self, files: list[tuple[str, bytes]]) -> bool:
        limit = self.attachment_limit if self.attachments_refused_over is None else self.attachments_refused_over
        return sum(len(data) for _, data in files) > limit

    def _expired(self, record: Interaction) -> bool:
        return record.created is not None and self.now() - record.created > self.token_lifetime

    def _webhook(self, request: web.Request) -> Interaction | web.StreamResponse:
        """The interaction whose token a follow-up, edit or deletion uses; or Discord's refusal."""
        record = self._interaction(request.match_info["token"])
        if record is None or not record.acknowledged:
            return discord_error(404, 10015, "Unknown Webhook")
        if self._expired(record):
            return discord_error(401, 50027, "Invalid Webhook Token")
        return record

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook(request)
        if not isinstance(record, Interaction):
            return record
        body, files = await self._body(request)
        problem = self._too_long(body)
        if problem:
            return discord_error(400, 50035, f"Invalid Form Body: {problem}")
        if self._too_large(files):
            return discord_error(413, 40005, "Request entity too large")
        # The first followup after a deferral replaces the "thinking" message and keeps its flags (unless the bot
        # deleted that message: then the followup is a message of its own, with its own flags).
        replaces = record.deferred and not record.responses and not record.original_deleted
        flags = record.response_flags if replaces else int(body.get("flags") or 0)
        sent, message = self._record("followup", record.channel, {**body, "flags": flags}, files)
        record.responses.append(sent)
        return json_response(message)

    async def _edit_response(self, request: web.Request) -> web.StreamResponse:
        record = self._webhook(request)
        if not isinstance(record, Interaction):
            return record
        body, files = await self._body(request)
        sent, message = self._record("edit", record.channel, {**body, "flags": record.response_flags}, files)
        record.responses.append(sent)
        return json_response(message)

    async def _delete_response(self, request: web.Request) -> web.StreamResponse:
        """Discord's Delete Original Interaction Response (``@original``) or a follow-up by id: 204."""
        record = self._webhook(request)
        if not isinstance(record, Interaction):
            return record
        wanted = request.match_info["message"]
        if wanted == "@original":
            if record.original_deleted:
                return discord_error(404, 10008, "Unknown Message")
            record.original_deleted = True
            if record.responses:  # the first answer, or the follow-up that replaced the "thinking" message
                record.responses[0].deleted = True
        else:
            found = next((r for r in record.responses if str(r.id) == wanted and not r.deleted), None)
            if found is None:
                return discord_error(404, 10008, "Unknown Message")
            found.deleted = True
        return web.Response(status=204)

    # ----------------------------------------------------------------- autocomplete

    async def autocomplete(self, user: User, command: str, channel: Channel | None = None, /, *, option: str,
                           typed: str = "", **options: Any) -> list[dict[str, Any]]:
        """``user`` types ``typed`` into ``option`` of ``/command`` in ``channel`` (None: a DM), the other options
        as given so far: an APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4) with that option focused.
        Returns the choices the bot answered with (``{"name": ..., "value": ...}``)."""
        where = channel or self.dm_channel(user)
        data = self._command_data(command, {**options, option: typed}, None if where.is_dm else self.guild_id,
                                  focused=option)
        record = await self._interact(user, where, 4, data, f"{command} {option}", autocomplete=True)
        await self.wait_for(lambda: record.acknowledged, f"suggestions for /{command} {option}")
        assert record.choices is not None
        return record.choices

    def _autocomplete_result(self, record: Interaction, kind: int, data: dict[str, Any]) -> web.StreamResponse:
        """Response type 8 (APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) answers an autocomplete interaction, and only
        that; Discord refuses more than 25 choices and names or values over 100 characters."""
        if not record.autocomplete or kind != 8:
            return discord_error(400, 50035, f"Invalid Form Body: response type {kind} does not answer this "
                                             "interaction")
        choices = data.get("choices")
        if not isinstance(choices, list) or len(choices) > 25:
            return discord_error(400, 50035, "Invalid Form Body: data.choices must be a list of at most 25")
        for c in choices:
            if not 1 <= len(str(c.get("name", ""))) <= 100 or len(str(c.get("value", ""))) > 100:
                return discord_error(400, 50035, f"Invalid Form Body: choice {c!r} has a bad name or value length")
        record.response_type = kind
        record.choices = choices
        return json_response({"interaction": {"id": str(record.id), "type": 4}, "resource": {"type": 8}})

    # ----------------------------------------------------------------- bursts (appended: many events at once)

    def add_users(self, prefix: str, count: int) -> list[User]:
        """``count`` users named ``prefix1``.. at once (no GUILD_CREATE needed: DMs carry their author)."""
        return [self.add_user(f"{prefix}{n}") for n in range(1, count + 1)]

    async def dm_burst(self, messages: list[tuple[User, str]]) -> list[int]:
        """Every ``(user, text)`` DMs the bot in the same instant: the MESSAGE_CREATE frames are written back to back
        on the gateway (one websocket write each, no wait for the bot in between), as in the rush before a
        deadline. Returns the message ids, in order."""
        live = [c for c in self._connections if c.identified and not c.ws.closed]
        if not live:
            raise AssertionError("no bot is connected to receive the burst")
        at = self.now()
        ids = []
        for user, text in messages:
            mid = self.ids.next()
            ids.append(mid)
            payload = message_payload(id=mid, channel=self.dm_channel(user), author=user, content=text, at=at)
            self.dm_history.setdefault(int(payload["channel_id"]), []).append(payload)
            for conn in live:
                await conn.send(0, payload, "MESSAGE_CREATE")
        return ids

    def replied(self, message_ids: list[int]) -> dict[int, list[Sent]]:
        """The bot's replies to each of ``message_ids`` (one pass over what it sent)."""
        wanted: dict[int, list[Sent]] = {mid: [] for mid in message_ids}
        for sent in self.sent:
            if sent.reference in wanted and sent.kind != "system":
                wanted[sent.reference].append(sent)
        return wanted
