"""The database-level lock a write takes, so that commands on one game run one at a time across processes.

The per-game asyncio lock in ``engine.service.uow`` serialises commands inside one process; two bot processes
sharing one database (a sharded deployment, or a restart overlapping the old process) need the database to do
it. The lock is taken as the first statement of the write transaction and released by its commit or rollback:

- PostgreSQL: ``SELECT … FROM games WHERE id = :game FOR UPDATE`` locks the game's row. A second writer to the
  same game waits there; under READ COMMITTED every later statement of its transaction sees what the first
  one committed, so it reads the round as closed, the ballot as cast, the ``source_id`` as already done. Writes
  that create a game (no id yet) need no lock: unique indexes decide between them. A row lock (rather than
  ``pg_advisory_xact_lock``) is local to the schema, so several deployments or test runs sharing one server
  never wait for each other.
- SQLite: ``BEGIN IMMEDIATE`` takes the database's write lock before anything is read (waiting up to the
  ``busy_timeout`` of ``engine.store.database``). Without it Python's sqlite3 module runs the reads of a
  transaction outside it and begins only at the first write, so another process could commit in between.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from engine.store.models import Base

_GAMES = Base.metadata.tables["games"]
_BEGIN = text("BEGIN IMMEDIATE")
_LOCK = select(_GAMES.c.id).where(_GAMES.c.id == bindparam("game")).with_for_update()
"""Built once, a Core statement: every write pays for it (the DM ballot's among them)."""


async def lock_for_write(session: AsyncSession, game_id: int | None) -> None:
    """Take the write lock of ``game_id`` (of the whole database on SQLite) in the session's new transaction."""
    if session.get_bind().dialect.name == "sqlite":
        await session.execute(_BEGIN)
    elif game_id is not None:
        await session.execute(_LOCK, {"game": game_id})
