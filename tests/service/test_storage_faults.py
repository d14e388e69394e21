"""When the database falters (issue 14, part 4; issue 21's storage points): a disk full, a read-only database, a
lock another writer holds past the wait. The ballot is refused as a ``StorageFault`` (its text says nothing was
counted and to send it again in a minute), nothing is recorded, the log has one line per refusal and no traceback,
the moderators' listener hears once when a game's writes start failing and once when they work again, and the next
ballot after the fault clears is recorded with no restart (the pools reopen their connections after a read-only
fault). On SQLite and PostgreSQL; the faults are injected (tests/storage_faults.py) and, where this machine can make
them, real (an immutable file, a full file system; skipped only where the machine cannot)."""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
import subprocess
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import CHANNEL, GUILD, MOD, START, RecordingDice
from databases import BACKENDS, POSTGRES_URL, migrated_copy
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine
from storage_faults import FaultInjector

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.storage_health import StorageNotice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.faults import BUSY, FULL, IO, READ_ONLY, StorageFault


@dataclass
class Store:
    """One game with two players and an open round, on its own engine (so a test sets its ``write_wait``)."""

    clerk: Clerk
    engine: AsyncEngine
    game_id: int
    notices: list[StorageNotice] = field(default_factory=list)
    _n: int = 0

    async def vote(self, user_id: int, choice: str = "Aye") -> Any:
        self._n += 1
        return await self.clerk.landsdraad.ballots.cast_ballot(self.game_id, user_id=user_id,
                                                               command=parse_ballot(f"Vote: {choice}"),
                                                               received_at=self.clerk.clock.now(),
                                                               source_id=f"m-{self._n}")

    async def ballots(self) -> list[tuple[int, str]]:
        async with make_sessionmaker(self.engine)() as session:
            found = await session.execute(text("SELECT actor, payload FROM events WHERE kind = 'BallotCast' "
                                               "ORDER BY seq"))
            return [(actor, str(payload)) for actor, payload in found]

    def told(self) -> list[tuple[int, bool, str]]:
        return [(n.game_id, n.failing, n.fault.kind) for n in self.notices]


async def sirius(clerk: Clerk) -> int:
    """The game of these tests in ``clerk``: alice (101) and bob (102), round 1 open without a deadline; its id."""
    game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=MOD)
    for user, name in ((101, "Alice"), (102, "Bob")):
        await clerk.landsdraad.ledger.add_player(game.id, user_id=user, name=name, diplomacy=3, command=2,
                                                 intrigue=1, roll=1, faction=None, actor=MOD)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Piracy", deadline=None, actor=MOD)
    return game.id


@pytest.fixture(params=BACKENDS)
async def stores(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                 postgres_schema: str | None) -> AsyncIterator[Any]:
    """``await open(write_wait=..., **engine_options)``: a migrated database of the backend, a Clerk on it."""
    migrated = await migrated_copy(request.param, tmp_path, sqlite_template, postgres_schema)
    engines: list[AsyncEngine] = []

    async def open_store(write_wait: timedelta = timedelta(seconds=30), **options: Any) -> Store:
        engine = make_engine(migrated.url, write_wait=write_wait, **{**migrated.options, **options})
        engines.append(engine)
        clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RecordingDice())
        store = Store(clerk, engine, await sirius(clerk))
        clerk.storage.listen(store.notices.append)
        return store

    open_store.backend = request.param  # type: ignore[attr-defined]
    open_store.url = migrated.url  # type: ignore[attr-defined]
    open_store.options = migrated.options  # type: ignore[attr-defined]
    try:
        yield open_store
    finally:
        for engine in engines:
            await engine.dispose()


def injected(store: Store) -> FaultInjector:
    engines = [store.engine.sync_engine] + ([store.clerk._twin] if store.clerk._twin is not None else [])
    return FaultInjector().install(*engines)


def refusal_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "clerk.storage" and "write refused" in r.getMessage()]


# -- a full disk ---------------------------------------------------------------------------------------------------

