"""The unit of work: one transaction per command, a lock per game (in this process and in the database), and the
event it appends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from engine.core.errors import ClerkError
from engine.service.clock import Clock, Dice
from engine.service.lease import Lease
from engine.store.locking import lock_for_write
from engine.store.models import Event, Game


class Duplicate(ClerkError):
    """The Discord message or interaction was already processed (a redelivery); nothing is done twice."""

    def __init__(self, source_id: str, kind: str, payload: dict[str, Any]) -> None:
        super().__init__("That was already done (the same message arrived twice); nothing was changed.")
        self.source_id = source_id
        self.kind = kind
        self.payload = payload


class GameLocks:
    """One asyncio lock per game: commands on one game run one at a time in this process."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    def __call__(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


@dataclass
class UnitOfWork:
    session: AsyncSession
    now: datetime

    async def already_done(self, source_id: str | None) -> Event | None:
        if source_id is None:
            return None
        found = await self.session.execute(select(Event).where(Event.source_id == source_id))
        return found.scalar_one_or_none()

    async def record(
        self, game_id: int, kind: str, actor: int | None, payload: dict[str, Any], source_id: str | None
    ) -> Event:
        """Append an event with the game's next sequence number (one row update, one insert)."""
        seq = (
            await self.session.execute(
                update(Game).where(Game.id == game_id).values(last_seq=Game.last_seq + 1).returning(Game.last_seq)
            )
        ).scalar_one()
        event = Event(
            game_id=game_id, seq=seq, kind=kind, actor=actor, payload=payload, source_id=source_id, at=self.now
        )
        self.session.add(event)
        return event


class ServiceBase:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, dice: Dice) -> None:
        self._sessions = sessions
        self.clock = clock
        self.dice = dice
        self._locks = GameLocks()

    def lease(self, name: str, holder: str, ttl: timedelta) -> Lease:
        """The lease ``name`` in this database, as taken by ``holder`` (``engine.service.lease``)."""
        return Lease(self._sessions, name, holder, ttl)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncSession]:
        async with self._sessions() as session:
            yield session

    @asynccontextmanager
    async def _write(self, game_id: int | None, source_id: str | None = None) -> AsyncIterator[UnitOfWork]:
        """A transaction that commits only if the block finishes; raises Duplicate for a redelivery. The game's
        database lock (``engine.store.locking``) is its first statement, so two processes write one at a time."""
        lock = self._locks(game_id) if game_id is not None else asyncio.Lock()
        async with lock, self._sessions() as session, session.begin():
            await lock_for_write(session, game_id)
            uow = UnitOfWork(session, self.clock.now())
            done = await uow.already_done(source_id)
            if done is not None:
                raise Duplicate(source_id or "", done.kind, dict(done.payload))
            yield uow
