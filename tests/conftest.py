"""Shared fixtures: a fresh, isolated database on SQLite (always) and PostgreSQL (when TEST_POSTGRES_URL is set).

``database`` is empty (for migration tests): each PostgreSQL one gets its own schema (``search_path`` set per
connection), dropped afterwards. ``db_engine`` has every migration applied; to keep the suite fast the
migrations run once per test process: on SQLite into a template file that each test copies, on PostgreSQL
into one schema per process whose tables are emptied before each test. Runs never collide.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import shutil
import sys
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import shared_statements
from databases import BACKENDS, POSTGRES_URL, empty_postgres
from hypothesis import settings
from rewrite_once import rewrite_once
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine
from engine.store.migrate import upgrade

shared_statements.install()
"""Every engine of a test process keeps its compiled statements in one cache (tests/shared_statements.py)."""

settings.register_profile("clerk", deadline=None)
settings.load_profile("clerk")
"""Property tests get no per-example time limit: Hypothesis's default 200 ms deadline is a wall-clock assertion,
which fails on a busy machine (both cores loaded) without anything being wrong."""


COLLECTOR_THRESHOLDS = (10_000, 20, 20)
"""The garbage collector's thresholds in a test process (Python's defaults: 700, 10, 10)."""


def pytest_configure(config: pytest.Config) -> None:
    rewrite_once(config)  # before the workers start: tests/rewrite_once.py


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once the tests are collected, what the imports and the collection made is moved out of the garbage
    collector's way (``gc.freeze``, as ``python -m bot`` does after its imports) and young objects are collected
    less often. Each test leaves a large heap behind (ORM objects, matplotlib's figures, discord.py's caches), and
    with the defaults the collector took about 6% of the suite's CPU, most of it in full collections of a heap that
    never changes (a scratch plugin timing ``gc.callbacks``, 2026-12-07: 2.6 s of 42 s of a sample of the suite;
    1.0 s with these settings). Nothing in a test waits for the collector: what a test must see closed is closed."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A pytest-xdist worker whose session has finished leaves at once (``os._exit``) instead of tearing down its
    heap. By then it has sent its last report (``workerfinished``, from the end of ``pytest_sessionfinish``, after
    every fixture's teardown), and the controller reads nothing more from it once every worker has finished. What
    was left took 7-9 s of wall time at the end of every ``make test`` (2026-12-07, two workers, 2,956 tests: the
    last test ended at 169.0 s, the controller at 178.4 s): pytest's two full collections of the worker's heap at
    unconfigure (2-3.5 s) and the interpreter freeing it object by object (about 6 s); 0.4 s with this. A warning
    those collections might find (an exception in a finalizer, ``PytestUnraisableExceptionWarning``) was never
    reported by the last worker to finish anyway: the controller had stopped reading. Not with pytest-cov, whose
    data is written at exit."""
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is None or "exitstatus" not in workeroutput or config.pluginmanager.hasplugin("_cov"):
        return  # not a worker, or one whose session did not finish (the controller must see it end as it does)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


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


async def _migrate(url: str, **kwargs: Any) -> None:
    engine = make_engine(url, **kwargs)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once per test process."""
    path = tmp_path_factory.mktemp("template") / "clerk.db"
    asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
    import sqlite3

    with sqlite3.connect(path) as connection:  # fold the WAL into the file, so copying the file is enough
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture(scope="session")
def postgres_schema() -> Any:
    """One migrated schema per test process (None without TEST_POSTGRES_URL)."""
    if not POSTGRES_URL:
        yield None
        return
    schema = f"clerk_test_{uuid.uuid4().hex[:16]}"

    async def create() -> None:
        admin = make_engine(POSTGRES_URL)
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        await admin.dispose()
        await _migrate(POSTGRES_URL, connect_args={"server_settings": {"search_path": schema}})

    async def drop() -> None:
        admin = make_engine(POSTGRES_URL)
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()

    asyncio.run(create())
    try:
        yield schema
    finally:
        asyncio.run(drop())


@pytest.fixture(params=BACKENDS)
async def db_engine(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                    postgres_schema: str | None) -> AsyncIterator[AsyncEngine]:
    """A fresh database of either backend with every migration applied."""
    if request.param == "sqlite":
        path = tmp_path / "clerk.db"
        shutil.copyfile(sqlite_template, path)
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
    else:
        assert postgres_schema is not None
        engine = make_engine(POSTGRES_URL, connect_args={"server_settings": {"search_path": postgres_schema}})
        await empty_postgres(engine, postgres_schema)
    try:
        yield engine
    finally:
        await engine.dispose()
