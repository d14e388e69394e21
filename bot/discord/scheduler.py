"""Closing rounds at their deadline: one background task that sleeps until the soonest pending deadline.

It reads the deadlines from the database each time, so a restart picks up every open round (one whose
deadline passed while the bot was down closes at once), and ``wake()`` (wired to ``App.deadlines_changed``)
makes it look again when a round is opened or closed. Time is the clerk's clock; sleeps are capped so a clock
that jumps (or a ManualClock moved by a test) is noticed. A round never closes twice: the service closes a
given round number once and recognises the repeated ``deadline:`` source id."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.actions.commands import App
from bot.actions.messages import close_due
from bot.actions.outbox import Outgoing
from bot.actions.recovery import unannounced_results

log = logging.getLogger("clerk.discord.scheduler")

Deliver = Callable[[Sequence[Outgoing]], Awaitable[None]]


class DeadlineScheduler:
    def __init__(self, app: App, deliver: Deliver, *, max_sleep: float = 60.0, retry_after: float = 30.0) -> None:
        self.app = app
        self.deliver = deliver
        self.max_sleep = max_sleep
        self.retry_after = retry_after
        self._wake = asyncio.Event()
        self.passes = 0
        """How many times it has looked for due rounds (tests wait on it)."""

    def wake(self) -> None:
        """Look at the deadlines again now (call from the event loop's thread)."""
        self._wake.set()

    async def run(self) -> None:
        while True:
            self._wake.clear()
            delay = self.retry_after
            try:
                delay = await self.tick()
            except Exception:
                log.exception("the deadline scheduler failed; trying again in %ss", self.retry_after)
            self.passes += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def tick(self) -> float:
        """Close what is due, deliver the announcements, and return how long to sleep."""
        now = self.app.clerk.clock.now()
        out = await unannounced_results(self.app, now) if self.passes == 0 else []  # after a crash (recovery.py)
        out += await close_due(self.app, now)
        if out:
            await self.deliver(out)
        pending = await self.app.clerk.next_deadlines()
        if not pending:
            return self.max_sleep
        soonest = pending[0]
        if soonest <= now:
            # It was due at this pass and is still open: closing it failed (and was logged). Not a busy loop.
            return self.retry_after
        return min(self.max_sleep, (soonest - now).total_seconds())
