"""Where the front ends' tests (replays, e2e) find a migrated database: SQLite, or PostgreSQL (TEST_POSTGRES_URL).

A plain module, not a conftest: ``from conftest import …`` would find whichever conftest.py pytest loaded last."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine
from engine.store.models import Base

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
ON_POSTGRES = pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
"""A test that needs the PostgreSQL server: run by `make test-postgres` (CI), skipped where none is configured."""
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=ON_POSTGRES,
    ),
]


E2E_BACKEND = os.environ.get("CLERK_TEST_BACKEND", "sqlite")
"""The database the e2e tests and the assertion-carrying replays run on: ``sqlite`` (default) or ``postgresql``
(``CLERK_TEST_BACKEND=postgresql``, needs TEST_POSTGRES_URL). The golden replays run on both whenever
TEST_POSTGRES_URL is set (docs/deploy.md)."""


@dataclass(frozen=True)
class Migrated:
    """A database with every migration applied, for a front end that takes a URL and engine options."""

    url: str
    options: dict[str, Any] = field(default_factory=dict)

    def engine(self) -> AsyncEngine:
        return make_engine(self.url, **self.options)


async def migrated_copy(backend: str, tmp_path: Path, sqlite_template: Path, postgres_schema: str | None) -> Migrated:
    """SQLite: a copy of the template file; PostgreSQL: this process's migrated schema, emptied."""
    if backend == "sqlite":
        path = tmp_path / "clerk.db"
        shutil.copyfile(sqlite_template, path)
        return Migrated(f"sqlite+aiosqlite:///{path}")
    if not POSTGRES_URL or postgres_schema is None:
        pytest.skip("TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
    found = Migrated(POSTGRES_URL, {"connect_args": {"server_settings": {"search_path": postgres_schema}}})
    engine = found.engine()
    await empty_postgres(engine, postgres_schema)
    await engine.dispose()
    return found


_RESETS: dict[str, str] = {}


async def empty_postgres(engine: AsyncEngine, schema: str) -> None:
    """Every table of the (migrated) schema emptied and its id sequences restarted, as a new database has them.
    DELETE, not TRUNCATE: on tables of a few rows TRUNCATE costs ~150 ms a test (it replaces each table's files),
    the DELETEs and setvals ~6 ms, sent as one script."""
    async with engine.begin() as connection:
        script = _RESETS.get(schema)
        if script is None:
            found = await connection.execute(text("SELECT sequence_name FROM information_schema.sequences "
                                                  "WHERE sequence_schema = current_schema()"))
            sequences = ", ".join(f"setval('\"{name}\"', 1, false)" for name in found.scalars())
            deletes = [f'DELETE FROM "{t.name}"' for t in reversed(Base.metadata.sorted_tables)]
            script = _RESETS[schema] = "; ".join([*deletes, *([f"SELECT {sequences}"] if sequences else [])])
        raw = await connection.get_raw_connection()
        await raw.driver_connection.execute(script)  # type: ignore[union-attr]
