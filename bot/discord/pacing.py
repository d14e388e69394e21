"""Pacing every request the bot makes under Discord's limits, at the HTTP layer (an aiohttp trace on discord.py's
session, so it sees every request whoever makes it: the outgoing queue, discord.py's own calls and its retries).

- **Global limit** (50 requests per second per bot token; interaction callbacks and followups exempt): before a
  request starts, it waits until fewer than ``budget`` requests started in the last second, and at least
  1/``budget`` s after the last one (evenly spread). The budget stays a little below the limit (48 of 50), so the
  jitter between leaving the bot and reaching Discord does not make 51; discord.py then (almost) never meets a 429
  and never gives up. A 429 with the global flag (another process on the same token, or
  Discord's count differs) pauses every request for its ``retry_after``.
- **Per-route buckets**: Discord's ``X-RateLimit-Remaining``/``-Reset-After`` headers on posts and edits of a
  channel's messages say when that channel's bucket is spent; ``blocked_until(channel)`` tells the queue, which then
  sends other channels' messages meanwhile instead of holding a sending slot while discord.py waits.

- **Invalid requests** (Discord, Rate Limits, "Invalid Request Limit": an IP that makes too many invalid requests,
  those answered 401, 403 or 429, is temporarily restricted from the API; currently 10,000 per 10 minutes; a 429
  with ``X-RateLimit-Scope: shared`` is not counted): every such answer is counted in a sliding window of 10
  minutes. From ``slow_at`` (a quarter of the limit) requests are spaced at least ``slow_spacing`` apart (at 4 a
  second the rest of the window cannot make the limit even if every one is refused); from ``stop_at`` (nine
  tenths) they wait until old refusals leave the window. Both are logged when they start and end. DMs to users
  whose DMs are closed are not tried again (delivery.py), so this is the guard behind that one.

Time is real monotonic time (``time.monotonic``), never the game clock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from collections.abc import Iterator
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp

log = logging.getLogger("clerk.discord.pacing")

DISCORD_GLOBAL_LIMIT = 50
"""Requests per second per bot token (Discord's documented global limit)."""
EXEMPT = re.compile(r"/api/v\d+/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")
CATCH_UP = 2
"""Starts a late schedule may catch up at once (then it is evenly spaced again)."""
CHANNEL = re.compile(r"/api/v\d+/channels/(\d+)/messages")
INVALID_LIMIT = 10_000
"""Invalid requests (401, 403, 429 but a shared-scope 429) per ``INVALID_WINDOW`` that get an IP restricted."""
INVALID_WINDOW = 600.0
"""Seconds: Discord's window for invalid requests (10 minutes)."""
INVALID_STATUSES = frozenset({401, 403, 429})
SLOW_SPACING = 0.25
"""Seconds between requests while the invalid ones in the window are past ``slow_at``: 4 a second, so even if every
one were refused the rest of the window adds at most 2,400."""


SPARE_SHARE = (3, 4)
"""A request made in the background (``spare_time``) starts only while fewer than this share of the budget started in
the last second: the rest is left to the live requests (receipts, answers), which it then never holds up."""
_SPARE: ContextVar[bool] = ContextVar("clerk_pacing_spare", default=False)


@contextlib.contextmanager
def spare_time() -> Iterator[None]:
    """Requests made inside (in this task) go in the global budget's spare time only: one starts when the live
    requests could still start at once after it and at most ``SPARE_SHARE`` of the budget was used in the last
    second, so it never makes a receipt wait for the even spacing (the reading back of DMs at start,
    catch_up.py)."""
    token = _SPARE.set(True)
    try:
        yield
    finally:
        _SPARE.reset(token)


def budget_of(per_second: int) -> int:
    """What the bot spends of a limit of ``per_second``: 2 in 50 kept back for jitter (at least 1)."""
    return max(1, per_second - max(1, per_second // 25))


class Pacer:
    def __init__(self, per_second: int = DISCORD_GLOBAL_LIMIT, window: float = 1.0) -> None:
        self.window = window
        self.set_limit(per_second)
        self._next = float("-inf")
        """When the next request may start on the even schedule (a virtual time: GCRA)."""
        self._started: deque[float] = deque()
        self._lock = asyncio.Lock()
        self._paused_until = 0.0
        self._blocked: dict[int, float] = {}
        self.requests = 0
        """Globally limited requests started."""
        self.too_many = 0
        """429 answers seen (discord.py retried them)."""
        self._invalid: deque[float] = deque()
        """When each invalid answer (401, 403, 429 but shared) of the last ``INVALID_WINDOW`` came."""
        self.invalid = 0
        """Invalid answers seen, in all."""
        self.slow_at = INVALID_LIMIT // 4
        """From this many invalid answers in the window, requests are spaced ``slow_spacing`` apart."""
        self.stop_at = INVALID_LIMIT * 9 // 10
        """From this many, requests wait until the oldest leave the window."""
        self.slow_spacing = SLOW_SPACING
        self.slowed = 0
        """Requests started while the invalid-request guard spaced them out."""
        self._slow = False
        self._stopped = False
        self._last_start = float("-inf")
        self.spare_starts = 0
        """Requests started in the budget's spare time (``spare_time``)."""

    def set_limit(self, per_second: int) -> None:
        """Discord's global limit for this bot (50 unless Discord raised it for a large bot)."""
        self.budget = budget_of(per_second)
        self.spacing = self.window / self.budget
        """Requests start at least this far apart: evenly spread, not the budget at once at the start of each second
        (a burst that reaches Discord a little late would meet the next second's burst in one window)."""

    def trace(self) -> aiohttp.TraceConfig:
        """The trace to give discord.py (``Client(http_trace=...)``)."""
        config = aiohttp.TraceConfig()
        config.on_request_start.append(self._on_start)
        config.on_request_end.append(self._on_end)
        return config

    def blocked_until(self, channel_id: int | None) -> float:
        """The monotonic time until which posting in ``channel_id`` would wait for its bucket (0: it would not)."""
        if channel_id is None:
            return 0.0
        until = self._blocked.get(channel_id, 0.0)
        if until and until <= time.monotonic():
            del self._blocked[channel_id]
            return 0.0
        return until

    async def acquire(self) -> None:
        """Wait for room under the global budget and take it (FIFO)."""
        async with self._lock:
            while True:
                now = time.monotonic()
                while self._started and self._started[0] <= now - self.window:
                    self._started.popleft()
                # Even spacing on a schedule, not from the last start: a start the event loop made late (a busy
                # machine) is caught up by the next few, so the long-run rate stays the budget; the window above
                # still never lets more than the budget start in any second.
                self._next = max(self._next, now - CATCH_UP * self.spacing)
                wait = max(self._paused_until - now, self._next - now)
                if len(self._started) >= self.budget:
                    wait = max(wait, self._started[0] + self.window - now)
                wait = max(wait, self._invalid_wait(now))
                if wait <= 0:
                    self.slowed += self._slow
                    self._next += self.spacing
                    self._started.append(now)
                    self._last_start = now
                    self.requests += 1
                    return
                await asyncio.sleep(wait)

    def spare(self, now: float) -> bool:
        """Could a background request start at ``now`` and leave a live one that comes next starting at once: at
        least two starts of the even schedule's catch-up due (one for it, one left), and the last second's starts
        under ``SPARE_SHARE`` of the budget."""
        while self._started and self._started[0] <= now - self.window:
            self._started.popleft()
        due = max(self._next, now - CATCH_UP * self.spacing)
        share, of = SPARE_SHARE
        return (due <= now - self.spacing and len(self._started) * of < self.budget * share
                and self._paused_until <= now and not self._slow)

    async def acquire_spare(self) -> None:
        """``acquire`` in the budget's spare time (``spare_time``): waits while the live requests use it."""
        while not self.spare(time.monotonic()) or self._lock.locked():
            await asyncio.sleep(self.spacing)
        self.spare_starts += 1
        await self.acquire()

    def invalid_in_window(self, now: float | None = None) -> int:
        """Invalid answers (401, 403, 429 but shared) in the last ``INVALID_WINDOW`` seconds."""
        now = time.monotonic() if now is None else now
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)

    def _invalid_wait(self, now: float) -> float:
        """How long the invalid-request guard holds the next request (0: not at all); logs when it starts and ends."""
        count = self.invalid_in_window(now)
        slow = count >= self.slow_at
        if slow != self._slow:
            self._slow = slow
            if slow:
                log.warning("%d invalid requests (401/403/429) in the last %d minutes (Discord restricts the bot "
                            "at %d): slowing every request to one per %.2f s", count, INVALID_WINDOW // 60,
                            INVALID_LIMIT, self.slow_spacing)
            else:
                log.info("invalid requests are down to %d in the last %d minutes: full speed again", count,
                         INVALID_WINDOW // 60)
        if not slow:
            return 0.0
        stop = count >= self.stop_at
        if stop and not self._stopped:
            log.warning("%d invalid requests in the last %d minutes: holding requests until the oldest leave the "
                        "window", count, INVALID_WINDOW // 60)
        self._stopped = stop
        if stop:
            return self._invalid[count - self.stop_at] + INVALID_WINDOW - now
        return self._last_start + self.slow_spacing - now

    def note_answer(self, status: int, scope: str | None = None) -> None:
        """Count an answer of ``status`` if Discord counts it as an invalid request."""
        if status in INVALID_STATUSES and not (status == 429 and scope == "shared"):
            self.invalid += 1
            self._invalid.append(time.monotonic())

    async def _on_start(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                        params: aiohttp.TraceRequestStartParams) -> None:
        path = params.url.path
        if "/api/" in path and not EXEMPT.search(path):
            await (self.acquire_spare() if _SPARE.get() else self.acquire())

    async def _on_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                      params: aiohttp.TraceRequestEndParams) -> None:
        headers: Any = params.response.headers
        self.note_answer(params.response.status, headers.get("X-RateLimit-Scope"))
        if params.response.status == 429:
            self.too_many += 1
            if headers.get("X-RateLimit-Global") == "true" or headers.get("X-RateLimit-Scope") == "global":
                retry = _seconds(headers.get("Retry-After"))
                self._paused_until = max(self._paused_until, time.monotonic() + min(retry, 60.0))
        found = CHANNEL.search(params.url.path)
        if found is not None and headers.get("X-RateLimit-Remaining") == "0":
            after = _seconds(headers.get("X-RateLimit-Reset-After"))
            self._blocked[int(found.group(1))] = time.monotonic() + after


def _seconds(value: str | None) -> float:
    try:
        return max(0.0, float(value)) if value is not None else 0.0
    except ValueError:
        return 0.0
