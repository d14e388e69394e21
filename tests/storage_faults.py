"""Storage faults on demand, for the tests of engine/store/faults.py: a fault-injecting wrapper of an engine's
statements, portable (no mount, no root), the driver's own error class and code as the real fault raises them.

``FaultInjector.install(engine)`` hooks the dialect's ``do_execute``/``do_executemany``/``do_execute_no_params``
(inside SQLAlchemy's error handling, as a driver error is). While ``arm(kind)`` is in force every write statement
(INSERT, UPDATE, DELETE, or a data-modifying ``WITH`` of PostgreSQL) fails with that fault: ``full`` (SQLite
``SQLITE_FULL`` "database or disk is full",
PostgreSQL 53100 disk_full) or ``read-only`` (``SQLITE_READONLY`` "attempt to write a readonly database", PostgreSQL
25006). A read-only fault also *sticks* to every connection that met it, as SQLite keeps a connection it opened on
a read-only file read-only after the file is writable again (and PostgreSQL a session its
``default_transaction_read_only``): after ``disarm()`` those connections still refuse writes until the pool closes
them. The real faults (an immutable file, a full file system) are in tests/service/test_storage_faults.py too."""

from __future__ import annotations

import re
import sqlite3
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Engine, event

_WRITES = ("INSERT", "UPDATE", "DELETE")
_WRITING_WITH = re.compile(r"\b(INSERT|UPDATE|DELETE)\b")


def writes(statement: str) -> bool:
    """Whether ``statement`` writes: an INSERT, UPDATE or DELETE, or a ``WITH`` with one of them in it."""
    text = statement.lstrip().upper()
    return text.startswith(_WRITES) or (text.startswith("WITH") and _WRITING_WITH.search(text) is not None)
_SQLITE = {"full": ("database or disk is full", "SQLITE_FULL", 13),
           "read-only": ("attempt to write a readonly database", "SQLITE_READONLY", 8)}
_POSTGRES = {"full": ("could not extend file: No space left on device", "53100"),
             "read-only": ("cannot execute INSERT in a read-only transaction", "25006")}


class FaultInjector:
    def __init__(self) -> None:
        self.kind: str | None = None
        self.sticky: list[Any] = []
        """DBAPI connections a read-only fault stuck to (kept, not weakly referenced: a test is short)."""
        self.raised = 0

    def install(self, *engines: Engine) -> FaultInjector:
        for engine in engines:
            for name in ("do_execute", "do_executemany", "do_execute_no_params"):
                event.listen(engine, name, self._check)
        return self

    def arm(self, kind: str) -> None:
        assert kind in _SQLITE
        self.kind = kind

    def disarm(self) -> None:
        self.kind = None

    def _check(self, cursor: Any, statement: str, *rest: Any) -> None:
        context = rest[-1]
        if not writes(statement):
            return
        dbapi = context.root_connection.connection.dbapi_connection
        stuck = any(c is dbapi for c in self.sticky)
        if self.kind is None and not stuck:
            return
        kind = self.kind or "read-only"
        if kind == "read-only" and not stuck:
            self.sticky.append(dbapi)
        self.raised += 1
        raise self._error(context.dialect, kind)

    @staticmethod
    def _error(dialect: Any, kind: str) -> Exception:
        if dialect.name == "sqlite":
            message, name, code = _SQLITE[kind]
            error = sqlite3.OperationalError(message)
            error.sqlite_errorname, error.sqlite_errorcode = name, code
            return error
        message, state = _POSTGRES[kind]
        dbapi_error: Exception = dialect.loaded_dbapi.OperationalError(message, SimpleNamespace(sqlstate=state))
        return dbapi_error
