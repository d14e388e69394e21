"""Receipts under Discord's rate limits (issue 14): with the fake enforcing the global limit (50 requests per second,
429 with ``retry_after`` and the global flag) and the per-channel buckets, every receipt of a burst arrives, once,
also across a SIGKILL of the bot. Scaled down here (150 ballots, three seconds of the limit; both in ``make test-long``,
the in-process run since 2026-12-07: its three seconds were waiting on the limit, and test_outbox_long.py's 5,000 at
the same limit check that each gets its one receipt with at most 2% of 429s, this one's 5%); test_outbox_long.py
runs 5,000 (``make test-long``). docs/reliability.md has the figures."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker

from .child import ChildBot
from .clerkbot import Harness
from .outbox_runs import burst, killed

BALLOTS = int(os.environ.get("CLERK_OUTBOX_BALLOTS", "150"))


@pytest.mark.long  # three seconds of waiting on the limit, checked at 5,000 by test_outbox_long.py: make test-long
async def test_a_burst_over_the_global_rate_limit_gets_every_receipt_once(clerk_bot: Harness) -> None:
    figures = await burst(clerk_bot, BALLOTS)
    print("\n" + figures.line())
    # Paced under the limit, the bot almost never meets a 429 (a few from the jitter between leaving the bot and
    # reaching the fake on a loaded machine); without the queue, 300 ballots met hundreds and lost receipts.
    assert figures.too_many * 20 <= BALLOTS


@pytest.fixture
async def process(fake: FakeDiscord, tmp_path: Path, migrated_database: Path
                  ) -> AsyncIterator[tuple[Clerk, ChildBot, Path]]:
    """The bot as its own process on a SQLite file, and the test's own Clerk on the same file (system clock)."""
    database = tmp_path / "clerk.db"
    shutil.copy(migrated_database, database)
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    bot = ChildBot(fake, database, tmp_path)
    try:
        yield Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(1)), bot, database
    finally:
        await bot.stop()
        await engine.dispose()
    assert not bot.errors(), "\n".join(bot.errors())


@pytest.fixture
def clock() -> SystemClock:  # the child runs on the system clock; the fake's ids and timestamps follow it
    return SystemClock()


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_halfway_through_the_receipts_loses_none_and_doubles_none(
        fake: FakeDiscord, process: tuple[Clerk, ChildBot, Path]) -> None:
    clerk, child, database = process
    figures = await killed(fake, clerk, child, database, BALLOTS)
    print("\n" + figures.line())
