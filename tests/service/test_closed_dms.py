"""Users whose DMs refused the bot (engine/service/closed_dms.py): kept in the ``closed_dms`` table, so a restart
(a new Clerk on the same database) still does not DM them; a reopening takes them out."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_sessionmaker


def a_clerk(db_engine: AsyncEngine) -> Clerk:
    return Clerk(make_sessionmaker(db_engine), ManualClock(datetime(2026, 3, 1, tzinfo=UTC)), RandomDice(1))


async def test_closed_dms_survive_a_restart_and_a_reopening_clears_them(db_engine: AsyncEngine) -> None:
    clerk = a_clerk(db_engine)
    assert await clerk.closed_dms.close(11) and await clerk.closed_dms.close(12)
    assert not await clerk.closed_dms.close(11)  # once: the moderators are told once
    assert await clerk.closed_dms.reopen(12)  # reopened before it was written: never written
    await clerk.closed_dms.written()

    again = a_clerk(db_engine)  # a restart
    assert await again.closed_dms.closed() == {11}
    assert not await again.closed_dms.reopen(12)
    assert await again.closed_dms.reopen(11) and not await again.closed_dms.is_closed(11)
    assert await a_clerk(db_engine).closed_dms.closed() == frozenset()
