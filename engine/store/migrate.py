"""Apply Alembic migrations programmatically, on the application's own async engine.

A database already at the newest revision is found with one query (``alembic_version`` against the head read from
the migration files' ``revision`` and ``down_revision`` lines), and Alembic itself (about half a second of imports:
its runtime, every dialect's DDL module) is imported only when there is something to migrate (issue 20); a new SQLite
database is made at the head without it (``engine.store.fresh``)."""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import migrations

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPT_LOCATION = str(Path(migrations.__file__).parent)
MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('clerk-migrations:' || current_schema()))"
"""PostgreSQL: a transaction-scoped advisory lock per schema, held while the migrations run (docs/deploy.md)."""


REVISION = re.compile(r'^(down_revision|revision)\s*(?::[^=]*)?=\s*(?:"([^"]*)"|None)', re.M)


@cache
def head_revision() -> str | None:
    """The newest revision of migrations/versions (the one no other names as its ``down_revision``); None if the
    files do not say plainly (a merge point, an unusual layout): then Alembic decides."""
    revisions, parents = set(), set()
    for path in (Path(SCRIPT_LOCATION) / "versions").glob("*.py"):
        found = dict((m.group(1), m.group(2)) for m in REVISION.finditer(path.read_text(encoding="utf-8")))
        if "revision" not in found or not found["revision"]:
            return None
        revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


@cache
def known_revisions() -> tuple[str, ...]:
    """Every revision of migrations/versions, oldest first by file name (``0001``, ``0002``, ...)."""
    found = []
    for path in sorted((Path(SCRIPT_LOCATION) / "versions").glob("*.py")):
        match = dict((m.group(1), m.group(2)) for m in REVISION.finditer(path.read_text(encoding="utf-8")))
        if match.get("revision"):
            found.append(match["revision"])
    return tuple(found)


class CannotOpen(Exception):
    """This Clerk cannot use the database (it cannot reach it, write it, or read its schema); the message is one line
    that says what is wrong and what to do. ``python -m bot run`` and the console stop with it, without a traceback."""


class UnknownRevision(CannotOpen):
    """The database is at a schema revision this Clerk's migrations do not know: a newer Clerk migrated it."""


async def database_revisions(connection: AsyncConnection) -> list[str] | None:
    """The revisions in the database's ``alembic_version`` (one, unless it is a merge point); None when it has no
    such table yet (a new database)."""
    try:
        async with connection.begin_nested():
            found = await connection.execute(text("SELECT version_num FROM alembic_version"))
            return [str(row[0]) for row in found]
    except DBAPIError:
        return None


async def at_head(connection: AsyncConnection) -> bool:
    """Is the database at the newest revision already? (False when it has no ``alembic_version`` yet.)"""
    head = head_revision()
    return head is not None and await database_revisions(connection) == [head]


def refuse_unknown(revisions: list[str] | None) -> None:
    """Raise ``UnknownRevision`` if the database is at a revision these migrations do not know (Alembic would stop
    with a traceback ending in "Can't locate revision identified by ..."): the code was rolled back to an older
    Clerk than the one that last migrated the database (play-test V1.1)."""
    unknown = [r for r in revisions or () if r not in known_revisions()]
    if unknown:
        raise UnknownRevision(
            f"the database is at schema revision {', '.join(unknown)}, which this Clerk does not know (its migrations "
            f"end at {known_revisions()[-1]}): a newer version of Clerk has migrated it. Run that version or a newer "
            "one; to go back to this version, restore the backup taken before the upgrade (docs/deploy.md, "
            "\"Upgrading Clerk\")")


def alembic_config() -> Config:
    from alembic.config import Config

    # stdout as it is now: Alembic's default is the sys.stdout of when it was imported, which a test's capture (or a
    # console session that imported it first) may have closed since
    config = Config(stdout=sys.stdout)
    config.set_main_option("script_location", SCRIPT_LOCATION)
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head", *, use_script: bool = True) -> None:
    """Migrate the database of ``engine`` to ``revision``. A new SQLite database (nothing in it) is made at the head
    at once from migrations/sqlite_head.sql (``engine.store.fresh``) unless ``use_script`` is False (the tests of
    the migrations themselves, and the script's own writing)."""
    async with engine.begin() as connection:
        if revision == "head":
            found = await database_revisions(connection)
            head = head_revision()
            if head is not None and found == [head]:
                return  # nothing to migrate: Alembic is not even imported
            refuse_unknown(found)
    if revision == "head" and use_script and found is None and head is not None and engine.dialect.name == "sqlite":
        from engine.store.fresh import create_at_head

        if await create_at_head(engine, head):
            return
    from alembic import command

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