async def test_a_full_disk_refuses_the_ballot_tells_the_moderators_once_and_recovers_by_itself(
        stores: Any, caplog: pytest.LogCaptureFixture) -> None:
    store = await stores()
    faults = injected(store)
    await store.vote(101)  # a ballot before the fault
    faults.arm("full")

    for user in (101, 102, 102):
        with pytest.raises(StorageFault) as refused:
            await store.vote(user, "Nay")
        assert refused.value.kind == FULL
        assert "Nothing was counted" in str(refused.value) and "again in a minute" in str(refused.value)
        assert "disk" not in str(refused.value) and "SQLITE" not in str(refused.value)  # the detail is not the player's

    assert len(await store.ballots()) == 1  # only the first; none of the refused ones
    assert store.told() == [(store.game_id, True, FULL)]  # told once, not three times
    lines = refusal_lines(caplog)
    assert len(lines) == 3 and all(r.exc_info is None for r in lines)  # one line per refusal, no traceback
    assert "database or disk is full" in lines[0].getMessage() or "No space left" in lines[0].getMessage()

    faults.disarm()
    receipt = await store.vote(102, "Nay")
    assert receipt.option == "nay"
    assert len(await store.ballots()) == 2
    assert store.told() == [(store.game_id, True, FULL), (store.game_id, False, FULL)]
    await store.vote(101, "Abstain")
    assert len(store.notices) == 2  # nothing more to say


async def test_a_fault_in_a_batch_of_ballots_refuses_each_without_retrying_them_one_by_one(stores: Any) -> None:
    store = await stores()
    faults = injected(store)
    faults.arm("full")
    results = await asyncio.gather(store.vote(101), store.vote(102), return_exceptions=True)
    assert all(isinstance(r, StorageFault) for r in results), results
    # Both ballots are in one batch: its first write fails, and neither is then tried again alone (a full disk
    # would refuse each once more, and a lock held past the wait would make each wait the whole wait again).
    assert faults.raised == 1
    assert await store.ballots() == []


# -- a read-only database -------------------------------------------------------------------------------------------

async def test_a_read_only_database_refuses_and_the_connections_are_reopened_once_it_is_writable(
        stores: Any) -> None:
    store = await stores()
    faults = injected(store)
    faults.arm("read-only")
    with pytest.raises(StorageFault) as refused:
        await store.vote(101)
    assert refused.value.kind == READ_ONLY
    assert faults.sticky  # the connection that met the fault refuses writes for good, as SQLite's does

    faults.disarm()
    # Without reopening, the pooled connection is still read-only and every later write fails until a restart.
    receipt = await store.vote(101)
    assert receipt.option == "aye"
    assert len(await store.ballots()) == 1
    assert [failing for _, failing, _ in store.told()] == [True, False]


def _chattr(flag: str, *files: Path) -> bool:
    try:
        done = subprocess.run(["chattr", flag, *map(str, files)], capture_output=True, check=False)
    except FileNotFoundError:
        return False
    return done.returncode == 0


async def test_an_immutable_sqlite_file_refuses_the_ballot_and_writes_work_again_without_a_restart(
        stores: Any) -> None:
    """The issue's own fault: ``chattr +i`` on the database, its -wal and -shm (root ignores file modes). A connection
    SQLite opens on the immutable file is read-only and stays so; after ``chattr -i`` the next ballot must work."""
    if stores.backend != "sqlite":
        pytest.skip("a file fault: SQLite only (PostgreSQL's read-only database is the next test)")
    store = await stores()
    path = Path(str(store.engine.url.database))
    await store.engine.dispose()  # no connection open: the next ones are opened on the immutable files
    files = [f for f in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if f.exists()]
    if not _chattr("+i", *files):
        pytest.skip("this machine cannot set the immutable flag (needs root and a file system that has it)")
    try:
        with pytest.raises(StorageFault) as refused:
            await store.vote(101)
        assert refused.value.kind in (READ_ONLY, IO)
        assert store.told() == [(store.game_id, True, refused.value.kind)]
    finally:
        assert _chattr("-i", *files)
    receipt = await store.vote(101)
    assert receipt.option == "aye"
    assert len(await store.ballots()) == 1
    assert [failing for _, failing, _ in store.told()] == [True, False]


