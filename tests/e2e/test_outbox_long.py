"""Issue 14 at full size (``make test-long``; marker ``long``): 5,000 DM ballots at Discord's global limit of 50
requests per second. Every one gets exactly one receipt, within 10% of 5,000 / 50 = 100 s; and with the bot as its
own process killed (SIGKILL) halfway through the receipts and started again, still 5,000, none twice. The bot runs
as its own process in both (as in production), so the fake's work is not on its event loop.
test_outbox.py runs the same at 300 ballots in ``make test``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from engine.service import Clerk

from .child import ChildBot
from .outbox_runs import PER_SECOND, burst_in_a_process, killed
from .test_outbox import clock, process  # noqa: F401 (fixtures)

BALLOTS = 5000
pytestmark = pytest.mark.long


async def test_5000_ballots_at_50_per_second_get_5000_receipts_within_10_percent_of_100_s(
        fake: FakeDiscord, process: tuple[Clerk, ChildBot, Path]) -> None:  # noqa: F811
    clerk, child, _ = process
    figures = await burst_in_a_process(fake, clerk, child, BALLOTS)
    print("\n" + figures.line())
    assert figures.seconds <= BALLOTS / PER_SECOND * 1.1
    assert figures.too_many * 100 <= BALLOTS


async def test_5000_ballots_with_a_kill_halfway_still_5000_receipts_none_twice(
        fake: FakeDiscord, process: tuple[Clerk, ChildBot, Path]) -> None:  # noqa: F811
    clerk, child, database = process
    figures = await killed(fake, clerk, child, database, BALLOTS)
    print("\n" + figures.line())
