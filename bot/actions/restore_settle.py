"""What the database a restore replaces had posted after the backup, kept in the restored one so that the bot does not
post it again (``python -m bot restore``, engine/store/restore.py; docs/backup.md). ``settle_as_before`` marks sent
the messages the backup still owed; what the bot tracks outside the outgoing queue is settled here, in the restored
database before it is put in place:

- **Results' announcements** (engine/service/announcements.py). A close recorded before the backup whose card was
  posted after it: the backup holds its ``ResultPending`` and no ``ResultPosted``, so the bot's recovery at its first
  start would post the card again, later than the minutes in which Discord drops a repeated nonce: a second card in
  the channel. When the old database holds the same close (the same ``ResultPending``, same number in the game's
  ledger, same time, same payload: the close's token is drawn in that transaction, so a close made again after an
  earlier restore is another one) and recorded its card posted, the restored ledger records it posted as the old one
  did: the same ``ResultPosted`` (payload with the card's message id, time, source id), numbered as its own next
  event (``engine.service.uow.append_event``), and where the card went (``posted:<kind>:<n>``, which an erratum
  links). The moderators' disclosure warning recorded sent by the old database (``warned:…``) is kept too, posted
  card or not: the recovery would warn them again. A close the backup does not hold is not touched: the restore
  undid it (bot/actions/restore_notices.py).
- **Kept messages and threads** (``posted_messages``: a set-up summary, a running count, a round's opening card,
  ``thread:<name>``), edited in place. Where the old database kept one the backup knows too (its key is in the
  backup, or the backup owed an update of it: a first post not sent yet when it was taken), the old database's
  message is kept: the backup's may be gone (deleted, then posted again) or moved (``/game announce``), and one
  posted after the backup would be posted again as a new message instead of edited. One kept for what only happened
  after the backup (a round opened then, undone) is not: its redo is announced as a new message.
- **Result cards without a marker** (``card:<message>:…``: an audit, a Forecast), which **Explain this** finds by
  their message: kept when the backup owed that card.
- **What a game's channel was told once** (``game_marks``: ``unread``, the bot cannot read message text;
  ``channel_lost``, the moderators told their channel was deleted): as the old database has it, or the bot tells
  it again.

- **Where a game is played** (``/game move``, engine/service/games.py). A game the old database moved to another
  channel after the backup is played there now: the channel is a fact of Discord, like a message posted, and the
  backup's may be deleted (what the bot posts there would be held and the moderators told again) or read by nobody.
  The restored database keeps the move: the game's channel as the old database has it, its ``GameMoved`` events (as
  they were: actor, payload, time, source id) numbered as the restored ledger's next events, as a result's
  ``ResultPosted``, the ``moved_from`` mark (a message owed for the old channel and refused there goes to the new
  one), and what the backup held for its channel (deleted) owed again in the new one, as the move did (the old
  database's outcome kept where it sent it). Only a chain of moves from the channel the backup has the game in (the
  old database's moves after the last event the two ledgers hold alike: ``engine.store.restore.shared_seqs``), and
  not to a channel the restored database gives another game: those are left as the backup has them, and said.

Only for a game that is the same in both databases (id, name and channel, once its move is kept). Read from the old
database (read only), written in one transaction in the restored one."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import Connection, create_engine, delete, update
from sqlalchemy.dialects.sqlite import insert

from bot.actions.outbox import EXPLAINS, POSTED, WARNED
from bot.actions.wire import retarget
from engine.service.announcements import posted_key, posted_marker, warned_key, warning_marker
from engine.service.marks import CHANNEL_LOST, MOVED_FROM, UNREAD
from engine.service.owed import HELD, Owed, release_in
from engine.service.uow import append_event
from engine.store.database import JSON_SERIALIZER
from engine.store.models import Game, GameMark, PostedMessage
from engine.store.restore import DELIVERED, Move, Settled, shared_seqs

KEEP = "keep:"
"""How the ``coalesce`` of a kept message's updates begins: ``keep:<game>:<key>`` (bot/discord/delivery.py,
``Courier._owed``)."""
THREAD = "thread:"
"""How the key of a thread kept by name begins (bot/discord/threads.py) and the lane of a message to it
(``thread:<channel>:<name>``)."""
CARD = "card:"
"""How the key of a result card without a marker begins (``AnnouncementService.remember_card``)."""
OWN_KEYS = ("posted:", "warned:", CARD)
"""Keys of ``posted_messages`` that are not kept messages: the announcements' bookkeeping and the cards'."""
MARKS = (UNREAD, CHANNEL_LOST)
"""The ``game_marks`` of what a game's channel or moderators were told once."""


