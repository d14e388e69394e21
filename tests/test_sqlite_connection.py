"""A SQLite connection closed in the middle of a transaction lets go of the write lock at once
(engine/store/sqlite_connection.py). SQLAlchemy hard-closes a connection whose task was cancelled while it waited on
the database; with a statement not run to its end (an ``INSERT ... RETURNING`` whose row was not fetched: the
deadline lease's upsert), ``sqlite3.Connection.close()`` left the connection a "zombie" holding the write lock until
the garbage collector freed the statement, and every other writer of the file waited out the busy timeout. Seen in
tests/e2e/test_permissions.py with the scheduler cancelled at once (``DeadlineScheduler.stop``'s wait set to 0): 3
closes of 4 waited 30 s; with this connection, 11 of 11 did not."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.store.database import make_engine
from engine.store.sqlite_connection import ReleasingConnection
from engine.store.twin import sync_twin


def _database(tmp_path: Path) -> Path:
    path = tmp_path / "lock.db"
    with sqlite3.connect(path) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT)")
    return path


def _closed_mid_statement(path: Path, factory: type[sqlite3.Connection]) -> sqlite3.Cursor:
    """A connection of ``factory`` that took the write lock with an upsert whose returned row it never read, closed
    (as a hard close does); returns the cursor, which still holds the statement, as a cancelled task's frames do."""
    connection = sqlite3.connect(path, factory=factory)
    cursor = connection.cursor()
    cursor.execute("INSERT INTO leases VALUES ('deadlines', 'vm') ON CONFLICT (name) DO UPDATE SET holder = "
                   "excluded.holder RETURNING holder")
    connection.close()
    return cursor


def _another_writer_writes(path: Path) -> bool:
    other = sqlite3.connect(path, timeout=0.2, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("COMMIT")
        return True
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return False
    finally:
        other.close()


def test_sqlites_own_connection_closed_mid_statement_keeps_the_write_lock(tmp_path: Path) -> None:
    """What the project's connection is for: SQLite's behaviour, which the next test would not test without it."""
    path = _database(tmp_path)
    held = _closed_mid_statement(path, sqlite3.Connection)
    assert not _another_writer_writes(path)
    del held  # the statement is finalized: the zombie connection goes, and its lock with it


def test_the_projects_connection_closed_mid_statement_lets_go_of_the_write_lock(tmp_path: Path) -> None:
    path = _database(tmp_path)
    held = _closed_mid_statement(path, ReleasingConnection)
    assert _another_writer_writes(path)
    with sqlite3.connect(path) as check:  # rolled back: the upsert is not in the file
        assert check.execute("SELECT count(*) FROM leases").fetchone() == (0,)
    del held


def test_a_closed_connection_that_holds_no_transaction_closes_as_before(tmp_path: Path) -> None:
    path = _database(tmp_path)
    connection = sqlite3.connect(path, factory=ReleasingConnection, isolation_level=None)
    connection.execute("INSERT INTO leases VALUES ('a', 'b')")  # autocommit: done and committed
    connection.close()
    connection.close()  # a second close does nothing, as sqlite3's does
    with pytest.raises(sqlite3.ProgrammingError):
        connection.execute("SELECT 1")
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT holder FROM leases").fetchone() == ("b",)


async def test_every_engine_of_the_project_opens_this_connection(tmp_path: Path) -> None:
    path = _database(tmp_path)
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            assert isinstance(raw.driver_connection._conn, ReleasingConnection)  # type: ignore[union-attr]
        twin = sync_twin(engine)
        assert twin is not None
        with twin.connect() as sync:
            assert isinstance(sync.connection.driver_connection, ReleasingConnection)
        twin.dispose()
    finally:
        await engine.dispose()
