"""A synchronous twin of a SQLite file database, for the hot path: one thread hop for a whole transaction.

aiosqlite runs every cursor call (open, execute, fetch, close) and the commit as a separate hop to its thread,
so a transaction of a few statements costs a dozen hops; the same transaction on a plain sqlite3 connection in one
worker thread costs one (docs/performance.md). The twin opens the same file with the same pragmas and takes the
write lock at BEGIN (``BEGIN IMMEDIATE``), so its transactions wait for other writers (busy timeout) instead of
failing on a stale snapshot."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import JSON_SERIALIZER, apply_pragmas, write_wait_ms
from engine.store.faults import reopen_after_faults
from engine.store.prebuilt import driver_execute

READ = "clerk_twin_read"
"""The execution option of a twin connection that only reads: it takes no write lock (no ``BEGIN IMMEDIATE``)."""


def sync_twin(engine: AsyncEngine) -> Engine | None:
    """The sync engine on the same SQLite file, or None (PostgreSQL, or an in-memory database nobody can share)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    twin = create_engine(url.set(drivername="sqlite+pysqlite"), json_serializer=JSON_SERIALIZER)
    busy_ms = write_wait_ms(engine)
    reopen_after_faults(twin)  # a read-only or I/O fault reopens the twin's connections too

    @event.listens_for(twin, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver leaves BEGIN to us (below)
        apply_pragmas(dbapi_connection, in_memory=False, busy_ms=busy_ms)

    @event.listens_for(twin, "begin")
    def _begin(connection: Any) -> None:
        if connection.get_execution_options().get(READ):
            return  # a read (``READ``): each statement is a transaction of its own, on SQLite's snapshot then
        driver_execute(connection, "BEGIN IMMEDIATE", ())  # exec_driver_sql's steps, no CursorResult

    @event.listens_for(engine.sync_engine, "engine_disposed")
    def _disposed(_engine: Any) -> None:
        # Closed with the async engine: SQLite folds the WAL into the database file when its last connection
        # closes, and a copy of the file alone (a test's template, a manual backup) must have every write.
        close_twin(twin)

    return twin


_TURNS: weakref.WeakKeyDictionary[Engine, Connection] = weakref.WeakKeyDictionary()
_TURN_LOCKS: weakref.WeakKeyDictionary[Engine, threading.Lock] = weakref.WeakKeyDictionary()
_MAKING = threading.Lock()


@contextmanager
def turn_connection(twin: Engine) -> Iterator[Connection]:
    """The connection of the twin's transactions that run in turns (``ServiceBase._in_twin``: one at a time in this
    process, so one connection serves them all), opened on first use and kept open: a checkout from the pool and
    its return cost about 30 us a transaction (docs/performance.md). One that a fault invalidated connects anew
    at its next use (``faults.reopen_after_faults``); closed with the twin (``close_twin``). Held under a thread
    lock as well: the turns are an ``asyncio.Lock``, which a cancelled caller lets go while its worker thread is
    still running the transaction, and a connection must never serve two threads at once."""
    with _MAKING:
        lock = _TURN_LOCKS.get(twin)
        if lock is None:
            lock = _TURN_LOCKS[twin] = threading.Lock()
    with lock:
        held = _TURNS.get(twin)
        if held is None or held.closed:
            held = _TURNS[twin] = twin.connect()
        yield held


def close_twin(twin: Engine) -> None:
    """Close the kept connection (``turn_connection``), then every connection of the twin's pool."""
    lock = _TURN_LOCKS.get(twin)
    with lock if lock is not None else contextlib.nullcontext():
        held = _TURNS.pop(twin, None)
        if held is not None:
            held.close()
    twin.dispose()
