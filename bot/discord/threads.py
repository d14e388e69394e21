"""Threads of a game channel found by name: made once, remembered in the database, made again if deleted.

A ``ToThread`` with a ``thread_id`` goes there. Otherwise the thread is looked up under the key
``"thread:" + name`` of its game (``clerk.posts.kept_message``); if there is none, or it belongs to another channel, a
public thread (a private one for a ``ToThread`` marked private, with its members added) is made under the game
channel and remembered (``clerk.posts.keep_message``). One lock per name makes
two messages that arrive together share one new thread instead of making two."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Literal, TypeVar

import discord

from bot.actions.outbox import ToThread
from bot.discord.limits import clip
from engine.service import Clerk

log = logging.getLogger("clerk.discord.threads")

T = TypeVar("T")

THREAD_NAME = 100
ARCHIVE_AFTER: Literal[10080] = 10080
"""Minutes without messages before Discord archives the thread: a week, the longest Discord allows."""


class Undeliverable(Exception):
    """There is nowhere to send it (e.g. the game channel is gone or is not a text channel)."""


class ChannelGone(Undeliverable):
    """The game channel a thread belongs to does not exist (any more): it was deleted (lost_channels.py)."""


class Locks:
    """One ``asyncio.Lock`` per key, made on first use."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock


class Threads:
    def __init__(self, client: discord.Client, clerk: Clerk) -> None:
        self.client = client
        self.clerk = clerk
        self.locks = Locks()
        self.members: dict[int, set[int]] = {}
        """Thread id -> the users added to it (private threads) since the start."""

    async def post(self, target: ToThread, action: Callable[[int], Awaitable[T]]) -> T:
        """Run ``action`` with the thread's id; if a remembered thread turns out to be gone, make it again once."""
        thread_id, made = await self.find(target)
        try:
            await self.add_members(target, thread_id)
            return await action(thread_id)
        except discord.NotFound:
            if made or target.thread_id is not None:
                raise
            log.info("thread %r of game %s (%s) is gone; making it again", target.name, target.game_id, thread_id)
            thread_id, _ = await self.find(target, gone=thread_id)
            await self.add_members(target, thread_id)
            return await action(thread_id)

    async def add_members(self, target: ToThread, thread_id: int) -> None:
        """Add the members a private thread should have and has not been given yet in this process (Discord: PUT
        /channels/{thread}/thread-members/{user}, which needs Send Messages in Threads and an unarchived thread; a
        user already in it is no error). A refusal is logged and tried again with the next post."""
        if not target.private:
            return
        added = self.members.setdefault(thread_id, set())
        for user_id in target.members:
            if user_id in added:
                continue
            try:
                await self.client.http.add_user_to_thread(thread_id, user_id)
                added.add(user_id)
            except discord.NotFound:
                raise
            except discord.HTTPException as error:
                log.warning("could not add %s to the private thread %s: %s", user_id, thread_id, error)

    async def find(self, target: ToThread, *, gone: int | None = None) -> tuple[int, bool]:
        """(thread id, whether it was made just now). ``gone``: a thread id known not to exist any more."""
        if target.thread_id is not None:
            return target.thread_id, False
        key = "thread:" + target.name
        async with self.locks((target.game_id, key)):
            kept = await self.clerk.posts.kept_message(target.game_id, key)
            if kept is not None and kept[0] == target.channel_id and kept[1] != gone:
                return kept[1], False
            thread = await self.make(target)
            await self.clerk.posts.keep_message(target.game_id, key, target.channel_id, thread.id)
            return thread.id, True

    async def make(self, target: ToThread) -> discord.Thread:
        parent = self.client.get_channel(target.channel_id)
        if parent is None:
            try:
                parent = await self.client.fetch_channel(target.channel_id)
            except discord.NotFound as error:
                raise ChannelGone(f"channel {target.channel_id} does not exist") from error
        if not isinstance(parent, discord.TextChannel):
            raise Undeliverable(f"channel {target.channel_id} is not a text channel, so it can have no threads")
        if target.private:  # only its members (and members with Manage Threads) see it; nobody may invite others
            thread = await parent.create_thread(name=clip(target.name, THREAD_NAME),
                                                type=discord.ChannelType.private_thread, invitable=False,
                                                auto_archive_duration=ARCHIVE_AFTER, reason="Clerk")
        else:
            thread = await parent.create_thread(name=clip(target.name, THREAD_NAME),
                                                type=discord.ChannelType.public_thread,
                                                auto_archive_duration=ARCHIVE_AFTER, reason="Clerk")
        log.info("made thread %r (%s) in #%s for game %s", thread.name, thread.id, parent.name, target.game_id)
        return thread

    async def unarchive(self, thread_id: int) -> None:
        """Reopen an archived thread so its messages can be edited (a new message reopens it by itself)."""
        thread = self.client.get_channel(thread_id) or await self.client.fetch_channel(thread_id)
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=False)
