"""At start: can this process write its database? A bot that comes up on a database it cannot write answers every
ballot with a refusal; it is better not to start, with one line that says what to fix.

SQLite: the database file and its ``-wal`` and ``-shm`` files must open for writing (file modes, ``chattr +i``, a
read-only mount: root ignores the modes, not the others), the folder must take new files (SQLite creates the
``-wal`` and ``-shm`` beside the database), and a write must go through (``PRAGMA user_version`` set to its own
value rewrites the header: the database's own check, whatever the cause). PostgreSQL: a write to the ``leases``
table that changes no row (``UPDATE … WHERE false``) is refused by a read-only server or session
(``default_transaction_read_only``, a standby) and by a revoked privilege, as a real write would be."""

from __future__ import annotations

import os
import socket
import sqlite3
import tempfile
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.faults import fault_kind
from engine.store.migrate import CannotOpen, upgrade

_PROBE = text("UPDATE leases SET name = name WHERE false")

BUSY_WAIT = 1.0
"""Seconds the start's write check waits for another process's write lock before it calls the file busy (writable)."""


class NotWritable(CannotOpen):
    """The database cannot be written; the message is one line naming what and why."""


class CannotConnect(CannotOpen):
    """No connection to the database could be opened (no server there, an unknown host, a database or user that does
    not exist, a wrong password); the message is one line naming the URL (without its password), what the driver said
    and what to check."""


_CONNECT_HINTS = {
    "3D000": "create it (CREATE DATABASE, or `createdb`) or correct the database's name at the end of DATABASE_URL",
    "28000": "check the user name in DATABASE_URL (the role must exist and be allowed to log in)",
    "28P01": "check the user's password in DATABASE_URL (characters such as @ : / in it must be written %40 %3A %2F)",
    "57P03": "the server is starting up or shutting down: start the bot again in a moment",
    "53300": "the server has no connection left for this user (max_connections): close some, or raise the limit",
}
"""What to do, by the PostgreSQL error code refusing the connection."""


def _cannot_connect(engine: AsyncEngine, error: BaseException) -> CannotConnect:
    driver = getattr(error, "orig", None) or error
    detail = " ".join(str(driver).split())[:200] or type(driver).__name__
    if isinstance(driver, socket.gaierror):
        hint = "the host name in DATABASE_URL is not known here: check it (and this machine's DNS)"
    elif isinstance(driver, ConnectionRefusedError):
        hint = "nothing accepts connections there: is the database server running, on that host and port?"
    elif isinstance(driver, TimeoutError):
        hint = "the server did not answer in time: check the host and port in DATABASE_URL, and any firewall"
    else:
        hint = _CONNECT_HINTS.get(str(getattr(driver, "sqlstate", "") or ""), "check DATABASE_URL")
    where = engine.url.render_as_string(hide_password=True)
    return CannotConnect(f"cannot connect to the database {where} (DATABASE_URL): {detail}; {hint}")


async def check_connects(engine: AsyncEngine) -> None:
    """Before anything else at start: raise ``CannotConnect`` (one line, play-test V4.1) if no connection to
    ``engine``'s database can be opened. Without it the first connection's failure was a traceback of 130-180 lines
    (a database or role that does not exist, an unknown host), or, for a server that refused the connection, the
    misleading "the database refuses writes"."""
    try:
        async with engine.connect():
            pass
    except (DBAPIError, OSError, TimeoutError) as error:
        raise _cannot_connect(engine, error) from None


def _sqlite_path(engine: AsyncEngine) -> Path | None:
    database = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or database in (None, "", ":memory:") or str(database).startswith(
            "file:"):
        return None
    return Path(str(database))


def check_sqlite_files(path: Path) -> None:
    """Raise ``NotWritable`` if ``path`` (a SQLite database, which need not exist yet) cannot be written."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():  # play-test 4.7: the advice about a file's owner and mode did not fit
        raise NotWritable(f"the database {path} is a folder: DATABASE_URL names the database file, for example "
                          f"sqlite+aiosqlite:///{(path / 'clerk.db').as_posix()}")
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if not file.exists():
            continue
        try:
            os.close(os.open(file, os.O_RDWR))
        except OSError as error:
            raise NotWritable(f"the database file {file} cannot be written ({error.strerror}); make it writable "
                              "(its owner and mode, `lsattr` for the immutable flag, a read-only mount)") from None
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".clerk-write-check-"):
            pass
    except OSError as error:
        raise NotWritable(f"the folder {folder} of the database cannot be written ({error.strerror}); SQLite creates "
                          f"{path.name}-wal and {path.name}-shm there") from None
    if not path.exists():
        return
    try:
        with sqlite3.connect(path, isolation_level=None, timeout=BUSY_WAIT) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            db.execute(f"PRAGMA user_version = {int(version)}")
        db.close()
    except sqlite3.Error as error:
        if getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return  # another process is writing (a restart overlapping the old one): writable, only busy
        if getattr(error, "sqlite_errorname", "") == "SQLITE_NOTADB":
            raise NotWritable(f"the file {path} is not a SQLite database (DATABASE_URL names another kind of file): "
                              "name a new file, which Clerk creates, or the database you meant") from None
        raise NotWritable(f"the database {path} cannot be written: {error}") from None


def check_files(engine: AsyncEngine) -> None:
    """Before the migrations (which would fail with a traceback): raise ``NotWritable`` if ``engine``'s SQLite
    database file, its ``-wal``/``-shm`` or its folder cannot be written. Nothing for PostgreSQL."""
    path = _sqlite_path(engine)
    if path is not None:
        check_sqlite_files(path)


async def check_writable(engine: AsyncEngine) -> None:
    """After the migrations: raise ``NotWritable`` (one line) if a write through ``engine`` is refused (the probe
    changes no row and is rolled back)."""
    try:
        async with engine.connect() as connection:
            await connection.execute(_PROBE)
            await connection.rollback()
    except Exception as error:
        if fault_kind(error) is None:
            raise
        detail = " ".join(str(getattr(error, "orig", error)).split())[:200]
        raise NotWritable(f"the database refuses writes: {detail}") from None


async def upgrade_writable(engine: AsyncEngine) -> None:
    """What ``python -m bot run`` does at start: check the files, connect, apply the migrations, check a write; a
    database that refuses writes raises ``NotWritable`` (one line) at whichever step finds it, one it cannot reach
    ``CannotConnect``, one a newer Clerk migrated ``UnknownRevision`` (all ``CannotOpen``)."""
    check_files(engine)
    await check_connects(engine)
    try:
        await upgrade(engine)
    except Exception as error:
        if fault_kind(error) is None:
            raise
        detail = " ".join(str(getattr(error, "orig", error)).split())[:200]
        raise NotWritable(f"the database refuses writes (applying the migrations): {detail}") from None
    await check_writable(engine)
