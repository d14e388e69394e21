"""At start the bot refuses, in one line, a database it cannot write (issue 21: started on read-only files it came
up with no clear warning and then refused every ballot). ``engine.store.writable`` checks the files (an immutable
flag: root ignores file modes, so ``chattr +i``, skipped where the machine cannot set it), the folder, and a write
through the engine (portable: the driver's read-only error injected, tests/storage_faults.py; on PostgreSQL a role
whose sessions are read-only)."""

from __future__ import annotations

import logging
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from databases import ON_POSTGRES, POSTGRES_URL
from sqlalchemy import text
from sqlalchemy.engine import make_url
from storage_faults import FaultInjector

from bot.discord.run import main
from bot.settings import Settings
from engine.store import writable
from engine.store.database import make_engine
from engine.store.writable import NotWritable, check_files, check_writable, upgrade_writable


@pytest.fixture
def database(tmp_path: Path, sqlite_template: Path) -> Path:
    path = tmp_path / "db" / "clerk.db"
    path.parent.mkdir()
    shutil.copyfile(sqlite_template, path)
    return path


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """``immutable.append(path)``: made immutable with ``chattr +i`` (skips the test where it cannot be), and
    mutable again at the end."""
    done: list[Path] = []

    class Files(list[Path]):
        def append(self, path: Path) -> None:
            result = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False) \
                if shutil.which("chattr") else None
            if result is None or result.returncode != 0:
                pytest.skip("this machine cannot set the immutable flag (needs root and a file system with it)")
            done.append(path)

    yield Files()
    for path in done:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_a_writable_database_passes(database: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    try:
        await upgrade_writable(engine)
    finally:
        await engine.dispose()


def test_an_immutable_database_file_is_refused_in_one_line(database: Path, immutable: list[Path]) -> None:
    immutable.append(database)
    with pytest.raises(NotWritable) as refused:
        check_files(make_engine(f"sqlite+aiosqlite:///{database}"))
    assert str(refused.value).startswith(f"the database file {database} cannot be written (Operation not permitted)")
    assert "\n" not in str(refused.value)


def test_an_immutable_wal_file_is_refused(database: Path, immutable: list[Path]) -> None:
    wal = Path(f"{database}-wal")
    wal.write_bytes(b"")
    immutable.append(wal)
    with pytest.raises(NotWritable, match="-wal cannot be written"):
        check_files(make_engine(f"sqlite+aiosqlite:///{database}"))


def test_a_folder_that_takes_no_new_file_is_refused(database: Path, immutable: list[Path]) -> None:
    immutable.append(database.parent)
    with pytest.raises(NotWritable, match=r"the folder .* cannot be written .* SQLite creates clerk.db-wal"):
        check_files(make_engine(f"sqlite+aiosqlite:///{database}"))


def test_a_folder_or_a_file_that_is_not_sqlite_is_refused_saying_so(tmp_path: Path) -> None:
    """Play-test 4.7: DATABASE_URL naming a folder was told to fix the file's owner and mode; a text file "cannot be
    written: file is not a database"."""
    with pytest.raises(NotWritable) as folder:
        check_files(make_engine(f"sqlite+aiosqlite:///{tmp_path}"))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, but long enough to be read as one's header: " * 4)
    with pytest.raises(NotWritable) as text_file:
        check_files(make_engine(f"sqlite+aiosqlite:///{notes}"))

    assert str(folder.value) == (f"the database {tmp_path} is a folder: DATABASE_URL names the database file, for "
                                 f"example sqlite+aiosqlite:///{tmp_path}/clerk.db")
    assert str(text_file.value) == (f"the file {notes} is not a SQLite database (DATABASE_URL names another kind of "
                                    "file): name a new file, which Clerk creates, or the database you meant")


async def test_a_database_that_refuses_the_write_probe_is_refused(database: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    faults = FaultInjector().install(engine.sync_engine)
    faults.arm("read-only")
    try:
        with pytest.raises(NotWritable, match="the database refuses writes: attempt to write a readonly database"):
            await check_writable(engine)
    finally:
        await engine.dispose()


async def test_main_refuses_to_start_on_a_read_only_database_with_one_line(
        database: Path, immutable: list[Path], caplog: pytest.LogCaptureFixture) -> None:
    immutable.append(database)
    settings = Settings(token="never-used", database_url=f"sqlite+aiosqlite:///{database}")
    caplog.set_level(logging.INFO)
    assert await main(settings) == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage().split(" (")[0] for r in errors] == [
        f"cannot start: the database file {database} cannot be written"]
    assert errors[0].exc_info is None


@ON_POSTGRES
async def test_a_read_only_postgresql_database_is_refused() -> None:
    role = f"clerk_ro_{uuid.uuid4().hex[:12]}"
    schema = f"clerk_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES_URL)
    async with admin.begin() as connection:
        await connection.execute(text(f'CREATE ROLE "{role}" LOGIN'))
        await connection.execute(text(f'CREATE SCHEMA "{schema}" AUTHORIZATION "{role}"'))
    url = make_url(POSTGRES_URL).set(username=role).render_as_string(hide_password=False)
    options = {"connect_args": {"server_settings": {"search_path": schema}}}
    try:
        engine = make_engine(url, **options)
        await upgrade_writable(engine)  # writable: migrated and passed
        await engine.dispose()
        async with admin.begin() as connection:
            await connection.execute(text(f'ALTER ROLE "{role}" SET default_transaction_read_only = on'))
        engine = make_engine(url, **options)
        with pytest.raises(NotWritable, match=r"the database refuses writes: .*read-only transaction"):
            await upgrade_writable(engine)
        await engine.dispose()
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            await connection.execute(text(f'DROP OWNED BY "{role}"'))
            await connection.execute(text(f'DROP ROLE "{role}"'))
        await admin.dispose()


def test_a_database_another_process_is_writing_is_writable_only_busy(database: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart that overlaps the old process: the old one holds the write lock; the new one must still start."""
    import sqlite3

    monkeypatch.setattr(writable, "BUSY_WAIT", 0.05)  # the lock is held throughout: the wait's length changes nothing

    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        check_files(make_engine(f"sqlite+aiosqlite:///{database}"))
    finally:
        other.execute("ROLLBACK")
        other.close()
