"""The bot processes running on one database and the Discord shards each reads (the ``processes`` table), so that a
second process reading the same shards does not run beside the first: Discord would send both every event of those
shards, and each would answer every DM and command (play-test V3.1; nothing counts twice, each message's id is
recorded once, but every player gets a second answer saying their message "reached me twice").

- **At start** (``register``), before the bot connects to Discord, a process writes its row: a token of its own run,
  its instance name (``CLERK_INSTANCE``, else the host's name: the deadline lease's holder name), host, pid, its
  shards, when it started and when it was last seen. In the same transaction, under a lock that makes two starts
  take turns (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: ``LOCK TABLE processes IN SHARE ROW EXCLUSIVE MODE``, local
  to the schema), it removes the rows of its own earlier run (its instance name, on this host, by a pid that no
  longer runs or is its own: a restart after a crash takes over at once) and the rows not renewed for
  ``dead_after``, and looks for a live row of another instance that reads any of its shards (``Shards.overlaps``),
  or of its own instance name that it cannot tell is its earlier run's (the old pid still runs on this host:
  started twice without ``CLERK_INSTANCE``; or another host).
- **A row that looks live may be a crashed process's**: a crash (SIGKILL, out of memory, power) leaves its row
  behind. So the start does not refuse at once: it logs one WARNING, and looks again every ``poll`` until either the
  row is renewed (the other process runs: it refuses, ``ShardsTaken``, which the bot logs as one ERROR and exits 1)
  or ``dead_after`` has passed without a renewal (the other is gone: it removes the row and starts). The wait is at
  most ``dead_after`` (30 s), once, and only when such a row is there; a healthy other process renews within
  ``every`` (5 s), so a real conflict is refused within about that. Whether a row was renewed is read from its own
  ``seen_at`` changing, so clocks that differ between hosts do not make a live process look dead during the wait.
- **While it runs** (``keep``: one renewal every ``every``, the deadline lease's renewal period, on a task of its
  own, beside the scheduler, whose passes can wait behind a close or the catch-up of DMs), it renews ``seen_at`` and
  reads the other rows: a live one reading any of its shards, or one under its own instance name (a second process
  with the same name that a start could not tell from a restart: two containers of one host name, both pid 1), is
  logged once, as an ERROR (a WARNING for a name
  shared without shards in common). A row of its own that another start removed (as its own restart's, or as dead
  after a stall longer than ``dead_after``) is written again, so that each sees the other.
- **A clean stop** (SIGTERM, Ctrl-C, ``docker stop``) removes the row (``remove``): a process started next does not
  wait.

Times are the injected clock's, as the lease's (tests drive it; processes on several hosts keep their clocks in sync,
NTP). On PostgreSQL a dead process could be told at once by a session lock (as the lease's liveness lock does); the
registry does the same on both databases: the wait is once, at a start after a crash, and at most ``dead_after``."""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from engine.service.clock import Clock, utc
from engine.store.locking import lock_for_write
from engine.store.models import ProcessRow

log = logging.getLogger("clerk.processes")

RENEW_EVERY = timedelta(seconds=5)
"""How often a running process renews its row: the deadline lease's renewal period (``LEASE_TTL / 3``)."""
DEAD_AFTER = 6
"""Renewal periods without a renewal after which a row is taken as a stopped process's: 30 s. A renewal can be late
(a write waiting for another writer's lock, a busy event loop); a row taken as dead too soon only lets a second
process start, which the first then reports as an ERROR at its next renewal."""
POLLS = 5
"""Looks per renewal period while a start waits to see whether another process renews its row."""


