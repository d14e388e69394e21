"""A lone DM ballot on a SQLite file is written on the event loop's own thread when it can begin at once
(``short_units``, ``twin.turn_connection_now``; issue 20): the hop to the worker thread and back cost about as much
as a third of the transaction. It never waits there: when another connection holds the write lock, or the kept
connection is busy in a worker thread, it is written in the worker thread as before, where SQLite's busy handler
may wait. Batches of more than one ballot (a burst) stay in the worker thread."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.roster import RosterRow
from engine.store.database import make_engine, make_sessionmaker
from engine.store.twin import WouldWait, close_twin, turn_connection, turn_connection_now

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


async def _clerk(sqlite_template: Path, tmp_path: Path, wait: timedelta) -> tuple[Clerk, Any, int, Path]:
    path = tmp_path / "clerk.db"
    shutil.copyfile(sqlite_template, path)
    engine = make_engine(f"sqlite+aiosqlite:///{path}", write_wait=wait)
    clerk = Clerk(make_sessionmaker(engine), ManualClock(T0), RandomDice(1))
    game = await clerk.games.create_game(guild_id=1, channel_id=100, name="g", ruleset="landsdraad",
                                         moderator_role_id=None, actor=None)
    await clerk.landsdraad.roster.add_players(
        game.id, [RosterRow(u, f"p{u}", diplomacy=2, command=1, intrigue=1, roll=2) for u in (7, 8, 9)], actor=None)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Levy?", deadline=None, actor=None)
    return clerk, engine, game.id, path


def _vote(clerk: Clerk, game_id: int, user_id: int, text: str = "Vote: Aye") -> Any:
    return clerk.landsdraad.ballots.cast_ballot(game_id, user_id=user_id, command=parse_ballot(text), received_at=T0,
                                                source_id=f"msg:{user_id}-{text}")


async def test_a_lone_ballot_is_written_on_the_loop_thread_and_a_batch_in_the_worker(sqlite_template: Path,
                                                                                       tmp_path: Path) -> None:
    clerk, engine, game_id, path = await _clerk(sqlite_template, tmp_path, timedelta(seconds=30))
    try:
        twin = clerk._twin
        assert twin is not None
        began: list[int] = []
        committed: list[int] = []
        event.listen(twin, "begin", lambda _c: began.append(threading.get_ident()))
        event.listen(twin, "commit", lambda _c: committed.append(threading.get_ident()))
        loop_thread = threading.get_ident()

        assert (await _vote(clerk, game_id, 7)).option == "aye"
        assert began == committed == [loop_thread]

        began.clear()
        committed.clear()
        both = await asyncio.gather(_vote(clerk, game_id, 8, "Vote: Nay"), _vote(clerk, game_id, 9, "Vote: Nay"))
        assert [r.option for r in both] == ["nay", "nay"]
        assert len(began) == len(committed) == 1, "the two in one batch, one transaction"
        assert began[0] != loop_thread, "a batch of two is written in a worker thread"
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM ballots").fetchone() == (3,)
            assert db.execute("SELECT count(*) FROM events WHERE kind = 'BallotCast'").fetchone() == (3,)
    finally:
        await engine.dispose()


async def test_a_lone_ballot_never_waits_for_the_write_lock_on_the_loop(sqlite_template: Path,
                                                                         tmp_path: Path) -> None:
    """Another connection (another process) holds SQLite's write lock: the ballot's ``BEGIN IMMEDIATE`` on the
    loop's thread is refused at once (no busy wait there), the ballot waits for the lock in the worker thread while
    the loop goes on turning, and is recorded once the lock is let go; the kept connection's busy timeout is the
    setting again."""
    clerk, engine, game_id, path = await _clerk(sqlite_template, tmp_path, timedelta(seconds=120))
    try:
        twin = clerk._twin
        assert twin is not None
        await _vote(clerk, game_id, 8)  # the kept connection is open, as in a running bot
        tried: list[int] = []
        waiting = asyncio.Event()
        loop = asyncio.get_running_loop()

        def about_to_begin(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            if statement == "BEGIN IMMEDIATE":
                tried.append(threading.get_ident())
                if len(tried) == 2:  # the second try, in the worker thread, is the one that waits
                    loop.call_soon_threadsafe(waiting.set)

        event.listen(twin, "before_cursor_execute", about_to_begin)
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        try:
            ballot = asyncio.ensure_future(_vote(clerk, game_id, 7))
            await asyncio.wait_for(waiting.wait(), 60)
            turned = 0
            for _ in range(20):  # the loop is not held up by the ballot waiting for the lock
                await asyncio.sleep(0.005)
                turned += 1
            assert turned == 20 and not ballot.done()
        finally:
            other.execute("COMMIT")
            other.close()
        assert (await asyncio.wait_for(ballot, 60)).option == "aye"
        assert tried[0] == threading.get_ident() and tried[1] != tried[0]
        with turn_connection(twin) as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 120_000
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM ballots").fetchone() == (2,)
    finally:
        await engine.dispose()


def test_turn_connection_now_does_not_wait_for_a_worker_thread_or_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    twin = create_engine(f"sqlite:///{path}", connect_args={"timeout": 5, "isolation_level": None})

    @event.listens_for(twin, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        with turn_connection_now(twin) as connection:
            connection.execute(text("CREATE TABLE t (x INTEGER)"))
            connection.execute(text("INSERT INTO t VALUES (1)"))
        inside, release = threading.Event(), threading.Event()

        def hold() -> None:
            with turn_connection(twin):
                inside.set()
                release.wait(30)

        worker = threading.Thread(target=hold)
        worker.start()
        assert inside.wait(30)
        with pytest.raises(WouldWait), turn_connection_now(twin):
            raise AssertionError("never entered: the kept connection is in the worker thread")
        release.set()
        worker.join(30)

        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(WouldWait), turn_connection_now(twin):
                raise AssertionError("never entered: another connection holds the write lock")
        finally:
            other.execute("ROLLBACK")
            other.close()
        with turn_connection_now(twin) as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 5000
            connection.execute(text("INSERT INTO t VALUES (2)"))
        with pytest.raises(ZeroDivisionError), turn_connection_now(twin) as connection:
            connection.execute(text("INSERT INTO t VALUES (3)"))
            raise ZeroDivisionError  # rolled back
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT x FROM t ORDER BY x").fetchall() == [(1,), (2,)]
    finally:
        close_twin(twin)



async def test_the_wal_is_checkpointed_in_the_worker_thread_never_on_the_loop(sqlite_template: Path, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite checkpoints the WAL (and syncs the file) inside the COMMIT that finds it long: on the loop's thread
    that would hold every DM. The twin's connections make no automatic checkpoint; every ``CHECKPOINT_EVERY``
    turns the next one is left to the worker thread, which checkpoints after it."""
    from engine.store import twin as twin_module

    monkeypatch.setattr(twin_module, "CHECKPOINT_EVERY", 4)
    made: list[int] = []
    original = twin_module.checkpoint

    def recorded(held: Any) -> None:
        made.append(threading.get_ident())
        original(held)

    monkeypatch.setattr(twin_module, "checkpoint", recorded)
    clerk, engine, game_id, path = await _clerk(sqlite_template, tmp_path, timedelta(seconds=30))
    try:
        twin = clerk._twin
        assert twin is not None
        committed: list[int] = []
        event.listen(twin, "commit", lambda _c: committed.append(threading.get_ident()))
        loop_thread = threading.get_ident()
        for n in range(12):
            cast = await clerk.landsdraad.ballots.cast_ballot(
                game_id, user_id=7 + n % 3, command=parse_ballot("Vote: Aye" if n % 2 else "Vote: Nay"),
                received_at=T0, source_id=f"msg:wal-{n}")
            assert cast.option in ("aye", "nay")
        assert len(committed) == 12
        assert made, "the WAL was checkpointed"
        assert loop_thread not in made, "never on the event loop's thread"
        assert committed.count(loop_thread) >= 8, "the other lone ballots were still written on the loop"
        with turn_connection(twin) as held:
            raw: Any = held.connection.driver_connection
            assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM events WHERE kind = 'BallotCast'").fetchone() == (12,)
    finally:
        await engine.dispose()
