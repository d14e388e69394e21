"""Users whose DMs are closed to the bot: Discord refused a DM to them (403, "Cannot send messages to this user").
Every further DM would cost another refused request, and Discord bans an app for a while after 10,000 refused
(invalid) requests in 10 minutes, so the bot stops DMing them (bot/discord/delivery.py) until they DM the bot
again or a moderator says so (``/player dms``). Kept in the ``closed_dms`` table, so it survives a restart.

The set is also kept in memory (loaded once, then updated by this process): checking it costs no query per DM.
Another process of the same deployment (a second shard process) learns of a change at its next start."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import delete, select

from engine.service.uow import Backend, ServiceBase
from engine.store.models import ClosedDm

log = logging.getLogger("clerk.closed_dms")


class ClosedDmService(ServiceBase):
    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._closed: set[int] | None = None
        self._unwritten: set[int] = set()
        """Closed in memory, not yet in the table: written together (a burst of 2,000 refusals is one transaction)."""
        self._writer: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        """Writes to the table one at a time, in the order they were made in memory."""

    async def closed(self) -> frozenset[int]:
        """Every user the bot does not DM now."""
        return frozenset(await self._known())

    async def is_closed(self, user_id: int) -> bool:
        return user_id in await self._known()

    async def close(self, user_id: int) -> bool:
        """Stop DMing ``user_id``; True if they were not closed already (then the moderators are told, once). Kept
        in memory at once, in the table a moment later (``written``)."""
        known = await self._known()
        if user_id in known:
            return False
        known.add(user_id)
        self._unwritten.add(user_id)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_closed(), name="clerk-closed-dms-write")
        return True

    async def reopen(self, user_id: int) -> bool:
        """DM ``user_id`` again (they DMed the bot, or a moderator said so); True if they were closed."""
        known = await self._known()
        if user_id not in known:
            return False
        known.discard(user_id)
        async with self._lock:
            if user_id in self._unwritten:
                self._unwritten.discard(user_id)
                return True
            async with self._sessions() as session, session.begin():
                await session.execute(delete(ClosedDm).where(ClosedDm.user_id == user_id))
        return True

    async def written(self) -> None:
        """Wait until every closing made so far is in the table (tests; a clean stop)."""
        while self._writer is not None and not self._writer.done():
            await self._writer

    async def _write_closed(self) -> None:
        await asyncio.sleep(0)  # the refusals of this moment first
        while self._unwritten:
            async with self._lock:
                users, self._unwritten = sorted(self._unwritten), set()
                now = self.clock.now()
                try:
                    async with self._sessions() as session, session.begin():
                        await session.execute(delete(ClosedDm).where(ClosedDm.user_id.in_(users)))
                        session.add_all(ClosedDm(user_id=u, since=now) for u in users)
                except Exception as error:  # kept in memory for this run; a refusal after a restart tries again
                    log.warning("could not keep that the DMs of %d user(s) are closed: %s", len(users), error)

    async def _known(self) -> set[int]:
        if self._closed is None:
            async with self._read() as session:
                found = set((await session.execute(select(ClosedDm.user_id))).scalars())
            if self._closed is None:
                self._closed = found
        return self._closed
