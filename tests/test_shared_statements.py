"""tests/shared_statements.py: the engines of a test process share their compiled statements, and only the engines
whose dialects compile alike do."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import shared_statements
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from engine.store.database import make_engine
from engine.store.models import Game
from engine.store.twin import close_twin, sync_twin


async def test_a_second_engine_compiles_nothing_the_first_compiled(tmp_path: Path) -> None:
    statement = select(Game.id, Game.name).where(Game.name == "a statement of this test alone")
    stats = []
    for n in range(2):
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / f'{n}.db'}")
        try:
            async with engine.connect() as connection:
                await connection.run_sync(lambda c: Game.metadata.create_all(c, tables=[Game.__table__]))
                result = await connection.execute(statement)
                stats.append(result.context.cache_hit.name)
        finally:
            await engine.dispose()
    assert stats == ["CACHE_MISS", "CACHE_HIT"]


async def test_the_sqlite_twins_share_their_statements_but_not_with_the_async_engine(tmp_path: Path) -> None:
    statement = select(Game.id).where(Game.name == "the twin's statement")
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda c: Game.metadata.create_all(c, tables=[Game.__table__]))
            first = (await connection.execute(statement)).context.cache_hit.name
        seen = []
        for _ in range(2):  # two twins, as two tests' engines have: the second compiles nothing
            twin = sync_twin(engine)
            assert twin is not None
            with twin.connect() as connection:
                seen.append(connection.execute(statement).context.cache_hit.name)
            close_twin(twin)
    finally:
        await engine.dispose()
    assert (first, *seen) == ("CACHE_MISS", "CACHE_MISS", "CACHE_HIT")  # pysqlite and aiosqlite: two dialects


def test_engines_whose_dialects_differ_share_nothing() -> None:
    plain = create_engine("sqlite://")
    shared_statements.share(plain)
    other = create_engine("sqlite://", label_length=20)
    shared_statements.share(other)
    statement = select(text("1 AS a_label_of_some_length"))
    try:
        with plain.connect() as connection:
            first = connection.execute(statement).context.cache_hit.name
        with other.connect() as connection:
            second = connection.execute(statement).context.cache_hit.name
        with plain.connect() as connection:
            third = connection.execute(statement).context.cache_hit.name
    finally:
        plain.dispose()
        other.dispose()
    assert (first, second, third) == ("CACHE_MISS", "CACHE_MISS", "CACHE_HIT")


async def test_a_second_engines_flush_compiles_no_insert_the_first_compiled(tmp_path: Path) -> None:
    """The ORM's INSERT of a flush, compiled into the mapper's cache: the second engine finds it compiled (the first
    may too: another test of this process may have flushed a Game already)."""
    seen: list[str] = []

    def inserted(conn: object, cursor: object, statement: str, parameters: object, context: object,
                 executemany: bool) -> None:
        if statement.startswith("INSERT INTO games"):
            seen.append(context.cache_hit.name)  # type: ignore[attr-defined]

    for n in range(2):
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / f'{n}.db'}")
        event.listen(engine.sync_engine, "after_cursor_execute", inserted)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: Game.metadata.create_all(c, tables=[Game.__table__]))
            async with AsyncSession(engine) as session, session.begin():
                session.add(Game(guild_id=1, channel_id=2, name="flushed", ruleset="landsdraad",
                                 created_at=datetime(2026, 3, 1, tzinfo=UTC)))
        finally:
            await engine.dispose()
    assert len(seen) == 2 and seen[1] == "CACHE_HIT", seen