class _Posted(NamedTuple):
    """An event of the old database the restored one records too, as its next one."""

    game_id: int
    seq: int
    """Its number in the old database's ledger."""
    payload: dict[str, Any]
    source_id: str | None
    at: datetime
    kind: str = "ResultPosted"
    actor: int | None = None


class _Moving(NamedTuple):
    """A game whose moves after the backup the restored database keeps."""

    game_id: int
    came_from: int
    """Its channel in the backup."""
    to: int
    """Its channel in the old database."""
    events: list[_Posted]
    """Its ``GameMoved`` events after the backup, in order."""
    delivered: list[tuple[str, Any, str]] | None
    """(outcome, done_at, nonce) of each message the backup held for its channel (deleted) that the old database
    delivered since (``DELIVERED``); None when either database is older than the outgoing queue."""


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {str(name) for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in connection.execute(f"PRAGMA table_info({table})")}


def _utc(value: Any) -> datetime:
    when = datetime.fromisoformat(str(value))
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _key(payload: dict[str, Any]) -> tuple[str, int, int]:
    """(kind, number, closing) of a ``ResultPending`` or ``ResultPosted``."""
    return str(payload["kind"]), int(payload["number"]), int(payload.get("closing", 1))


def settle_posted(restored: Path, old: Path) -> Settled:
    """Keep in ``restored`` (the backup, before it is put in place) what ``old`` (the database it replaces) posted
    after the backup and tracks outside the outgoing queue (this module's head). Returns how many messages were
    recorded sent that the outgoing queue's settling (``settle_as_before``) did not count, and which of the old
    database's events the restored one now holds (not undone by the restore)."""
    new, before = _read_only(restored), _read_only(old)
    try:
        have, had = _tables(new), _tables(before)
        needed = {"games", "events", "posted_messages"}
        if not needed <= have or not needed <= had or "status" not in _columns(new, "games"):
            return Settled()  # a backup older than these (the bot migrates it at start): nothing to keep
        outbox = "owed_messages" in have and "owed_messages" in had
        moving, moves = _moves(new, before, shared_seqs(old, restored), outbox)
        games = _same_games(new, before, {m.game_id: m.to for m in moving})
        owed = _owed_of(new) if "owed_messages" in have else _Owed()
        posted, rows, messages = _announcements(new, before, games, owed)
        rows += _kept(new, before, games, owed)
        marks = []
        if "game_marks" in have and "game_marks" in had:
            marks = _marks(new, before, games, MARKS) + _marks(new, before, [m.game_id for m in moving], (MOVED_FROM,))
    finally:
        new.close()
        before.close()
    messages += sum(len(m.delivered or ()) for m in moving)
    if posted or rows or marks or moving:
        _write(restored, posted, rows, marks, moving)
    kept = [(p.game_id, p.seq) for p in posted] + [(e.game_id, e.seq) for m in moving for e in m.events]
    return Settled(messages, frozenset(kept), tuple(moves))


