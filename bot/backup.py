"""``python -m bot backup PATH`` and ``python -m bot restore BACKUP``: the command-line side of
engine/store/backup.py and engine/store/restore.py (docs/backup.md)."""

from __future__ import annotations

import sqlite3
import sys
from datetime import datetime
from pathlib import Path

from bot.settings import Settings
from engine.store.backup import BackupError, BackupReport, backup_sqlite, is_sqlite, pg_dump_advice, sqlite_file
from engine.store.restore import restore_sqlite, undone_by_restore


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
        report, aside, already_sent = restore_sqlite(url, path, datetime.now())
    except BackupError as error:
        print(f"clerk: restore failed, the database was not changed: {error}", file=sys.stderr)
        return 1
    kept = f"; the old database is kept as {aside}" if aside else ""
    print(f"clerk: restored {path} to {report.path}: {_holds(report)}{kept}. Start the bot.")
    if already_sent:
        many, them = (f"{already_sent} messages", "them") if already_sent != 1 else ("1 message", "it")
        print(f"clerk: {many} the backup still owed went to Discord after it was taken: marked as the old database "
              f"has {them}, so the bot does not send {them} again.")
    if aside is not None:
        _undone(aside, report.path)
    return 0


def _undone(aside: Path, restored: Path) -> None:
    """What the restore undid, game by game (play-test V2.1): ballots and commands acknowledged after the backup are
    not in the restored database, and nothing tells their senders but the moderators."""
    try:
        undone = undone_by_restore(aside, restored)
    except sqlite3.Error as error:  # the restore is done; only the comparison failed
        print(f"clerk: could not compare the old database with the backup ({error}); what was recorded after the "
              f"backup is in {aside}")
        return
    if not undone:
        print("clerk: the old database recorded nothing after the backup: nothing was undone.")
        return
    print(f"clerk: the restore undid what the old database (kept as {aside}) recorded after the backup:")
    for game in undone:
        print(f"  {game.line()}")
    print("clerk: those ballots and commands were acknowledged but are not in the restored database, and the bot will "
          "not take them again by itself (a DM it answered is not read back): tell these games' moderators, and the "
          "players named, to send them again (docs/backup.md, \"What a restore undoes\").")


def _holds(report: BackupReport) -> str:
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    return f"{report.size} bytes, {games}, {events} (schema revision {report.revision}, integrity ok)"
