"""engine/store/prebuilt.py's ``driver_execute`` (what ``Prebuilt.fetch``, ``execute`` and ``execute_many`` run on):
the steps of ``Connection.exec_driver_sql`` without its ``CursorResult``. What the rest of the project relies on:
the engine's ``before_cursor_execute``/``after_cursor_execute`` (the statement counts of
test_service_scaling.py), the dialect's ``do_execute``/``do_executemany`` (the fault injection of
tests/storage_faults.py), ``handle_error`` and the reconnect after a disconnect (``faults.reopen_after_faults``),
the connection's transaction, and rows exactly as the Core statement returns them. Both backends."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import JSON, Column, Connection, DateTime, Integer, MetaData, String, Table, bindparam, event, exc
from sqlalchemy import insert as core_insert
from sqlalchemy import select as core_select

from engine.store.prebuilt import Prebuilt

meta = MetaData()
things = Table("prebuilt_things", meta, Column("id", Integer, primary_key=True), Column("name", String),
               Column("doc", JSON), Column("at", DateTime(timezone=True)))
_INSERT = core_insert(things).values(name=bindparam("name"), doc=bindparam("doc"), at=bindparam("at"))
_SELECT = core_select(things.c.id, things.c.name, things.c.doc, things.c.at).where(things.c.name == bindparam("name"))
AT = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def _insert(connection: Connection) -> Prebuilt:
    return Prebuilt(_INSERT, connection.dialect, {"name": "", "doc": None, "at": AT}, column_keys=["name", "doc", "at"])


def _select(connection: Connection) -> Prebuilt:
    return Prebuilt(_SELECT, connection.dialect, {"name": ""}, columns=list(_SELECT.selected_columns))


async def _run(database: Any, work: Any) -> Any:
    engine = database.engine()
    try:
        async with engine.begin() as connection:
            await connection.run_sync(meta.create_all)
        async with engine.connect() as connection:
            return await connection.run_sync(work)
    finally:
        await engine.dispose()


async def test_rows_are_the_core_statements_and_the_writes_are_in_the_connections_transaction(database: Any) -> None:
    def work(connection: Connection) -> None:
        with connection.begin():
            _insert(connection).execute_many(connection, [{"name": "a", "doc": {"k": [1, 2]}, "at": AT},
                                                          {"name": "b", "doc": None, "at": AT}])
            rowid = _insert(connection).execute(connection, {"name": "c", "doc": {"x": "y"}, "at": AT})
            if connection.dialect.name == "sqlite":
                assert rowid == 3
        for name in ("a", "b", "c"):
            core = [tuple(row) for row in connection.execute(_SELECT, {"name": name})]
            assert [tuple(row) for row in _select(connection).fetch(connection, {"name": name})] == core
        assert _select(connection).fetch(connection, {"name": "a"})[0].doc == {"k": [1, 2]}
        connection.rollback()
        with connection.begin() as transaction:  # rolled back: nothing of it stays
            _insert(connection).execute(connection, {"name": "d", "doc": None, "at": AT})
            transaction.rollback()
        assert _select(connection).fetch(connection, {"name": "d"}) == []
        connection.rollback()
        _insert(connection).execute(connection, {"name": "e", "doc": None, "at": AT})  # begins one, as Core does
        assert connection.in_transaction()
        connection.rollback()
        assert _select(connection).fetch(connection, {"name": "e"}) == []

    await _run(database, work)


async def test_the_engines_and_the_dialects_events_see_every_statement(database: Any) -> None:
    def work(connection: Connection) -> None:
        engine, seen, executed = connection.engine, [], []

        def before(_c: Any, _cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
            seen.append(("before", statement, many))

        def after(_c: Any, _cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
            seen.append(("after", statement, many))

        def do_execute(_cursor: Any, statement: str, params: Any, context: Any) -> bool:
            assert context.dialect is connection.dialect
            assert context.root_connection.connection.dbapi_connection is not None
            executed.append(("one", statement))
            # True: the listener ran it (here: nobody does, so that row is never written)
            return statement.lstrip().upper().startswith("INSERT") and "skip me" in str(params)

        def do_executemany(_cursor: Any, statement: str, params: Any, context: Any) -> bool:
            executed.append(("many", statement))
            return False

        listeners = [(engine, "before_cursor_execute", before), (engine, "after_cursor_execute", after),
                     (engine, "do_execute", do_execute), (engine, "do_executemany", do_executemany)]
        for target, name, fn in listeners:
            event.listen(target, name, fn)
        try:
            with connection.begin():
                insert = _insert(connection)
                insert.execute(connection, {"name": "a", "doc": None, "at": AT})
                insert.execute_many(connection, [{"name": "b", "doc": None, "at": AT}] * 2)
                insert.execute(connection, {"name": "skip me", "doc": None, "at": AT})
            found = _select(connection).fetch(connection, {"name": "skip me"})
        finally:
            for target, name, fn in listeners:
                event.remove(target, name, fn)
        assert found == []  # the listener said it had executed it: the driver never did
        sql = insert.sql
        assert [s for s in seen if s[1] == sql] == [("before", sql, False), ("after", sql, False),
                                                    ("before", sql, True), ("after", sql, True),
                                                    ("before", sql, False), ("after", sql, False)]
        assert [e for e in executed if e[1] == sql] == [("one", sql), ("many", sql), ("one", sql)]

    await _run(database, work)


async def test_a_driver_error_is_wrapped_handled_and_a_disconnect_reconnects(database: Any) -> None:
    def work(connection: Connection) -> None:
        engine, handled = connection.engine, []
        dbapi = connection.dialect.loaded_dbapi

        def fail(_cursor: Any, statement: str, params: Any, context: Any) -> bool:
            if statement.lstrip().upper().startswith("INSERT"):
                raise dbapi.OperationalError("injected")
            return False

        def handle_error(context: Any) -> None:
            handled.append(type(context.original_exception))
            context.is_disconnect = True

        event.listen(engine, "do_execute", fail)
        event.listen(engine, "handle_error", handle_error)
        try:
            before = connection.connection.dbapi_connection
            with pytest.raises(exc.OperationalError) as raised, connection.begin():
                _insert(connection).execute(connection, {"name": "a", "doc": None, "at": AT})
            assert raised.value.connection_invalidated
            assert handled == [dbapi.OperationalError]
            assert connection.invalidated
        finally:
            event.remove(engine, "do_execute", fail)
            event.remove(engine, "handle_error", handle_error)
        with connection.begin():  # a new DB-API connection, opened at the next use
            _insert(connection).execute(connection, {"name": "b", "doc": None, "at": AT})
        assert connection.connection.dbapi_connection is not before
        assert [row.name for row in _select(connection).fetch(connection, {"name": "b"})] == ["b"]

    await _run(database, work)


async def test_a_time_shared_by_rows_and_one_that_changes_are_each_written_as_core_writes_them(database: Any) -> None:
    """The last time's text is kept (``prebuilt._kept_time``): rows of one time, then another, then the first again,
    each stored as the Core statement stores it."""
    later = datetime(2026, 3, 2, 9, 30, 15, 123456, tzinfo=UTC)
    times = [AT, AT, later, AT, later, later, None, AT]

    def work(connection: Connection) -> None:
        with connection.begin():
            _insert(connection).execute_many(connection, [{"name": f"p{n}", "doc": None, "at": t}
                                                          for n, t in enumerate(times)])
            connection.execute(_INSERT, [{"name": f"c{n}", "doc": None, "at": t} for n, t in enumerate(times)])
        raw = connection.exec_driver_sql("SELECT name, at FROM prebuilt_things ORDER BY id").all()
        prebuilt_rows = [at for name, at in raw if name.startswith("p")]
        core_rows = [at for name, at in raw if name.startswith("c")]
        assert prebuilt_rows == core_rows and len(set(prebuilt_rows)) == 3
        connection.rollback()

    await _run(database, work)


async def test_owed_messages_in_one_prebuilt_statement_are_kept_as_cores_insert_keeps_them(database: Any) -> None:
    """``owed._insert_many`` (the ballot batch's receipts on SQLite): every row stored, its id told by its nonce, its
    values as the Core insert of the same messages stores them."""
    from engine.service.owed import RECEIPT, Owed, _insert
    from engine.store.models import Base

    owed = Base.metadata.tables["owed_messages"]
    messages = [Owed(f"user:{n}", 300 + n, RECEIPT, f"n{n}", {"to": ["user", n], "text": f"receipt {n}"},
                     source_id=f"msg:{n}") for n in range(5)]
    columns = "lane, channel_id, priority, nonce, coalesce, source_id, body, owed_at, attempts, outcome"

    def work(connection: Connection) -> None:
        if connection.dialect.name != "sqlite":
            pytest.skip("the prebuilt insert is SQLite's")
        with connection.begin():
            owed.create(connection)
            rows = _insert(connection, AT, messages, prebuilt_sql=True)
            core = _insert(connection, AT, [Owed(m.lane, m.channel_id, m.priority, "core-" + m.nonce, m.body,
                                                 source_id=m.source_id) for m in messages])
        assert [r.owed for r in rows] == messages
        stored = {row[0]: row[1:] for row in connection.exec_driver_sql(f"SELECT id, {columns} FROM owed_messages")}
        assert len(stored) == 10
        for mine, theirs in zip(rows, core, strict=True):
            assert stored[mine.id][3] == mine.owed.nonce
            assert stored[mine.id][:3] + stored[mine.id][4:] == stored[theirs.id][:3] + stored[theirs.id][4:]
        connection.rollback()

    await _run(database, work)


async def test_marks_of_owed_messages_settled_prebuilt_are_stored_as_cores_update_stores_them(database: Any) -> None:
    """``owed._settle`` on the SQLite twin (``prebuilt_sql``: a burst's marks, one statement per outcome whose list
    of rows is padded to a power of two) writes each row's outcome and time exactly as the Core executemany does,
    touches no other row, and a batch that marks a row twice keeps the later mark, as the executemany does."""
    from engine.service.owed import RECEIPT, Owed, _insert, _settle
    from engine.store.models import Base

    owed = Base.metadata.tables["owed_messages"]
    later = datetime(2026, 3, 2, 9, 30, 15, 123456, tzinfo=UTC)
    messages = [Owed(f"user:{n}", 300 + n, RECEIPT, f"n{n}", {"text": f"receipt {n}"}) for n in range(25)]
    kinds = ["sent", "undeliverable", "sent", "sent", "sent", "superseded", "sent", "sent", "undeliverable", "sent"]

    def work(connection: Connection) -> None:
        if connection.dialect.name != "sqlite":
            pytest.skip("the prebuilt settle is the SQLite twin's")
        with connection.begin():
            owed.create(connection)
            ids = [r.id for r in _insert(connection, AT, messages)]
            mine, theirs = ids[:10], ids[10:20]
            _settle(connection, later, list(zip(reversed(mine), kinds, strict=True)), prebuilt_sql=True)
            _settle(connection, later, list(zip(reversed(theirs), kinds, strict=True)))
            # ids[20] marked twice: as the executemany, the later mark stays (grouped by outcome it would be "sent")
            _settle(connection, AT, [(ids[22], "undeliverable"), (ids[20], "sent"), (ids[20], "undeliverable")],
                    prebuilt_sql=True)
            _settle(connection, AT, [(ids[23], "undeliverable"), (ids[21], "sent"), (ids[21], "undeliverable")])
        stored = dict(connection.exec_driver_sql("SELECT id, outcome || ' ' || done_at FROM owed_messages").all())
        assert [stored[i] for i in mine] == [stored[i] for i in theirs]
        assert sorted(stored[i].split(" ")[0] for i in mine) == sorted(kinds)
        assert stored[ids[20]] == stored[ids[21]] == stored[ids[22]] == stored[ids[23]] != stored[ids[1]]
        assert stored[ids[20]].startswith("undeliverable ")
        assert stored[ids[24]] is None  # not settled: untouched
        connection.rollback()

    await _run(database, work)


async def test_rows_in_a_few_multi_row_statements_are_stored_as_cores_executemany_stores_them(database: Any) -> None:
    """``Prebuilt.execute_rows`` (the ballot batch's events and ballots on SQLite): the rows in order, their values as
    Core's executemany stores them, in one statement per power of two of the rows; an upsert's ``ON CONFLICT`` kept
    after the repeated ``VALUES`` group; a statement that is no ``INSERT ... VALUES (?, ...)`` refused."""
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    keyed = Table("prebuilt_keyed", meta, Column("id", Integer, primary_key=True), Column("name", String, unique=True),
                  Column("hits", Integer), keep_existing=True)
    upsert = sqlite_insert(keyed)
    upsert = upsert.on_conflict_do_update(index_elements=[keyed.c.name], set_={"hits": upsert.excluded.hits})
    later = datetime(2026, 3, 2, 9, 30, 15, 123456, tzinfo=UTC)
    rows = [{"name": f"r{n}", "doc": {"n": n} if n % 3 else None, "at": (AT, later, None)[n % 3]} for n in range(300)]

    def work(connection: Connection) -> None:
        if connection.dialect.name != "sqlite":
            pytest.skip("the multi-row statements are SQLite's")
        statements: list[str] = []
        counted = lambda _c, _cur, sql, *_: statements.append(sql)  # noqa: E731
        event.listen(connection, "before_cursor_execute", counted)
        with connection.begin():
            _insert(connection).execute_rows(connection, rows)
            mine = len(statements)
            connection.execute(_INSERT, [{**row, "name": "c" + row["name"]} for row in rows])
            built = Prebuilt(upsert, connection.dialect, {"name": "", "hits": 0}, column_keys=["name", "hits"])
            built.execute_rows(connection, [{"name": f"k{n}", "hits": n} for n in range(5)])
            built.execute_rows(connection, [{"name": f"k{n}", "hits": 10 + n} for n in range(3, 9)])
        event.remove(connection, "before_cursor_execute", counted)
        assert mine == 4 and statements[0].count("(?, ?, ?)") == 256  # 256 + 32 + 8 + 4
        stored = connection.exec_driver_sql("SELECT name, doc, at FROM prebuilt_things ORDER BY id").all()
        assert [r[0] for r in stored[:300]] == [row["name"] for row in rows]
        assert [r[1:] for r in stored[:300]] == [r[1:] for r in stored[300:]]
        assert connection.exec_driver_sql("SELECT name, hits FROM prebuilt_keyed ORDER BY id").all() == [
            ("k0", 0), ("k1", 1), ("k2", 2), ("k3", 13), ("k4", 14), ("k5", 15), ("k6", 16), ("k7", 17), ("k8", 18)]
        with pytest.raises(ValueError, match="not an INSERT"):
            _select(connection).execute_rows(connection, [{"name": "a"}, {"name": "b"}])
        connection.rollback()

    await _run(database, work)
