"""A lease in the database: which one of several processes sharing a database does a job (the deadline
scheduler's timed work) for now.

A lease is one row of ``leases`` (name, holder, expires_at). ``take`` is one atomic statement,
``INSERT … ON CONFLICT (name) DO UPDATE … WHERE leases.expires_at <= :now OR leases.holder = :me RETURNING
holder``: it creates the lease, renews it for its holder, or takes it over once it has expired, and returns a row
only to the process that holds it afterwards. Two processes taking it at the same instant are decided by the
database (PostgreSQL's row lock re-checks the condition against the winner's row; SQLite writes one at a time),
so exactly one holds it. A holder renews it well before it expires (``renew_every``); a process that stops
``release``s it so another takes over at its next look, and one that dies loses it when it expires.

On PostgreSQL a process also holds a *liveness lock* for as long as it runs: a session-level advisory lock keyed by
the schema, the lease's name and the holder's name, on a connection of its own. PostgreSQL drops it the moment that
session ends (the process died, was killed, lost its connection). A process that finds the lease held by another
and unexpired tries that holder's liveness lock: if it gets it, the holder is gone, and it takes the lease over at
once instead of waiting for the expiry (it lets the lock go again). ``watch()`` waits for that moment (a blocking
``pg_advisory_lock`` on the holder's key), so the scheduler of a waiting process wakes when the holder dies, not at
its next look. SQLite has no sessions to watch: there the expiry (a short ``ttl``) bounds the takeover.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import literal, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from engine.store.models import Lease as LeaseRow

log = logging.getLogger("clerk.lease")

_KEY = "hashtext('clerk-lease:' || current_schema() || ':' || :name || ':' || :holder)"
_TRY = text(f"SELECT pg_try_advisory_lock({_KEY})")
_WAIT = text(f"SELECT pg_advisory_lock({_KEY})")
_UNLOCK = text(f"SELECT pg_advisory_unlock({_KEY})")


class Lease:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], name: str, holder: str, ttl: timedelta) -> None:
        if ttl <= timedelta(0):
            raise ValueError("a lease needs a positive time to live")
        self._sessions = sessions
        self.name = name
        self.holder = holder
        self.ttl = ttl
        bind = sessions.kw.get("bind")
        self._engine = bind if isinstance(bind, AsyncEngine) and bind.dialect.name == "postgresql" else None
        self._alive: AsyncConnection | None = None
        """PostgreSQL: the connection holding this process's liveness lock (module docstring)."""

    @property
    def watchable(self) -> bool:
        """Whether ``watch()`` can tell when the holder dies (PostgreSQL)."""
        return self._engine is not None

    @property
    def renew_every(self) -> timedelta:
        """How often the holder should renew it (and a waiting process look again): a third of its life."""
        return self.ttl / 3

    async def take(self, now: datetime) -> bool:
        """Create, renew or take over the lease until ``now + ttl``; True if this process holds it."""
        now = now.astimezone(UTC)
        gone = False
        if self._engine is not None:
            await self._keep_alive(self._engine)
            async with self._sessions() as session:
                row = (await session.execute(select(LeaseRow.holder, LeaseRow.expires_at)
                                             .where(LeaseRow.name == self.name))).one_or_none()
            if row is not None and row.holder != self.holder and row.expires_at.astimezone(UTC) > now:
                gone = await self._holder_gone(self._engine, row.holder)
                if gone:
                    log.info("the holder %s of the lease %s is gone (its liveness lock is free): taking it over",
                             row.holder, self.name)
        async with self._sessions() as session, session.begin():
            # The dialect's own insert (ON CONFLICT), imported here: a bot on SQLite never loads the PostgreSQL one.
            dialect = "postgresql" if session.get_bind().dialect.name == "postgresql" else "sqlite"
            insert = importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert
            statement = insert(LeaseRow).values(name=self.name, holder=self.holder, expires_at=now + self.ttl)
            upsert = statement.on_conflict_do_update(
                index_elements=[LeaseRow.name],
                set_={"holder": statement.excluded.holder, "expires_at": statement.excluded.expires_at},
                where=or_(LeaseRow.expires_at <= now, LeaseRow.holder == self.holder, literal(gone)),
            ).returning(LeaseRow.holder)
            return (await session.execute(upsert)).scalar_one_or_none() == self.holder

    async def _keep_alive(self, engine: AsyncEngine) -> None:
        """Hold this process's liveness lock on a connection of its own (taken again if that connection was lost).
        Not got: another live process runs under the same name, which the lease treats as this one anyway."""
        if self._alive is not None:
            try:
                await self._alive.execute(text("SELECT 1"))
                await self._alive.commit()
                return
            except Exception as error:
                log.warning("the lease %s lost its liveness connection (%s); taking it again", self.name, error)
                with contextlib.suppress(Exception):
                    await self._alive.invalidate()
                self._alive = None
        connection = await engine.connect()
        got = (await connection.execute(_TRY, {"name": self.name, "holder": self.holder})).scalar_one()
        await connection.commit()  # the advisory lock is the session's: it outlives the transaction
        if got:
            self._alive = connection
        else:
            await connection.close()

    async def _holder_gone(self, engine: AsyncEngine, holder: str) -> bool:
        """Whether ``holder``'s liveness lock is free (its session, so its process, is gone)."""
        async with engine.connect() as connection:
            keys = {"name": self.name, "holder": holder}
            got = bool((await connection.execute(_TRY, keys)).scalar_one())
            if got:
                await connection.execute(_UNLOCK, keys)
            await connection.commit()
            return got

    async def watch(self) -> None:
        """PostgreSQL: return when the lease's holder (another process) is gone: its liveness lock, waited for
        (no lock timeout), is ours. Returns at once if there is no other holder; never returns elsewhere."""
        if self._engine is None:
            raise RuntimeError("only a PostgreSQL lease can be watched")
        async with self._sessions() as session:
            holder = (await session.execute(select(LeaseRow.holder).where(LeaseRow.name == self.name))
                      ).scalar_one_or_none()
        if holder is None or holder == self.holder:
            return
        connection = await self._engine.connect()
        try:
            keys = {"name": self.name, "holder": holder}
            await connection.execute(text("SET lock_timeout = 0"))
            await connection.execute(_WAIT, keys)
            await connection.execute(_UNLOCK, keys)
            await connection.execute(text("RESET lock_timeout"))
            await connection.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                await connection.invalidate()  # a wait cancelled mid-query: this connection is not reused
            raise
        finally:
            await connection.close()

    async def close(self) -> None:
        """Let this process's liveness lock go (its connection closes), as at the end of the process."""
        if self._alive is not None:
            alive, self._alive = self._alive, None
            with contextlib.suppress(Exception):
                await alive.close()

    async def release(self, now: datetime) -> None:
        """Let the lease go (if this process holds it), so another process can take it at once."""
        async with self._sessions() as session, session.begin():
            await session.execute(update(LeaseRow).where(LeaseRow.name == self.name, LeaseRow.holder == self.holder)
                                  .values(expires_at=now.astimezone(UTC)))
        await self.close()
