"""One cache of compiled SQL statements for every engine a test process makes (the suite's speed, not a behaviour).

SQLAlchemy keeps the statements it has compiled in a cache of each engine, keyed by the engine's dialect object. A
running Clerk has one engine, so after its first minute it compiles nothing. A test process makes a new engine for
nearly every test (a fresh database each), so every test compiled again each statement it used: about a sixth of
the CPU of the service, end-to-end and replay tests (py-spy, 2026-12-06). Here every engine made through
``engine.store.database.make_engine`` or ``engine.store.twin.sync_twin`` in a test process keeps its statements in
one cache shared with the others, keyed by what decides how a statement compiles: the dialect's class, the server's
version and the JSON functions the engine was given (identical for every engine Clerk makes), instead of the
dialect object.

What is shared is only the compiled form (the SQL text and how to bind and read its values); each engine keeps its
own dialect, pool, connections and events, so fault injection (tests/storage_faults.py) and every listener stay on
the engine they were put on. A statement is still compiled, once a test process, by whichever test uses it first.
tests/test_shared_statements.py checks that a second engine compiles nothing the first compiled, and that engines
whose dialects differ share nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import LRUCache

SIZE = 5000
"""Statements kept, of every dialect together: the service, end-to-end and replay tests run in one process compiled
976 distinct ones (2026-12-07), so none is dropped."""


def dialect_kind(dialect: Any) -> tuple[Any, ...]:
    """What a compiled statement depends on, of its dialect: every engine with an equal kind compiles alike."""
    return (type(dialect), dialect.server_version_info, dialect.paramstyle, dialect._json_serializer,
            dialect._json_deserializer, dialect.label_length, dialect.max_identifier_length)


class SharedStatements:
    """An engine's compiled cache (``Engine._compiled_cache``) that reads and writes one store shared by every
    engine, keyed by ``dialect_kind`` in place of the dialect object (the first part of SQLAlchemy's key)."""

    def __init__(self, store: LRUCache[Any, Any]) -> None:
        self.store = store

    @staticmethod
    def _key(key: tuple[Any, ...]) -> tuple[Any, ...]:
        return (dialect_kind(key[0]), *key[1:])

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        return self.store.get(self._key(key), default)

    def __setitem__(self, key: tuple[Any, ...], value: Any) -> None:
        self.store[self._key(key)] = value

    def clear(self) -> None:
        """``Engine.clear_compiled_cache``: one engine's wish does not empty the others' statements."""


STORE: LRUCache[Any, Any] = LRUCache(SIZE)


def share(engine: Engine) -> Engine:
    engine._compiled_cache = SharedStatements(STORE)  # type: ignore[assignment]
    return engine


def share_flushes() -> None:
    """The ORM's own statements (a flush's INSERT, UPDATE and DELETE of each table) are compiled into a cache of each
    mapper (``Mapper._compiled_cache``), not the engine's, keyed by the dialect object as well: every test's first
    flush of a table compiled its INSERT again, about 3% of the service tests' CPU (py-spy, 2026-12-07). Each of
    Clerk's mappers now keeps them in ``STORE`` too, keyed as above."""
    from sqlalchemy.orm import configure_mappers

    from engine.store.models import Base

    configure_mappers()
    for mapper in Base.registry.mappers:
        mapper.__dict__["_compiled_cache"] = SharedStatements(STORE)  # in place of its memoized LRUCache


def install() -> None:
    """From now on, in this process, every engine Clerk makes shares ``STORE`` (called once, by tests/conftest.py),
    and so does every flush of Clerk's models (``share_flushes``)."""
    from engine.store import database, twin

    make_async: Callable[..., AsyncEngine] = database.create_async_engine
    make_sync: Callable[..., Engine] = twin.create_engine

    def create_async_engine(*args: Any, **kwargs: Any) -> AsyncEngine:
        engine = make_async(*args, **kwargs)
        share(engine.sync_engine)
        return engine

    def create_engine(*args: Any, **kwargs: Any) -> Engine:
        return share(make_sync(*args, **kwargs))

    database.create_async_engine = create_async_engine  # type: ignore[assignment]
    twin.create_engine = create_engine  # type: ignore[assignment]
    share_flushes()
