"""Receipts under Discord's rate limits (issue 14): the fake enforces the global limit (50 requests per second,
429 with ``retry_after`` and the global flag) and the per-channel buckets, and every receipt of a burst still
arrives, once, without the bot ever spending more than the limit. docs/reliability.md has the figures; the
full-size runs (5,000 ballots) are in test_outbox_long.py (``make test-long``)."""

from __future__ import annotations

import os
import time

from fakediscord import FakeDiscord

from .clerkbot import Harness
from .crowd import choice, crowd_game

PER_SECOND = 50
BALLOTS = int(os.environ.get("CLERK_OUTBOX_BALLOTS", "300"))


def receipts_of(fake: FakeDiscord, ids: list[int]) -> dict[int, int]:
    """How many replies each ballot message got."""
    return {mid: len(replies) for mid, replies in fake.replied(ids).items()}


async def test_a_burst_over_the_global_rate_limit_gets_every_receipt_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", BALLOTS)
    await crowd_game(h.clerk, h.fake, h.game, users)
    rates = h.fake.limit_rates(PER_SECOND)

    started = time.monotonic()
    ids = await h.fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await h.idle()
    await h.fake.wait_for(lambda: all(receipts_of(h.fake, ids).values()), f"{BALLOTS} receipts",
                          timeout=BALLOTS / PER_SECOND * 4 + 30)
    elapsed = time.monotonic() - started
    await h.fake.quiet(0.3, timeout=30)
    print(f"\n{BALLOTS} receipts at {PER_SECOND}/s in {elapsed:.2f} s (ideal {BALLOTS / PER_SECOND:.1f} s); "
          f"{rates.limited} answers 429 ({rates.global_limited} global); peak {rates.peak} requests in a second")
    counts = receipts_of(h.fake, ids)
    assert sorted(set(counts.values())) == [1], "every ballot gets exactly one receipt"
    for n, mid in enumerate(ids):
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in h.fake.replied([mid])[mid][0].content
    assert rates.peak <= PER_SECOND