@pytest.fixture
async def read_only_role(stores: Any) -> AsyncIterator[str]:
    """PostgreSQL: a login role of its own with every privilege on the test's schema, whose sessions can be made
    read-only (``ALTER ROLE … SET default_transaction_read_only``) without touching anyone else's."""
    if stores.backend != "postgresql":
        pytest.skip("a PostgreSQL role")
    role = f"clerk_ro_{uuid.uuid4().hex[:12]}"
    schema = stores.options["connect_args"]["server_settings"]["search_path"]
    admin = make_engine(POSTGRES_URL)
    async with admin.begin() as connection:
        await connection.execute(text(f'CREATE ROLE "{role}" LOGIN'))
        await connection.execute(text(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"'))
        await connection.execute(text(f'GRANT ALL ON ALL TABLES IN SCHEMA "{schema}" TO "{role}"'))
        await connection.execute(text(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA "{schema}" TO "{role}"'))
    try:
        yield role
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP OWNED BY "{role}"'))
            await connection.execute(text(f'DROP ROLE "{role}"'))
        await admin.dispose()


async def test_a_read_only_postgresql_database_refuses_and_new_sessions_write_once_it_is_writable(
        stores: Any, read_only_role: str) -> None:
    store = await stores()  # set up as the owner; the ballots go through the role's own engine below
    from sqlalchemy.engine import make_url

    url = make_url(stores.url).set(username=read_only_role).render_as_string(hide_password=False)
    engine = make_engine(url, **stores.options)
    clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RecordingDice())
    notices: list[StorageNotice] = []
    clerk.storage.listen(notices.append)
    admin = make_engine(POSTGRES_URL)
    try:
        async def vote(user: int, n: int) -> Any:
            return await clerk.landsdraad.ballots.cast_ballot(store.game_id, user_id=user,
                                                              command=parse_ballot("Vote: Aye"),
                                                              received_at=clerk.clock.now(), source_id=f"ro-{n}")

        await vote(101, 1)  # the role writes; its session is in the pool
        async with admin.begin() as connection:
            await connection.execute(text(f'ALTER ROLE "{read_only_role}" SET default_transaction_read_only = on'))
            # The pooled session started before the change: end it, as a restart of the server or a failover does.
            await connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                          "WHERE usename = :role"), {"role": read_only_role})
        with pytest.raises(StorageFault) as lost:  # the terminated session is found lost, and the ballot run
            await vote(102, 2)  # again on a new one (play-test V5.2), which the server opens read-only
        assert lost.value.kind == READ_ONLY
        with pytest.raises(StorageFault) as refused:
            await vote(102, 3)
        assert refused.value.kind == READ_ONLY
        async with admin.begin() as connection:
            await connection.execute(text(f'ALTER ROLE "{read_only_role}" RESET default_transaction_read_only'))
        # The pooled session is still read-only (a session keeps the setting it began with): without reopening the
        # connections this ballot would be refused too.
        receipt = await vote(102, 4)
        assert receipt.option == "aye"
        assert [n.failing for n in notices] == [True, False]
    finally:
        await engine.dispose()
        await admin.dispose()
    assert len(await store.ballots()) == 2


# -- another writer holding the lock --------------------------------------------------------------------------------

async def hold_write_lock(stores: Any, store: Store) -> Any:
    """Another writer holding the game's write lock (SQLite: ``BEGIN IMMEDIATE`` on its own connection; PostgreSQL:
    the game's row ``FOR UPDATE`` in an open transaction). Returns an async ``release``."""
    if stores.backend == "sqlite":
        other = sqlite3.connect(str(store.engine.url.database), isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")

        async def release_sqlite() -> None:
            other.execute("COMMIT")
            other.close()

        return release_sqlite
    engine = make_engine(stores.url, **stores.options)
    connection = await engine.connect()
    transaction = await connection.begin()
    await connection.execute(text("SELECT id FROM games WHERE id = :g FOR UPDATE"), {"g": store.game_id})

    async def release_postgres() -> None:
        await transaction.commit()
        await connection.close()
        await engine.dispose()

    return release_postgres


async def test_a_lock_held_past_the_wait_refuses_the_ballot_and_the_next_one_is_recorded(stores: Any) -> None:
    store = await stores(write_wait=timedelta(milliseconds=200))
    release = await hold_write_lock(stores, store)
    try:
        with pytest.raises(StorageFault) as refused:
            await asyncio.wait_for(store.vote(101), 60)  # the bound only catches a hang (no lock_timeout at all)
        assert refused.value.kind == BUSY
        assert store.told() == [(store.game_id, True, BUSY)]
    finally:
        await release()
    assert (await store.vote(101)).option == "aye"
    assert len(await store.ballots()) == 1
    assert [failing for _, failing, _ in store.told()] == [True, False]


async def waiting_for_the_lock(stores: Any, store: Store) -> None:
    """Until the ballot's transaction waits for the other writer's lock (the event, not a time). SQLite: the twin
    is about to run ``BEGIN IMMEDIATE`` (the statement that waits); PostgreSQL: the server shows the session
    waiting on a lock (the ballot's optimistic write, which updates the game's row, or a locked read)."""
    if stores.backend == "sqlite":
        started = asyncio.Event()
        loop = asyncio.get_running_loop()
        twin = store.clerk._twin
        assert twin is not None

        def about_to_begin(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if statement == "BEGIN IMMEDIATE":
                loop.call_soon_threadsafe(started.set)

        event.listen(twin, "before_cursor_execute", about_to_begin)
        await asyncio.wait_for(started.wait(), 60)
        return
    watcher = make_engine(stores.url, **stores.options)
    try:
        async with watcher.connect() as connection:
            for _ in range(6000):  # a bound that only catches a hang; each look is a round trip to the server
                found = await connection.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database() "
                    "AND (query LIKE '%FOR UPDATE%' OR query LIKE '%UPDATE games%')"))
                if found.scalar_one():
                    return
                await connection.rollback()
                await asyncio.sleep(0.01)
        raise AssertionError("the ballot never waited for the lock")
    finally:
        await watcher.dispose()


async def test_a_lock_released_within_the_wait_lets_the_ballot_through(stores: Any) -> None:
    store = await stores(write_wait=timedelta(seconds=120))  # a bound the test never reaches
    await store.vote(102)  # the ballot path's connection is open (a running bot's is), so the wait is at BEGIN
    release = await hold_write_lock(stores, store)
    task = asyncio.create_task(store.vote(101))
    await waiting_for_the_lock(stores, store)
    assert not task.done()
    await release()
    receipt = await asyncio.wait_for(task, 60)
    assert receipt.option == "aye"
    assert len(await store.ballots()) == 2
    assert store.notices == []


async def test_a_ballot_cancelled_while_it_waits_for_the_lock_gives_its_connection_back(stores: Any) -> None:
    """The caller gone mid-unit (its DM task cancelled while its statement waits for another writer's lock): the
    connection it had goes back usable (or closed), the next ballots are recorded, and the cancelled one counts
    at most once. PostgreSQL: its unit runs in one greenlet that
    checks the connection out and returns it (``ServiceBase._connection_unit``); SQLite: the twin's worker thread
    finishes the transaction it had begun."""
    store = await stores(write_wait=timedelta(seconds=120))  # a bound the test never reaches
    await store.vote(102)
    release = await hold_write_lock(stores, store)
    task = asyncio.create_task(store.vote(101))
    try:
        await waiting_for_the_lock(stores, store)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        await release()
    receipt = await asyncio.wait_for(store.vote(101, "Nay"), 60)
    assert receipt.option == "nay"
    assert store.engine.sync_engine.pool.checkedout() == 0
    recorded = await store.ballots()
    assert len(recorded) in (2, 3) and len({payload for _, payload in recorded}) == len(recorded)
    assert (await store.vote(102, "Nay")).option == "nay"  # and the connections still work


async def test_the_wait_bound_is_the_setting_on_every_connection(stores: Any) -> None:
    store = await stores(write_wait=timedelta(seconds=7))
    async with store.engine.connect() as connection:
        if stores.backend == "sqlite":
            assert (await connection.execute(text("PRAGMA busy_timeout"))).scalar_one() == 7000
        else:
            assert (await connection.execute(text("SHOW lock_timeout"))).scalar_one() == "7s"
    if store.clerk._twin is not None:
        with store.clerk._twin.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 7000


def test_the_default_wait_is_thirty_seconds() -> None:
    from engine.store.database import WRITE_WAIT, write_wait_ms

    assert timedelta(seconds=30) == WRITE_WAIT
    assert write_wait_ms(make_engine("sqlite+aiosqlite:///:memory:")) == 30_000


# -- a real full file system ----------------------------------------------------------------------------------------

@pytest.fixture
def small_file_system(tmp_path: Path) -> Any:
    """A 4 MB tmpfs mounted under tmp_path (root only); skipped where mounting is not permitted."""
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    folder = tmp_path / "small"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True,
                          check=False)
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


