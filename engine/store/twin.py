"""A synchronous twin of a SQLite file database, for the hot path: one thread hop for a whole transaction.

aiosqlite runs every cursor call (open, execute, fetch, close) and the commit as a separate hop to its thread,
so a transaction of a few statements costs a dozen hops; the same transaction on a plain sqlite3 connection in one
worker thread costs one (docs/performance-history.md). The twin opens the same file with the same pragmas and takes the
write lock at BEGIN (``BEGIN IMMEDIATE``), so its transactions wait for other writers (busy timeout) instead of
failing on a stale snapshot.

A short transaction (a lone DM ballot) may run on the event loop's own thread instead (``turn_connection_now``): the
loop has nothing else to do while it waits for that one result, and the hop to the worker thread and back (two
wake-ups of a sleeping thread each way, and the GIL handed over each time) took about as long as a third of the
transaction (issue 20). It never waits there: if the kept connection is busy in a worker thread, or another
connection holds SQLite's write lock, it says so (``WouldWait``) at once, before anything ran, and the transaction
runs in the worker thread as before, where waiting is harmless.

SQLite folds the WAL back into the database (a checkpoint, with its fsync) inside the COMMIT that finds the WAL
long, which on the event loop's thread would hold every other DM for as long as the disk takes. So the twin's
connections make no automatic checkpoint (``wal_autocheckpoint=0``): every ``CHECKPOINT_EVERY`` commits of the kept
connection, the next transaction is left to the worker thread (``turn_connection_now`` says ``WouldWait``), and
``turn_connection`` runs a passive checkpoint there after it (``checkpoint``). The async engine's connections keep
SQLite's automatic checkpoint."""

from __future__ import annotations

import contextlib
import logging
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import JSON_SERIALIZER, apply_pragmas, write_wait_ms
from engine.store.faults import BUSY, fault_kind, reopen_after_faults
from engine.store.prebuilt import driver_execute
from engine.store.sqlite_connection import ReleasingConnection

log = logging.getLogger("clerk.store.twin")

CHECKPOINT_EVERY = 100
"""Commits of the kept connection between two checkpoints of the WAL, in the worker thread (a DM ballot writes a
few pages: about SQLite's own 1,000 pages)."""

READ = "clerk_twin_read"
"""The execution option of a twin connection that only reads: it takes no write lock (no ``BEGIN IMMEDIATE``)."""


def sync_twin(engine: AsyncEngine) -> Engine | None:
    """The sync engine on the same SQLite file, or None (PostgreSQL, or an in-memory database nobody can share)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    twin = create_engine(url.set(drivername="sqlite+pysqlite"), json_serializer=JSON_SERIALIZER,
                         connect_args={"factory": ReleasingConnection})
    busy_ms = _BUSY_MS[twin] = write_wait_ms(engine)
    reopen_after_faults(twin)  # a read-only or I/O fault reopens the twin's connections too

    @event.listens_for(twin, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver leaves BEGIN to us (below)
        apply_pragmas(dbapi_connection, in_memory=False, busy_ms=busy_ms)
        dbapi_connection.execute("PRAGMA wal_autocheckpoint=0").close()  # ``checkpoint``, in the worker thread

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
_BUSY_MS: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
"""Each twin's busy timeout (``write_wait_ms``), set again after a ``turn_connection_now`` began."""
_COMMITS: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
"""Each twin's turns since its last checkpoint (``checkpoint``)."""


class WouldWait(Exception):
    """``turn_connection_now`` could not begin without waiting; nothing ran. Run the transaction in a worker thread
    (``turn_connection``)."""


def _turn_lock(twin: Engine) -> threading.Lock:
    with _MAKING:
        lock = _TURN_LOCKS.get(twin)
        if lock is None:
            lock = _TURN_LOCKS[twin] = threading.Lock()
    return lock


def _kept(twin: Engine) -> Connection:
    """The kept connection (under its thread lock), opened if there is none or it was closed."""
    held = _TURNS.get(twin)
    if held is None or held.closed:
        held = _TURNS[twin] = twin.connect()
    return held


