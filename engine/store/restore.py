"""``python -m bot restore BACKUP``: put a backup in the place of the SQLite database, with the bot stopped
(docs/backup.md).

The backup is checked first (integrity, a revision this Clerk knows; an older one is migrated when the bot
starts). The live database is then switched out of WAL mode, which SQLite allows only when no other
connection has it open: so a running bot is detected and the restore refused, and a WAL file left by a
crash is folded into the old database instead of being replayed onto the restored one. The old database is
kept beside it (``clerk.db.before-restore-<time>``), never deleted; the backup is copied to a temporary file,
checked again and renamed into place. Messages the backup still owes that the old database had sent since are marked
sent in the copy first (``settle_as_before``), so the bot does not send them twice; what the old database posted
since and tracks outside the outgoing queue (results' announcements recorded posted, kept messages' whereabouts, what
a channel was told once, a game's move to another channel) is kept by the caller's ``settle``
(``bot/actions/restore_settle.py``), for the same reason.

Before the copy is renamed into place, it is also compared with the old database (``undone_by_restore``: what the
restore undoes, game by game, from where the two ledgers part: ``shared_seqs``, by what the events hold), and the
caller's ``tell`` may owe messages in it (``bot/actions/restore_notices.py``: a post in each game's channel and a DM
to each player whose ballots or forms are undone, sent by the bot at its next start, as anything owed). What the old
database knew of Discord is kept in the copy (``keep_what_discord_said``: whose DMs are closed to the bot, the DM
channels), and so are the notices of an earlier restore it had not sent yet (``carry_notices``). All of it is written
in the copy: a restore that fails leaves the live database as it was."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from engine.store.backup import (
    BackupError,
    BackupReport,
    check_backup,
    sqlite_file,
    sync_file,
    sync_folder,
    temporary_beside,
)

NOTICE_NONCE = "undo:"
"""How the nonce of every message a restore owes begins (``undo:<this restore's token>:<n>``): new at each restore, so
a second restore's notices are not taken by Discord for the first one's repeats; ``carry_notices`` finds them by it."""


@dataclass(frozen=True)
class Told:
    """What a restore's ``tell`` owed in the restored database for the bot to send at its next start."""

    messages: int = 0
    """Messages owed: the posts in the games' channels and the DMs."""
    closed: tuple[str, ...] = ()
    """The players (by name) who would have been DMed but whose DMs are closed to the bot: no DM is tried."""
    failed: str | None = None
    """Why nothing was owed (a backup older than the outgoing queue, an error), or None."""


class Tell(Protocol):
    """Owes, in the restored database ``restored`` (not in place yet), what tells the players and the games'
    channels what the restore undid (``undone``: each game's, ``as_of``: when the backup's newest record was made)."""

    def __call__(self, restored: Path, undone: Sequence[Undone], as_of: datetime | None) -> Told: ...


class Move(NamedTuple):
    """A game the old database moved to another channel after the backup (``/game move``)."""

    game: str
    channel_id: int
    """The channel it is played in now, in the old database."""
    kept: bool
    """True: the restored database keeps the move (its channel and ``GameMoved``); False: it has the game where the
    backup has it (``why``)."""
    was: int
    """The game's channel in the backup."""
    why: str = ""


class Settled(NamedTuple):
    """What a restore's ``settle`` kept in the restored database of what the old one posted after the backup and tracks
    outside the outgoing queue (bot/actions/restore_settle.py)."""

    messages: int = 0
    """Messages the backup still owed (results' cards, the moderators' warnings) that the old database had posted
    since, now recorded posted as it had them; those ``settle_as_before`` counted already are not counted again."""
    kept: frozenset[tuple[int, int]] = frozenset()
    """(game id, number in the old database's ledger) of the old database's events the restored one now holds too
    (its ``ResultPosted``, its ``GameMoved``): not undone by the restore."""
    moves: tuple[Move, ...] = ()
    """The games the old database moved to another channel after the backup (``/game move``): kept or not."""


class Settle(Protocol):
    """Keeps in the restored database ``restored`` (not in place yet) what ``old`` (the database it replaces) posted
    after the backup and tracks outside the outgoing queue."""

    def __call__(self, restored: Path, old: Path) -> Settled: ...


class Restored(NamedTuple):
    report: BackupReport
    aside: Path | None
    """Where the old database went (None: there was none)."""
    already_sent: int
    """The messages the backup still owed that the old database had sent since (``settle_as_before``, and the
    results' cards and warnings ``settle`` recorded posted)."""
    undone: list[Undone] | None = None
    """What the restore undid, game by game (``undone_by_restore``); None when there was no old database or it could
    not be compared (``unread``)."""
    unread: str | None = None
    """Why the old database could not be compared with the backup (the restore is done all the same)."""
    told: Told | None = None
    """What ``tell`` owed (None: there was nothing undone, or no ``tell``)."""
    carried: int = 0
    """Notices of an earlier restore the old database still owed, owed again in the restored one (``carry_notices``)."""
    unsettled: str | None = None
    """Why ``settle`` failed (the restore is done all the same, and nothing of it written), or None."""
    moves: tuple[Move, ...] = ()
    """The games the old database moved to another channel after the backup, and whether the restore kept it
    (``settle``)."""


def restore_sqlite(url: str, backup: str | os.PathLike[str], now: datetime, tell: Tell | None = None,
                   settle: Settle | None = None) -> Restored:
    """Restore ``backup`` to the database of ``url``; returns what was restored, where the old database went, how
    many of the messages the backup owed were marked sent as the old database had them (the outgoing queue's, and
    what ``settle`` kept of what the old database tracks outside it), what the restore undid and what ``tell`` owed
    about it (in the restored database, before it is put in place)."""
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
    undone: list[Undone] | None = None
    unread = told = unsettled = None
    already_sent = carried = 0
    settled = Settled()
    try:
        shutil.copyfile(source, temporary)
        report = check_backup(temporary)
        if live.exists():
            try:
                as_of = backup_time(temporary)  # before anything is written in it
            except (sqlite3.Error, ValueError):
                as_of = None
            already_sent = settle_as_before(temporary, live)
            keep_what_discord_said(temporary, live)
            carried = carry_notices(temporary, live)
            since = last_seqs(temporary)  # before ``settle`` appends to the ledger
            if settle is not None:
                try:
                    settled = settle(temporary, live)  # one transaction: nothing of it is written if it fails
                except Exception as error:  # the restore goes on: the host is told what the bot may post again
                    unsettled = f"{type(error).__name__}: {error}"
            already_sent += settled.messages
            try:
                undone = undone_by_restore(live, temporary, since, settled.kept)
            except (sqlite3.Error, ValueError) as error:  # the restore goes on; only the comparison failed (a time)
                unread = str(error)
            if undone and tell is not None:
                told = tell(temporary, undone, as_of)  # never raises: what it could not owe, it says (``Told``)
        sync_file(temporary)
        size = temporary.stat().st_size
        if aside is not None:
            os.replace(live, aside)
        os.replace(temporary, live)
        sync_folder(live.parent)
    finally:
        temporary.unlink(missing_ok=True)
    return Restored(BackupReport(live, size, report.games, report.events, report.revision), aside, already_sent,
                    undone, unread, told, carried, unsettled, settled.moves)


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


class Record(NamedTuple):
    """One event the restore undid, as the old database recorded it."""

    kind: str
    actor: int | None
    payload: Mapping[str, Any]
    at: datetime
    """In UTC."""


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
    game_id: int = 0
    ruleset: str = ""
    channel_id: int | None = None
    """The game's channel in the restored database (where the bot posts for it); None for a game made after the
    backup, which the restored database does not hold."""
    records: tuple[Record, ...] = ()
    """The events undone, in order."""
    names: Mapping[int, str] = field(default_factory=dict)
    """User id -> player name, of every player the old database had in the game."""
    players_now: frozenset[int] = frozenset()
    """The user ids of the game's players in the restored database (not removed)."""
    shared: int | None = None
    """When the two ledgers part before the backup's last event (the old database was restored from an earlier
    backup and played on differently, or the backup was): the number of the last event they hold alike. The records
    are then the old database's events after it, and ``returned`` of the backup's own, which the old database did not
    hold, stand again. None: the old database holds the backup's ledger whole, and ``records`` come after it."""
    returned: int = 0
    """The backup's events after ``shared`` (its ledger's part that the old database did not hold)."""

    def line(self) -> str:
        span = self.first if self.first == self.last else f"{self.first} to {self.last}"
        kinds = ", ".join(f"{kind} {count}" for kind, count in self.kinds)
        who = f"; players who acted: {', '.join(self.players)}" if self.players else ""
        made = "the whole game, made after the backup: " if self.whole else ""
        parted = ""
        if self.shared is not None:
            held = f"{self.returned} event{'s' if self.returned != 1 else ''}"
            parted = (f"; the backup's ledger of it parts from the old database's after event #{self.shared} (one of "
                      f"them was restored from an earlier backup and played on differently): these are the old "
                      f"database's events after it, and the backup's {held} after it, which the old database did not "
                      f"hold, stand again")
        return (f"{self.game}: {made}{self.events} event{'s' if self.events != 1 else ''} from {span} UTC ({kinds})"
                f"{who}{parted}")


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {str(name) for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _utc(value: Any) -> datetime:
    """A time as SQLite holds it (``2026-12-07 12:49:08.123456``, UTC) as an aware datetime."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def last_seqs(restored: Path) -> dict[int, int]:
    """Game id -> its ``last_seq`` (the number of its last event) in ``restored``."""
    connection = _read_only(restored)
    try:
        return {int(game): int(seq) for game, seq in connection.execute("SELECT id, last_seq FROM games")}
    finally:
        connection.close()


def shared_seqs(old: Path, restored: Path) -> dict[int, int]:
    """Game id -> the number of the last event that ``old`` and ``restored`` both hold alike, from the first on, of
    each game id both have: where their ledgers part. Alike is as stored (kind, actor, payload, source id and time:
    a backup holds its events as they were written, and an event is never changed once appended); the shorter ledger's
    last number when one holds the other's whole. Their numbers alone are not enough: a database restored from an
    earlier backup and played on differently numbers other events as the backup's. Read only."""
    connection = sqlite3.connect(f"{restored.resolve().as_uri()}?mode=ro", uri=True)
    try:
        connection.execute("ATTACH DATABASE ? AS old", (f"{old.resolve().as_uri()}?mode=ro",))
        had = {int(i): int(last) for i, last in connection.execute("SELECT id, last_seq FROM old.games")}
        lasts = {int(i): min(int(last), had[int(i)]) for i, last in connection.execute(
            "SELECT id, last_seq FROM main.games") if int(i) in had}
        parted = {int(i): int(seq) - 1 for i, seq in connection.execute(
            "SELECT n.game_id, MIN(n.seq) FROM main.events AS n JOIN old.events AS o "
            "ON o.game_id = n.game_id AND o.seq = n.seq WHERE o.kind IS NOT n.kind OR o.actor IS NOT n.actor "
            "OR o.payload IS NOT n.payload OR o.source_id IS NOT n.source_id OR o.at IS NOT n.at GROUP BY n.game_id")}
        return {game: min(last, parted.get(game, last)) for game, last in lasts.items()}
    finally:
        connection.close()


def undone_by_restore(old: Path, restored: Path, since: Mapping[int, int] | None = None,
                      held: Collection[tuple[int, int]] = ()) -> list[Undone]:
    """Per game, what ``old`` (the database the restore replaces) recorded that ``restored`` (the backup going in its
    place) does not have: the events after the last one the two ledgers hold alike (``shared_seqs``), at most the
    backup's last one of each game (its ``last_seq``, or ``since``'s when given: as it was before the restore appended
    to it), but those ``held`` (game id, number in ``old``: kept by the restore), and the games made after the backup.
    Read only; both files are Clerk databases (checked before)."""
    backup, before = _read_only(restored), _read_only(old)
    held = frozenset(held)
    try:
        shared = shared_seqs(old, restored)  # what the restore appended after ``since`` does not move it before that
        games = backup.execute("SELECT id, name, last_seq, channel_id FROM games")
        kept = {int(i): (str(name), int(since.get(int(i), seq) if since is not None else seq), int(channel))
                for i, name, seq, channel in games}
        removed = "removed" in {row[1] for row in backup.execute("PRAGMA table_info(players)")}
        found = []
        for game_id, name, last_seq, ruleset in before.execute(
                "SELECT id, name, last_seq, ruleset FROM games ORDER BY id").fetchall():
            same = kept.get(int(game_id))
            whole = same is None or same[0] != name
            after = 0 if same is None or whole else min(same[1], shared.get(int(game_id), same[1]))
            if int(last_seq) <= after:
                continue
            rows = [row[1:] for row in before.execute(
                "SELECT seq, kind, actor, at, payload FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after)) if (int(game_id), int(row[0])) not in held]
            if not rows:
                continue
            names = {int(u): str(n) for u, n in before.execute("SELECT user_id, name FROM players WHERE game_id = ?",
                                                               (game_id,))}
            players = dict.fromkeys(names[a] for _, a, _, _ in rows if a in names)
            kinds = Counter(str(kind) for kind, _, _, _ in rows)
            now: frozenset[int] = frozenset()
            if not whole:
                still = " AND removed = 0" if removed else ""
                now = frozenset(int(u) for (u,) in backup.execute(
                    f"SELECT user_id FROM players WHERE game_id = ?{still}", (game_id,)))
            records = tuple(Record(str(kind), int(actor) if actor is not None else None, _payload(payload), _utc(at))
                            for kind, actor, at, payload in rows)
            parted = same is not None and not whole and after < same[1]
            found.append(Undone(str(name), len(rows), str(rows[0][2])[:19], str(rows[-1][2])[:19],
                                tuple(kinds.items()), tuple(players), whole, int(game_id), str(ruleset),
                                None if whole or same is None else same[2], records, names, now,
                                after if parted else None, same[1] - after if parted and same is not None else 0))
        return found
    finally:
        backup.close()
        before.close()


def _payload(stored: Any) -> dict[str, Any]:
    """An event's payload as the ``events`` table holds it on SQLite (JSON text)."""
    try:
        value = json.loads(stored) if isinstance(stored, str | bytes) else stored
    except ValueError:
        return {}
    return dict(value) if isinstance(value, dict) else {}


def backup_time(restored: Path) -> datetime | None:
    """When the newest record of the backup ``restored`` was written (before the restore writes anything in it): the
    latest of its events, of what its outgoing queue owed and settled, and of its running processes' last renewal
    (every 5 s while the bot runs: docs/deploy.md). The backup holds the database as it was then, give or take the
    seconds of a process's renewal; None when it holds none of these."""
    connection = _read_only(restored)
    try:
        tables = _tables(connection)
        found = [connection.execute("SELECT MAX(at) FROM events").fetchone()[0]]
        if "owed_messages" in tables:
            found += connection.execute("SELECT MAX(owed_at), MAX(done_at) FROM owed_messages").fetchone()
        if "processes" in tables:
            found.append(connection.execute("SELECT MAX(seen_at) FROM processes").fetchone()[0])
        times = [_utc(value) for value in found if value is not None]
        return max(times) if times else None
    finally:
        connection.close()


def keep_what_discord_said(restored: Path, old: Path) -> None:
    """What the old database knew of Discord, kept in ``restored`` (the backup, before it is put in place): the users
    whose DMs are closed to the bot (``closed_dms``: a player who DMed the bot after the backup opened them again, one
    refused after it closed them) and the DM channels learnt (``dm_channels``). Delivery bookkeeping, not a game's
    record (docs/export.md), and newer in the old database: the bot would otherwise skip a DM to a player whose DMs are
    open, or try again, refused, one whose DMs are closed. A table either database lacks is left as it is."""
    new = sqlite3.connect(restored.resolve().as_uri(), uri=True)  # a URI, so the ATTACH may be one (read only)
    try:
        new.execute("ATTACH DATABASE ? AS old", (f"{old.resolve().as_uri()}?mode=ro",))
        have = {str(n) for (n,) in new.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
        had = {str(n) for (n,) in new.execute("SELECT name FROM old.sqlite_master WHERE type = 'table'")}

        def lacks(table: str, columns: str, where: str = "main", what: str = "old") -> bool:
            """Does ``where``'s ``table`` lack a row of ``what``'s?"""
            rows = f"SELECT {columns} FROM {what}.{table} EXCEPT SELECT {columns} FROM {where}.{table}"
            return new.execute(f"SELECT 1 FROM ({rows}) LIMIT 1").fetchone() is not None

        with new:  # written only where they differ: a restore over a database that knew no more changes no byte
            if "closed_dms" in have and "closed_dms" in had and (
                    lacks("closed_dms", "user_id, since") or lacks("closed_dms", "user_id", "old", "main")):
                new.execute("DELETE FROM main.closed_dms")
                new.execute("INSERT INTO main.closed_dms (user_id, since) SELECT user_id, since FROM old.closed_dms")
            if "dm_channels" in have and "dm_channels" in had and lacks("dm_channels", "user_id, channel_id"):
                new.execute("INSERT OR REPLACE INTO main.dm_channels (user_id, channel_id) "
                            "SELECT user_id, channel_id FROM old.dm_channels")
    except sqlite3.Error as error:
        raise BackupError(f"cannot keep what {old} knew of Discord in the backup: {error}") from None
    finally:
        new.close()


_OWED_COLUMNS = "lane, channel_id, priority, nonce, coalesce, source_id, body, owed_at, attempts"


def carry_notices(restored: Path, old: Path) -> int:
    """The notices of an earlier restore (``NOTICE_NONCE``) that the old database still owed (the bot was not started
    on it since: a restore done again, or over another), owed in ``restored`` too, as they were: what they tell was
    undone by that restore is not in this backup either. Returns how many."""
    new = sqlite3.connect(restored.resolve().as_uri(), uri=True)  # a URI, so the ATTACH may be one (read only)
    try:
        new.execute("ATTACH DATABASE ? AS old", (f"{old.resolve().as_uri()}?mode=ro",))
        have = {str(n) for (n,) in new.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
        had = {str(n) for (n,) in new.execute("SELECT name FROM old.sqlite_master WHERE type = 'table'")}
        if "owed_messages" not in have or "owed_messages" not in had:
            return 0
        with new:
            done = new.execute(
                f"INSERT INTO main.owed_messages ({_OWED_COLUMNS}) SELECT {_OWED_COLUMNS} FROM old.owed_messages "
                "WHERE outcome IS NULL AND nonce LIKE ? AND nonce NOT IN (SELECT nonce FROM main.owed_messages) "
                "ORDER BY id", (f"{NOTICE_NONCE}%",))
        return int(done.rowcount)
    except sqlite3.Error as error:
        raise BackupError(f"cannot carry the unsent notices of {old} into the backup: {error}") from None
    finally:
        new.close()


def delivery_state(restored: Path) -> tuple[frozenset[int], dict[int, int]]:
    """The users whose DMs are closed to the bot, and the DM channels known (user id -> channel id), in ``restored``
    (empty for a database older than those tables)."""
    connection = _read_only(restored)
    try:
        tables = _tables(connection)
        closed = frozenset(int(u) for (u,) in connection.execute("SELECT user_id FROM closed_dms")) \
            if "closed_dms" in tables else frozenset()
        channels = {int(u): int(c) for u, c in connection.execute("SELECT user_id, channel_id FROM dm_channels")} \
            if "dm_channels" in tables else {}
        return closed, channels
    finally:
        connection.close()


def owes_messages(restored: Path) -> bool:
    """Does ``restored`` have the outgoing queue (``owed_messages``, revision 0009)?"""
    connection = _read_only(restored)
    try:
        return "owed_messages" in _tables(connection)
    finally:
        connection.close()


__all__ = ["DELIVERED", "NOTICE_NONCE", "Move", "Record", "Restored", "Settle", "Settled", "Tell", "Told", "Undone",
           "backup_time", "carry_notices", "delivery_state", "keep_what_discord_said", "last_seqs", "owes_messages",
           "restore_sqlite", "settle_as_before", "shared_seqs", "undone_by_restore"]
