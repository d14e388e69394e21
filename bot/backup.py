"""``python -m bot backup PATH`` and ``python -m bot restore BACKUP``: the command-line side of
engine/store/backup.py and engine/store/restore.py (docs/backup.md)."""

from __future__ import annotations

import sys
from datetime import datetime

from bot.settings import Settings
from engine.store.backup import BackupError, BackupReport, backup_sqlite, is_sqlite, pg_dump_advice, sqlite_file
from engine.store.restore import restore_sqlite


def run_backup(settings: Settings, path: str) -> int:
    url = settings.database_url
    if not is_sqlite(url):
        print(f"clerk: {pg_dump_advice(url, path)}", file=sys.stderr)
        return 2
    try:
        report = backup_sqlite(url, path)
    except BackupError as error:
        print(f"clerk: backup failed, nothing was written to {path}: {error}", file=sys.stderr)
        return 1
    print(f"clerk: backed up {sqlite_file(url)} to {report.path}: {_holds(report)}")
    return 0


def run_restore(settings: Settings, path: str) -> int:
    url = settings.database_url
    if not is_sqlite(url):
        print(f"clerk: {pg_dump_advice(url, path, 'restore')}", file=sys.stderr)
        return 2
    try:
        report, aside = restore_sqlite(url, path, datetime.now())
    except BackupError as error:
        print(f"clerk: restore failed, the database was not changed: {error}", file=sys.stderr)
        return 1
    kept = f"; the old database is kept as {aside}" if aside else ""
    print(f"clerk: restored {path} to {report.path}: {_holds(report)}{kept}. Start the bot.")
    return 0


def _holds(report: BackupReport) -> str:
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    return f"{report.size} bytes, {games}, {events} (schema revision {report.revision}, integrity ok)"
