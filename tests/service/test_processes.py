"""The registry of the bot processes running on one database and the shards each reads (engine/service/processes.py,
play-test V3.1), on SQLite and PostgreSQL, with the clock moved by the tests: a second process on the same shards is
refused once the first is seen to renew its entry; a crashed process's entry is taken as stopped after
``dead_after``; a restart under the same name takes over at once; a clean stop removes the entry; a running process
reports once a newer one on its shards. ``python -m bot run``'s refusal is in tests/e2e/test_run.py, two OS
processes starting at the same instant in test_two_processes.py."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.service.clock import ManualClock
from engine.service.processes import DEAD_AFTER, RENEW_EVERY, ProcessRegistry, Shards, ShardsTaken, pid_alive
from engine.store.database import make_sessionmaker
from engine.store.models import ProcessRow

T0 = datetime(2026, 12, 7, 13, 0, tzinfo=UTC)
UNSHARDED = Shards()


def test_which_shards_overlap() -> None:
    """Two processes overlap when some server's events (or the DMs, on shard 0) reach both."""
    def of(count: int, *ids: int) -> Shards:
        return Shards(count, ids or None)

    assert UNSHARDED.overlaps(UNSHARDED) and UNSHARDED.overlaps(of(4, 3)) and of(4, 3).overlaps(UNSHARDED)
    assert not of(2, 0).overlaps(of(2, 1)) and of(2).overlaps(of(2, 1))
    assert not of(2, 0).overlaps(of(4, 1, 3)), "a server on shard 1 or 3 of 4 is on shard 1 of 2"
    assert of(2, 0).overlaps(of(4, 2)), "a server on shard 2 of 4 is on shard 0 of 2"
    assert of(3, 1).overlaps(of(2, 1)), "counts with no common factor: some server is on both"
    assert [str(s) for s in (UNSHARDED, of(4), of(1), of(4, 2), of(4, 0, 1))] == [
        "unsharded", "all 4 shards", "shard 0 of 1", "shard 2 of 4", "shards 0,1 of 4"]
    assert Shards.read(4, "0,1") == of(4, 0, 1) and Shards.read(4, None) == of(4)
    assert Shards.read(None, None) == UNSHARDED


class Sleeps:
    """The starting process's waits: each moves the clock instead of sleeping, and runs ``meanwhile`` (another
    process's renewal) first."""

    def __init__(self, clock: ManualClock, meanwhile: ProcessRegistry | None = None) -> None:
        self.clock, self.meanwhile, self.waited = clock, meanwhile, timedelta(0)

    async def __call__(self, seconds: float) -> None:
        if self.meanwhile is not None:
            await self.meanwhile.renew()
        self.clock.advance(timedelta(seconds=seconds))
        self.waited += timedelta(seconds=seconds)


async def never(seconds: float) -> None:
    raise AssertionError("the start waited")


def registry(engine: AsyncEngine, clock: ManualClock, instance: str, shards: Shards = UNSHARDED, *, host: str = "h1",
             pid: int = 7, running: frozenset[int] = frozenset()) -> ProcessRegistry:
    """A process ``pid`` on ``host``; the pids in ``running`` are the processes that run on its host."""
    return ProcessRegistry(make_sessionmaker(engine), clock, instance, shards, host=host, pid=pid,
                           alive=lambda other: other in running)


async def rows(engine: AsyncEngine) -> list[tuple[str, int | None, str | None]]:
    async with make_sessionmaker(engine)() as session:
        found = await session.execute(select(ProcessRow.instance, ProcessRow.shard_count, ProcessRow.shard_ids)
                                      .order_by(ProcessRow.instance))
        return [tuple(r) for r in found.all()]  # type: ignore[misc]


def said(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "clerk.processes" and r.levelno == level]


async def test_a_second_process_on_the_same_shards_is_refused_once_the_first_renews(
        db_engine: AsyncEngine, caplog: pytest.LogCaptureFixture) -> None:
    """Play-test V3.1: a and b both unsharded. b finds a's entry, waits, sees it renewed and refuses to run."""
    clock = ManualClock(T0)
    a = registry(db_engine, clock, "a")
    await a.register(never)
    clock.advance(timedelta(seconds=2))
    b, sleeps = registry(db_engine, clock, "b"), Sleeps(clock, meanwhile=a)

    with pytest.raises(ShardsTaken) as refused:
        await b.register(sleeps)

    assert str(refused.value) == (
        "another Clerk process on this database reads the same Discord shards: instance a (host h1, pid 7; "
        "unsharded; started 2026-12-07 13:00:00 UTC, last seen 1 s ago). This one (instance b, unsharded) would "
        "answer every DM and command a second time. Stop one of them, or give each process its own shards "
        "(SHARD_COUNT and SHARD_IDS; docs/deploy.md, \"Several processes on one database\")")
    assert sleeps.waited == RENEW_EVERY / 5, "refused at its first look after a's renewal"
    assert said(caplog, logging.WARNING) == [
        "another Clerk process on this database reads the same Discord shards: instance a (host h1, pid 7; "
        "unsharded; started 2026-12-07 13:00:00 UTC, last seen 2 s ago). Waiting up to 28 s to see whether it is "
        "still running (a process that crashed leaves its entry behind until then)"]
    assert await rows(db_engine) == [("a", None, None)]


