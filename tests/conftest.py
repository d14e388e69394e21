"""Shared fixtures: a fresh, isolated database on SQLite (always) and PostgreSQL (when TEST_POSTGRES_URL is set).

``database`` is empty (for migration tests); ``db_engine`` has the migrations applied. Each PostgreSQL test
gets its own schema (``search_path`` set per connection) that is dropped afterwards, so runs never collide.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine
from engine.store.migrate import upgrade

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped"),
    ),
]


@dataclass(frozen=True)
class Database:
    """Where a test's database lives: a URL plus the engine arguments that isolate it."""

    backend: str
    url: str
    engine_kwargs: dict[str, Any] = field(default_factory=dict)

    def engine(self) -> AsyncEngine:
        return make_engine(self.url, **self.engine_kwargs)


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        yield Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")
        return
    schema = f"clerk_test_{uuid.uuid4().hex[:16]}"
    admin = make_engine(POSTGRES_URL)
    try:
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield Database(
            "postgresql", POSTGRES_URL, {"connect_args": {"server_settings": {"search_path": schema}}}
        )
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
async def db_engine(database: Database) -> AsyncIterator[AsyncEngine]:
    """A fresh database of either backend with every migration applied."""
    engine = database.engine()
    try:
        await upgrade(engine)
        yield engine
    finally:
        await engine.dispose()
