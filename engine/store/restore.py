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
from collections import Counter
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Undone:
    """What the database a restore replaced recorded in one game after the backup was taken: the restore undoes it
    (play-test V2.1). ``whole``: the game itself was made after the backup."""

    game: str
    events: int
    first: str
    last: str
    kinds: tuple[tuple[str, int], ...]
    players: tuple[str, ...]
    """The players (by name) whose own ballots, forms or commands are among the events, in the order they acted."""
    whole: bool = False

    def line(self) -> str:
        span = self.first if self.first == self.last else f"{self.first} to {self.last}"
        kinds = ", ".join(f"{kind} {count}" for kind, count in self.kinds)
        who = f"; players who acted: {', '.join(self.players)}" if self.players else ""
        made = "the whole game, made after the backup: " if self.whole else ""
        return f"{self.game}: {made}{self.events} event{'s' if self.events != 1 else ''} from {span} UTC ({kinds}){who}"


def undone_by_restore(old: Path, restored: Path) -> list[Undone]:
    """Per game, what ``old`` (the database the restore put aside) recorded that ``restored`` (the backup now in its
    place) does not have: the events after the backup's last one of each game (its ``last_seq``), and the games made
    after the backup. Read only; both files are Clerk databases (checked before)."""
    def connect(path: Path) -> sqlite3.Connection:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)

    backup, before = connect(restored), connect(old)
    try:
        games = backup.execute("SELECT id, name, last_seq FROM games")
        kept = {int(i): (str(name), int(seq)) for i, name, seq in games}
        found = []
        for game_id, name, last_seq in before.execute("SELECT id, name, last_seq FROM games ORDER BY id").fetchall():
            same = kept.get(int(game_id))
            whole = same is None or same[0] != name
            after = 0 if same is None or whole else same[1]
            if int(last_seq) <= after:
                continue
            rows = before.execute("SELECT kind, actor, at FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                                  (game_id, after)).fetchall()
            if not rows:
                continue
            names = dict(before.execute("SELECT user_id, name FROM players WHERE game_id = ?", (game_id,)).fetchall())
            players = dict.fromkeys(str(names[a]) for _, a, _ in rows if a in names)
            kinds = Counter(str(kind) for kind, _, _ in rows)
            found.append(Undone(str(name), len(rows), str(rows[0][2])[:19], str(rows[-1][2])[:19],
                                tuple(kinds.items()), tuple(players), whole))
        return found
    finally:
        backup.close()
        before.close()


__all__ = ["Undone", "restore_sqlite", "undone_by_restore"]
