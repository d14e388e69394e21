"""Threads, edits, pins and deletions: the REST routes (and the gateway events that follow them) for a bot that
keeps one message up to date in a thread it made, plus what a test does to the world (a moderator deletes the
tally, archives or deletes the thread).

Discord's behaviour modelled here:
- ``POST /channels/{id}/threads`` (no message) makes a thread of a text channel; Discord sends THREAD_CREATE
  (``newly_created``) and posts a system message (type 18) in the parent. With ``type: 12`` it is a private thread:
  no system message in the parent (Discord posts none for a private thread), only its members see it, its creator
  (the bot) is its first member, and it needs Create Private Threads (else 403 50013: ``refuse_private_threads``).
- ``PUT /channels/{thread}/thread-members/{user}`` adds a member to a thread (204; again is no error); Discord
  refuses it on an archived thread (400 50083) and for a user who is not in the server (404 10013), and it needs Send
  Messages in Threads (403 50013 with ``refuse_posts`` on the parent).
- ``PATCH /channels/{cid}/messages/{mid}`` edits the bot's own message; only the keys sent change.
- ``PUT /channels/{cid}/messages/pins/{mid}`` (discord.py 2.7; the older ``/pins/{mid}`` too) pins it; Discord
  posts a system message (type 6). Without the permission it is 403 50013.
- An archived thread: a new message unarchives it, but an edit or a pin there is refused (400 50083) until
  the thread is unarchived with ``PATCH /channels/{id} {"archived": false}``.
- A deleted message or thread is 404 (10008 Unknown Message, 10003 Unknown Channel)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from fakediscord.payloads import PRIVATE_THREAD, PUBLIC_THREAD, TEXT, Channel, User, iso
from fakediscord.records import Sent
from fakediscord.responses import discord_error as _error
from fakediscord.responses import json_response as _json

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_CREATED = 18
CHANNEL_PINNED_MESSAGE = 6

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ChannelRoutes:
    """Mixed into ``FakeDiscord``; uses its world, ``dispatch`` and message helpers."""

    guild_id: int
    bot: User
    channels: dict[int, Channel]
    sent: list[Sent]
    bot_can_pin: bool
    threads_created: list[Channel]
    private_threads_refused: bool
    users: dict[int, User]
    refusals: dict[int, int]

    # Provided by FakeDiscord.
    ids: Any
    now: Callable[[], Any]
    started: Any
    dispatch: Callable[[str, dict[str, Any]], Awaitable[None]]
    echo: Callable[[str, dict[str, Any]], Awaitable[None]]
    _channel: Callable[[str], Channel | None]
    _authorised: Callable[[web.Request], bool]
    _body: Callable[[web.Request], Awaitable[tuple[dict[str, Any], list[tuple[str, bytes]]]]]
    _too_long: Callable[[dict[str, Any]], str | None]
    _message_of: Callable[..., dict[str, Any]]

    def channel_routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("POST", "/channels/{channel}/threads", self._start_thread),
            ("PUT", "/channels/{channel}/thread-members/{user}", self._add_thread_member),
            ("PATCH", "/channels/{channel}", self._edit_channel),
            ("PATCH", "/channels/{channel}/messages/{message}", self._edit_message),
            ("PUT", "/channels/{channel}/messages/pins/{message}", self._pin),
            ("PUT", "/channels/{channel}/pins/{message}", self._pin),
            ("DELETE", "/channels/{channel}/messages/pins/{message}", self._unpin),
            ("DELETE", "/channels/{channel}/pins/{message}", self._unpin),
        ]

    # ----------------------------------------------------------------- reading

    def threads_of(self, parent: Channel) -> list[Channel]:
        """The threads of ``parent`` that still exist, oldest first."""
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == parent.id]

    def thread_named(self, name: str, parent: Channel | None = None) -> Channel | None:
        found = [c for c in self.channels.values()
                 if c.is_thread and c.name == name and (parent is None or c.parent_id == parent.id)]
        assert len(found) <= 1, f"{len(found)} threads are called {name!r}"
        return found[0] if found else None

    def pinned(self, channel: Channel) -> list[Sent]:
        return [s for s in self.sent if s.channel_id == channel.id and s.pinned and not s.deleted]

    def message(self, message_id: int) -> Sent | None:
        return next((s for s in self.sent if s.id == message_id), None)

    # ----------------------------------------------------------------- what a test does to the world

    async def delete_message(self, sent: Sent) -> None:
        """A moderator deletes one of the bot's messages."""
        sent.deleted = True
        sent.pinned = False
        channel = self.channels.get(sent.channel_id)
        await self.echo("MESSAGE_DELETE", {"id": str(sent.id), "channel_id": str(sent.channel_id),
                                               **({"guild_id": str(self.guild_id)} if channel else {})})

    async def delete_thread(self, thread: Channel) -> None:
        """A moderator deletes a thread (and with it every message in it)."""
        assert thread.is_thread
        del self.channels[thread.id]
        for s in self.sent:
            if s.channel_id == thread.id:
                s.deleted = True
        await self.echo("THREAD_DELETE", {"id": str(thread.id), "guild_id": str(self.guild_id),
                                              "parent_id": str(thread.parent_id), "type": thread.type})

    async def archive(self, thread: Channel, archived: bool = True) -> None:
        """A thread is archived (by a moderator, or after ``auto_archive_duration`` without messages)."""
        assert thread.is_thread
        thread.archived = archived
        await self.echo("THREAD_UPDATE", thread.payload(self.now()))

    # ----------------------------------------------------------------- routes

    async def _start_thread(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return _error(401, 0, "401: Unauthorized")
        parent = self._channel(request.match_info["channel"])
        if parent is None:
            return _error(404, 10003, "Unknown Channel")
        if parent.type != TEXT:
            return _error(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        name = str(body.get("name") or "")
        duration = int(body.get("auto_archive_duration") or 1440)
        if not 1 <= len(name) <= 100:
            return _error(400, 50035, "Invalid Form Body: name must be 1 to 100 characters")
        if duration not in ARCHIVE_DURATIONS:
            return _error(400, 50035, f"Invalid Form Body: auto_archive_duration {duration}")
        kind = int(body.get("type") or PUBLIC_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return _error(400, 50035, "Invalid Form Body: the fake makes public and private threads only")
        if kind == PRIVATE_THREAD and (self.private_threads_refused or parent.id in self.refusals):
            return _error(403, 50013, "Missing Permissions")
        thread = Channel(self.ids.next(), name, kind, self.guild_id, parent.id, self.bot.id,
                         auto_archive_duration=duration, members={self.bot.id})
        self.channels[thread.id] = thread
        self.threads_created.append(thread)
        data = thread.payload(self.now())
        await self.echo("THREAD_CREATE", {**data, "newly_created": True})
        if kind == PRIVATE_THREAD:  # Discord posts no "started a thread" message for a private thread
            return _json(data)
        notice = Sent(self.ids.next(), parent.id, "system", name, reference=None)
        self.sent.append(notice)
        message = self._message_of(notice, parent, kind=THREAD_CREATED)
        message["message_reference"] = {"channel_id": str(thread.id), "guild_id": str(self.guild_id)}
        await self.echo("MESSAGE_CREATE", message)
        return _json(data)

    async def _add_thread_member(self, request: web.Request) -> web.StreamResponse:
        if not self._authorised(request):
            return _error(401, 0, "401: Unauthorized")
        thread = self._channel(request.match_info["channel"])
        if thread is None or not thread.is_thread:
            return _error(404, 10003, "Unknown Channel")
        if thread.parent_id in self.refusals:
            return _error(403, 50013, "Missing Permissions")
        if thread.archived:
            return _error(400, 50083, "Thread is archived")
        user_id = int(request.match_info["user"])
        if user_id not in self.users:
            return _error(404, 10013, "Unknown User")
        if user_id not in thread.members:
            thread.members.add(user_id)
            await self.echo("THREAD_MEMBERS_UPDATE", {
                "id": str(thread.id), "guild_id": str(self.guild_id), "member_count": len(thread.members),
                "added_members": [{"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(self.now()),
                                   "flags": 0}]})
        return web.Response(status=204)

    async def _edit_channel(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request.match_info["channel"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body = await request.json()
        if "archived" in body:
            if not channel.is_thread:
                return _error(400, 50024, "Cannot execute action on this channel type")
            channel.archived = bool(body["archived"])
        if body.get("name"):
            channel.name = str(body["name"])
        data = channel.payload(self.now())
        await self.echo("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return _json(data)

    def _own_message(self, request: web.Request) -> tuple[Channel, Sent] | web.Response:
        channel = self._channel(request.match_info["channel"])
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        sent = self.message(int(request.match_info["message"]))
        if sent is None or sent.deleted or sent.channel_id != channel.id:
            return _error(404, 10008, "Unknown Message")
        if channel.is_thread and channel.archived:
            return _error(400, 50083, "Thread is archived")
        return channel, sent

    async def _edit_message(self, request: web.Request) -> web.StreamResponse:
        found = self._own_message(request)
        if isinstance(found, web.Response):
            return found
        channel, sent = found
        body, files = await self._body(request)
        problem = self._too_long(body)
        if problem:
            return _error(400, 50035, f"Invalid Form Body: {problem}")
        content = (body.get("content") or "") if "content" in body else sent.content
        embeds = list(body.get("embeds") or []) if "embeds" in body else sent.embeds
        kept_files = sent.files if "attachments" not in body else files
        if not (content or embeds or kept_files):
            return _error(400, 50006, "Cannot send an empty message")
        sent.history.append((sent.content, sent.embeds))
        sent.content, sent.embeds, sent.files = content, embeds, kept_files
        if "components" in body:
            sent.components = list(body.get("components") or [])
        message = self._message_of(sent, channel)
        message["edited_timestamp"] = iso(self.now())
        await self.echo("MESSAGE_UPDATE", message)
        return _json(message)

    async def _pin(self, request: web.Request) -> web.StreamResponse:
        found = self._own_message(request)
        if isinstance(found, web.Response):
            return found
        channel, sent = found
        if not self.bot_can_pin:
            return _error(403, 50013, "Missing Permissions")
        if not sent.pinned:
            sent.pinned = True
            await self.echo("CHANNEL_PINS_UPDATE", {"guild_id": str(self.guild_id), "channel_id": str(channel.id),
                                                        "last_pin_timestamp": iso(self.now())})
            notice = Sent(self.ids.next(), channel.id, "system", "", reference=sent.id)
            self.sent.append(notice)
            await self.echo("MESSAGE_CREATE", self._message_of(notice, channel, kind=CHANNEL_PINNED_MESSAGE))
        return web.Response(status=204)

    async def _unpin(self, request: web.Request) -> web.StreamResponse:
        found = self._own_message(request)
        if isinstance(found, web.Response):
            return found
        found[1].pinned = False
        return web.Response(status=204)