def _same_games(new: sqlite3.Connection, before: sqlite3.Connection, moved: dict[int, int]) -> dict[int, int]:
    """Game id -> its ``last_seq`` in the backup, of each game the same in both (id, name, channel; ``moved``: game id
    -> the channel the restored database moves it to)."""
    had = {int(i): (str(n), int(c)) for i, n, c in before.execute("SELECT id, name, channel_id FROM games")}
    return {int(i): int(last) for i, n, c, last in new.execute("SELECT id, name, channel_id, last_seq FROM games")
            if had.get(int(i)) == (str(n), moved.get(int(i), int(c)))}


def _moves(new: sqlite3.Connection, before: sqlite3.Connection, shared: dict[int, int], outbox: bool
           ) -> tuple[list[_Moving], list[Move]]:
    """The games the old database moved to another channel after the backup: those the restored database keeps the
    moves of (this module's head), and what is said of each."""
    games = {int(i): (str(n), int(c)) for i, n, c in new.execute("SELECT id, name, channel_id FROM games")}
    now_in = {int(i): int(c) for i, n, c in before.execute("SELECT id, name, channel_id FROM games")
              if games.get(int(i), ("",))[0] == str(n)}
    found: dict[int, list[_Posted]] = defaultdict(list)
    for game_id, seq, actor, payload, source_id, at in before.execute(
            "SELECT game_id, seq, actor, payload, source_id, at FROM events WHERE kind = 'GameMoved' "
            "ORDER BY game_id, seq"):
        game_id, seq = int(game_id), int(seq)
        if game_id in now_in and seq > shared.get(game_id, 0):
            found[game_id].append(_Posted(game_id, seq, json.loads(payload), None if source_id is None
                                          else str(source_id), _utc(at), "GameMoved",
                                          None if actor is None else int(actor)))
    ids = sorted({e.source_id for events in found.values() for e in events if e.source_id is not None})
    sources = {str(s) for (s,) in new.execute(  # the backup holds the move itself: elsewhere in its ledger
        f"SELECT source_id FROM events WHERE source_id IN ({', '.join('?' * len(ids))})", ids)} if ids else set()
    moves: dict[int, Move] = {}
    for game_id, events in found.items():
        name, was = games[game_id]
        chain = [was] + [int(e.payload.get("to", 0)) for e in events]
        froms = [int(e.payload.get("from", 0)) for e in events]
        move = Move(name, now_in[game_id], True, was)
        if froms != chain[:-1] or chain[-1] != now_in[game_id] or any(e.source_id in sources for e in events):
            move = move._replace(kept=False, why=(
                "its first move after the backup is from another channel than the backup's: the two databases' "
                "records of it part before it"))
        moves[game_id] = move
    taken = {channel: game_id for game_id, (_, channel) in games.items()}
    while True:  # a game moved to a channel the restored database gives another game (that stays there) is not moved
        staying = {channel: game_id for channel, game_id in taken.items()
                   if game_id not in moves or not moves[game_id].kept}
        refused = [(game_id, staying[m.channel_id]) for game_id, m in moves.items()
                   if m.kept and staying.get(m.channel_id, game_id) != game_id]
        if not refused:
            break
        for game_id, other in refused:
            moves[game_id] = moves[game_id]._replace(kept=False, why=(
                f"the restored database has {games[other][0]} there"))
    moving = [_Moving(game_id, m.was, m.channel_id, found[game_id], _delivered_since(new, before, m.was) if outbox
                      else None) for game_id, m in moves.items() if m.kept]
    return moving, list(moves.values())


def _delivered_since(new: sqlite3.Connection, before: sqlite3.Connection, channel_id: int
                     ) -> list[tuple[str, Any, str]]:
    """(outcome, done_at, nonce) of the messages the backup held for ``channel_id`` (deleted) and its threads that the
    old database delivered since (its ``/game move`` released them to the game's new channel)."""
    held = [str(n) for (n,) in new.execute(
        "SELECT nonce FROM owed_messages WHERE outcome = ? AND (lane = ? OR lane LIKE ?)",
        (HELD, f"channel:{channel_id}", f"{THREAD}{channel_id}:%"))]
    found: list[tuple[str, Any, str]] = []
    for start in range(0, len(held), 500):
        nonces = held[start:start + 500]
        delivered, listed = ", ".join("?" * len(DELIVERED)), ", ".join("?" * len(nonces))
        found += [(str(o), d, str(n)) for o, d, n in before.execute(
            f"SELECT outcome, done_at, nonce FROM owed_messages WHERE outcome IN ({delivered}) AND nonce IN "
            f"({listed})", (*DELIVERED, *nonces))]
    return found


