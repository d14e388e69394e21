"""Apply Alembic migrations programmatically, on the application's own async engine."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

SCRIPT_LOCATION = str(Path(migrations.__file__).parent)
MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('clerk-migrations:' || current_schema()))"
"""PostgreSQL: a transaction-scoped advisory lock per schema, held while the migrations run (docs/deploy.md)."""


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    config = alembic_config()

    def _upgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes starting at once migrate one at a time; the later ones find the schema at head.
            # They wait as long as the first one migrates: not bounded by write_wait (the sessions' lock_timeout).
            await connection.execute(text("SET LOCAL lock_timeout = 0"))
            await connection.execute(text(MIGRATION_LOCK))
        await connection.run_sync(_upgrade)
