"""The ``deadlines`` lease (engine/service/lease.py) on SQLite and PostgreSQL: one holder at a time, renewed by
its holder, taken over when it expires or is released. The race between processes is in test_two_processes.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_sessionmaker

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
TTL = timedelta(seconds=60)


async def test_one_holder_renewal_expiry_and_release(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    a, b = clerk.lease("deadlines", "a", TTL), clerk.lease("deadlines", "b", TTL)
    other = clerk.lease("reports", "b", TTL)

    assert await a.take(T0)
    assert not await b.take(T0)
    assert await other.take(T0)  # another name is another lease
    assert await a.take(T0 + timedelta(seconds=50))  # renewed until T0 + 110 s
    assert not await b.take(T0 + timedelta(seconds=100))
    assert await b.take(T0 + timedelta(seconds=110))  # a stopped renewing: expired, b takes it over
    assert not await a.take(T0 + timedelta(seconds=111))

    await a.release(T0 + timedelta(seconds=112))  # not a's to release: nothing changes
    assert not await a.take(T0 + timedelta(seconds=112))
    await b.release(T0 + timedelta(seconds=113))
    assert await a.take(T0 + timedelta(seconds=113))  # released: taken at once
    assert a.renew_every == timedelta(seconds=20)
    for lease in (a, b, other):
        await lease.close()  # PostgreSQL: each holds its liveness lock on a connection of its own until closed


def test_a_lease_needs_a_positive_life() -> None:
    with pytest.raises(ValueError, match="positive"):
        Clerk(make_sessionmaker(None), ManualClock(T0), RandomDice(1)).lease("x", "a", timedelta(0))  # type: ignore[arg-type]


async def test_a_process_restarted_under_its_name_takes_its_lease_back_at_once(
        db_engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a crash the lease is still held (not released, not expired); the bot started again in the same place
    (same CLERK_INSTANCE, or the same host) is the same holder, so the overdue deadlines close at once."""
    from bot.discord.scheduler import process_name

    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    monkeypatch.setenv("CLERK_INSTANCE", "bot-1")
    before_the_crash = clerk.lease("deadlines", process_name(), TTL)
    assert await before_the_crash.take(T0)
    after_the_restart = clerk.lease("deadlines", process_name(), TTL)
    assert await after_the_restart.take(T0 + timedelta(seconds=5))
    monkeypatch.setenv("CLERK_INSTANCE", "bot-2")
    other = clerk.lease("deadlines", process_name(), TTL)
    assert not await other.take(T0 + timedelta(seconds=6))
    for lease in (before_the_crash, after_the_restart, other):
        await lease.close()
    monkeypatch.delenv("CLERK_INSTANCE")
    assert process_name()  # the host's name


def test_on_sqlite_a_dead_holder_is_replaced_within_the_minute_before_a_close_counts_as_late() -> None:
    """SQLite has no sessions to watch (test_lease_takeover.py is PostgreSQL's prompt takeover): the lease's life
    plus one look bounds the takeover, and it must stay under the lateness that says "(the bot was offline)"."""
    from bot.discord.scheduler import LEASE_TTL
    from engine.service.landsdraad.round_close import LATE

    assert LEASE_TTL + LEASE_TTL / 3 < LATE
