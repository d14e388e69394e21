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

Time is real monotonic time (``time.monotonic``), never the game clock."""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from types import SimpleNamespace
from typing import Any

import aiohttp

DISCORD_GLOBAL_LIMIT = 50
"""Requests per second per bot token (Discord's documented global limit)."""
EXEMPT = re.compile(r"/api/v\d+/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")
CATCH_UP = 2
"""Starts a late schedule may catch up at once (then it is evenly spaced again)."""
CHANNEL = re.compile(r"/api/v\d+/channels/(\d+)/messages")


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
                if wait <= 0:
                    self._next += self.spacing
                    self._started.append(now)
                    self.requests += 1
                    return
                await asyncio.sleep(wait)

    async def _on_start(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                        params: aiohttp.TraceRequestStartParams) -> None:
        path = params.url.path
        if "/api/" in path and not EXEMPT.search(path):
            await self.acquire()

    async def _on_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                      params: aiohttp.TraceRequestEndParams) -> None:
        headers: Any = params.response.headers
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
