"""``python -m bot restore BACKUP``: put a backup in the place of the SQLite database, with the bot stopped
(docs/backup.md).

The backup is checked first (integrity, a revision this Clerk knows; an older one is migrated when the bot
starts). The live database is then switched out of WAL mode, which SQLite allows only when no other
connection has it open: so a running bot is detected and the restore refused, and a WAL file left by a
crash is folded into the old database instead of being replayed onto the restored one. The old database is
kept beside it (``clerk.db.before-restore-<time>``), never deleted; the backup is copied to a temporary file,
checked again and renamed into place."""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from engine.store.backup import (
    BackupError,
    BackupReport,
    check_backup,
    sqlite_file,
    sync_file,
    sync_folder,
    temporary_beside,
)


def restore_sqlite(url: str, backup: str | os.PathLike[str], now: datetime) -> tuple[BackupReport, Path | None]:
    """Restore ``backup`` to the database of ``url``; returns what was restored and where the old database went."""
    source = Path(backup)
    live = sqlite_file(url)
    if not source.is_file():
        raise BackupError(f"there is no backup file at {source}")
    if not live.parent.is_dir():
        raise BackupError(f"the database's directory {live.parent} (DATABASE_URL {url}) does not exist")
    if live.exists() and source.resolve() == live.resolve():
        raise BackupError(f"{source} is the live database itself")
    check_backup(source)
    aside = None
    if live.exists():
        _quiesce(live)
        aside = live.with_name(f"{live.name}.before-restore-{now.strftime('%Y%m%dT%H%M%S')}")
        if aside.exists():
            raise BackupError(f"{aside} exists already; move it away and run the restore again")
    temporary = temporary_beside(live, ".restoring")
    try:
        shutil.copyfile(source, temporary)
        report = check_backup(temporary)
        sync_file(temporary)
        if aside is not None:
            os.replace(live, aside)
        os.replace(temporary, live)
        sync_folder(live.parent)
    finally:
        temporary.unlink(missing_ok=True)
    return BackupReport(live, report.size, report.games, report.events, report.revision), aside


def _quiesce(live: Path) -> None:
    """Fold the live database's WAL into it and leave it one self-contained file; refuse if it is in use."""
    try:
        connection = sqlite3.connect(live, timeout=0)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {live}: {error}") from None
    try:
        mode = connection.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            mode = "in use"
        else:
            raise BackupError(f"cannot open {live}: {error}") from None
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{live} is not a sound SQLite database ({error}); move it away and run the restore "
                          "again") from None
    finally:
        connection.close()
    if mode != "delete":
        raise BackupError(f"{live} is in use (is the bot running?); stop the bot, then restore")


__all__ = ["restore_sqlite"]
