"""Core statements compiled once to their driver's SQL, for the SQLite twin's hot path (the DM ballot's unit).

``connection.execute(statement, params)`` of a Core statement costs, every time, its cache key, the lookup of its
compiled form, the expansion of its ``IN`` lists and the processing of every bound value and result column through
SQLAlchemy's execution context; for the ballot's few small statements that is most of the unit's CPU
(docs/performance-history.md, issue 20, branch ballot3). A ``Prebuilt`` is the statement compiled ONCE for one dialect
(and one length of each ``IN`` list), with its bind and result processors taken from SQLAlchemy itself, so the values
stored and read are exactly those of the Core statement. It runs through ``Connection.exec_driver_sql``: the engine's
events still see every statement (``before_cursor_execute``, ``do_execute``, ``handle_error``: the statement counts
of the tests, their fault injection, ``faults.reopen_after_faults``), and it runs in the connection's transaction.

``fetch``, ``execute`` and ``execute_many`` run it through ``driver_execute`` instead: the same steps as
``exec_driver_sql`` (the connection's transaction, its engine's and dialect's events, its error handling, which
wraps a driver error and reconnects after a disconnect), but no ``CursorResult``, whose metadata (built for every
execution of SQL text: about 30 us for the ballot's read of 35 columns) and execution bookkeeping were most of a
prebuilt statement's cost (docs/performance-history.md, issue 20, branch ballot4)."""

from __future__ import annotations

import weakref
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Connection, CursorResult, DateTime, exc
from sqlalchemy.engine import Dialect
from sqlalchemy.engine.util import TransactionalContext
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

