"""How long a test waits before it calls the bot hung.

Tests wait for events (an answer, a post, a scheduler pass, the bot's heartbeat after the events sent so far), never
for a stretch of wall time; the only use of the clock is this one generous ceiling, so a test on a machine busy with
other work gets slower, not red. ``CLERK_TEST_HANG`` (seconds) changes it, e.g. ``CLERK_TEST_HANG=10`` to find a hang
quickly while writing a test."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


def _hang() -> float:
    raw = os.environ.get("CLERK_TEST_HANG", "").strip()
    if not raw:
        return 120.0
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"CLERK_TEST_HANG must be a number of seconds, got {raw!r}") from None
    if value <= 0:
        raise SystemExit(f"CLERK_TEST_HANG must be more than 0 seconds, got {raw!r}")
    return value


HANG = _hang()
"""Seconds any wait in the end-to-end tests may last before it fails as a hang (120 unless ``CLERK_TEST_HANG``)."""


POLL = 0.01
"""Seconds between two looks of ``until`` at what it waits for."""


async def until(check: Callable[[], Awaitable[T | None]], what: str) -> T:
    """Wait until ``await check()`` is truthy and return it: for what the fake does not see (a database another
    process writes). ``FakeDiscord.wait_for`` is the wait for what the bot sends."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + HANG
    while not (value := await check()):
        if loop.time() > give_up:
            raise AssertionError(f"timed out after {HANG}s waiting for {what}")
        await asyncio.sleep(POLL)
    return value
