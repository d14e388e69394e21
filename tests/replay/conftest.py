"""Replay fixtures: ``replay_db``, a migrated database on SQLite and (when TEST_POSTGRES_URL is set) PostgreSQL,
for the golden transcripts; ``one_db``, one on the backend CLERK_TEST_BACKEND names (SQLite by default)."""

from __future__ import annotations

from pathlib import Path

import pytest
from databases import BACKENDS, E2E_BACKEND, Migrated, migrated_copy


@pytest.fixture(params=BACKENDS)
async def replay_db(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path,
                    postgres_schema: str | None) -> Migrated:
    return await migrated_copy(request.param, tmp_path, sqlite_template, postgres_schema)


@pytest.fixture
async def one_db(tmp_path: Path, sqlite_template: Path, postgres_schema: str | None) -> Migrated:
    return await migrated_copy(E2E_BACKEND, tmp_path, sqlite_template, postgres_schema)
