"""The outgoing queue: every receipt, reminder, announcement and edit the bot owes, delivered eventually, in order per
channel, under Discord's limits (docs/architecture.md, docs/reliability.md).

- What is owed is committed to ``owed_messages`` (engine/service/owed.py) before it is sent, so a restart resumes it.
- One **lane** per channel or DM: a lane's messages go one at a time, in the order they were owed.
- Among the lanes ready to send, the head with the lowest (priority, id) goes first: answers to what players sent
  (ballot receipts) before announcements and reminders.
- At most ``slots`` sends are in flight; every request passes the global pacer (pacing.py) on its way out, and a
  lane whose channel bucket is spent (Discord's headers) waits while other lanes send.
- A send that fails for a reason that passes (429 after discord.py's retries, 5xx, a dropped connection) is tried
  again later with a growing pause; never dropped. One Discord refuses for good (403, 404, a bad body) is settled
  ``undeliverable`` and logged.
- Each message carries a Discord nonce (``enforce_nonce``): a send repeated after a kill, between the send and its
  mark, is dropped by Discord.
- Owing a new edit of a kept message supersedes the older ones not yet sent: only the latest text is delivered."""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.discord.pacing import Pacer
from bot.tasks import cancel_and_wait
from engine.service import Clerk
from engine.service.owed import Owed, OwedRow

log = logging.getLogger("clerk.discord.outbox")

