"""Core statements compiled once to their driver's SQL, for the SQLite twin's hot path (the DM ballot's unit).

``connection.execute(statement, params)`` of a Core statement costs, every time, its cache key, the lookup of its
compiled form, the expansion of its ``IN`` lists and the processing of every bound value and result column through
SQLAlchemy's execution context; for the ballot's few small statements that is most of the unit's CPU
(docs/performance.md, issue 20, branch ballot3). A ``Prebuilt`` is the statement compiled ONCE for one dialect (and
one length of each ``IN`` list), with its bind and result processors taken from SQLAlchemy itself, so the values
stored and read are exactly those of the Core statement. It runs through ``Connection.exec_driver_sql``: the engine's
events still see every statement (``before_cursor_execute``, ``do_execute``, ``handle_error``: the statement counts
of the tests, their fault injection, ``faults.reopen_after_faults``), and it runs in the connection's transaction."""

from __future__ import annotations

import weakref
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Connection, CursorResult
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

_Processor = Callable[[Any], Any] | None


class Prebuilt:
    """``statement`` compiled once for ``dialect`` with the parameters of ``sample`` (an ``IN`` list's length is
    its sample's): ``run(connection, params)`` executes it with ``params`` (the same names; lists of the sample's
    lengths), ``run_many`` for many rows of parameters, and ``rows`` returns its result rows as named tuples, each
    column processed as SQLAlchemy would (``columns``: the statement's result columns, in order)."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, sample: Mapping[str, Any],
                 column_keys: Sequence[str] | None = None, columns: Sequence[Any] = ()) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect,
                                                       column_keys=list(column_keys) if column_keys else None))
        state = compiled.construct_expanded_state(dict(sample))
        if not compiled.positional or state.positiontup is None:
            raise ValueError(f"{dialect.name}'s paramstyle is not positional")
        self.sql = state.statement
        expanded = {name: (original, n) for original, names in state.parameter_expansion.items()
                    for n, name in enumerate(names)}
        processors = {name: bind.type.dialect_impl(dialect).bind_processor(dialect)
                      for name, bind in compiled.binds.items() if not bind.expanding}
        processors.update(state.processors)  # the expanded lists' (``users_1``, ...)
        constants = {}  # the statement's own values (a literal in it: ``status != 'ended'``), processed once
        for name in state.positiontup:
            if name not in expanded and name not in sample:
                processor = processors.get(name)
                value = state.parameters[name]
                constants[name] = value if processor is None else processor(value)
        self._slots: tuple[tuple[str, int | None, _Processor], ...] = tuple(
            (*expanded.get(name, (name, None)), processors.get(name)) for name in state.positiontup)
        self._constants = constants
        self._plain = not constants and all(index is None and processor is None
                                            for _, index, processor in self._slots)
        self._names = tuple(name for name, _, _ in self._slots)
        self._row: Any = namedtuple("Row", [c.key for c in columns], rename=True) if columns else None
        results = [c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns]
        self._results = tuple((n, p) for n, p in enumerate(results) if p is not None)

    def params(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        if self._plain:
            return tuple(params[name] for name in self._names)
        constants = self._constants
        return tuple(constants[name] if name in constants else _value(params, name, index, processor)
                     for name, index, processor in self._slots)

    def run(self, connection: Connection, params: Mapping[str, Any]) -> CursorResult[Any]:
        return connection.exec_driver_sql(self.sql, self.params(params))

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> CursorResult[Any]:
        return connection.exec_driver_sql(self.sql, [self.params(row) for row in rows])

    def rows(self, result: CursorResult[Any]) -> list[Any]:
        """The rows of ``result`` (of ``run``), their columns processed (a datetime, a JSON document) and named."""
        make = self._row
        if make is None:
            raise ValueError("no result columns were given")
        found = []
        for raw in result.fetchall():
            values = list(raw)
            for n, processor in self._results:
                values[n] = processor(values[n])
            found.append(make._make(values))
        return found


def _value(params: Mapping[str, Any], name: str, index: int | None, processor: _Processor) -> Any:
    value = params[name] if index is None else params[name][index]
    return value if processor is None else processor(value)


_BUILT: weakref.WeakKeyDictionary[Dialect, dict[Any, Prebuilt]] = weakref.WeakKeyDictionary()


def prebuilt(key: Any, dialect: Dialect, build: Callable[[], Prebuilt], limit: int = 64) -> Prebuilt:
    """The ``Prebuilt`` of ``key`` for ``dialect`` (its processors are the dialect's: its JSON serializer), made
    by ``build`` on first use; at most ``limit`` per dialect (the oldest made is dropped)."""
    built = _BUILT.setdefault(dialect, {})
    found = built.get(key)
    if found is None:
        found = built[key] = build()
        if len(built) > limit:
            del built[next(iter(built))]
    return found


def built_for(connection: Connection, make: Callable[[Dialect], Prebuilt]) -> Prebuilt:
    """``make``'s ``Prebuilt`` for ``connection``'s dialect (``prebuilt`` keyed by ``make``), made on first use."""
    dialect = connection.dialect
    return prebuilt(make, dialect, lambda: make(dialect))