@dataclass(frozen=True)
class _Owed:
    """What the backup's outgoing queue holds of the messages tracked outside it."""

    delivered: set[tuple[str, str]] = field(default_factory=set)
    """(``POSTED`` or ``WARNED``, marker) of the announcements and warnings it had asked Discord for."""
    keys: set[tuple[int, str]] = field(default_factory=set)
    """(game, key) of each kept message and thread it owed a message to, sent or not."""
    cards: set[str] = field(default_factory=set)
    """The tags of the cards without a marker it owed (``card_tag``)."""


def _owed_of(new: sqlite3.Connection) -> _Owed:
    delivered: set[tuple[str, str]] = set()
    keys: set[tuple[int, str]] = set()
    cards: set[str] = set()
    for coalesce, lane, outcome, body in new.execute(
            "SELECT coalesce, lane, outcome, body FROM owed_messages WHERE coalesce LIKE ? OR lane LIKE ? "
            "OR body LIKE ? OR body LIKE ? OR body LIKE ?",
            (f"{KEEP}%", f"{THREAD}%", f'%"{POSTED}"%', f'%"{WARNED}"%', f'%"{EXPLAINS}"%')):
        if coalesce is not None and str(coalesce).startswith(KEEP):
            game, key = str(coalesce).removeprefix(KEEP).split(":", 1)
            keys.add((int(game), key))
        try:
            value = json.loads(body) if isinstance(body, str | bytes) else body
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        extra = value.get("extra") or {}
        if outcome in DELIVERED:
            delivered.update((kind, str(extra[kind])) for kind in (POSTED, WARNED) if kind in extra)
        if EXPLAINS in extra:
            cards.add(str(extra[EXPLAINS]))
        thread = (value.get("to") or {}).get("thread")
        if str(lane).startswith(THREAD) and isinstance(thread, list) and len(thread) >= 3:
            keys.add((int(thread[2]), THREAD + str(thread[1])))
    return _Owed(delivered, keys, cards)


def _rows_of(connection: sqlite3.Connection, game_id: int) -> dict[str, tuple[int, int]]:
    return {str(key): (int(channel), int(message)) for key, channel, message in connection.execute(
        "SELECT key, channel_id, message_id FROM posted_messages WHERE game_id = ?", (game_id,))}


