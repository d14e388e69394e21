"""``python -m bot backup PATH``: a consistent online backup of the SQLite database (docs/backup.md).

SQLite's online backup API copies the database in one step inside one read transaction, so the copy is the
database as of one instant, with every transaction committed before it, even while the bot keeps writing
(WAL mode: the reader does not block the writer). The copy goes to a temporary file next to PATH, is
checked (``PRAGMA integrity_check``, the Alembic revision is one this Clerk knows) and only then renamed over
PATH, so PATH is always either the old file or a complete, checked backup. PostgreSQL is backed up with
``pg_dump``; :func:`pg_dump_advice` gives the command."""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, make_url

from engine.store.database import BUSY_TIMEOUT_MS, is_sqlite
from engine.store.migrate import alembic_config


class BackupError(Exception):
    """The backup was not made; the message is one line that says why and what to do."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size: int
    games: int
    events: int
    revision: str


@cache
def _migrations() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    heads = _migrations().get_heads()
    if len(heads) != 1:  # pragma: no cover - the migrations are one line (tests/test_migrations.py)
        raise BackupError(f"the migrations have {len(heads)} heads ({', '.join(heads)}); expected one")
    return str(heads[0])


def sqlite_file(url: str) -> Path:
    """The file a ``sqlite+aiosqlite:///…`` URL names (relative to the current directory, like the bot)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        raise BackupError(f"DATABASE_URL {url} is an in-memory database, not a file")
    return Path(database)


def check_target(target: Path, source: Path) -> None:
    if target.is_dir():
        raise BackupError(f"{target} is a directory; give the backup a file name, "
                          f"e.g. {target / 'clerk-backup.db'}")
    folder = target.parent
    if not folder.is_dir():
        raise BackupError(f"cannot write {target}: the directory {folder} does not exist (create it first)")
    if target.exists() and source.exists() and target.resolve() == source.resolve():
        raise BackupError(f"{target} is the live database itself; give the backup another path")


def check_backup(path: Path, *, restoring: bool = True) -> BackupReport:
    """Integrity and revision of a backup file (or, with ``restoring`` False, of the copy ``backup`` just made), and
    what it holds; :class:`BackupError` if it is not sound. The revision may be this Clerk's head or any older one of
    its migrations (the bot migrates it at start); one it does not know is a newer Clerk's, refused."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return _check(connection, path, restoring)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a sound SQLite database: {error}") from None
    finally:
        connection.close()


def known_revisions() -> list[str]:
    return [str(script.revision) for script in _migrations().walk_revisions()]


def _check(connection: sqlite3.Connection, path: Path, restoring: bool) -> BackupReport:
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        raise BackupError(f"the copy failed PRAGMA integrity_check: {'; '.join(problems[:5])}")
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "alembic_version" not in tables:
        raise BackupError("the database has no alembic_version table, so it is not a Clerk database "
                          "(or the bot has never started on it)")
    revisions = [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
    what, command = ("backup", "restore it") if restoring else ("database", "back it up")
    if len(revisions) != 1:
        raise BackupError(f"the {what} is at revision {', '.join(revisions) or 'none'}, not one revision of this "
                          f"Clerk's migrations (up to {head_revision()})")
    if revisions[0] not in known_revisions():
        raise BackupError(f"the {what} is at revision {revisions[0]}, which this Clerk's migrations (up to "
                          f"{head_revision()}) do not know: a newer Clerk wrote it; {command} with that version")
    # An older revision is copied (or restored) as it is, and migrated when the bot starts on it: the backup taken
    # with the new version's code before its first start is the one an upgrade needs (play-test V1.2).
    games = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    events = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return BackupReport(path, path.stat().st_size, int(games), int(events), revisions[0])


def backup_sqlite(url: str, target: str | os.PathLike[str]) -> BackupReport:
    """Back up the SQLite database of ``url`` to ``target`` (replacing a file there); see the module doc."""
    source = sqlite_file(url)
    path = Path(target)
    check_target(path, source)
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (DATABASE_URL {url}); nothing to back up")
    temporary = temporary_beside(path, ".partial")
    try:
        _copy(source, temporary)
        report = check_backup(temporary, restoring=False)
        sync_file(temporary)
        os.replace(temporary, path)
        sync_folder(path.parent)
    finally:
        temporary.unlink(missing_ok=True)
    return BackupReport(path, report.size, report.games, report.events, report.revision)


def _copy(source: Path, temporary: Path) -> None:
    try:
        # Opened read-write like the bot (a read-only connection cannot always read a WAL database), but only read.
        live = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {source}: {error}") from None
    try:
        copy = sqlite3.connect(temporary)
        try:
            live.backup(copy)  # pages=-1: all pages in one step, one read transaction: one instant
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            copy.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"cannot back up {source}: {error}") from None
    finally:
        live.close()


def temporary_beside(path: Path, suffix: str) -> Path:
    """A new empty file, readable only by its owner, in ``path``'s directory (so a rename is atomic)."""
    try:
        descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    except OSError as error:
        raise BackupError(f"cannot write in {path.parent}: {error.strerror}") from None
    os.close(descriptor)
    return Path(name)


def sync_file(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform lets a directory be opened
        sync_file(folder)


def pg_dump_advice(url: str, target: str, command: str = "backup") -> str:
    """What to run instead for a PostgreSQL ``url``: the ``pg_dump`` and ``pg_restore`` commands."""
    parsed = make_url(url)
    plain = URL.create("postgresql", parsed.username, None, parsed.host, parsed.port, parsed.database,
                       parsed.query).render_as_string(hide_password=False)
    password = " with the password in PGPASSWORD or ~/.pgpass" if parsed.password else ""
    dump = f"pg_dump --format=custom --file={shlex.quote(target)} {shlex.quote(plain)}"
    restore = f"pg_restore --clean --if-exists --no-owner --dbname={shlex.quote(plain)} {shlex.quote(target)}"
    return (f"DATABASE_URL is a PostgreSQL database; `python -m bot {command}` copies only SQLite files. "
            f"Back it up with pg_dump (it is consistent while the bot runs){password}:\n  {dump}\n"
            f"and restore it (bot stopped) with:\n  {restore}")


__all__ = ["BackupError", "BackupReport", "backup_sqlite", "check_backup", "head_revision", "is_sqlite",
           "known_revisions", "pg_dump_advice", "sqlite_file", "sync_file", "sync_folder", "temporary_beside"]