async def test_a_really_full_file_system_refuses_the_ballot_and_it_is_recorded_once_there_is_room(
        small_file_system: Path, sqlite_template: Path) -> None:
    path = small_file_system / "clerk.db"
    shutil.copyfile(sqlite_template, path)
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RecordingDice())
        game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="sirius", ruleset="landsdraad",
                                             moderator_role_id=None, actor=MOD)
        for user in range(101, 131):
            await clerk.landsdraad.ledger.add_player(game.id, user_id=user, name=f"p{user}", diplomacy=3,
                                                     command=2, intrigue=1, roll=1, faction=None, actor=MOD)
        await clerk.landsdraad.rounds.open_round(game.id, crisis="Piracy", deadline=None, actor=MOD)
        notices: list[StorageNotice] = []
        clerk.storage.listen(notices.append)
        filler = small_file_system / "filler"
        try:
            with open(filler, "wb") as out:
                while True:
                    out.write(b"\0" * 4096)
                    out.flush()
        except OSError:  # No space left on device (raised again by the close)
            pass
        refused = 0
        for n, user in enumerate(range(101, 131)):  # some may fit in pages already there; the disk fills
            try:
                await clerk.landsdraad.ballots.cast_ballot(game.id, user_id=user,
                                                           command=parse_ballot("Vote: Aye " + "x" * 0),
                                                           received_at=clerk.clock.now(), source_id=f"full-{n}")
            except StorageFault as fault:
                assert fault.kind in (FULL, IO)
                refused += 1
        assert refused, "the full file system refused no ballot"
        assert [n.failing for n in notices] == [True]
        filler.unlink()
        receipt = await clerk.landsdraad.ballots.cast_ballot(game.id, user_id=101, command=parse_ballot("Vote: Nay"),
                                                             received_at=clerk.clock.now(), source_id="full-after")
        assert receipt.option == "nay"
        assert [n.failing for n in notices] == [True, False]
    finally:
        await engine.dispose()