@dataclass(frozen=True)
class Shards:
    """The Discord shards a process reads: ``count`` None is an unsharded client (everything: as shard 0 of 1);
    ``ids`` None is every shard of ``count``. Discord sends a server's events on shard ``(server id >> 22) % count``
    and the DMs on shard 0."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    def residues(self) -> tuple[int, tuple[int, ...]]:
        """(count, the shards read), an unsharded client as shard 0 of 1."""
        if self.count is None:
            return 1, (0,)
        return self.count, self.ids if self.ids is not None else tuple(range(self.count))

    def overlaps(self, other: Shards) -> bool:
        """Whether some server's events (or the DMs) would reach both processes. With counts ``n`` and ``m`` a server
        whose ``(id >> 22)`` is ``x`` reaches both if ``x % n`` is one of these shards and ``x % m`` one of the
        other's; such an ``x`` exists exactly when a shard of each is congruent modulo ``gcd(n, m)`` (the Chinese
        remainder theorem). Equal counts: a shard in common. DMs: shard 0 in both."""
        n, mine = self.residues()
        m, theirs = other.residues()
        g = math.gcd(n, m)
        return not {s % g for s in mine}.isdisjoint(t % g for t in theirs)

    def __str__(self) -> str:
        if self.count is None:
            return "unsharded"
        if self.ids is None:
            return f"all {self.count} shards" if self.count > 1 else "shard 0 of 1"
        return f"shard{'s' if len(self.ids) > 1 else ''} {','.join(map(str, self.ids))} of {self.count}"

    def stored(self) -> str | None:
        return None if self.ids is None else ",".join(map(str, self.ids))

    @classmethod
    def read(cls, count: int | None, ids: str | None) -> Shards:
        return cls(count, None if ids is None or count is None else tuple(int(i) for i in ids.split(",") if i))


@dataclass(frozen=True)
class Seen:
    """A row of ``processes``: another process as found in the database."""

    token: str
    instance: str
    host: str
    pid: int
    shards: Shards
    started_at: datetime
    seen_at: datetime

    def describe(self, now: datetime) -> str:
        ago = max(0, int((now - self.seen_at).total_seconds()))
        host = f"host {self.host}, " if self.host != self.instance else ""
        return (f"instance {self.instance} ({host}pid {self.pid}; {self.shards}; started "
                f"{self.started_at:%Y-%m-%d %H:%M:%S} UTC, last seen {ago} s ago)")


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (a zombie, killed and not yet reaped, does not). Where that cannot
    be told (not a POSIX system), True: the start then waits to see whether the entry is renewed."""
    if os.name != "posix" or pid <= 0:
        return os.name != "posix"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


class ShardsTaken(Exception):
    """A start found another live process reading some of its shards: it must not run (one line, for the log)."""


Sleep = Callable[[float], Awaitable[None]]


