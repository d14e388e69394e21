"""Each user's DM channel with the bot, kept in the ``dm_channels`` table once it is known, so that the catch-up of
the DMs sent while the bot was offline (bot/discord/catch_up.py) reads a player's DM channel without asking Discord to
open it first (one create-DM request a player: with 1,000 games of 20 players, half the catch-up's requests).

Nothing is written on the path of a DM. A row is written once per user:

- at start, from the outgoing queue's rows (``keep_queue_channels``, in ``OwedService.forget_delivered``'s
  transaction, before it forgets the old ones): every answer to a DM names the DM's channel, so every user who DMed
  the bot is kept there without a write of its own;
- after a create-DM request (the catch-up's for a player never seen, the courier's for a DM to a user who has not DMed
  this process): ``learnt``, written a moment later in the background, the learnings of one moment together.

Discord gives a user and a bot one DM channel, and its id does not change; a channel Discord no longer knows is
replaced by the one a create-DM returns (``learnt`` overwrites)."""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, Connection, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.service.uow import Backend, ServiceBase
from engine.store.models import Base

log = logging.getLogger("clerk.dm_channels")

_D = Base.metadata.tables["dm_channels"]
_O = Base.metadata.tables["owed_messages"]
USER_LANE = "user:"
"""The outgoing queue's lane of a user's DMs: ``user:<user id>``."""
_AT_ONCE = 400
"""User ids in one read (well under SQLite's limit on bound parameters)."""


def _insert(dialect_name: str) -> Any:
    """The dialect's own ``insert`` (with ON CONFLICT), imported on first use: a bot on SQLite never loads the
    PostgreSQL one (as ``engine.service.lease``)."""
    dialect = "postgresql" if dialect_name == "postgresql" else "sqlite"
    return importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert


def _queue_channels() -> Any:
    """(user id, channel id) of each user a row of the outgoing queue sent a DM or an answer to, in a channel it
    named (one per user: the largest id, should a user ever have had two)."""
    user = cast(func.substr(_O.c.lane, len(USER_LANE) + 1), BigInteger)
    return (select(user.label("user_id"), func.max(_O.c.channel_id).label("channel_id"))
            .where(_O.c.lane.like(f"{USER_LANE}%"), _O.c.channel_id.is_not(None))
            .group_by(_O.c.lane))


def keep_queue_channels(connection: Connection) -> None:
    """In ``connection``'s transaction, one statement: keep the DM channel that the outgoing queue's rows name of
    every user not kept yet (a user kept already is left as they are: ON CONFLICT DO NOTHING, so two processes
    starting at once do not fail on each other's rows)."""
    statement = _insert(connection.dialect.name)(_D).from_select(["user_id", "channel_id"], _queue_channels())
    connection.execute(statement.on_conflict_do_nothing(index_elements=[_D.c.user_id]))


class DmChannelService(ServiceBase):
    """``clerk.dm_channels``: the DM channel of each user, once known."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._unwritten: dict[int, int] = {}
        """Learnt, not yet in the table: written together (``_write_learnt``)."""
        self._writer: asyncio.Task[None] | None = None

    async def channels_of(self, users: Iterable[int]) -> dict[int, int]:
        """user id -> DM channel id, of those of ``users`` whose channel is known (in the table, or learnt by this
        process and not yet written)."""
        wanted = sorted(set(users))
        found = {user: self._unwritten[user] for user in wanted if user in self._unwritten}
        async with self._read() as session:
            for start in range(0, len(wanted), _AT_ONCE):
                part = wanted[start:start + _AT_ONCE]
                rows = await session.execute(select(_D.c.user_id, _D.c.channel_id).where(_D.c.user_id.in_(part)))
                for user, channel in rows:
                    found.setdefault(int(user), int(channel))
        return found

    def learnt(self, user_id: int, channel_id: int) -> None:
        """Discord said ``channel_id`` is the DM channel of ``user_id`` (a create-DM's answer): kept in the table a
        moment later, with whatever else was learnt meanwhile (one transaction), replacing a channel kept before."""
        self._unwritten[user_id] = channel_id
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_learnt(), name="clerk-dm-channels-write")

    async def written(self) -> None:
        """Wait until everything learnt so far is in the table (tests; a clean stop)."""
        while self._writer is not None and not self._writer.done():
            await self._writer

    async def _write_learnt(self) -> None:
        await asyncio.sleep(0)  # the learnings of this moment together
        while self._unwritten:
            learnt = dict(self._unwritten)
            try:
                async with self._sessions() as session, session.begin():
                    await _upsert(session, learnt)
            except Exception as error:  # known in this process; a later create-DM tries again
                log.warning("could not keep the DM channels of %d user(s): %s", len(learnt), error)
            for user, channel in learnt.items():
                if self._unwritten.get(user) == channel:
                    del self._unwritten[user]


async def _upsert(session: AsyncSession, channels: dict[int, int]) -> None:
    """Keep ``channels`` (user id -> channel id), replacing a different channel kept before; one statement."""
    insert = _insert(session.get_bind().dialect.name)
    statement = insert(_D)
    statement = statement.on_conflict_do_update(
        index_elements=[_D.c.user_id], set_={"channel_id": statement.excluded.channel_id},
        where=_D.c.channel_id != statement.excluded.channel_id)
    await session.execute(statement, [{"user_id": user, "channel_id": channel}
                                      for user, channel in sorted(channels.items())])
