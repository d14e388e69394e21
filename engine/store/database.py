"""The async database engine: SQLite (WAL, foreign keys, busy timeout) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

DEFAULT_URL = "sqlite+aiosqlite:///clerk.db"
BUSY_TIMEOUT_MS = 5000


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str = DEFAULT_URL, **kwargs: Any) -> AsyncEngine:
    if not (is_sqlite(url) or url.startswith("postgresql+asyncpg")):
        scheme = url.split(":")[0]
        raise ValueError(f"DATABASE_URL must be sqlite+aiosqlite:///… or postgresql+asyncpg://…, not {scheme}")
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            apply_pragmas(dbapi_connection, in_memory=":memory:" in url)

    return engine


def apply_pragmas(dbapi_connection: Any, *, in_memory: bool) -> None:
    """The project's SQLite pragmas: WAL (a file), foreign keys, a busy timeout, synchronous=NORMAL."""
    cursor = dbapi_connection.cursor()
    if not in_memory:
        cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
