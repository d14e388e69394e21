"""Closing rounds at their deadline: one background task that sleeps until the soonest pending deadline.

It reads the deadlines from the database each time, so a restart picks up every open round (one whose
deadline passed while the bot was down closes at once), and ``wake()`` (wired to ``App.deadlines_changed``)
makes it look again when a round is opened or closed. Time is the clerk's clock; sleeps are capped so a clock
that jumps (or a ManualClock moved by a test) is noticed. A round never closes twice: the service closes a
given round number once and recognises the repeated ``deadline:`` source id.

Several processes sharing one database (``docs/deploy.md``) each run a scheduler; with a ``lease``
(``engine.service.lease``) only the one holding it does the timed work, renewing it at every pass (at least every
``lease.renew_every``); the others look again at that interval and take over when the holder stops or dies. On
PostgreSQL a waiting process also watches the holder (``Lease.watch``: its liveness lock is released by PostgreSQL
when its session ends) and wakes the moment the holder dies, so a round due then closes on time, not a lease's
life late with "(the bot was offline)"."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.actions.commands import App
from bot.actions.messages import close_due
from bot.actions.outbox import TIMED, Answering, Outgoing
from bot.actions.recovery import start_work, unannounced_results
from bot.tasks import cancel_one
from engine.service.lease import Lease
from engine.store.faults import fault_kind

log = logging.getLogger("clerk.discord.scheduler")



class Deliver(Protocol):
    """Deliver what a pass made; ``answering`` (when the scheduler was given one) holds what the pass owed already,
    in the transactions of its writes (``TIMED``): queued, not owed again (``Courier.deliver``)."""

    def __call__(self, out: Sequence[Outgoing], answering: Answering | None = None, /) -> Awaitable[None]: ...


FIRST_PASS = "deadline scheduler ready"
"""Logged once, after the scheduler's first pass: the bot is connected and has done its start-up work (the results
a crash left unannounced are posted, what was due is closed)."""
DEADLINE_LEASE = "deadlines"
STOP_WAIT = 10.0
"""Seconds a closing bot waits for the scheduler's pass under way to end before it cancels it (``stop``)."""
LEASE_TTL = timedelta(seconds=15)
"""How long the deadline lease lasts unrenewed: the holder renews it every 5 s; if it dies, another process takes
over the timed work at once on PostgreSQL (the holder's liveness lock, ``engine.service.lease``) and within about
20 s on SQLite, inside the minute after which a close is reported late (``round_close.LATE``)."""


def process_name() -> str:
    """This process, as a lease holder: ``CLERK_INSTANCE`` if set, else the host's name. A bot restarted in the same
    place (after a crash, a deploy) is the same holder and takes its lease back at once instead of waiting for it
    to expire; several processes on one host each set their own ``CLERK_INSTANCE`` (docs/deploy.md). Two
    processes that share a name both do the timed work, which stays correct (closing is idempotent), only
    wasteful."""
    return os.environ.get("CLERK_INSTANCE", "").strip() or socket.gethostname()


def deadline_lease(app: App) -> Lease:
    return app.clerk.lease(DEADLINE_LEASE, process_name(), LEASE_TTL)


