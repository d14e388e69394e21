"""A new SQLite database is made at the head from migrations/sqlite_head.sql (engine/store/fresh.py, issue 20): the
script is what the migrations build, a database made from it is the migrated one, and a stale script is never used."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.store import database, fresh
from engine.store.database import make_engine
from engine.store.migrate import head_revision, upgrade

PRAGMAS = ("user_version", "application_id", "auto_vacuum", "encoding", "page_size", "journal_mode", "freelist_count")


def _migrate(path: Path, **options: Any) -> None:
    async def go() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        try:
            await upgrade(engine, **options)
        finally:
            await engine.dispose()

    asyncio.run(go())


def _content(path: Path) -> dict[str, Any]:
    """Everything of a database but where SQLite put it: its schema's text (a table's constraints in
    ``fresh.canonical`` order: Alembic's batch operations order them anew each run), its pragmas, every table's
    rows."""
    with sqlite3.connect(path) as connection:
        schema = sorted((kind, name, table, fresh.canonical(sql) if kind == "table" else sql)
                        for kind, name, table, sql in connection.execute(
                            "SELECT type, name, tbl_name, sql FROM sqlite_master"))
        pragmas = {name: connection.execute(f"PRAGMA {name}").fetchone() for name in PRAGMAS}
        rows = {name: sorted(connection.execute(f'SELECT * FROM "{name}"'), key=repr)
                for kind, name, _table, _sql in schema if kind == "table"}
    connection.close()
    return {"schema": schema, "pragmas": pragmas, "rows": rows}


def test_the_script_is_what_the_migrations_build_now(tmp_path: Path) -> None:
    _migrate(tmp_path / "migrated.db", use_script=False)
    with sqlite3.connect(tmp_path / "migrated.db") as connection:
        built = fresh.dump(connection, head_revision() or "")
    connection.close()
    assert fresh.SCRIPT.read_text(encoding="utf-8") == built, (
        "migrations/sqlite_head.sql is not what the migrations build: write it again with "
        "`.venv/bin/python -m engine.store.fresh` after adding or changing a migration")


def test_a_database_made_from_the_script_is_the_one_the_migrations_make(tmp_path: Path) -> None:
    _migrate(tmp_path / "migrated.db", use_script=False)
    _migrate(tmp_path / "made.db")
    migrated, made = _content(tmp_path / "migrated.db"), _content(tmp_path / "made.db")
    assert made == migrated
    assert len(made["schema"]) > 50 and made["rows"]["alembic_version"] == [(head_revision(),)]


def test_a_new_database_is_made_without_alembic_and_is_at_the_head(tmp_path: Path) -> None:
    """The script, not Alembic: a new database at the head in a process that never imported Alembic."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}"
    script = ("import asyncio, sys\n"
              "from engine.store.database import make_engine\n"
              "from engine.store.migrate import upgrade\n"
              f"asyncio.run(upgrade(make_engine({url!r})))\n"
              "print('alembic' in sys.modules)\n")
    started = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert started.stdout.strip() == "False", started.stdout + started.stderr
    assert _content(tmp_path / "clerk.db")["rows"]["alembic_version"] == [(head_revision(),)]


def test_a_script_older_than_the_newest_migration_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration added without writing the script again: new databases are migrated by Alembic, not made at the
    head with an older schema (the script here has a table no migration makes, and would show if it ran)."""
    stale = tmp_path / "stale.sql"
    stale.write_text("-- revision: 0001\nCREATE TABLE made_by_the_script (x INTEGER);\n", encoding="utf-8")
    monkeypatch.setattr(fresh, "SCRIPT", stale)
    _migrate(tmp_path / "clerk.db")
    _migrate(tmp_path / "migrated.db", use_script=False)
    assert _content(tmp_path / "clerk.db") == _content(tmp_path / "migrated.db")
    stale.write_text(f"-- revision: {head_revision()}\nCREATE TABLE made_by_the_script (x INTEGER);\n"
                     f"CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL);\n"
                     f"INSERT INTO alembic_version VALUES('{head_revision()}');\n", encoding="utf-8")
    _migrate(tmp_path / "scripted.db")  # the check is not vacuous: a script at the head is used
    assert [row[1] for row in _content(tmp_path / "scripted.db")["schema"]] == ["alembic_version",
                                                                              "made_by_the_script"]


def test_two_processes_making_the_same_new_database_make_it_once(tmp_path: Path) -> None:
    """Two starts on one new file at once: the write lock lets one make it; the other finds it at the head."""
    path = tmp_path / "clerk.db"

    async def both() -> None:
        engines = [make_engine(f"sqlite+aiosqlite:///{path}") for _ in range(2)]
        try:
            await asyncio.wait_for(asyncio.gather(*(upgrade(engine) for engine in engines)), 60)
        finally:
            for engine in engines:
                await engine.dispose()

    asyncio.run(both())
    _migrate(tmp_path / "migrated.db", use_script=False)
    assert _content(path) == _content(tmp_path / "migrated.db")


def test_a_database_with_something_in_it_is_left_to_alembic(tmp_path: Path) -> None:
    """Only an empty database is made from the script: one at an older revision is migrated from there."""
    path = tmp_path / "clerk.db"

    async def older_then_head() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        try:
            await upgrade(engine, "0017")
            await upgrade(engine)
        finally:
            await engine.dispose()

    asyncio.run(older_then_head())
    _migrate(tmp_path / "migrated.db", use_script=False)
    assert _content(path) == _content(tmp_path / "migrated.db")


def test_statements_are_split_as_sqlite_reads_them() -> None:
    revision, found = fresh.statements("-- revision: 0042\n\nCREATE TABLE a (x TEXT DEFAULT 'a;\n\nb');\n"
                                       "-- a comment\nINSERT INTO a VALUES('1;2');\n")
    assert revision == "0042"
    assert found == ["CREATE TABLE a (x TEXT DEFAULT 'a;\n\nb');", "INSERT INTO a VALUES('1;2');"]
    with pytest.raises(ValueError, match="incomplete"):
        fresh.statements("CREATE TABLE a (x TEXT\n")


def test_a_connection_opened_while_another_writes_in_the_rollback_journal_waits_to_switch_to_wal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite refuses ``PRAGMA journal_mode=WAL`` at once ("database is locked", its busy handler not asked) while
    another connection writes in the rollback journal, as a second start can meet the first making a new database
    (a fresh-clone make test failed so in the test above): the pragmas try again until the lock is let go."""
    path = tmp_path / "clerk.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE t (x)")
    tried = threading.Event()

    def pause(seconds: float) -> None:  # the first retry's pause: the other writer commits
        if not tried.is_set():
            tried.set()
            holder.execute("COMMIT")

    monkeypatch.setattr(database, "_pause", pause, raising=False)
    other = sqlite3.connect(path, isolation_level=None)
    database.apply_pragmas(other, in_memory=False, busy_ms=10_000)
    assert tried.is_set()
    assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    other.close()
    holder.close()
