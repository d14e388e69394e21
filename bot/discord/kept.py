"""Kept messages: one message per key (a pinned tally, a running count), edited in place on every update.

The message is looked up with ``clerk.posts.kept_message(game_id, key)`` and edited wherever it is. Only when there is
none, or it was deleted, is a new one sent to the update's target (so a thread is made only then), pinned when
asked, and remembered with ``clerk.posts.keep_message``. Updates of one key run one at a time, and an update older
than the one already shown is dropped: each batch of outgoing messages takes a ticket when its handler has
finished, so a slow delivery never puts an old count back over a newer one."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.actions.outbox import Keep, Outgoing
from bot.discord.threads import Locks
from engine.service import Clerk

log = logging.getLogger("clerk.discord.kept")

THREAD_ARCHIVED = 50083

Parts = Callable[[Outgoing], dict[str, Any]]


class Keeper:
    def __init__(self, client: discord.Client, clerk: Clerk, parts: Parts,
                 unarchive: Callable[[int], Awaitable[None]]) -> None:
        self.client = client
        self.clerk = clerk
        self.parts = parts
        self.unarchive = unarchive
        self.locks = Locks()
        self.shown: dict[tuple[int, str], int] = {}
        """The ticket of the update each key shows now."""

    async def post(self, item: Outgoing, keep: Keep, ticket: int, send: Callable[[], Awaitable[discord.Message]]
                   ) -> None:
        """Edit the kept message to read as ``item``, or ``send`` it as a new one and keep that."""
        key = (keep.game_id, keep.key)
        async with self.locks(key):
            if self.shown.get(key, -1) > ticket:
                log.info("skipped an outdated update of %s in game %s", keep.key, keep.game_id)
                return
            kept = await self.clerk.posts.kept_message(keep.game_id, keep.key)
            if kept is not None and await self.edit(kept[0], kept[1], item):
                self.shown[key] = ticket
                return
            message = await send()
            if keep.pin:
                try:
                    await message.pin(reason="Clerk keeps this message up to date")
                except discord.HTTPException as error:  # e.g. no Pin Messages permission: kept, just not pinned
                    log.warning("could not pin %s of game %s in channel %s: %s", keep.key, keep.game_id,
                                message.channel.id, error)
            await self.clerk.posts.keep_message(keep.game_id, keep.key, message.channel.id, message.id)
            self.shown[key] = ticket

    async def edit(self, channel_id: int, message_id: int, item: Outgoing) -> bool:
        """Edit the kept message to read exactly as ``item``; False if it is gone."""
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        for attempt in range(2):
            parts = self.parts(item)
            file = parts.pop("file", None)
            try:
                await message.edit(content=parts.get("content"), embed=parts.get("embed"),
                                   attachments=[file] if file is not None else [])
                return True
            except discord.NotFound:
                return False
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED or attempt:
                    raise
                await self.unarchive(channel_id)
        return False
