"""The async database engine: SQLite (WAL, foreign keys, busy timeout) or PostgreSQL (asyncpg, lock timeout).

``write_wait`` bounds how long a write waits for another writer's lock (SQLite's ``busy_timeout``, PostgreSQL's
``lock_timeout``) before it is refused as a storage fault (``engine.store.faults``): long enough for a backup or
another process's burst, short enough for a player waiting for an answer."""

from __future__ import annotations

import json
import time
import weakref
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy import Engine, event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from engine.store.faults import reopen_after_faults
from engine.store.sqlite_connection import ReleasingConnection

DEFAULT_URL = "sqlite+aiosqlite:///clerk.db"
WRITE_WAIT = timedelta(seconds=30)
"""The default bound on waiting for another writer's lock (the ``write_wait`` setting, config.example.toml)."""
_WRITE_WAIT_MS = WRITE_WAIT // timedelta(milliseconds=1)
BUSY_TIMEOUT_MS = 5000
"""The wait of a backup's own connection (engine.store.backup) for a writer's lock."""
_WAITS: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


_ENCODE = json.JSONEncoder(check_circular=False).encode
_ORJSON = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def JSON_SERIALIZER(value: Any) -> str:
    """How a JSON column's value is written: ``orjson``, the same value as ``json.dumps`` would write, in about a
    sixth of the time (the ``RoundClosed`` event of a close of 10,000 voters, 400 KB: 2.7 ms with ``json``'s C
    encoder, 0.45 with orjson; issue 20). The text differs only where JSON allows it to (no spaces after the
    separators; other than ASCII written as UTF-8, not escaped): ``json.loads`` reads back the same value, and the
    columns are read with ``json`` as before (orjson would read an integer beyond 64 bits as a float).

    Keys that are not text are written as ``json`` writes them (``OPT_NON_STR_KEYS``); a ``datetime`` or a dataclass
    is refused as ``json`` refuses it (``OPT_PASSTHROUGH_*``: a bug to see, not to store). What orjson refuses and
    ``json`` writes (an integer beyond 64 bits, text with a lone surrogate, which a DM's text can hold) is written by
    ``json`` (its C encoder without the check for a value that contains itself: a payload is built of fresh dicts and
    lists). A float that is not a number would be written ``null`` where ``json`` writes ``NaN``: the rules'
    arithmetic is exact, and no payload holds a float. Threads may share it (neither encoder keeps state)."""
    try:
        return orjson.dumps(value, option=_ORJSON).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return _ENCODE(value)


def make_engine(url: str = DEFAULT_URL, *, write_wait: timedelta = WRITE_WAIT, **kwargs: Any) -> AsyncEngine:
    if not (is_sqlite(url) or url.startswith("postgresql+asyncpg")):
        scheme = url.split(":")[0]
        raise ValueError(f"DATABASE_URL must be sqlite+aiosqlite:///… or postgresql+asyncpg://…, not {scheme}")
    if write_wait <= timedelta(0):
        raise ValueError("write_wait must be a positive time")
    wait_ms = write_wait // timedelta(milliseconds=1)
    connect_args = dict(kwargs.pop("connect_args", {}))
    if not is_sqlite(url):
        settings = dict(connect_args.get("server_settings", {}))
        settings.setdefault("lock_timeout", str(wait_ms))
        connect_args["server_settings"] = settings
    else:  # a connection closed mid-transaction lets go of the write lock at once (engine.store.sqlite_connection)
        connect_args.setdefault("factory", ReleasingConnection)
        from engine.store.one_hop import ONE_HOP  # here: aiosqlite is not imported on PostgreSQL

        kwargs.setdefault("module", ONE_HOP)  # a statement is one hop to aiosqlite's thread (engine.store.one_hop)
    kwargs["connect_args"] = connect_args
    kwargs.setdefault("json_serializer", JSON_SERIALIZER)
    engine = create_async_engine(url, **kwargs)
    _WAITS[engine.sync_engine] = wait_ms
    reopen_after_faults(engine.sync_engine)
    if is_sqlite(url):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            apply_pragmas(dbapi_connection, in_memory=":memory:" in url, busy_ms=wait_ms)

    return engine


def write_wait_ms(engine: AsyncEngine) -> int:
    """The engine's bound on waiting for a writer's lock, in milliseconds (``make_engine``'s ``write_wait``)."""
    return _WAITS.get(engine.sync_engine, _WRITE_WAIT_MS)


def apply_pragmas(dbapi_connection: Any, *, in_memory: bool, busy_ms: int = _WRITE_WAIT_MS) -> None:
    """The project's SQLite pragmas: WAL (a file), foreign keys, a busy timeout, synchronous=NORMAL."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
    if not in_memory:
        _switch_to_wal(cursor, busy_ms)
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


_pause = time.sleep
"""How ``_switch_to_wal`` waits between tries (a test lets the other writer go here)."""


def _switch_to_wal(cursor: Any, busy_ms: int) -> None:
    """``PRAGMA journal_mode=WAL``, tried again while another connection holds the lock it needs: SQLite answers
    "database is locked" at once there, without its busy handler, when the other is writing in the rollback journal
    (two starts making one new database: a fresh-clone make test failed so in test_fresh_schema). Bounded by the
    write wait, as any other wait for a writer."""
    deadline = time.monotonic() + busy_ms / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's OperationalError, as the adapter raises it
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
        _pause(pause)  # at connect only, and only while another connection holds the lock
        pause = min(pause * 2, 0.1)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