class DeadlineScheduler:
    def __init__(self, app: App, deliver: Deliver, *, max_sleep: float = 60.0, retry_after: float = 30.0,
                 lease: Lease | None = None, settle: Callable[[], Awaitable[object]] | None = None,
                 answering: Callable[[], Answering] | None = None) -> None:
        self.app = app
        self.answering = answering
        """A new ``Answering`` for each pass, in which its timed work owes what it posts in the transactions of its
        writes (``TIMED``: an offer to second passed on at its timeout); None: it is owed after, by ``deliver``."""
        self.settle = settle
        """Awaited before each pass closes what is due: the bot's ``Intake.settle``, so the DMs already taken in
        (sent before a deadline, not yet handled) are judged before their round closes (backpressure.py)."""
        self.lease = lease
        self.leading = lease is None
        """Whether this process did the timed work at its last pass (always, without a lease)."""
        self.deliver = deliver
        self.max_sleep = max_sleep
        self.retry_after = retry_after
        self._wake = asyncio.Event()
        self.passes = 0
        """How many times it has looked for due rounds (tests wait on it)."""
        self._watch: asyncio.Task[None] | None = None
        """PostgreSQL, while another process leads: waits for the leader's death (``Lease.watch``), then wakes."""
        self.started = 0
        """How many passes have begun: a pass begun before a wake may end after it, so a test that wakes the
        scheduler waits for pass ``started + 1`` (taken before the wake) to end, not for any pass."""
        self.sleeps_for = 0.0
        """Seconds it sleeps after its last pass unless woken (tests read it instead of timing the sleep)."""
        self._recovered = False
        self.last_pass_at: datetime | None = None
        """When its last pass ended, by the clerk's clock (the health endpoint's check: bot/discord/health.py)."""
        """Whether the results a crash left unannounced were looked for (once, at the first pass that does the work)."""
        self.refresh = max_sleep
        """The timed work is read in full at least this often (seconds), whatever ``TimedChanges`` says."""
        self._changed = True
        """Woken by ``deadlines_changed`` (or never read yet): the next pass that does the work reads it in full."""
        self._due_at: datetime | None = None
        """The soonest instant of timed work (deadline, reminder, offer) at the last full read; None: none."""
        self._read_at: datetime | None = None
        """When the timed work was last read in full (the clerk's clock)."""
        self._mark: int | None = None
        self._top: int | None = None
        """Event ids: a quiet pass looks at the events after ``_mark``, the newest id of the look before the last
        (one pass of overlap, for a PostgreSQL transaction that took its id before another's and committed after)."""
        self.full_reads = 0
        """How many passes read the timed work in full (tests; the others found nothing due and nothing changed)."""
        self._stopping = False
        self._in_pass = False

    def wake(self) -> None:
        """Look at the deadlines again now (call from the event loop's thread): the next pass reads them in full."""
        self._changed = True
        self._wake.set()

    def look(self) -> None:
        """Look again now with nothing known to have changed (the lease's holder is gone, a test's pass): a pass
        with nothing due reads only whether an event could have changed the timed work."""
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            self.started += 1
            delay = self.retry_after
            self._in_pass = True
            try:
                delay = await self.tick()
            except Exception as error:
                if fault_kind(error) is None:
                    log.exception("the deadline scheduler failed; trying again in %ss", self.retry_after)
                else:  # the database refuses writes (engine.store.faults): one line, no traceback, each pass
                    log.warning("the deadline scheduler could not write (%s); trying again in %ss",
                                " ".join(str(getattr(error, "orig", error)).split())[:200], self.retry_after)
            finally:
                self._in_pass = False
            self.sleeps_for = delay
            self.last_pass_at = self.app.clerk.clock.now()
            self.passes += 1
            if self.passes == 1:  # tests of the bot as its own process wait for this line (tests/e2e/child.py)
                log.info("%s: first pass done (%s)", FIRST_PASS,
                         "due work done" if self.leading else "another process does the deadline work")
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def stop(self, task: asyncio.Task[None], wait: float = STOP_WAIT) -> None:
        """Stop ``task`` (the one running ``run``) when the bot closes: between passes at once; in the middle of a
        pass, once that pass is over (at most ``wait`` seconds, then it is cancelled): a pass's writes end as they
        would have. A pass cancelled while its lease's upsert waited for another writer once left SQLite's write lock
        held, so that ``release`` waited out the busy timeout (30 s) and failed (tests/e2e/test_permissions.py): the
        cancelled connection was hard-closed with its statement unfinished. Since 2026-12-06 such a close lets go of
        the lock at once (engine/store/sqlite_connection.py), so a pass cancelled after ``wait`` does not either."""
        self._stopping = True
        self._wake.set()
        if self._in_pass:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), wait)
        await cancel_one(task)

    async def tick(self) -> float:
        """Close what is due, deliver the announcements, and return how long to sleep."""
        now = self.app.clerk.clock.now()
        if self.lease is not None:
            leading, self.leading = self.leading, await self.lease.take(now)
            if self.leading != leading:
                self._changed = True  # a new holder reads everything: the old one may have left work undone
                log.info("this process %s the deadline work (lease %s, holder %s)",
                         "now does" if self.leading else "no longer does", self.lease.name, self.lease.holder)
            if not self.leading:
                self._watch_leader()
                return self.lease.renew_every.total_seconds()  # another process does it; look again later
            self._stop_watching()
        return min(await self._work(now), self.max_sleep if self.lease is None else
                   self.lease.renew_every.total_seconds())

    def _watch_leader(self) -> None:
        if self.lease is None or not self.lease.watchable or (self._watch is not None and not self._watch.done()):
            return
        self._watch = asyncio.get_running_loop().create_task(self.lease.watch(), name="clerk-lease-watch")

        def woken(task: asyncio.Task[None]) -> None:
            if not task.cancelled() and task.exception() is not None:
                log.warning("watching the deadline lease's holder failed: %s", task.exception())
            elif not task.cancelled():
                self.look()  # the leader is gone (or there is none): take over now (a new holder reads all)

        self._watch.add_done_callback(woken)

    def _stop_watching(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    async def release(self) -> None:
        """Give up the lease (when the bot stops), so another process takes over the timed work at once."""
        self._stop_watching()
        if self.lease is not None and self.leading:
            await self.lease.release(self.app.clerk.clock.now())
            self.leading = False
        elif self.lease is not None:
            await self.lease.close()

    async def _quiet(self, now: datetime) -> float | None:
        """The sleep of a pass that has nothing to do: nothing due by the last full read, which is recent, and no
        event since that could have changed the timed work (``engine/service/timed_changes.py``); None: do the
        work."""
        if self._changed or self._read_at is None or self._mark is None or not self._recovered:
            return None
        if (self._due_at is not None and self._due_at <= now) or (now - self._read_at).total_seconds() >= self.refresh:
            return None
        top, changed = await self.app.clerk.timed_changes.since(self._mark)
        if changed:
            return None
        self._mark, self._top = self._top, top
        until = self.refresh - (now - self._read_at).total_seconds()
        if self._due_at is not None:
            until = min(until, (self._due_at - now).total_seconds())
        return min(self.max_sleep, until)

    async def _work(self, now: datetime) -> float:
        quiet = await self._quiet(now)
        if quiet is not None:
            return quiet
        self._changed = False
        top, _ = await self.app.clerk.timed_changes.since(None)
        self._mark, self._top = (self._top if self._top is not None else top), top
        self.full_reads += 1
        try:
            delay = await self._read_and_do(now)
        except BaseException:
            self._changed = True  # read it all again at the next pass
            raise
        self._read_at = now
        return delay

    async def _read_and_do(self, now: datetime) -> float:
        first = not self._recovered
        out = [] if self._recovered else await unannounced_results(self.app, now)  # after a crash (recovery.py)
        self._recovered = True
        if self.settle is not None:
            await self.settle()
        answering = self.answering() if self.answering is not None else None
        token = TIMED.set(answering)
        try:
            if first:  # what a kill between two writes left undone (``Front.at_start``)
                out += await start_work(self.app, now)
            out += await close_due(self.app, now)
        except Exception:
            if answering is not None and answering.owed:  # committed with the writes before the failure: sent
                await self.deliver([], answering)
            raise
        finally:
            TIMED.reset(token)
        if answering is not None and answering.owed:
            await self.deliver(out, answering)
        elif out:
            await self.deliver(out)
        pending = await self.app.clerk.next_deadlines()
        self._due_at = pending[0] if pending else None
        if not pending:
            return self.max_sleep
        soonest = pending[0]
        if soonest <= now:
            # It was due at this pass and is still open: closing it failed (and was logged). Not a busy loop.
            return self.retry_after
        return min(self.max_sleep, (soonest - now).total_seconds())