_Processor = Callable[[Any], Any] | None
ROWS_AT_ONCE = 256
"""The most rows of one ``Prebuilt.execute_rows`` statement (7 or 9 parameters a row: far below SQLite's limit)."""


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
        times = {name for name, bind in compiled.binds.items()
                 if not bind.expanding and isinstance(bind.type, DateTime)}
        self._getters = tuple(_getter(name, index, processor, constants, name in times)
                              for name, index, processor in self._slots)
        """One function a position, of the parameters to its value (processed): a list of them is called faster than
        each position's kind is told apart again for every execution."""
        self._row: Any = namedtuple("Row", [c.key for c in columns], rename=True) if columns else None
        self._texts: dict[int, str] = {}
        """``_rows_sql``'s texts, by their count of rows."""
        results = [c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns]
        self._results = tuple((n, p) for n, p in enumerate(results) if p is not None)

    def params(self, params: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple([get(params) for get in self._getters])

    def run(self, connection: Connection, params: Mapping[str, Any]) -> CursorResult[Any]:
        return connection.exec_driver_sql(self.sql, self.params(params))

    def run_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> CursorResult[Any]:
        return connection.exec_driver_sql(self.sql, [self.params(row) for row in rows])

    def fetch(self, connection: Connection, params: Mapping[str, Any]) -> list[Any]:
        """``rows(run(...))`` through ``driver_execute``: the statement's rows, processed and named."""
        return self._made(driver_execute(connection, self.sql, self.params(params)).rows)

    def execute(self, connection: Connection, params: Mapping[str, Any]) -> int | None:
        """``run`` through ``driver_execute``, for a statement that returns no rows: the cursor's ``lastrowid``."""
        return driver_execute(connection, self.sql, self.params(params)).lastrowid

    def execute_many(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """``run_many`` through ``driver_execute``."""
        driver_execute(connection, self.sql, [self.params(row) for row in rows], many=True)

    def execute_rows(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """``execute_many`` of an ``INSERT ... VALUES (?, ...)`` (an upsert's ``ON CONFLICT`` after it too) as a few
        multi-row statements, its ``VALUES`` group repeated (the form SQLAlchemy's "insertmanyvalues" sends): one per
        power of two of the rows, at most ``ROWS_AT_ONCE`` (so at most a few texts per statement for the driver's
        cache of prepared statements). The same rows, in the same order. Issue 20, branch burst4: SQLite's driver lets
        go of the GIL around every step of a statement, and an executemany steps once a row; in a burst the event
        loop's thread takes the GIL at each of them and the worker waits to have it back, a switch of threads a row."""
        if len(rows) <= 1:
            self.execute_many(connection, rows)
            return
        values = [self.params(row) for row in rows]
        start = 0
        while start < len(values):
            size = min(ROWS_AT_ONCE, 1 << (len(values) - start).bit_length() - 1)
            chunk = values[start:start + size]
            driver_execute(connection, self._rows_sql(size), tuple([v for row in chunk for v in row]))
            start += size

    def _rows_sql(self, count: int) -> str:
        """This statement's text with its ``VALUES`` group ``count`` times."""
        found = self._texts.get(count)
        if found is None:
            head, _, rest = self.sql.partition(" VALUES (")
            group, _, tail = rest.partition(")")
            if not head.startswith("INSERT ") or set(group.replace(",", " ").split()) != {"?"}:
                raise ValueError(f"not an INSERT of one VALUES group of parameters: {self.sql}")
            found = self._texts[count] = f"{head} VALUES {', '.join([f'({group})'] * count)}{tail}"
        return found

    def rows(self, result: CursorResult[Any]) -> list[Any]:
        """The rows of ``result`` (of ``run``), their columns processed (a datetime, a JSON document) and named."""
        return self._made(result.fetchall())

    def _made(self, raws: Sequence[Any] | None) -> list[Any]:
        make = self._row
        if make is None or raws is None:
            raise ValueError("no result columns were given" if make is None else "the statement returned no rows")
        results = self._results
        if not results:
            return [make._make(raw) for raw in raws]
        found = []
        for raw in raws:
            values = list(raw)
            for n, processor in self._results:
                values[n] = processor(values[n])
            found.append(make._make(values))
        return found


def _getter(name: str, index: int | None, processor: _Processor, constants: Mapping[str, Any], time: bool = False
            ) -> Callable[[Mapping[str, Any]], Any]:
    """The value of the position bound to ``name`` (item ``index`` of an expanded list), processed. ``time``: a
    ``DateTime`` column's, whose last value and its processed text are kept, so that the rows of one executemany that
    share one time (a batch's events' ``at``, its receipts' ``owed_at``: the unit's ``now``) format it once (a
    datetime is immutable, so the same object gives the same text)."""
    if name in constants:
        value = constants[name]
        return lambda _params: value
    if index is None:
        if processor is None:
            return itemgetter(name)
        if time:
            return _kept_time(name, processor)
        return lambda params: processor(params[name])
    if processor is None:
        return lambda params: params[name][index]
    return lambda params: processor(params[name][index])


def _kept_time(name: str, processor: Callable[[Any], Any]) -> Callable[[Mapping[str, Any]], Any]:
    """``processor(params[name])``, the last value's result kept (one tuple, replaced whole: threads may share it)."""
    last: list[tuple[Any, Any]] = [(None, processor(None))]

    def get(params: Mapping[str, Any]) -> Any:
        value = params[name]
        seen, text = last[0]
        if value is seen:
            return text
        text = processor(value)
        last[0] = (value, text)
        return text

    return get


class Executed:
    """What ``driver_execute`` returns: the statement's rows as the driver fetched them (None: it returns none)
    and the cursor's ``lastrowid``."""

    __slots__ = ("lastrowid", "rows")

    def __init__(self, rows: list[Any] | None, lastrowid: int | None) -> None:
        self.rows = rows
        self.lastrowid = lastrowid


def driver_execute(connection: Connection, sql: str, parameters: Any, *, many: bool = False) -> Executed:
    """``connection.exec_driver_sql(sql, parameters)`` (``parameters``: a tuple, or with ``many`` a list of them)
    and its rows fetched, without the ``CursorResult``: the same steps as SQLAlchemy's ``Connection._execute_context``
    and ``_exec_single_context`` for SQL text (the connection revalidated, the transaction checked and begun
    if none is, ``before_cursor_execute``, the dialect's ``do_execute``/``do_executemany`` events, then the
    driver, ``after_cursor_execute``; a failure through ``Connection._handle_dbapi_exception``: ``handle_error``,
    the driver's error wrapped as SQLAlchemy's, a disconnect invalidating the connection), then every row fetched
    and the cursor closed. Private parts of SQLAlchemy 2.1 (pinned in pyproject.toml); tests/service/test_prebuilt.py
    checks that each step is taken."""
    dialect = connection.dialect
    distilled = list(parameters) if many else [parameters]
    try:
        dbapi_connection = connection._dbapi_connection
        if dbapi_connection is None:
            dbapi_connection = connection._revalidate_connection()
        context: Any = dialect.execution_ctx_cls._init_statement(
            dialect, connection, dbapi_connection, connection._execution_options, sql, distilled)
    except (exc.PendingRollbackError, exc.ResourceClosedError):
        raise
    except BaseException as error:
        connection._handle_dbapi_exception(error, sql, distilled, None, None)
    transaction, nested = connection._transaction, connection._nested_transaction
    if (transaction is not None and not transaction.is_active) or (nested is not None and not nested.is_active):
        connection._invalid_transaction()
    elif connection._trans_context_manager:
        TransactionalContext._trans_ctx_check(connection)
    if connection._transaction is None:
        connection._autobegin()
    context.pre_exec()
    cursor = context.cursor
    executemany = context.executemany
    params = context.parameters if executemany else context.parameters[0]
    try:
        events = connection._has_events or connection.engine._has_events
        if events:
            for fn in connection.dispatch.before_cursor_execute:
                sql, params = fn(connection, cursor, sql, params, context, executemany)
        if connection._echo:
            connection._log_info(sql)
            connection._log_parameters(params, "raw sql", ismulti=executemany)
        handled = False
        if executemany:
            if dialect._has_events:
                handled = any(fn(cursor, sql, params, context) for fn in dialect.dispatch.do_executemany)
            if not handled:
                dialect.do_executemany(cursor, sql, params, context)
        elif not params and context.no_parameters:
            if dialect._has_events:
                handled = any(fn(cursor, sql, context) for fn in dialect.dispatch.do_execute_no_params)
            if not handled:
                dialect.do_execute_no_params(cursor, sql, context)
        else:
            if dialect._has_events:
                handled = any(fn(cursor, sql, params, context) for fn in dialect.dispatch.do_execute)
            if not handled:
                dialect.do_execute(cursor, sql, params, context)
        if events:
            connection.dispatch.after_cursor_execute(connection, cursor, sql, params, context, executemany)
        context.post_exec()
        rows = cursor.fetchall() if cursor.description is not None else None
        done = Executed(rows, getattr(cursor, "lastrowid", None))
        cursor.close()
    except BaseException as error:
        connection._handle_dbapi_exception(error, sql, params, cursor, context)
    return done


def padded(values: list[Any], most: int) -> list[Any]:
    """``values`` (an ``IN`` list of at most ``most``) padded with its last value to the next power of two above 4
    (at most ``most``), so that a statement of any length of list is one of a few ``Prebuilt``s compiled once: a value
    again in an ``IN`` list selects nothing more (issue 20, branch burst3)."""
    count = len(values)
    if count <= 4:
        return values
    size = min(most, 1 << (count - 1).bit_length())
    return values + [values[-1]] * (size - count)


_BUILT: weakref.WeakKeyDictionary[Dialect, dict[Any, Prebuilt]] = weakref.WeakKeyDictionary()


def prebuilt(key: Any, dialect: Dialect, build: Callable[[], Prebuilt], limit: int = 256) -> Prebuilt:
    """The ``Prebuilt`` of ``key`` for ``dialect`` (its processors are the dialect's: its JSON serializer), made
    by ``build`` on first use; at most ``limit`` per dialect (the oldest made is dropped: room for the ballot
    batch's padded reads, one a combination of list lengths, and the close's shapes without dropping the hot
    statements made first; a dropped one is only compiled again)."""
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