SENT, UNDELIVERABLE, RETRY = "sent", "undeliverable", "retry"
HELD_NOW = "held now"
"""The outcome of a row the sender has settled ``held`` itself (a message for a deleted game channel, held in a
transaction that reads the game's channel first: ``clerk.outbox.hold``): the worker marks nothing more (marking it
held again after a ``/game move`` had released it would hold it for a channel the game has left)."""
SLOTS = 16
BACKOFF = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds before a message whose send failed for a passing reason is tried again (then every 60 s)."""
LOG_EVERY = 10.0
"""While messages wait, the log says how many at most this often (seconds)."""

Send = Callable[[OwedRow], Awaitable[tuple[str, int | None]]]
"""Deliver one row: its outcome (SENT, UNDELIVERABLE, RETRY, HELD_NOW) and the channel it went to when known."""


@dataclass
class _Lane:
    rows: deque[OwedRow] = field(default_factory=deque)
    busy: bool = False
    not_before: float = 0.0
    failures: int = 0
    channel_id: int | None = None


class OutboxWorker:
    def __init__(self, clerk: Clerk, pacer: Pacer, send: Send, *, slots: int = SLOTS) -> None:
        self.clerk = clerk
        self.pacer = pacer
        self.send = send
        self._lanes: dict[str, _Lane] = {}
        self._ready: list[tuple[int, int, str]] = []
        """Heads of lanes that may send: (priority, row id, lane)."""
        self._free = slots
        """Sends that may start now (of ``slots`` at once)."""
        self._running = False
        self._timer: asyncio.TimerHandle | None = None
        """When the soonest lane that must wait (a backoff, a spent channel bucket) may send: ``_dispatch`` again."""
        self._drained = asyncio.Event()
        self._drained.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._marking: set[asyncio.Future[None]] = set()
        """The marks of sent rows not yet committed (``_settle_later``)."""
        self._hurry = asyncio.Event()
        """Set to end a clean stop's wait (``drain``) at once."""
        self.waiting = 0
        """Messages owed and not yet delivered, in this process."""
        self.sent = 0
        self.retries = 0
        self._logged = 0.0

    # ----------------------------------------------------------------- owing

    async def owe(self, messages: Sequence[Owed]) -> None:
        """Commit ``messages`` as owed and queue them (an already-owed nonce is skipped: it is queued already). If they
        cannot be kept (the database refuses writes: a full disk, an outage), they are sent at once instead, unkept:
        a refusal that says so still reaches the player."""
        try:
            owed = await self.clerk.outbox.owe(messages)
        except Exception as error:
            log.warning("could not keep %d message(s) owed (%s); sending them now, unkept", len(messages), error)
            for m in messages:
                try:
                    await self.send(OwedRow(0, m))
                except Exception:
                    log.exception("sending an unkept message to %s failed", m.lane)
            return
        self.queue([r for r in owed if r is not None])

    def queue(self, rows: Sequence[OwedRow]) -> None:
        """Queue ``rows``, committed as owed already (by ``owe``, or in the transaction of the write they answer:
        ``engine.service.owed.OwedWith``)."""
        self._queue(rows)
        if rows:
            self._dispatch()  # a receipt's send starts now (issue 20)

    async def queue_and_send(self, rows: Sequence[OwedRow]) -> None:
        """``queue``, and the first row that may be sent now is sent in the caller's own task, which waits for it,
        instead of in a task started for it: one step of the event loop fewer before a DM's receipt leaves (issue
        20). Everything else is as ``queue``: the same pick (the lanes' order, the pacer, the backoff), the same
        slots, and the send is cancelled by ``stop`` as the others are."""
        self._queue(rows)
        if not rows:
            return
        row = self._take()
        self._dispatch()
        if row is None:
            return
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._deliver(row)
        finally:
            if task is not None:
                self._tasks.discard(task)

    def _queue(self, rows: Sequence[OwedRow]) -> None:
        for row in rows:
            if row.owed.coalesce is not None:
                self._supersede(row)
            self._add(row)

    async def resume(self, prepare: Callable[[list[OwedRow]], Awaitable[list[OwedRow]]] | None = None) -> int:
        """Queue everything a previous run left owed (at start, before the gateway connects); returns how many.
        ``prepare``: what is done to them first (a card left owed without its chart is given it:
        ``bot.actions.owed_files.charts_at_start``)."""
        rows = await self.clerk.outbox.owed()
        if prepare is not None and rows:
            rows = await prepare(rows)
        for row in rows:
            self._add(row)
        if rows:
            log.info("%d owed message(s) left by the last run are queued again", len(rows))
            self._dispatch()
        return len(rows)

    def _add(self, row: OwedRow) -> None:
        lane = self._lanes.get(row.owed.lane)
        if lane is None:
            lane = self._lanes[row.owed.lane] = _Lane(channel_id=row.owed.channel_id)
        lane.rows.append(row)
        self.waiting += 1
        self._drained.clear()
        if len(lane.rows) == 1 and not lane.busy:
            heapq.heappush(self._ready, (row.owed.priority, row.id, row.owed.lane))

    def _supersede(self, newer: OwedRow) -> None:
        """Drop the queued, not yet sent rows of the same ``coalesce`` (the database marked them superseded)."""
        for name, lane in self._lanes.items():
            keep: deque[OwedRow] = deque()
            for n, row in enumerate(lane.rows):
                in_flight = n == 0 and lane.busy
                if row.owed.coalesce == newer.owed.coalesce and not in_flight:
                    self.waiting -= 1
                    continue
                keep.append(row)
            if len(keep) != len(lane.rows):
                lane.rows = keep
                if keep and not lane.busy:
                    heapq.heappush(self._ready, (keep[0].owed.priority, keep[0].id, name))

    # ----------------------------------------------------------------- running

    def start(self) -> None:
        if not self._running:
            self._running = True
            self._dispatch()

    async def stop(self) -> None:
        self._running = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        # what was in flight is owed still: sent again at the next start (its nonce drops a repeat)
        await cancel_and_wait(list(self._tasks), timeout=5)

    async def drained(self) -> None:
        """Wait until nothing is owed in this process (tests; a clean stop)."""
        await self._drained.wait()

    async def drain(self, seconds: float) -> bool:
        """A clean stop: wait at most ``seconds`` (or until ``hurry``) for what is owed in this process to be sent
        and its marks committed, so that it goes out now rather than at the next start. True if it all was."""
        async def sent_and_marked() -> None:
            await self._drained.wait()
            while self._marking:
                await asyncio.wait(list(self._marking))

        waits = [asyncio.ensure_future(sent_and_marked()), asyncio.ensure_future(self._hurry.wait())]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await cancel_and_wait(waits)
        return self.waiting == 0 and not self._marking

    def hurry(self) -> None:
        """End a clean stop's wait (``drain``) now: a second SIGTERM or Ctrl-C."""
        self._hurry.set()

    def _dispatch(self) -> None:
        """Start every send that may start now, on the event loop's thread, synchronously: when rows are queued (the
        send of a row just committed starts at once), when a send ends (the lane's next row, or another lane's, takes
        its slot) and when the soonest waiting lane may send (``_timer``). No task runs the queue: each of these
        steps used to wake one (an ``asyncio.wait_for`` with its own task and timer), twice per receipt (issue 20)."""
        while (row := self._take()) is not None:
            task = asyncio.create_task(self._deliver(row), name=f"clerk-outbox-{row.id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _take(self) -> OwedRow | None:
        """The next row to send now, its slot taken; None when none may go now: not started (or stopped: ``start``
        dispatches), every slot busy (the end of a send dispatches again), or each lane must wait (``_timer``)."""
        if not self._running or self._free <= 0:
            return None
        picked = self._pick()
        if not isinstance(picked, OwedRow):
            self._wake_in(picked)
            return None
        self._free -= 1
        return picked

    def _wake_in(self, delay: float) -> None:
        """``_dispatch`` again in ``delay`` seconds, unless it is to run sooner already."""
        loop = asyncio.get_running_loop()
        when = loop.time() + delay
        if self._timer is not None:
            if self._timer.when() <= when:
                return
            self._timer.cancel()
        self._timer = loop.call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._dispatch()

    def _pick(self) -> OwedRow | float:
        """The next row to send, or how long to wait for one (seconds)."""
        now = time.monotonic()
        later: list[tuple[int, int, str]] = []
        soonest = 60.0
        found: OwedRow | float | None = None
        while self._ready:
            entry = heapq.heappop(self._ready)
            lane = self._lanes.get(entry[2])
            if lane is None or lane.busy or not lane.rows or lane.rows[0].id != entry[1]:
                continue  # stale: the lane moved on or its head was superseded
            until = max(lane.not_before, self.pacer.blocked_until(lane.channel_id))
            if until > now:
                later.append(entry)
                soonest = min(soonest, until - now)
                continue
            lane.busy = True
            found = lane.rows[0]
            break
        for entry in later:
            heapq.heappush(self._ready, entry)
        self._log_waiting(now)
        return found if found is not None else max(0.005, soonest)

    async def _deliver(self, row: OwedRow) -> None:
        lane = self._lanes[row.owed.lane]
        try:
            try:
                outcome, channel_id = await self.send(row)
            except Exception:  # the sender maps what it knows; anything else is tried again later
                log.exception("delivering owed message %s failed", row.id)
                outcome, channel_id = RETRY, None
            if channel_id is not None:
                lane.channel_id = channel_id
            if outcome == RETRY:  # never dropped: the lane waits, the other lanes go on
                self.retries += 1
                lane.not_before = time.monotonic() + BACKOFF[min(lane.failures, len(BACKOFF) - 1)]
                lane.failures += 1
            else:
                lane.failures = 0
                lane.rows.popleft()
                self.waiting -= 1
                self.sent += outcome == SENT
                if outcome != HELD_NOW:
                    self._settle_later(row.id, outcome)
        finally:
            lane.busy = False
            if lane.rows:
                heapq.heappush(self._ready, (lane.rows[0].owed.priority, lane.rows[0].id, row.owed.lane))
            elif lane.not_before <= time.monotonic():
                self._lanes.pop(row.owed.lane, None)
            if self.waiting == 0:
                self._drained.set()
            self._free += 1
            self._dispatch()

    def _settle_later(self, row_id: int, outcome: str) -> None:
        """Mark the row in the database (group-committed with the other marks; no task of its own: issue 20)."""
        def settled(done: asyncio.Future[None]) -> None:
            self._marking.discard(done)
            if done.cancelled():
                return
            error = done.exception()
            if error is not None:  # sent; at worst sent again after a restart, and dropped by its nonce
                log.warning("could not mark owed message %s %s: %s", row_id, outcome, error)

        marking = self.clerk.outbox.settle_soon(row_id, outcome)
        self._marking.add(marking)  # a clean stop waits for it (``drain``)
        marking.add_done_callback(settled)

    def _log_waiting(self, now: float) -> None:
        if self.waiting and now - self._logged >= LOG_EVERY:
            self._logged = now
            log.info("%d message(s) waiting to be sent (%d sent, %d retried; %d requests paced)", self.waiting,
                     self.sent, self.retries, self.pacer.requests)
