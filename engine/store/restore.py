"""``python -m bot restore BACKUP``: put a backup in the place of the SQLite database, with the bot stopped
(docs/backup.md).

The backup is checked first (integrity, a revision this Clerk knows; an older one is migrated when the bot
starts). The live database is then switched out of WAL mode, which SQLite allows only when no other
connection has it open: so a running bot is detected and the restore refused, and a WAL file left by a
crash is folded into the old database instead of being replayed onto the restored one. The old database is
kept beside it (``clerk.db.before-restore-<time>``), never deleted; the backup is copied to a temporary file,
checked again and renamed into place. Messages the backup still owes that the old database had sent since are marked
sent in the copy first (``settle_as_before``), so the bot does not send them twice."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from engine.store.backup import (
    BackupError,
    BackupReport,
    check_backup,
    sqlite_file,
    sync_file,
    sync_folder,
    temporary_beside,
)


class Restored(NamedTuple):
    report: BackupReport
    aside: Path | None
    """Where the old database went (None: there was none)."""
    already_sent: int
    """The messages the backup still owed that the old database had sent since (``settle_as_before``)."""


def restore_sqlite(url: str, backup: str | os.PathLike[str], now: datetime) -> Restored:
    """Restore ``backup`` to the database of ``url``; returns what was restored, where the old database went and how
    many of the messages the backup owed were marked sent as the old database had them."""
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
        already_sent = settle_as_before(temporary, live) if live.exists() else 0
        sync_file(temporary)
        if aside is not None:
            os.replace(live, aside)
        os.replace(temporary, live)
        sync_folder(live.parent)
    finally:
        temporary.unlink(missing_ok=True)
    return Restored(BackupReport(live, report.size, report.games, report.events, report.revision), aside, already_sent)


DELIVERED = ("sent", "undeliverable")
"""The outcomes of an owed message that say Discord was asked for it (bot/discord/outbox_worker.py); a message
superseded after the backup was superseded by a newer one the backup does not hold, so it is owed again."""
_AT_ONCE = 500


def settle_as_before(restored: Path, old: Path) -> int:
    """Mark each message ``restored`` (the backup, before it is put in place) still owes as ``old`` (the database it
    replaces) settled it since, when Discord was asked for it there: sent (or undeliverable) after the backup was
    taken, it must not be sent again when the bot starts on the backup. The nonce a message is sent with lets Discord
    drop a repeat within minutes only; a restore comes later. Returns how many were marked. A database without the
    outbox's table (older than revision 0009) has nothing to mark."""
    new = sqlite3.connect(restored)
    before = sqlite3.connect(f"{old.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'owed_messages'"
        if new.execute(tables).fetchone() is None or before.execute(tables).fetchone() is None:
            return 0
        owed = [str(nonce) for (nonce,) in new.execute("SELECT nonce FROM owed_messages WHERE outcome IS NULL")]
        settled = []
        for start in range(0, len(owed), _AT_ONCE):
            nonces = owed[start:start + _AT_ONCE]
            delivered, listed = ", ".join("?" * len(DELIVERED)), ", ".join("?" * len(nonces))
            settled += before.execute(f"SELECT outcome, done_at, nonce FROM owed_messages WHERE outcome IN "
                                      f"({delivered}) AND nonce IN ({listed})", (*DELIVERED, *nonces)).fetchall()
        with new:
            new.executemany("UPDATE owed_messages SET outcome = ?, done_at = ? WHERE nonce = ? AND outcome IS NULL",
                            settled)
        return len(settled)
    except sqlite3.Error as error:
        raise BackupError(f"cannot compare the backup's outbox with {old}'s: {error}") from None
    finally:
        new.close()
        before.close()


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


__all__ = ["Restored", "Undone", "restore_sqlite", "settle_as_before", "undone_by_restore"]
