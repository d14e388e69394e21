"""SQLite statements through the async engine take one hop to aiosqlite's thread each (engine.store.one_hop), and
behave as SQLAlchemy's own aiosqlite cursor: rows, rowcount, lastrowid, executemany, errors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, exc, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine

META = MetaData()
THINGS = Table("things", META, Column("id", Integer, primary_key=True), Column("name", String, unique=True))


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    made = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
    async with made.begin() as connection:
        await connection.run_sync(META.create_all)
    try:
        yield made
    finally:
        await made.dispose()


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each function aiosqlite ran on its thread."""
    seen: list[str] = []
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(getattr(fn, "__name__", repr(fn)))
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return seen


async def test_a_statement_is_one_hop_to_aiosqlites_thread(engine: AsyncEngine, hops: list[str]) -> None:
    async with engine.connect() as connection:
        await connection.execute(text("SELECT 1"))  # the pool's first checkout and its BEGIN, out of the count
        hops.clear()
        rows = (await connection.execute(select(THINGS))).all()
        read = len(hops)
        await connection.execute(insert(THINGS).values(name="a"))
        written = len(hops) - read
    assert rows == []
    # SQLAlchemy's own cursor: open a cursor, execute, fetch the rows, close it: four hops for the read, three for
    # the write
    assert (read, written) == (1, 1), hops


async def test_a_connection_given_back_with_nothing_to_roll_back_takes_no_hop(engine: AsyncEngine,
                                                                           hops: list[str]) -> None:
    async with engine.connect() as connection:  # warm the pool
        await connection.execute(select(THINGS))
    hops.clear()
    async with engine.connect() as connection:
        await connection.execute(select(THINGS))
    assert hops == ["_execute"]  # the read; the pool's reset on return rolled back nothing (SQLAlchemy's: a hop)
    hops.clear()
    async with engine.connect() as connection:
        await connection.execute(insert(THINGS).values(name="a"))  # the sqlite3 module began a transaction
    assert hops == ["_execute", "rollback"]
    async with engine.connect() as connection:
        assert (await connection.execute(select(THINGS))).all() == []  # rolled back


async def test_rows_rowcount_lastrowid_and_executemany_are_the_drivers(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        first = await connection.execute(insert(THINGS).values(name="a"))
        assert first.inserted_primary_key == (1,)  # from lastrowid
        await connection.execute(insert(THINGS), [{"name": "b"}, {"name": "c"}, {"name": "d"}])  # executemany
        returned = (await connection.execute(insert(THINGS).values(name="e").returning(THINGS.c.id))).scalar_one()
        assert returned == 5
        changed = await connection.execute(update(THINGS).where(THINGS.c.id > 2).values(name=THINGS.c.name + "!"))
        assert changed.rowcount == 3
        assert (await connection.execute(select(THINGS.c.name).order_by(THINGS.c.id))).scalars().all() == [
            "a", "b", "c!", "d!", "e!"]
        none = await connection.execute(select(THINGS).where(THINGS.c.id == 99))
        assert none.keys() == ["id", "name"]  # the description of a read with no rows
        assert none.all() == []


async def test_an_error_is_sqlalchemys_and_the_connection_goes_on(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        await connection.execute(insert(THINGS).values(name="a"))
        with pytest.raises(exc.IntegrityError):
            await connection.execute(insert(THINGS).values(name="a"))
        await connection.rollback()
        with pytest.raises(exc.OperationalError, match="no such table"):
            await connection.execute(text("SELECT * FROM nothing_here"))
        await connection.rollback()
        await connection.execute(insert(THINGS).values(name="b"))
        await connection.commit()
    async with engine.connect() as connection:
        assert (await connection.execute(select(THINGS.c.name))).scalars().all() == ["b"]
