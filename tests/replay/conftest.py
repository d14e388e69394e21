"""Replay fixtures: ``replay_db``, a migrated database on SQLite and (when TEST_POSTGRES_URL is set) PostgreSQL,
for the golden transcripts; ``one_db``, one on the backend CLERK_TEST_BACKEND names (SQLite by default); and the
migrated SQLite file that ``run_transcript`` copies when it is given no database (``helpers.MIGRATED``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from databases import BACKENDS, E2E_BACKEND, Migrated, migrated_copy

from . import helpers


@pytest.fixture(scope="session")
def kept_replays(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """One folder for the whole session, shared by its workers (pytest-xdist's ``basetemp`` is per worker; its
    parent is the session's)."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if worker_id != "master" else base) / "kept-replays"
    shared.mkdir(exist_ok=True)
    return shared


@pytest.fixture(autouse=True)
def _replays_start_migrated(sqlite_template: Path, kept_replays: Path) -> None:
    """A replay with no database of its own starts on a copy of this process's migrated template, not on a new file
    that it migrates itself (alembic, about 0.25 s of CPU a replay). Replaying onto a new file, as ``python -m bot
    replay`` does by default, is tested by tests/replay/test_cli.py."""
    helpers.MIGRATED = sqlite_template
    helpers.SHARED = kept_replays


@pytest.fixture(params=BACKENDS)
async def replay_db(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                    postgres_schema: str | None) -> Migrated:
    return await migrated_copy(request.param, tmp_path, sqlite_template, postgres_schema)


@pytest.fixture
async def one_db(tmp_path: Path, sqlite_template: Path, postgres_schema: str | None) -> Migrated:
    return await migrated_copy(E2E_BACKEND, tmp_path, sqlite_template, postgres_schema)
