"""A lease in the database: which one of several processes sharing a database does a job (the deadline
scheduler's timed work) for now.

A lease is one row of ``leases`` (name, holder, expires_at). ``take`` is one atomic statement,
``INSERT … ON CONFLICT (name) DO UPDATE … WHERE leases.expires_at <= :now OR leases.holder = :me RETURNING
holder``: it creates the lease, renews it for its holder, or takes it over once it has expired, and returns a row
only to the process that holds it afterwards. Two processes taking it at the same instant are decided by the
database (PostgreSQL's row lock re-checks the condition against the winner's row; SQLite writes one at a time),
so exactly one holds it. A holder renews it well before it expires (``renew_every``); a process that stops
``release``s it so another takes over at its next look, and one that dies loses it when it expires.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from engine.store.models import Lease as LeaseRow


class Lease:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], name: str, holder: str, ttl: timedelta) -> None:
        if ttl <= timedelta(0):
            raise ValueError("a lease needs a positive time to live")
        self._sessions = sessions
        self.name = name
        self.holder = holder
        self.ttl = ttl

    @property
    def renew_every(self) -> timedelta:
        """How often the holder should renew it (and a waiting process look again): a third of its life."""
        return self.ttl / 3

    async def take(self, now: datetime) -> bool:
        """Create, renew or take over the lease until ``now + ttl``; True if this process holds it."""
        now = now.astimezone(UTC)
        async with self._sessions() as session, session.begin():
            insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
            statement = insert(LeaseRow).values(name=self.name, holder=self.holder, expires_at=now + self.ttl)
            upsert = statement.on_conflict_do_update(
                index_elements=[LeaseRow.name],
                set_={"holder": statement.excluded.holder, "expires_at": statement.excluded.expires_at},
                where=or_(LeaseRow.expires_at <= now, LeaseRow.holder == self.holder),
            ).returning(LeaseRow.holder)
            return (await session.execute(upsert)).scalar_one_or_none() == self.holder

    async def release(self, now: datetime) -> None:
        """Let the lease go (if this process holds it), so another process can take it at once."""
        async with self._sessions() as session, session.begin():
            await session.execute(update(LeaseRow).where(LeaseRow.name == self.name, LeaseRow.holder == self.holder)
                                  .values(expires_at=now.astimezone(UTC)))