class ProcessRegistry:
    """This process's row of ``processes`` (module docstring): ``register`` at start, ``keep`` while it runs,
    ``remove`` at a clean stop."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, instance: str, shards: Shards, *,
                 every: timedelta = RENEW_EVERY, host: str | None = None, pid: int | None = None,
                 alive: Callable[[int], bool] | None = None) -> None:
        if every <= timedelta(0):
            raise ValueError("the registry needs a positive renewal period")
        self._sessions = sessions
        self.clock = clock
        self.instance = instance
        self.shards = shards
        self.every = every
        self.host = host if host is not None else socket.gethostname()
        self.pid = pid if pid is not None else os.getpid()
        self.token = secrets.token_hex(16)
        self._alive = alive if alive is not None else pid_alive
        self.started_at: datetime | None = None
        self._told: set[str] = set()
        """The tokens of the other processes already reported while this one runs (each once)."""

    @property
    def dead_after(self) -> timedelta:
        """A row not renewed for this long is a stopped process's."""
        return self.every * DEAD_AFTER

    @property
    def poll(self) -> timedelta:
        return self.every / POLLS

    def _row(self, now: datetime) -> ProcessRow:
        started = self.started_at or now
        return ProcessRow(token=self.token, instance=self.instance, host=self.host[:200], pid=self.pid,
                          shard_count=self.shards.count, shard_ids=self.shards.stored(), started_at=started,
                          seen_at=now)

    async def _others(self, session: AsyncSession) -> list[Seen]:
        rows = (await session.execute(select(ProcessRow).where(ProcessRow.token != self.token))).scalars().all()
        return [Seen(r.token, r.instance, r.host, r.pid, Shards.read(r.shard_count, r.shard_ids),
                     utc(r.started_at), utc(r.seen_at)) for r in rows]

    @staticmethod
    async def _begin_write(session: AsyncSession, *, exclusive: bool = False) -> None:
        """SQLite: take the write lock before reading (``engine.store.locking``). PostgreSQL, ``exclusive``: a lock on
        the table that two starts cannot hold together (renewals wait for it, reads do not)."""
        await lock_for_write(session, None)  # SQLite: BEGIN IMMEDIATE; PostgreSQL: nothing without a game
        if exclusive and session.get_bind().dialect.name != "sqlite":
            await session.execute(text("LOCK TABLE processes IN SHARE ROW EXCLUSIVE MODE"))

    async def register(self, sleep: Sleep = asyncio.sleep) -> None:
        """Write this process's row, or raise ``ShardsTaken`` when another live process reads any of its shards
        (waiting first, at most ``dead_after``, to see whether such a row is renewed: module docstring)."""
        first: dict[str, tuple[datetime, datetime]] = {}
        """Token -> (its ``seen_at`` when first found, this clock's time then)."""
        while True:
            now = self.clock.now()
            async with self._sessions() as session, session.begin():
                await self._begin_write(session, exclusive=True)
                others = await self._others(session)
                own = [o for o in others if self._restarted(o)]
                dead = [o for o in others if o not in own and self._dead(o, now, first)]
                live = [o for o in others if o not in own and not self._dead(o, now, first)
                        and (o.instance == self.instance or o.shards.overlaps(self.shards))]
                if own or dead:
                    await session.execute(delete(ProcessRow).where(ProcessRow.token.in_([o.token for o in own + dead])))
                if not live:
                    self.started_at = now
                    session.add(self._row(now))
            for o in own:
                log.info("took over the entry of instance %s (this one's name), last seen %s s ago: a restart",
                         o.instance, max(0, int((now - o.seen_at).total_seconds())))
            for o in dead:
                log.info("%s did not renew its entry for %s s: taken as stopped", o.describe(now),
                         int(self.dead_after.total_seconds()))
            if not live:
                log.info("registered as instance %s (%s) on this database", self.instance, self.shards)
                return
            renewed = [o for o in live if o.token in first and o.seen_at != first[o.token][0]]
            if renewed:
                raise ShardsTaken(self._refusal(renewed[0], now))
            for o in live:
                if o.token not in first:
                    first[o.token] = (o.seen_at, now)
                    log.warning("another Clerk process on this database %s: %s. Waiting up to %s s to see whether it "
                                "is still running (a process that crashed leaves its entry behind until then)",
                                "runs under this process's name" if o.instance == self.instance
                                else "reads the same Discord shards", o.describe(now),
                                int((self._death(o, first) - now).total_seconds()))
            until = min(self._death(o, first) for o in live)
            await sleep(max(0.0, min(self.poll, until - now).total_seconds()))

    def _dead(self, other: Seen, now: datetime, first: dict[str, tuple[datetime, datetime]]) -> bool:
        return now >= self._death(other, first)

    def _death(self, other: Seen, first: dict[str, tuple[datetime, datetime]]) -> datetime:
        """When ``other`` counts as stopped unless it is renewed before: ``dead_after`` after its time stamp, or, once
        waited for, ``dead_after`` by this clock after it was first found (for a time stamp ahead of this clock)."""
        latest = other.seen_at + self.dead_after
        if other.token in first and other.seen_at == first[other.token][0]:
            return min(latest, first[other.token][1] + self.dead_after)
        return latest

    def _restarted(self, other: Seen) -> bool:
        """Whether ``other`` is this process's own earlier run, taken over at once: the same instance name on the same
        host, and its process gone (or this very pid: a container started again, its process pid 1 again). Under the
        same name on another host, or while that pid runs, it may be a second process: waited for as any other."""
        return other.instance == self.instance and other.host == self.host[:200] and (
            other.pid == self.pid or not self._alive(other.pid))

    def _refusal(self, other: Seen, now: datetime) -> str:
        if other.instance == self.instance:
            return (f"another Clerk process on this database runs under this process's name: {other.describe(now)}. "
                    "One name is one process: two would each take the other's entry for their own restart's, and "
                    "both answer every DM and command where their shards meet. Stop one of them, or give each "
                    "process its own CLERK_INSTANCE (and its own shards: SHARD_COUNT and SHARD_IDS; docs/deploy.md, "
                    "\"Several processes on one database\")")
        return (f"another Clerk process on this database reads the same Discord shards: {other.describe(now)}. This "
                f"one (instance {self.instance}, {self.shards}) would answer every DM and command a second time. Stop "
                "one of them, or give each process its own shards (SHARD_COUNT and SHARD_IDS; docs/deploy.md, "
                "\"Several processes on one database\")")

    async def renew(self) -> None:
        """Renew this process's row (write it again if another start removed it) and report, once each, the other
        live processes that read any of its shards or run under its name."""
        now = self.clock.now()
        async with self._sessions() as session, session.begin():
            await self._begin_write(session)
            done = await session.execute(update(ProcessRow).where(ProcessRow.token == self.token).values(seen_at=now))
            lost = not getattr(done, "rowcount", 0)
            if lost:
                session.add(self._row(now))
            others = await self._others(session)
        if lost:
            log.warning("this process's entry (instance %s) was gone from the processes table: another start took it "
                        "for its own restart's, or for a stopped process's after a pause of this one longer than "
                        "%s s; written again", self.instance, int(self.dead_after.total_seconds()))
        self._report([o for o in others if o.seen_at + self.dead_after > now], now)

    def _report(self, others: Sequence[Seen], now: datetime) -> None:
        for other in others:
            same, overlaps = other.instance == self.instance, other.shards.overlaps(self.shards)
            if other.token in self._told or not (same or overlaps):
                continue
            self._told.add(other.token)
            if overlaps and not same:
                log.error("another Clerk process on this database started reading the same Discord shards as this "
                          "one (instance %s, %s): %s. Every DM and command is answered twice while both run: stop "
                          "one of them, or give each process its own shards (SHARD_COUNT and SHARD_IDS; "
                          "docs/deploy.md, \"Several processes on one database\")", self.instance, self.shards,
                          other.describe(now))
            elif overlaps:
                log.error("another Clerk process on this database runs under this process's name and reads the same "
                          "Discord shards (instance %s, %s): %s. Every DM and command is answered twice while both "
                          "run, and a start takes the other's entry for its own restart's: stop one of them, or give "
                          "each process its own CLERK_INSTANCE and its own shards (SHARD_COUNT and SHARD_IDS; "
                          "docs/deploy.md, \"Several processes on one database\")", self.instance, self.shards,
                          other.describe(now))
            else:
                log.warning("another Clerk process on this database runs under this process's name (instance %s, "
                            "%s): %s; give each process its own CLERK_INSTANCE (a start takes the other's entry for "
                            "its own restart's, and both do the deadline work)", self.instance, self.shards,
                            other.describe(now))

    async def keep(self) -> None:
        """Renew the row every ``every`` until cancelled. A renewal the database refuses is logged once (a WARNING),
        until one succeeds again."""
        failing = False
        while True:
            await asyncio.sleep(self.every.total_seconds())
            try:
                await self.renew()
            except Exception as error:
                if not failing:
                    log.warning("could not renew this process's entry in the processes table (%s); trying again "
                                "every %s s", " ".join(str(getattr(error, "orig", error)).split())[:200],
                                f"{self.every.total_seconds():g}")
                failing = True
            else:
                if failing:
                    log.info("this process's entry in the processes table is renewed again")
                failing = False

    async def remove(self) -> None:
        """Remove this process's row (a clean stop): a process started next need not wait for it."""
        async with self._sessions() as session, session.begin():
            await session.execute(delete(ProcessRow).where(ProcessRow.token == self.token))
