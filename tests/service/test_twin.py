"""The ballot's hot path on SQLite runs on a synchronous twin of the database file (engine/store/twin.py): one
thread hop for the whole transaction. The twin exists for a file, not for PostgreSQL or an in-memory database, and
it is closed with the async engine, so that a copy of the file alone has every ballot (SQLite folds its WAL into
the file only when the last connection closes)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from conftest import Table
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine
from engine.store.twin import sync_twin


def test_a_twin_only_for_a_sqlite_file(db_engine: AsyncEngine) -> None:
    assert (sync_twin(db_engine) is not None) == (db_engine.dialect.name == "sqlite")
    assert sync_twin(make_engine("sqlite+aiosqlite:///:memory:")) is None


async def test_ballots_written_by_the_twin_are_in_the_file_once_the_engine_is_disposed(
        table: Table, tmp_path: Path) -> None:
    if table.engine.dialect.name != "sqlite":
        return  # a PostgreSQL database has no file to copy; the ballot path there is run_sync (test_service_*)
    await table.player(101, "Alice", 4, 2, 2)
    await table.player(102, "Bob", 2, 3, 1)
    await table.open()
    await table.vote(101, "Vote: Aye")
    await table.vote(102, "Vote: Nay")
    assert table.clerk._twin is not None  # the ballots went through it
    database = Path(str(table.engine.url.database))
    await table.engine.dispose()
    copy = tmp_path / "copy.db"
    shutil.copyfile(database, copy)  # the file alone, no -wal
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT count(*) FROM ballots").fetchone() == (2,)


async def test_the_engine_and_its_twin_write_json_alike(tmp_path: Path) -> None:
    """Both write a JSON column with ``JSON_SERIALIZER`` (orjson, ``json`` where orjson refuses): text that
    ``json.loads`` reads back as the value written, so events written by either read back the same."""
    import json

    from engine.store.database import JSON_SERIALIZER

    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'j.db'}")
    try:
        twin = sync_twin(engine)
        assert twin is not None
        assert engine.dialect._json_serializer is JSON_SERIALIZER  # type: ignore[attr-defined]
        assert twin.dialect._json_serializer is JSON_SERIALIZER  # type: ignore[attr-defined]
        payload = {"round": 3, "weights": [{"user_id": 7, "name": "Zoë \"z\"", "votes": 12, "ballot": None}]}
        assert json.loads(JSON_SERIALIZER(payload)) == payload
    finally:
        await engine.dispose()