async def test_a_crashed_process_is_taken_as_stopped_after_its_entry_goes_unrenewed(
        db_engine: AsyncEngine, caplog: pytest.LogCaptureFixture) -> None:
    """A crash leaves the entry behind: a start under another name waits for it at most ``dead_after`` (30 s), once,
    and then runs; an entry older than that is removed at once."""
    caplog.set_level(logging.INFO, "clerk.processes")
    clock = ManualClock(T0)
    await registry(db_engine, clock, "a").register(never)  # then SIGKILLed: never renewed, never removed
    clock.advance(timedelta(seconds=4))
    b, sleeps = registry(db_engine, clock, "b"), Sleeps(clock)

    await b.register(sleeps)

    assert b.dead_after == RENEW_EVERY * DEAD_AFTER == timedelta(seconds=30)
    assert sleeps.waited == timedelta(seconds=26) and clock.now() == T0 + b.dead_after
    assert await rows(db_engine) == [("b", None, None)]
    assert said(caplog, logging.INFO)[1] == (
        "instance a (host h1, pid 7; unsharded; started 2026-12-07 13:00:00 UTC, last seen 30 s ago) did not renew its "
        "entry for 30 s: taken as stopped")

    clock.advance(timedelta(seconds=31))  # b crashes too; a start long after removes its entry without waiting
    await registry(db_engine, clock, "c").register(never)
    assert await rows(db_engine) == [("c", None, None)]


async def test_an_entry_stamped_ahead_of_this_clock_is_waited_for_by_this_clock(db_engine: AsyncEngine) -> None:
    """A host whose clock is ahead writes a time stamp in this one's future: unrenewed for ``dead_after`` by this
    clock, it is taken as stopped all the same."""
    ahead = ManualClock(T0 + timedelta(minutes=2))
    await registry(db_engine, ahead, "a").register(never)
    clock = ManualClock(T0)
    sleeps = Sleeps(clock)
    await registry(db_engine, clock, "b").register(sleeps)
    assert sleeps.waited == timedelta(seconds=30)


async def test_a_restart_under_the_same_name_takes_over_at_once_and_a_clean_stop_removes_the_entry(
        db_engine: AsyncEngine) -> None:
    clock = ManualClock(T0)
    await registry(db_engine, clock, "a").register(never)
    clock.advance(timedelta(seconds=1))  # crashed and started again at once, as systemd or Docker restart it
    again = registry(db_engine, clock, "a", Shards(2))  # its settings may have changed meanwhile
    await again.register(never)
    assert await rows(db_engine) == [("a", 2, None)]
    await again.remove()
    assert await rows(db_engine) == []
    await registry(db_engine, clock, "b").register(never)


