"""SQLite through aiosqlite with one hop to its thread a statement, not three or four.

SQLAlchemy's aiosqlite adapter runs each statement as separate calls on aiosqlite's worker thread: open a cursor,
execute, fetch the rows, close the cursor; each is a hop to the thread and back (the thread woken, the answer handed
back through the event loop's self-pipe, the GIL passed each way). The statement itself, on a local file, takes a
few microseconds; the hops take most of the time of every unit that is not the DM ballot's (which has its own
synchronous twin, ``engine.store.twin``): a moderator's command, a close, the recovery at start (issue 20; the test
suite spent about a third of its CPU time in them, py-spy, 2026-12-07).

``OneHopCursor`` does the four in one call on the worker thread (``aiosqlite.Connection._execute``, the function
aiosqlite's own methods are made of) and keeps what the statement left (its rows, ``description``, ``rowcount``,
``lastrowid``), as SQLAlchemy's adapter keeps the rows. Everything else is SQLAlchemy's and aiosqlite's: the
transaction's BEGIN, COMMIT and ROLLBACK, the error translation, the pool. A server-side cursor (``stream_results``)
is SQLAlchemy's own, unchanged. The cursor is closed, its statement finalized, before the hop returns, which is also
what ``engine.store.sqlite_connection`` needs of a connection closed mid-transaction.

A connection given back to the pool with no transaction open is not rolled back on the thread either: there is
nothing to roll back (``OneHopConnection.rollback``).

It is given to the engine as its DB-API module (``create_engine(module=...)``, ``engine.store.database``)."""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Sequence
from typing import Any

import aiosqlite
from sqlalchemy.connectors.asyncio import AsyncAdapt_dbapi_connection
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import await_

_Done = tuple[Any, list[Any] | None, int, int | None]
"""What a statement left: its description, its rows (None without a description), rowcount, lastrowid."""


def _execute(connection: sqlite3.Connection, operation: str, parameters: Any) -> _Done:
    """On aiosqlite's thread: the statement run to its end and its cursor closed."""
    cursor = connection.cursor()
    try:
        if parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else None
        return description, rows, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


def _executemany(connection: sqlite3.Connection, operation: str, seq_of_parameters: Any) -> _Done:
    cursor = connection.cursor()
    try:
        cursor.executemany(operation, seq_of_parameters)
        return cursor.description, None, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


class OneHopCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor, each statement one hop to aiosqlite's thread (above)."""

    __slots__ = ("_arraysize", "_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: AsyncAdapt_dbapi_connection) -> None:
        # not super().__init__: that opens an aiosqlite cursor, a hop of its own
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._rows = deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None
        self._arraysize = 1

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> int:
        return self._lastrowid  # type: ignore[return-value]  # sqlite3's may be None, as SQLAlchemy's adapter's

    @property
    def arraysize(self) -> int:
        return self._arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._arraysize = value

    async def _async_soft_close(self) -> None:
        return None  # nothing is open between hops

    def close(self) -> None:
        self._rows.clear()

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        try:
            done: _Done = await_(self._run(_execute, operation, parameters))
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        self._keep(done)

    def executemany(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        try:
            done: _Done = await_(self._run(_executemany, operation, seq_of_parameters))
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        self._keep(done)

    async def _run(self, function: Any, operation: Any, parameters: Any) -> _Done:
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]
        async with self._adapt_connection._execute_mutex:
            done = await connection._execute(function, connection._conn, operation, parameters)  # type: ignore[no-untyped-call]
        return done  # type: ignore[no-any-return]

    def _keep(self, done: _Done) -> None:
        self._description, rows, self._rowcount, self._lastrowid = done
        self._rows = deque(rows) if rows is not None else deque()

    def nextset(self) -> None:
        """DB-API: None, no further result set (a SQLite statement has one, fetched whole by ``execute``)."""
        self._rows.clear()
        return None


class OneHopConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls = OneHopCursor

    def rollback(self) -> None:
        """No hop when there is nothing to roll back: the pool rolls back every connection it is given back (its
        reset on return), and most units that only read never began a transaction (the sqlite3 module begins one
        before a write, and Clerk's writes with ``BEGIN IMMEDIATE``); that was a hop of each unit's three or four."""
        try:
            idle = not self._connection._conn.in_transaction
        except Exception:  # closed, say: SQLAlchemy's own rollback reports it as it would
            idle = False
        if not idle:
            super().rollback()


class OneHopDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The DB-API module SQLAlchemy's aiosqlite dialect is given (``module=``): its connections make one-hop cursors."""

    def connect(self, *arg: Any, **kw: Any) -> OneHopConnection:
        adapted = super().connect(*arg, **kw)  # aiosqlite's connection, its thread a daemon, as SQLAlchemy makes it
        return OneHopConnection(self, adapted._connection)


ONE_HOP = OneHopDBAPI(aiosqlite, sqlite3)