# -- the deadline scheduler -----------------------------------------------------------------------------------------

async def test_a_round_due_while_the_disk_is_full_closes_at_the_first_pass_after_with_no_traceback_logged(
        stores: Any, caplog: pytest.LogCaptureFixture) -> None:
    from bot.actions.commands import App
    from bot.discord.scheduler import DeadlineScheduler

    store = await stores()
    clerk = store.clerk
    await clerk.landsdraad.rounds.close_round(store.game_id, actor=MOD)
    await clerk.landsdraad.rounds.open_round(store.game_id, crisis="Levy",
                                             deadline=clerk.clock.now() + timedelta(minutes=5), actor=MOD)
    delivered: list[Any] = []

    async def deliver(out: Any) -> None:
        delivered.extend(out)

    scheduler = DeadlineScheduler(App(clerk), deliver)
    await scheduler.tick()  # the first pass announces round 1's result (closed above, never posted)
    delivered.clear()
    caplog.clear()
    clerk.clock.advance(timedelta(minutes=5))  # type: ignore[attr-defined]
    faults = injected(store)
    faults.arm("full")
    caplog.set_level(logging.WARNING)
    assert await scheduler.tick() == scheduler.retry_after  # due, not closed: looked at again soon
    assert delivered == []
    assert [r.exc_info for r in caplog.records if r.name.startswith("clerk")] == [None]  # one line, no traceback
    assert store.told() == [(store.game_id, True, FULL)]

    faults.disarm()
    await scheduler.tick()
    assert any(o.card is not None and "round 2" in o.card.title for o in delivered)
    assert [failing for _, failing, _ in store.told()] == [True, False]