def _announcements(new: sqlite3.Connection, before: sqlite3.Connection, games: dict[int, int], owed: _Owed
                   ) -> tuple[list[_Posted], list[tuple[int, str, int, int]], int]:
    """The old database's ``ResultPosted`` of each close the backup holds pending, where their cards went and the
    warnings it sent; and how many of those messages the backup's outgoing queue had not asked Discord for."""
    posted_in_backup: dict[tuple[int, str, int, int], int] = {}
    for game_id, seq, payload in new.execute("SELECT game_id, seq, payload FROM events WHERE kind = 'ResultPosted'"):
        result = (int(game_id), *_key(json.loads(payload)))
        posted_in_backup[result] = max(posted_in_backup.get(result, 0), int(seq))
    posted: list[_Posted] = []
    rows: list[tuple[int, str, int, int]] = []
    messages = 0
    sources = {str(s) for (s,) in new.execute("SELECT source_id FROM events WHERE kind = 'ResultPosted' "
                                              "AND source_id IS NOT NULL")}
    pending = new.execute("SELECT game_id, seq, kind, actor, payload, source_id, at FROM events "
                          "WHERE kind = 'ResultPending' ORDER BY game_id, seq").fetchall()
    for game_id, seq, *event in pending:
        game_id, seq = int(game_id), int(seq)
        kind, number, closing = key = _key(json.loads(event[2]))
        if game_id not in games or posted_in_backup.get((game_id, *key), 0) > seq:
            continue
        same = before.execute("SELECT kind, actor, payload, source_id, at FROM events WHERE game_id = ? AND seq = ?",
                              (game_id, seq)).fetchone()
        if same is None or list(same) != event:
            continue  # another close (an earlier backup was restored over the old database, and it closed again)
        old_rows, new_rows = _rows_of(before, game_id), _rows_of(new, game_id)
        warning = warning_marker(kind, game_id, number, closing)
        if (warned := warned_key(warning)) in old_rows and warned not in new_rows:
            rows.append((game_id, warned, *old_rows[warned]))
            messages += (WARNED, warning) not in owed.delivered
        found = _posted_after(before, game_id, seq, key)
        if found is None or found.seq <= games[game_id] or found.source_id in sources:
            continue
        posted.append(found)
        marker = posted_marker(kind, game_id, number, closing)
        messages += (POSTED, marker) not in owed.delivered
        card = old_rows.get(posted_key(kind, number))
        if card is not None and str(card[1]) == str(found.payload.get("message_id")):  # not a later close's card
            rows.append((game_id, posted_key(kind, number), *card))
    return posted, rows, messages


def _posted_after(before: sqlite3.Connection, game_id: int, seq: int, key: tuple[str, int, int]) -> _Posted | None:
    """The old database's ``ResultPosted`` of the close whose ``ResultPending`` is its event ``seq``: the first of its
    result after it, unless another close of the result (another ``ResultPending``) came first."""
    for at_seq, kind, payload, source_id, at in before.execute(
            "SELECT seq, kind, payload, source_id, at FROM events WHERE game_id = ? AND seq > ? "
            "AND kind IN ('ResultPending', 'ResultPosted') ORDER BY seq", (game_id, seq)):
        value = json.loads(payload)
        if _key(value) != key:
            continue
        if kind == "ResultPending" or source_id is None:
            return None
        return _Posted(game_id, int(at_seq), value, str(source_id), _utc(at))
    return None


def _kept(new: sqlite3.Connection, before: sqlite3.Connection, games: Iterable[int], owed: _Owed
          ) -> list[tuple[int, str, int, int]]:
    """The old database's kept messages, threads and cards that the restored one is to keep (this module's head)."""
    rows: list[tuple[int, str, int, int]] = []
    for game_id in games:
        old_rows, new_rows = _rows_of(before, game_id), _rows_of(new, game_id)
        for key, where in old_rows.items():
            if key.startswith(CARD):
                _, _, kind, *rest = key.split(":")
                if key not in new_rows and ":".join((kind, str(game_id), *rest)) in owed.cards:
                    rows.append((game_id, key, *where))
            elif key.startswith(OWN_KEYS):
                continue  # the announcements' (``_announcements``)
            elif new_rows.get(key, where) != where or (key not in new_rows and (game_id, key) in owed.keys):
                rows.append((game_id, key, *where))  # moved since, or first posted since for what the backup owed
    return rows


def _marks(new: sqlite3.Connection, before: sqlite3.Connection, games: Iterable[int], keys: tuple[str, ...]
           ) -> list[tuple[int, str, tuple[str, Any] | None]]:
    """(game, mark, (value, at) or None to remove it) where the old database's ``keys`` differ from the backup's."""
    changes: list[tuple[int, str, tuple[str, Any] | None]] = []
    listed = ", ".join("?" * len(keys))
    query = f"SELECT key, value, at FROM game_marks WHERE game_id = ? AND key IN ({listed})"
    for game_id in games:
        old = {str(k): (str(v), at) for k, v, at in before.execute(query, (game_id, *keys))}
        now = {str(k): str(v) for k, v, _ in new.execute(query, (game_id, *keys))}
        changes += [(game_id, key, old.get(key)) for key in keys if (old.get(key) or (None,))[0] != now.get(key)]
    return changes


