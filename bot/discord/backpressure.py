"""Backpressure on the gateway (issue 20): the bot reads no further gateway frame while too many messages it has
taken in are not yet handled, so a burst of 20,000 DMs is held by the kernel and by Discord, not as 20,000 parsed
messages and their tasks in this process.

- ``Intake`` counts the messages taken in and not yet handled: ``track`` is given each task discord.py starts for
  ``on_message`` (``ClerkBot._schedule_event``) and counts it until the task is done (the ballot committed and its
  receipt queued; or it failed, or was cancelled).
- ``install_backpressure`` wraps discord.py's ``DiscordWebSocket.received_message`` (discord.py 2.x): after a frame
  is handled, if the client's intake is full, the reader waits for room before it reads the next one. While it waits
  nobody reads the websocket, aiohttp's buffer fills and it pauses the transport: nothing is lost, the rest waits in
  the socket.
- The wait is bounded (``MAX_WAIT`` a frame, far below discord.py's 60 s heartbeat timeout): the heartbeats are sent
  by discord.py's own thread, unaffected; their acknowledgements are read in turn with the DMs, and each frame read
  counts as a sign of life, so a bot that is slow (a locked database) still reads a frame every ``MAX_WAIT`` and is
  never taken for a dead connection.
- Intake resumes when the count is down to ``resume_at`` (half the limit), so the reader takes DMs in runs, not one
  frame per wake-up. The limit (``LIMIT``) is above two of the group commit's batches (400,
  engine/service/batching.py), so one batch fills while the one before commits.

A DM's deadline is judged by Discord's timestamp of the message (``Ctx.at``), not by when it is read, so a DM held back
here is never late for it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("clerk.discord.backpressure")

LIMIT = 1000
"""Messages taken in and not yet handled at which the gateway's reader waits."""
MAX_WAIT = 5.0
"""Seconds the reader waits for room before it reads one more frame regardless."""
BURST = 200
"""Messages in the intake at once that make a burst, worth relieving after (relief.py)."""
QUIET = 0.2
"""Seconds without a new message after which the reader, once held back, is taken to have read what was waiting."""
SETTLE_MAX = 10.0
"""Seconds the deadline closer waits at most for the messages already taken in (``Intake.settle``)."""


class Intake:
    def __init__(self, limit: int = LIMIT, max_wait: float = MAX_WAIT, burst_at: int = BURST) -> None:
        if limit < 1:
            raise ValueError(f"the intake limit must be at least 1, not {limit}")
        self.limit = limit
        self.max_wait = max_wait
        self.in_flight = 0
        self.most = 0
        """The largest ``in_flight`` seen (tests, the benchmarks)."""
        self.pauses = 0
        """How many times the reader waited for room."""
        self.timeouts = 0
        """How many of those waits ended at ``max_wait`` rather than with room."""
        self._room = asyncio.Event()
        self._room.set()
        self.burst_at = burst_at
        self.burst = asyncio.Event()
        """Set when ``burst_at`` messages were in at once; cleared by whoever relieves after it (relief.py)."""
        self.emptied = asyncio.Event()
        """Set while nothing is in."""
        self.emptied.set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.waiting = False
        """Whether the gateway's reader is waiting for room now (``room``)."""
        self.taken = 0
        """How many messages were taken in, ever."""

    @property
    def resume_at(self) -> int:
        return self.limit // 2

    @property
    def full(self) -> bool:
        return self.in_flight >= self.limit

    def enter(self) -> None:
        self.taken += 1
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        self.emptied.clear()
        if self.in_flight >= self.burst_at:
            self.burst.set()
        if self.in_flight >= self.limit:
            self._room.clear()

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight <= self.resume_at:
            self._room.set()
            if self.in_flight == 0:
                self.emptied.set()

    def track(self, task: asyncio.Task[Any]) -> None:
        """Count ``task`` (an ``on_message``) until it is done, however it ends."""
        self.enter()
        self._tasks.add(task)

        def done(_: asyncio.Task[Any]) -> None:
            self._tasks.discard(task)
            self.leave()

        task.add_done_callback(done)

    async def settle(self, max_wait: float = SETTLE_MAX) -> bool:
        """Wait until every message taken in so far is handled; and if the reader was held back meanwhile, until
        what it reads next is handled too and nothing more came in for ``QUIET`` seconds (those messages may have
        been sent before a deadline that is now due). The deadline closer awaits this before it closes anything, so
        a ballot Discord timestamped before the deadline but not yet handled (a burst, the reader held back) counts,
        as P0-15 says. At most ``max_wait`` seconds; False if that ran out."""
        loop = asyncio.get_running_loop()
        until = loop.time() + max_wait
        held = self.waiting or self.full
        while True:
            left = until - loop.time()
            if left <= 0:
                log.warning("%d message(s) still being handled after %.0f s: the deadline work goes on",
                            len(self._tasks), max_wait)
                return False
            if self._tasks:
                held = held or self.waiting or self.full
                await asyncio.wait(set(self._tasks), timeout=left)
                continue
            if not held:
                return True
            seen = self.taken
            await asyncio.sleep(min(QUIET, left))  # the reader reads on from the socket: anything left in it?
            if self.taken == seen and not self._tasks and not self.waiting:
                return True

    async def room(self) -> bool:
        """Wait until the count is down to ``resume_at``, or ``max_wait``; False if the wait ran out."""
        self.pauses += 1
        if self.in_flight <= self.resume_at:
            return True
        self._room.clear()  # set again by the ``leave`` that brings the count down to ``resume_at``
        self.waiting = True
        try:
            await asyncio.wait_for(self._room.wait(), self.max_wait)
        except TimeoutError:
            if self.in_flight <= self.resume_at:  # the room came as the wait ran out
                return True
            self.timeouts += 1
            log.warning("%d message(s) still being handled after %.0f s: reading the gateway on regardless",
                        self.in_flight, self.max_wait)
            return False
        finally:
            self.waiting = False
        return True


def intake_of(ws: Any) -> Intake | None:
    """The intake of the client a gateway websocket belongs to (discord.py sets ``_dispatch`` to its bound
    ``dispatch``), if it has one: clients without an ``intake`` read as discord.py does."""
    intake = getattr(getattr(ws, "_dispatch", None), "__self__", None)
    found = getattr(intake, "intake", None)
    return found if isinstance(found, Intake) else None


_installed = False


def install_backpressure() -> None:
    """Wrap ``DiscordWebSocket.received_message`` once (idempotent). Only clients with an ``Intake`` are held back."""
    global _installed
    if _installed:
        return
    from discord.gateway import DiscordWebSocket

    original = DiscordWebSocket.received_message

    async def received_message(self: DiscordWebSocket, msg: Any, /) -> None:
        await original(self, msg)
        intake = intake_of(self)
        if intake is not None and intake.full:
            await intake.room()

    DiscordWebSocket.received_message = received_message  # type: ignore[method-assign]
    _installed = True
