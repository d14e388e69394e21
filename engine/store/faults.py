"""Storage faults: the database refused a write for a reason outside the command (a full disk, a read-only file or
database, another writer holding the lock past the wait bound, a lost connection), told apart from bugs.

``storage_fault(error)`` names the fault of a driver error (or None for anything else: a bug keeps its traceback).
``StorageFault`` is what the service raises instead: a ``ClerkError`` whose text a player may read (the command was
not recorded; send it again in a minute), carrying the fault's ``kind`` and one ``detail`` line for the log and the
moderators. ``reopen_after_faults(engine)`` makes a pool drop its connections after a fault that can stick to a
connection (SQLite opens a file it cannot write read-only and keeps it so; a PostgreSQL session keeps the
``default_transaction_read_only`` it started with), so the next write opens new ones and recovery needs no restart.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import ExceptionContext

from engine.core.errors import ClerkError

FULL, READ_ONLY, BUSY, IO, UNREACHABLE = "full", "read-only", "busy", "io", "unreachable"

_SQLITE = {
    "SQLITE_FULL": FULL, "SQLITE_READONLY": READ_ONLY, "SQLITE_BUSY": BUSY, "SQLITE_LOCKED": BUSY,
    "SQLITE_IOERR": IO, "SQLITE_CANTOPEN": IO, "SQLITE_PERM": READ_ONLY,
}
"""By the primary code: ``SQLITE_READONLY_DBMOVED``, ``SQLITE_IOERR_SHMSIZE``… count with their family."""
_POSTGRES = {
    "25006": READ_ONLY,  # read_only_sql_transaction (default_transaction_read_only, a hot standby)
    "42501": READ_ONLY,  # insufficient_privilege (write privilege revoked)
    "55P03": BUSY,  # lock_not_available (lock_timeout)
    "57014": BUSY,  # query_canceled (statement_timeout)
    "53100": FULL, "53200": FULL, "53000": FULL,  # disk_full, out_of_memory, insufficient_resources
    "58030": IO,  # io_error
    # A server restarting or failing over (play-test V5.1): these were bugs to the bot (a traceback in the log per
    # ballot, "something went wrong on my side") and the moderators were not told.
    "57P01": UNREACHABLE,  # admin_shutdown: "terminating connection due to administrator command" (a restart)
    "57P02": UNREACHABLE,  # crash_shutdown
    "57P03": UNREACHABLE,  # cannot_connect_now: "the database system is starting up" / "shutting down"
    "53300": UNREACHABLE,  # too_many_connections: no connection to be had
}
_STICKY = frozenset({READ_ONLY, IO})
"""Faults after which a pooled connection may stay broken when the cause is gone: reopen the connections."""

WHAT = {
    FULL: "the disk is full",
    READ_ONLY: "the database is read-only (it refuses writes)",
    BUSY: "another writer held the database lock longer than the wait allowed",
    IO: "the database file could not be read or written (I/O error)",
    UNREACHABLE: "the connection to the database was lost",
}


class StorageFault(ClerkError):
    """A write the database refused (``kind``: one of FULL, READ_ONLY, BUSY, IO, UNREACHABLE). Nothing was
    recorded. Its text is for players; ``detail`` (the driver's one line) is for the log and the moderators."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__("I could not record that right now: the bot's database is not taking writes. Nothing was "
                         "counted or changed; please send it again in a minute.")
        self.kind = kind
        self.detail = detail

    @property
    def what(self) -> str:
        return WHAT[self.kind]


def _driver_error(error: BaseException) -> BaseException:
    orig = getattr(error, "orig", None)
    return orig if isinstance(orig, BaseException) else error


def fault_kind(error: BaseException) -> str | None:
    """The storage fault ``error`` (a SQLAlchemy or driver exception) is, or None if it is not one."""
    if isinstance(error, StorageFault):
        return error.kind
    driver = _driver_error(error)
    name = getattr(driver, "sqlite_errorname", None)
    if isinstance(name, str):
        return next((kind for prefix, kind in _SQLITE.items() if name == prefix or name.startswith(prefix + "_")),
                    None)
    state = getattr(driver, "sqlstate", None) or getattr(driver, "pgcode", None)
    if isinstance(state, str):
        if state.startswith("08"):
            return UNREACHABLE
        return _POSTGRES.get(state)
    if getattr(error, "connection_invalidated", False) or isinstance(driver, ConnectionError):
        return UNREACHABLE  # a session that ended, a server that refuses or resets the connection
    return None


def storage_fault(error: BaseException) -> StorageFault | None:
    """The ``StorageFault`` to raise for ``error``, or None when it is something else (a bug, a constraint)."""
    if isinstance(error, StorageFault):
        return error
    kind = fault_kind(error)
    if kind is None:
        return None
    driver = _driver_error(error)
    detail = " ".join(str(driver).split())[:300] or type(driver).__name__
    return StorageFault(kind, detail)


def reopen_after_faults(engine: Engine) -> None:
    """After a read-only or I/O fault, have ``engine``'s pool close this connection and every one opened before it,
    so the next checkout connects anew (SQLAlchemy's disconnect handling: ``is_disconnect``)."""

    @event.listens_for(engine, "handle_error")
    def _sticky(context: ExceptionContext) -> Any:
        if fault_kind(context.original_exception) in _STICKY:
            context.is_disconnect = True
        return None