_POSTED_ROWS = PostedMessage.metadata.tables["posted_messages"]
_MARK_ROWS = GameMark.metadata.tables["game_marks"]
_GAME_ROWS = Game.metadata.tables["games"]
_OWED_ROWS = Game.metadata.tables["owed_messages"]


def _write(restored: Path, posted: list[_Posted], rows: list[tuple[int, str, int, int]],
           marks: list[tuple[int, str, tuple[str, Any] | None]], moving: list[_Moving]) -> None:
    """In one transaction: each game moved to its channel, what the backup held for its old one released there; each
    ``ResultPosted`` and ``GameMoved`` appended as the restored ledger's next event of its game, in the old database's
    order; each row of ``posted_messages`` written (or moved), each mark set or removed."""
    engine = create_engine(f"sqlite+pysqlite:///{restored}", json_serializer=JSON_SERIALIZER)
    try:
        with engine.begin() as connection:
            _move(connection, moving)
            appended = sorted([*posted, *(e for m in moving for e in m.events)], key=lambda p: (p.game_id, p.seq))
            for p in appended:
                append_event(connection, p.at, p.game_id, p.kind, p.actor, p.payload, p.source_id)
            _write_rows(connection, rows, marks)
    finally:
        engine.dispose()


def _retargeted(channel_id: int, owed: Owed) -> Owed:
    return retarget(owed, channel_id)


def _move(connection: Connection, moving: list[_Moving]) -> None:
    """Each game to its channel (each first out of the way: one may move to the channel another leaves), and what the
    backup held for its old channel owed again in the new one, as ``/game move`` does (``release_in``); what the old
    database delivered of it since, settled as it has it."""
    for m in moving:
        connection.execute(update(_GAME_ROWS).where(_GAME_ROWS.c.id == m.game_id).values(channel_id=-m.game_id))
    now = datetime.now(UTC)
    for m in moving:
        connection.execute(update(_GAME_ROWS).where(_GAME_ROWS.c.id == m.game_id).values(channel_id=m.to))
        if m.delivered is None:
            continue  # no outgoing queue (revision 0009): nothing held
        if m.to != m.came_from:
            release_in(connection, now, m.came_from, partial(_retargeted, m.to))
        for outcome, done_at, nonce in m.delivered:
            connection.execute(update(_OWED_ROWS).where(_OWED_ROWS.c.nonce == nonce, _OWED_ROWS.c.outcome.is_(None))
                               .values(outcome=outcome, done_at=_utc(done_at)))


def _write_rows(connection: Connection, rows: list[tuple[int, str, int, int]],
                marks: list[tuple[int, str, tuple[str, Any] | None]]) -> None:
    for game_id, key, channel_id, message_id in rows:
        statement = insert(_POSTED_ROWS).values(game_id=game_id, key=key, channel_id=channel_id, message_id=message_id)
        connection.execute(statement.on_conflict_do_update(
            index_elements=["game_id", "key"], set_={"channel_id": channel_id, "message_id": message_id}))
    by_game: dict[int, list[str]] = defaultdict(list)
    for game_id, key, value in marks:
        if value is None:
            by_game[game_id].append(key)
            continue
        statement = insert(_MARK_ROWS).values(game_id=game_id, key=key, value=value[0], at=_utc(value[1]))
        connection.execute(statement.on_conflict_do_update(index_elements=["game_id", "key"],
                                                           set_={"value": value[0], "at": _utc(value[1])}))
    for game_id, keys in by_game.items():
        connection.execute(delete(_MARK_ROWS).where(_MARK_ROWS.c.game_id == game_id, _MARK_ROWS.c.key.in_(keys)))
