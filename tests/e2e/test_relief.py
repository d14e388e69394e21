"""After a burst (bot/discord/relief.py, issue 20): once every DM of a burst is answered, discord.py's rate-limit
buckets of the DM channels it answered in are dropped (and the heap trimmed); a bucket a request holds, waits on or
has spent is kept."""

from __future__ import annotations

import asyncio

from discord.http import Ratelimit

from bot.discord.relief import drop_idle_buckets, trim_heap

from .clerkbot import Harness
from .crowd import crowd_game

PLAYERS = 30


async def test_the_dm_channels_buckets_are_dropped_once_a_burst_is_answered(clerk_bot: Harness) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", PLAYERS)
    await crowd_game(h.clerk, h.fake, h.game, users)
    h.bot.intake.burst_at = 10
    channels = {str(h.fake.dm_channel(u).id) for u in users}
    sent_before = len(h.fake.sent)

    await h.fake.dm_burst([(u, "Vote: Aye") for u in users])
    await h.fake.wait_for(lambda: len(h.fake.sent) >= sent_before + PLAYERS, f"{PLAYERS} receipts")
    await h.fake.wait_for(lambda: h.bot.relief.reliefs >= 1, "the relief after the burst")

    assert not [key for key in h.bot.http._buckets if key.rsplit(":", 1)[-1] in channels]
    assert h.bot.relief.reliefs == 1
    assert not h.bot.intake.burst.is_set()


async def test_a_bucket_in_use_waited_on_or_spent_is_kept() -> None:
    idle, holding, waited, spent, over = (Ratelimit(None) for _ in range(5))
    holding.outgoing = 1
    waited._pending_requests.append(asyncio.get_running_loop().create_future())
    spent.remaining, spent.expires = 0, asyncio.get_running_loop().time() + 60
    over.remaining, over.expires = 0, asyncio.get_running_loop().time() - 1  # its window is over
    buckets = {"a": idle, "b": holding, "c": waited, "d": spent, "e": over, "f": object()}
    assert drop_idle_buckets(buckets) == 2
    assert set(buckets) == {"b", "c", "d", "f"}


def test_the_heap_is_trimmed_on_glibc() -> None:
    import platform

    assert trim_heap() is (platform.libc_ver()[0] == "glibc")
    assert trim_heap() is (platform.libc_ver()[0] == "glibc")  # looked up once, then used again
