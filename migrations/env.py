"""Alembic environment. Works from the CLI (``alembic upgrade head`` / ``alembic check``, URL from
DATABASE_URL) and programmatically (a connection passed in ``config.attributes['connection']``)."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from engine.service.clerk import RULESETS  # noqa: F401  (each ruleset's service imports its tables into Base.metadata)
from engine.store.database import DEFAULT_URL, make_engine
from engine.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = make_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL") or DEFAULT_URL
    asyncio.run(_run_async(url))


if context.is_offline_mode():
    context.configure(url=os.environ.get("DATABASE_URL", DEFAULT_URL), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