async def test_processes_on_other_shards_run_side_by_side(db_engine: AsyncEngine,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock(T0)
    first, second = registry(db_engine, clock, "a", Shards(2, (0,))), registry(db_engine, clock, "b", Shards(2, (1,)))
    await first.register(never)
    await second.register(never)
    clock.advance(RENEW_EVERY)
    await first.renew()
    await second.renew()
    assert await rows(db_engine) == [("a", 2, "0"), ("b", 2, "1")]
    with pytest.raises(ShardsTaken, match=r"instance b \(host h1, pid 7; shard 1 of 2;"):
        await registry(db_engine, clock, "c", Shards(4, (1,))).register(Sleeps(clock, meanwhile=second))
    assert said(caplog, logging.ERROR) == []


async def test_a_running_process_reports_a_newer_one_on_its_shards_once(
        db_engine: AsyncEngine, caplog: pytest.LogCaptureFixture) -> None:
    """a stalls longer than ``dead_after`` (a paused VM): b's start takes a's entry as stopped and runs. At its next
    renewal a writes its entry again and reports b; b reports a at its own; each once."""
    clock = ManualClock(T0)
    a, b = registry(db_engine, clock, "a"), registry(db_engine, clock, "b")
    await a.register(never)
    clock.advance(timedelta(seconds=40))
    await b.register(never)
    clock.advance(timedelta(seconds=1))
    for _ in range(2):
        await a.renew()
        await b.renew()
        clock.advance(RENEW_EVERY)

    errors = said(caplog, logging.ERROR)
    assert [e.split(": instance ")[1].split(" ")[0] for e in errors] == ["b", "a"]
    assert errors[0].startswith("another Clerk process on this database started reading the same Discord shards as "
                                "this one (instance a, unsharded): instance b (host h1, pid 7; unsharded; started "
                                "2026-12-07 13:00:40 UTC, last seen 1 s ago). Every DM and command is answered twice")
    assert said(caplog, logging.WARNING) == [
        "this process's entry (instance a) was gone from the processes table: another start took it for its own "
        "restart's, or for a stopped process's after a pause of this one longer than 30 s; written again"]
    assert await rows(db_engine) == [("a", None, None), ("b", None, None)]


async def test_a_second_process_under_the_same_name_on_the_same_host_is_refused_once_the_first_renews(
        db_engine: AsyncEngine, caplog: pytest.LogCaptureFixture) -> None:
    """V3.1's limit: `python -m bot run` started twice on one host without CLERK_INSTANCE (both named after the host).
    The first's process still runs, so the second's start is no restart: it waits, sees the entry renewed and
    refuses, as for another name on its shards."""
    clock = ManualClock(T0)
    first = registry(db_engine, clock, "host1", pid=7, running=frozenset({8}))
    await first.register(never)
    clock.advance(timedelta(seconds=1))
    second, sleeps = registry(db_engine, clock, "host1", pid=8, running=frozenset({7})), Sleeps(clock, meanwhile=first)

    with pytest.raises(ShardsTaken) as refused:
        await second.register(sleeps)

    assert str(refused.value) == (
        "another Clerk process on this database runs under this process's name: instance host1 (host h1, pid 7; "
        "unsharded; started 2026-12-07 13:00:00 UTC, last seen 1 s ago). One name is one process: two would each take "
        "the other's entry for their own restart's, and both answer every DM and command where their shards meet. "
        "Stop one of them, or give each process its own CLERK_INSTANCE (and its own shards: SHARD_COUNT and "
        "SHARD_IDS; docs/deploy.md, \"Several processes on one database\")")
    assert said(caplog, logging.WARNING) == [
        "another Clerk process on this database runs under this process's name: instance host1 (host h1, pid 7; "
        "unsharded; started 2026-12-07 13:00:00 UTC, last seen 1 s ago). Waiting up to 29 s to see whether it is "
        "still running (a process that crashed leaves its entry behind until then)"]
    assert await rows(db_engine) == [("host1", None, None)]


async def test_a_restart_under_the_same_name_waits_only_when_it_cannot_tell_the_old_process_is_gone(
        db_engine: AsyncEngine) -> None:
    """On the same host with the old pid gone (or this very pid: a container started again), a restart takes over
    at once; on another host under the same name it waits to see the entry renewed, as for any other, and runs once
    it is not (the old process crashed)."""
    clock = ManualClock(T0)
    await registry(db_engine, clock, "a", pid=7).register(never)
    await registry(db_engine, clock, "a", pid=9, running=frozenset({12})).register(never)  # pid 7 gone
    await registry(db_engine, clock, "a", pid=9).register(never)  # pid 9 again: this process's own earlier run
    sleeps = Sleeps(clock)
    await registry(db_engine, clock, "a", host="h2", pid=9).register(sleeps)
    assert sleeps.waited == timedelta(seconds=30)
    assert await rows(db_engine) == [("a", None, None)]


async def test_two_processes_under_one_name_report_each_other(db_engine: AsyncEngine,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    """A second process under the same name that starts while the first's entry looks stopped (the first stalled
    longer than ``dead_after``) runs; the first, still running, writes its entry again and both report the other,
    once (an ERROR on the same shards, a WARNING on others)."""
    clock = ManualClock(T0)
    first = registry(db_engine, clock, "host1", pid=7, running=frozenset({8}))
    second = registry(db_engine, clock, "host1", pid=8, running=frozenset({7}))
    await first.register(never)
    clock.advance(timedelta(seconds=31))
    await second.register(never)
    for _ in range(2):
        await first.renew()
        await second.renew()
    errors = said(caplog, logging.ERROR)
    assert len(errors) == 2 and all("runs under this process's name and reads the same Discord shards" in e
                                    and "give each process its own CLERK_INSTANCE" in e for e in errors)

    await first.remove()
    await second.remove()
    caplog.clear()
    other = registry(db_engine, clock, "host2", Shards(2, (1,)))
    shards = registry(db_engine, clock, "host2", Shards(2, (0,)))
    await other.register(never)
    await shards.register(never)
    await other.renew()
    assert said(caplog, logging.ERROR) == []
    assert [w.split(":")[0] for w in said(caplog, logging.WARNING)] == [
        "this process's entry (instance host2) was gone from the processes table",
        "another Clerk process on this database runs under this process's name (instance host2, shard 1 of 2)"]


def test_a_pid_is_alive_while_its_process_runs_not_once_it_exited() -> None:
    """``pid_alive``, which tells a restart from a second process on the same host: this process runs; a child that
    exited is gone while its parent has not reaped it yet (a zombie, as a bot killed by its supervisor is for a
    moment) and after."""
    import os
    import subprocess
    import sys

    assert pid_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
        assert not pid_alive(child.pid)
    finally:
        child.wait()
    assert not pid_alive(child.pid)
    assert not pid_alive(0) and not pid_alive(-1)
