"""``python -m bot backup PATH``: the command-line side of engine/store/backup.py (docs/backup.md)."""

from __future__ import annotations

import sys

from bot.settings import Settings
from engine.store.backup import BackupError, backup_sqlite, is_sqlite, pg_dump_advice, sqlite_file


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
    print(f"clerk: backed up {sqlite_file(url)} to {report.path}: {report.size} bytes, {report.games} "
          f"game{'s' if report.games != 1 else ''}, {report.events} event{'s' if report.events != 1 else ''} "
          f"(schema revision {report.revision}, integrity ok)")
    return 0
