"""Requests in the global budget's spare time (bot/discord/pacing.py ``spare_time``): the DMs read back at start in the
background (catch_up.py) must never make a live receipt wait for the even spacing. Found by ``python -m bench e2e``
(2026-12-07 11:00 UTC): with the reading back taking pacer slots like any request, Clerk's p99 DM -> receipt went
from 2.3x to 12.3x the bare bot's (a receipt waited 1/48 s behind a read's request)."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord import pacing
from bot.discord.pacing import Pacer, spare_time


def test_a_spare_request_leaves_the_next_live_one_starting_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(pacing.time, "monotonic", lambda: now[0])
    pacer = Pacer()

    async def go() -> None:
        assert pacer.spare(now[0])  # idle: room
        await pacer.acquire_spare()  # the read's request
        assert not pacer.spare(now[0])  # what is left of the catch-up is the live ones'
        await asyncio.wait_for(pacer.acquire(), 0.5)  # a receipt right after it starts at once (the clock stands)
        now[0] += pacer.spacing * 2
        assert pacer.spare(now[0])
        # a second in which the live requests used three quarters of the budget: no spare time
        for _ in range(pacer.budget * 3 // 4):
            now[0] += pacer.spacing
            await pacer.acquire()
        now[0] += pacer.spacing * 3
        assert not pacer.spare(now[0])
        now[0] += pacer.window
        assert pacer.spare(now[0])

    asyncio.run(go())


def test_only_requests_made_inside_spare_time_wait_for_it() -> None:
    assert not pacing._SPARE.get()
    with spare_time():
        assert pacing._SPARE.get()
    assert not pacing._SPARE.get()
