"""A new SQLite database made at the newest revision in one transaction, from the schema the migrations build.

Running the migrations on a new SQLite file costs about 0.4 s of a start (Alembic's imports, then every
migration's batch operations, each one re-creating its table), most of what a one-line ``python -m bot replay`` or
a console on a new database does (issue 20). ``migrations/sqlite_head.sql`` holds what those migrations leave in a
new file: every table, index, trigger and view exactly as SQLite stored it (``sqlite_master``'s text) and every row
they write (``alembic_version``'s). ``create_at_head`` runs it on a database with nothing in it yet, under the
database's write lock; anything else (an older revision, a schema already there, a script older than the newest
migration) is left to Alembic, as before.

The script is a dump of a database the migrations built (``python -m engine.store.fresh`` writes it again), and
``tests/test_fresh_schema.py`` proves the two are the same: the file is what the migrations build now, and a
database made from it has the same ``sqlite_master``, pragmas and rows as one migrated. A migration added without
writing the file again fails that test, and until it is written again new databases are migrated by Alembic (the
script's revision is not the head): never a database at head with an older schema."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

SCRIPT = Path(migrations.__file__).parent / "sqlite_head.sql"
REVISION_LINE = "-- revision: "
_KINDS = ("table", "index", "trigger", "view")
"""The order the script creates things in: a table before its indexes and triggers, every table before a view."""


def canonical(sql: str) -> str:
    """A table's ``CREATE TABLE`` text with its named constraints in order of their text: Alembic's batch operations
    re-create a table with its constraints in an order that changes from run to run (a set's), which means nothing
    to SQLite. Anything not laid out as SQLAlchemy writes a table (one column or constraint a line) is unchanged."""
    lines = sql.split("\n")
    if len(lines) < 3 or not lines[0].startswith("CREATE TABLE ") or not lines[0].endswith("(") or lines[-1] != ")":
        return sql
    body = lines[1:-1]
    if any(not line.endswith(", ") for line in body[:-1]) or body[-1].endswith(","):
        return sql
    items = [line.removesuffix(", ") for line in body]
    columns = [item for item in items if not item.startswith("\tCONSTRAINT ")]
    constraints = sorted(item for item in items if item.startswith("\tCONSTRAINT "))
    if items[:len(columns)] != columns:  # a constraint before a column: not SQLAlchemy's layout
        return sql
    return "\n".join([lines[0], ", \n".join(columns + constraints), ")"])


def dump(connection: sqlite3.Connection, revision: str) -> str:
    """The script that makes a new database like the one ``connection`` opens (at ``revision``): its schema objects
    in ``_KINDS`` order and by name (a table's constraints in ``canonical`` order), then the rows of every table in
    order of its columns."""
    lines = ["-- The schema the migrations build in a new SQLite database: engine/store/fresh.py makes a new database",
             "-- with it instead of running them. Written by `python -m engine.store.fresh`; do not edit by hand.",
             f"{REVISION_LINE}{revision}", ""]
    objects = connection.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    internal = [name for _, name, _ in objects if name.startswith("sqlite_") and name != "sqlite_sequence"]
    if internal:
        raise ValueError(f"cannot dump SQLite's internal tables {internal}")
    for kind, name, sql in sorted(objects, key=lambda o: (_KINDS.index(o[0]), o[1])):
        if name != "sqlite_sequence":  # SQLite makes it with the first AUTOINCREMENT table
            lines.append(f"{canonical(sql) if kind == 'table' else sql};")
    for kind, name, _ in sorted(objects, key=lambda o: o[1]):
        if kind != "table":
            continue
        columns = [row[1] for row in connection.execute(f'PRAGMA table_info("{name}")')]
        quoted = " || ',' || ".join(f'quote("{column}")' for column in columns)
        order = ", ".join(f'"{column}"' for column in columns)
        for (values,) in connection.execute(f'SELECT {quoted} FROM "{name}" ORDER BY {order}'):
            lines.append(f'INSERT INTO "{name}" VALUES({values});')
    return "\n".join(lines) + "\n"


def statements(script: str) -> tuple[str | None, list[str]]:
    """The revision a script is at, and its statements (each complete, as SQLite reads them)."""
    revision, found, pending = None, [], ""
    for line in script.splitlines(keepends=True):
        if not pending and line.startswith(REVISION_LINE):
            revision = line[len(REVISION_LINE):].strip()
        if not pending and (line.startswith("--") or not line.strip()):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"the script ends in an incomplete statement: {pending[:80]!r}")
    return revision, found


async def create_at_head(engine: AsyncEngine, head: str) -> bool:
    """Make the empty SQLite database of ``engine`` at revision ``head`` from the script, under the write lock;
    True if the database is at ``head`` now (made here, or by another process that held the lock first), False
    if the script is not at ``head`` or the database has something in it that is not at ``head`` (Alembic's)."""
    try:
        revision, script = statements(SCRIPT.read_text(encoding="utf-8"))
    except OSError:
        return False
    if revision != head:
        return False
    async with engine.connect() as connection:
        await connection.execute(text("BEGIN IMMEDIATE"))  # what engine.store.locking does for every write
        if (await connection.execute(text("SELECT count(*) FROM sqlite_master"))).scalar_one():
            await connection.rollback()
            from engine.store.migrate import at_head

            async with engine.connect() as again:
                return await at_head(again)
        for statement in script:
            await connection.exec_driver_sql(statement)
        await connection.commit()
    return True


def main() -> int:
    """``python -m engine.store.fresh [FILE]``: migrate a new database with Alembic and write its dump to FILE (the
    script ``create_at_head`` uses, by default)."""
    import asyncio
    import tempfile

    from engine.store.database import make_engine
    from engine.store.migrate import head_revision, upgrade

    head = head_revision()
    if head is None:
        print("the migrations have no single head: nothing written", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "head.db"

        async def migrate() -> None:
            engine = make_engine(f"sqlite+aiosqlite:///{path}")
            try:
                await upgrade(engine, use_script=False)
            finally:
                await engine.dispose()

        asyncio.run(migrate())
        with sqlite3.connect(path) as connection:
            script = dump(connection, head)
        connection.close()
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCRIPT
    target.write_text(script, encoding="utf-8")
    print(f"wrote {target} at revision {head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
