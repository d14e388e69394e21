"""After a burst (issue 20): once the bot has held at least ``BURST`` messages at once (backpressure.py) and then
answered all of them (nothing in the intake, nothing owed in the outbox), it hands back what the burst left behind:

- **discord.py's idle rate-limit buckets**: one per channel a message went to through discord.py (about 1 KB each:
  20 MB after 20,000 DMs, each to a DM channel of its own, before a text-alone post such as a receipt was made below
  discord.py's ``request``, plain_post.py, which makes none). discord.py drops a bucket only after 300 s without a
  request, and only when a new bucket is made (bot/discord/http_tuning.py amortises that scan). Here a bucket is
  dropped when no request holds it, none waits on it and it is not spent (``remaining > 0``, or its window is
  over): a new one for that channel starts as discord.py's first does, one request at a time until Discord's
  headers say the channel's limit, so nothing is sent faster than Discord allows.
- **the C heap's free pages**: glibc keeps the memory freed by the burst's objects in its heap; ``malloc_trim(0)``
  hands the free pages back to the system (Linux with glibc only; elsewhere nothing is done).

Nothing here changes what is sent or when; a collection of the garbage runs first, so that what the burst left in
reference cycles is freed before the trim."""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from bot.discord.backpressure import Intake

log = logging.getLogger("clerk.discord.relief")

def drop_idle_buckets(buckets: dict[str, Any]) -> int:
    """Drop from discord.py's ``HTTPClient._buckets`` every rate limit that no request holds or waits on and that is
    not spent; returns how many keys were dropped."""
    idle = [key for key, limit in buckets.items() if _idle(limit)]
    for key in idle:
        del buckets[key]
    return len(idle)


def _idle(limit: Any) -> bool:
    try:
        return (limit.outgoing == 0 and not limit._pending_requests and not limit._sleeping.locked()
                and (limit.remaining > 0 or limit.is_expired()))
    except AttributeError:  # another discord.py's buckets: kept, as discord.py would
        return False


def _glibc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim``, or None: looked up at the first trim, so that start-up imports no ctypes."""
    try:
        glibc = os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.36"; a ValueError or None elsewhere (musl, macOS)
    except (ValueError, OSError):
        return None
    if not glibc or not glibc.startswith("glibc"):
        return None
    import ctypes

    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


_trim: list[Callable[[], int] | None] = []


def trim_heap() -> bool:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim(0)``); False where there is none."""
    if not _trim:
        _trim.append(_glibc_trim())
    if _trim[0] is None:
        return False
    _trim[0]()
    return True


class Relief:
    """The task that waits for bursts and relieves after each (``ClerkBot.setup_hook`` starts it)."""

    def __init__(self, intake: Intake, drained: Callable[[], Awaitable[None]], owed: Callable[[], int],
                 buckets: Callable[[], dict[str, Any]]) -> None:
        self.intake = intake
        self.drained = drained
        self.owed = owed
        self.buckets = buckets
        self.reliefs = 0

    async def run(self) -> None:
        while True:
            await self.intake.burst.wait()
            while self.intake.in_flight or self.owed():
                await self.intake.emptied.wait()
                await self.drained()
            self.intake.burst.clear()
            self.relieve()

    def relieve(self) -> None:
        dropped = drop_idle_buckets(self.buckets())
        collected = gc.collect()
        trimmed = trim_heap()
        self.reliefs += 1
        log.info("after a burst (at most %d messages in at once, the gateway paused %d times): %d idle rate-limit "
                 "bucket(s) dropped, %d objects collected%s", self.intake.most, self.intake.pauses, dropped, collected,
                 ", the heap trimmed" if trimmed else "")