@contextmanager
def turn_connection(twin: Engine) -> Iterator[Connection]:
    """The connection of the twin's transactions that run in turns (``ServiceBase._in_twin``: one at a time in this
    process, so one connection serves them all), opened on first use and kept open: a checkout from the pool and
    its return cost about 30 us a transaction (docs/performance-history.md). One that a fault invalidated connects anew
    at its next use (``faults.reopen_after_faults``); closed with the twin (``close_twin``). Held under a thread
    lock as well: the turns are an ``asyncio.Lock``, which a cancelled caller lets go while its worker thread is
    still running the transaction, and a connection must never serve two threads at once."""
    with _turn_lock(twin):
        held = _kept(twin)
        yield held
        turns = _COMMITS[twin] = _COMMITS.get(twin, 0) + 1
        if turns >= CHECKPOINT_EVERY:
            _COMMITS[twin] = 0
            checkpoint(held)


def checkpoint(held: Connection) -> None:
    """A passive checkpoint of the WAL on ``held`` (in the worker thread: it writes the database file and syncs
    it), after its turn's transaction has ended. It never fails the turn, whose transaction is already committed:
    a checkpoint that cannot be made now is made at the next one, or by the async engine's connections."""
    try:
        raw: Any = held.connection.driver_connection
        raw.execute("PRAGMA wal_checkpoint(PASSIVE)").close()
    except Exception as error:  # maintenance after a committed turn: logged, tried again at the next one
        log.warning("a checkpoint of the twin's WAL failed (tried again later): %s", error)


@contextmanager
def turn_connection_now(twin: Engine) -> Iterator[Connection]:
    """The kept connection of ``turn_connection``, in a transaction begun (``BEGIN IMMEDIATE``) and committed when
    the block ends (rolled back if it raises), for a short transaction on the event loop's thread: it never waits.
    ``WouldWait`` (nothing ran) if the kept connection is in use in a worker thread (its thread lock is taken), or if
    another connection holds SQLite's write lock: the ``BEGIN IMMEDIATE`` is made with no busy timeout, which SQLite
    would otherwise sleep out on this thread, and the timeout is set back as soon as it has begun (once it holds the
    write lock, a transaction in WAL mode has no other writer to wait for). The two ``PRAGMA busy_timeout`` go to
    the driver's connection directly: they are not statements of the transaction, and its listeners (statement
    counts, fault injection) do not see them."""
    if _COMMITS.get(twin, 0) >= CHECKPOINT_EVERY - 1:
        raise WouldWait  # the turn after which the WAL is checkpointed: in the worker thread (``turn_connection``)
    lock = _turn_lock(twin)
    if not lock.acquire(blocking=False):
        raise WouldWait
    try:
        held = _kept(twin)
        try:
            raw: Any = held.connection.driver_connection
            busy = _BUSY_MS.get(twin)
            if busy is None:  # a twin not made by ``sync_twin`` (a test's): its own setting
                busy = _BUSY_MS[twin] = int(raw.execute("PRAGMA busy_timeout").fetchone()[0])
            raw.execute("PRAGMA busy_timeout=0").close()
        except Exception:  # let the worker thread's path meet it (and its fault handling): nothing ran
            raise WouldWait from None
        try:
            transaction = held.begin()
        except BaseException as error:
            _set_busy(held, raw, busy)
            if isinstance(error, OperationalError) and fault_kind(error) == BUSY:
                raise WouldWait from None
            raise
        if not _set_busy(held, raw, busy):
            with contextlib.suppress(Exception):
                transaction.rollback()
            raise WouldWait  # only BEGIN ran, and is undone; the worker thread's path connects anew
        with transaction:
            yield held
        _COMMITS[twin] = _COMMITS.get(twin, 0) + 1
    finally:
        lock.release()


def _set_busy(held: Connection, raw: Any, busy: int) -> bool:
    """Set the kept connection's busy timeout back to ``busy``; if that fails, the connection is invalidated (opened
    anew at its next use, with the pragmas of ``sync_twin``) and False is returned."""
    try:
        raw.execute(f"PRAGMA busy_timeout={busy}").close()
    except Exception:
        held.invalidate()
        return False
    return True


def close_twin(twin: Engine) -> None:
    """Close the kept connection (``turn_connection``), then every connection of the twin's pool."""
    lock = _TURN_LOCKS.get(twin)
    with lock if lock is not None else contextlib.nullcontext():
        held = _TURNS.pop(twin, None)
        if held is not None:
            held.close()
    twin.dispose()
