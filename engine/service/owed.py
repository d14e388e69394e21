"""Messages the bot owes Discord, kept in the ``owed_messages`` table until they are delivered (the outgoing queue,
bot/discord/outbox_worker.py; docs/reliability.md). Delivery bookkeeping, not an event of any game.

Writes are group-committed (batching.py): the receipts of a burst of 2,000 ballots are owed in a few transactions,
not 2,000, and so are the marks of what was delivered."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache, partial
from pathlib import Path
from typing import Any, Generic, TypeAlias, TypeVar

from sqlalchemy import (
    CTE,
    Connection,
    Integer,
    String,
    and_,
    bindparam,
    create_engine,
    delete,
    false,
    func,
    insert,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.engine import Dialect

from engine.service.batching import Batcher
from engine.service.clock import utc
from engine.service.dm_channels import keep_queue_channels
from engine.service.uow import Backend, ServiceBase, UnitOfWork, typed_param
from engine.store.database import JSON_SERIALIZER
from engine.store.locking import lock_for_write
from engine.store.models import Base
from engine.store.prebuilt import Prebuilt, built_for, driver_execute, padded, prebuilt
from engine.store.twin import turn_connection

RECEIPT = 0
"""Priority of answers to what a player sent (a ballot's receipt): delivered before everything else."""
NOTICE = 1
"""Priority of announcements, reminders and edits of kept messages."""
HELD = "held"
"""The outcome of a message for a game channel that was deleted: kept (never forgotten) until a moderator moves the
game to another channel (``release_held``), then sent there."""

_O = Base.metadata.tables["owed_messages"]
_E = Base.metadata.tables["events"]
_G = Base.metadata.tables["games"]
_NONCES = select(_O.c.nonce).where(_O.c.nonce.in_(bindparam("nonces", expanding=True)))
_SUPERSEDE = (update(_O).where(_O.c.coalesce == bindparam("key"), _O.c.outcome.is_(None), _O.c.id < bindparam("newer"))
              .values(outcome="superseded", done_at=bindparam("now")))
_SETTLE = (update(_O).where(_O.c.id == bindparam("row")).values(outcome=bindparam("outcome"), done_at=bindparam("now"))
           .execution_options(synchronize_session=False))


@dataclass(frozen=True)
class Owed:
    """A message to owe: its ``lane`` (one per channel or DM; sent in order), the channel when known, priority,
    Discord nonce, body (``bot/actions/wire.py``), what it supersedes (``coalesce``) and what it answers."""

    lane: str
    channel_id: int | None
    priority: int
    nonce: str
    body: dict[str, Any]
    coalesce: str | None = None
    source_id: str | None = None


@dataclass(frozen=True)
class OwedRow:
    id: int
    owed: Owed


_INSERT = insert(_O).returning(_O.c.nonce, _O.c.id)
_INSERT_ONE = insert(_O)

R = TypeVar("R")


class OwedWith(Generic[R]):
    """Messages owed in the transaction of the write they answer (a DM ballot and its receipt): ``make`` turns the
    write's result into the messages inside that transaction, and ``owe_with`` keeps them there, so the answer is
    owed exactly when the write commits, and never without it: one transaction instead of two (docs/reliability.md).
    Their nonces must be new (an answer's is random: bot/discord/delivery.py), so no read checks them first. Owed by
    ``owe_in`` (a service's ``_write``), one may supersede the unsent older messages of its ``coalesce`` (an AG
    election's running count, owed with the ballot that changed it); owed by a ballot batch (``made_of``) none may:
    the write's one statement on PostgreSQL (``guarded_owe``) has no room for that update.
    ``rows``: what the write kept, for the outgoing queue; the caller reads it only once the write has returned."""

    def __init__(self, make: Callable[[R], Sequence[Owed]]) -> None:
        self.make = make
        self.rows: list[OwedRow] = []


Made: TypeAlias = tuple[OwedWith[R], list["Owed"]]
"""An answer and the messages its ``make`` made of the write's result, to be owed with the write."""


def made_of(answers: Sequence[tuple[OwedWith[R], R]], *, supersedes: bool = False) -> list[Made[R]]:
    """The messages of every ``(answer, result)``, made now (in the write's transaction); with ``supersedes`` they may
    have a ``coalesce`` (the caller's insert marks the older ones superseded: ``_insert``)."""
    made = [(answer, list(answer.make(result))) for answer, result in answers]
    if not supersedes and any(m.coalesce is not None for _, messages in made for m in messages):
        raise ValueError("a message owed with its write supersedes nothing (no coalesce)")
    return made


def owe_made(connection: Connection, now: datetime, made: Sequence[Made[R]], *, prebuilt_sql: bool = False) -> None:
    """Owe the ``made`` messages in ``connection``'s transaction, in one statement; each answer's ``rows`` are its
    messages' rows. ``prebuilt_sql`` (SQLite): one message's insert as its driver's SQL, compiled once
    (``engine.store.prebuilt``), the same statement and values."""
    rows = iter(_insert(connection, now, [m for _, messages in made for m in messages], prebuilt_sql=prebuilt_sql))
    for answer, messages in made:
        answer.rows = [next(rows) for _ in messages]


def owe_with(connection: Connection, now: datetime, answers: Sequence[tuple[OwedWith[R], R]]) -> None:
    """Owe the messages of every ``(answer, result)`` in ``connection``'s transaction, in one statement (and one
    update per message with a ``coalesce``, marking the unsent older ones of it superseded); each answer's ``rows``
    are its messages' rows."""
    owe_made(connection, now, made_of(answers, supersedes=True))


async def owe_in(uow: UnitOfWork, answer: OwedWith[R] | None, result: R) -> R:
    """``owe_with`` in the transaction of a ``ServiceBase._write`` (``uow``): the messages ``answer`` makes of
    ``result`` (none without an ``answer``) are owed exactly when the write commits (a DM form's answer, and what
    it posts elsewhere: play-test S4.5). Called last in the write's block, with what the write returns; returns
    ``result``. Any service's write answering a message takes an ``answer`` this way; a redelivery (``Duplicate``)
    leaves the block before it, so its answer is made after, and owed as any other."""
    if answer is not None:
        await uow.session.run_sync(lambda session: owe_with(session.connection(), uow.now, [(answer, result)]))
    return result


_OWED_FIELDS = ("lane", "channel_id", "priority", "nonce", "coalesce", "source_id", "body", "owed_at", "attempts")


@cache
def guarded_owe(after: CTE, count: int) -> CTE:
    """PostgreSQL: the insert of ``count`` owed messages (bound as ``o_<column>_<n>``, ``owe_params``) as a
    data-modifying ``WITH``, selected FROM ``after`` (a CTE: ``uow.guarded_append``'s reservation), so written only
    if it returned a row; it returns each one's ``nonce`` and ``id``. Built once per CTE and count."""
    if count == 0:
        return select(sql_cast(null(), String).label("nonce"), sql_cast(null(), Integer).label("id")).where(
            false()).cte("owing")
    rows = [select(*(typed_param(f"o_{name}_{n}", _O.c[name]) for name in _OWED_FIELDS)).select_from(after)
            for n in range(count)]
    source = rows[0] if count == 1 else union_all(*rows)
    return insert(_O).from_select(list(_OWED_FIELDS), source).returning(_O.c.nonce, _O.c.id).cte("owing")


def owe_params(now: datetime, messages: Sequence[Owed]) -> dict[str, Any]:
    """The parameters of ``guarded_owe(..., len(messages))``."""
    params: dict[str, Any] = {}
    for n, m in enumerate(messages):
        values = (m.lane, m.channel_id, m.priority, m.nonce, m.coalesce, m.source_id, m.body, now, 0)
        params.update({f"o_{name}_{n}": value for name, value in zip(_OWED_FIELDS, values, strict=True)})
    return params


def kept(made: Sequence[Made[R]], ids: dict[str, int]) -> None:
    """Each answer's ``rows``, from the ids its messages were kept under (by nonce: ``guarded_owe``)."""
    for answer, messages in made:
        answer.rows = [OwedRow(int(ids[m.nonce]), m) for m in messages]


def _owe(connection: Connection, now: datetime, messages: Sequence[Owed]) -> list[OwedRow | None]:
    """Insert each message whose nonce is new (None for one already owed: the same announcement owed again), in one
    statement, then mark superseded the older unsent messages of the same ``coalesce``."""
    taken: set[str] = set()
    nonces = [m.nonce for m in messages]
    for start in range(0, len(nonces), 400):
        taken.update(connection.execute(_NONCES, {"nonces": nonces[start:start + 400]}).scalars())
    new: list[Owed] = []
    for m in messages:
        if m.nonce not in taken:
            taken.add(m.nonce)
            new.append(m)
    rows = {id(row.owed): row for row in _insert(connection, now, new)}
    return [rows.get(id(m)) for m in messages]


def _insert_one(dialect: Dialect) -> Prebuilt:
    return Prebuilt(_INSERT_ONE, dialect, dict.fromkeys(_OWED_FIELDS), column_keys=_OWED_FIELDS)


def _insert_returning(dialect: Dialect) -> Prebuilt:
    return Prebuilt(_INSERT, dialect, dict.fromkeys(_OWED_FIELDS), column_keys=_OWED_FIELDS)


_PREBUILT_ROWS = 1_000
"""The most rows ``_insert_many`` writes in one statement (9,000 parameters; SQLite allows 32,766)."""


def _insert_many(connection: Connection, params: Sequence[dict[str, Any]]) -> dict[str, int]:
    """``_INSERT`` of the rows ``params`` in ONE statement, as SQLAlchemy's "insertmanyvalues" sends it on SQLite
    (``INSERT ... VALUES (...), (...) RETURNING nonce, id``), but as its driver's SQL: the one-row statement compiled
    once (``engine.store.prebuilt``; the same bind processors: the body's JSON, the time), its ``VALUES`` group
    repeated once a row (the ballot batch's receipts, issue 20). The ids by nonce."""
    built = built_for(connection, _insert_returning)
    head, rest = built.sql.split(" VALUES ", 1)
    group, returning = rest.split(" RETURNING ", 1)
    sql = f"{head} VALUES {', '.join([group] * len(params))} RETURNING {returning}"
    values = tuple([value for row in params for value in built.params(row)])
    found = driver_execute(connection, sql, values).rows
    if found is None or len(found) != len(params):
        raise RuntimeError("the insert of the owed messages did not return a row for each")
    return {nonce: int(id_) for nonce, id_ in found}


def _insert(connection: Connection, now: datetime, new: Sequence[Owed], *, prebuilt_sql: bool = False
            ) -> list[OwedRow]:
    """Insert ``new`` (their nonces not owed yet) in one statement, then mark superseded the older unsent messages
    of the same ``coalesce``; their rows, in order."""
    if not new:
        return []
    params = [{"lane": m.lane, "channel_id": m.channel_id, "priority": m.priority, "nonce": m.nonce,
               "coalesce": m.coalesce, "source_id": m.source_id, "body": m.body, "owed_at": now, "attempts": 0}
              for m in new]
    if len(new) == 1 and prebuilt_sql:  # the usual answer, its id from the driver (no RETURNING to sort)
        rowid = built_for(connection, _insert_one).execute(connection, params[0])
        if rowid is None:
            raise RuntimeError("the driver told no id for the owed message inserted")
        ids = [rowid]
    elif len(new) == 1:
        key = connection.execute(_INSERT_ONE, params[0]).inserted_primary_key
        assert key is not None
        ids = [key[0]]
    else:  # one multi-row statement: its ids told apart by the (unique) nonces, not by the rows' order, which
        # would make SQLAlchemy send one INSERT per row on SQLite (no sentinel column for ``sort_by_parameter_order``)
        if prebuilt_sql and len(new) <= _PREBUILT_ROWS:
            by_nonce = _insert_many(connection, params)
        else:
            by_nonce = {nonce: id_ for nonce, id_ in connection.execute(_INSERT, params)}
        ids = [by_nonce[m.nonce] for m in new]
    rows = [OwedRow(int(i), m) for i, m in zip(ids, new, strict=True)]
    for row in rows:
        if row.owed.coalesce is not None:
            connection.execute(_SUPERSEDE, {"key": row.owed.coalesce, "newer": row.id, "now": now})
    return rows


_SETTLE_ROWS = (update(_O).where(_O.c.id.in_(bindparam("rows", expanding=True)))
                .values(outcome=bindparam("outcome"), done_at=bindparam("now"))
                .execution_options(synchronize_session=False))
"""``_SETTLE`` of many rows of one outcome at once (the SQLite twin's marks: ``_settle``)."""
_SETTLED_AT_ONCE = 400
"""Row ids in one ``_SETTLE_ROWS`` (well under SQLite's limit on bound parameters)."""


def _settle(connection: Connection, now: datetime, outcomes: Sequence[tuple[int, str]], *,
            prebuilt_sql: bool = False) -> None:
    """Mark each row of ``outcomes`` (row id, outcome) done ``now``: through Core, one executemany of ``_SETTLE``.
    ``prebuilt_sql`` (the SQLite twin): one ``_SETTLE_ROWS`` per outcome (and per ``_SETTLED_AT_ONCE`` rows) as its
    driver's SQL, compiled once per padded length of its list (``engine.store.prebuilt``): the same rows get the
    same values, and the batch's Python is not per row (issue 20, branch burst4: through Core each row's parameters
    were constructed and its time formatted again, 9-15 us a row of a burst's marks with the update itself). A batch
    that marks one row twice keeps the executemany, whose order decides which mark stays."""
    if prebuilt_sql and len({row for row, _ in outcomes}) == len(outcomes):
        rows_of: dict[str, list[int]] = {}
        for row, outcome in outcomes:
            rows_of.setdefault(outcome, []).append(row)
        dialect = connection.dialect
        for outcome, rows in rows_of.items():
            for start in range(0, len(rows), _SETTLED_AT_ONCE):
                listed = padded(rows[start:start + _SETTLED_AT_ONCE], _SETTLED_AT_ONCE)
                params = {"rows": listed, "outcome": outcome, "now": now}
                prebuilt((_SETTLE_ROWS, len(listed)), dialect,
                         partial(_settle_rows_built, dialect, params)).execute(connection, params)
        return
    connection.execute(_SETTLE, [{"row": row, "outcome": outcome, "now": now} for row, outcome in outcomes])


def _settle_rows_built(dialect: Dialect, sample: dict[str, Any]) -> Prebuilt:
    return Prebuilt(_SETTLE_ROWS, dialect, sample)


def _write_batch(connection: Connection, now: datetime, kind: str, items: Sequence[Any], *,
                 prebuilt_sql: bool = False) -> list[Any]:
    """One transaction for a batch of ``owe`` calls (each a list of messages) or of ``settle`` calls.
    ``prebuilt_sql``: the SQLite twin's connection (``_settle``)."""
    if kind == "owe":
        rows = iter(_owe(connection, now, [m for call in items for m in call]))
        return [[next(rows) for _ in call] for call in items]
    _settle(connection, now, [o for batch in items for o in batch], prebuilt_sql=prebuilt_sql)
    return [None] * len(items)


def owe_in_file(path: Path, now: datetime, messages: Sequence[Owed]) -> int:
    """Owe ``messages`` in the SQLite file ``path``, in one transaction of a connection of its own, with no bot running
    on it: what a restore owes in the backup before it is put in place (``python -m bot restore``,
    engine/store/restore.py), sent by the bot at its next start like anything owed. The same rows and encoding as the
    bot's own owing (``_owe``: a nonce owed already is skipped). Returns how many were owed."""
    engine = create_engine(f"sqlite+pysqlite:///{path}", json_serializer=JSON_SERIALIZER)
    try:
        with engine.begin() as connection:
            return sum(row is not None for row in _owe(connection, now, messages))
    finally:
        engine.dispose()


def release_in(connection: Connection, now: datetime, channel_id: int, retarget: Callable[[Owed], Owed]
               ) -> list[OwedRow]:
    """In ``connection``'s transaction (``/game move``'s own, ``GameService.move``; or one of its own,
    ``clerk.outbox.release_held``): the messages held for the deleted channel ``channel_id`` and its threads, owed
    again as ``retarget`` makes them (the game's new channel), in their order; of a kept message only its latest text
    (the older ones superseded). Their rows, to queue once the transaction has committed."""
    found = connection.execute(select(_O).where(_O.c.outcome == HELD, _held_lane(channel_id)).order_by(_O.c.id))
    rows = [OwedRow(r.id, retarget(Owed(r.lane, r.channel_id, r.priority, r.nonce, dict(r.body), r.coalesce,
                                        r.source_id))) for r in found]
    newest = {row.owed.coalesce: row.id for row in rows if row.owed.coalesce is not None}
    older = {row.id for row in rows if row.owed.coalesce is not None and newest[row.owed.coalesce] != row.id}
    if older:  # a kept message needs only its latest text
        connection.execute(update(_O).where(_O.c.id.in_(older)).values(outcome="superseded", done_at=now))
    rows = [row for row in rows if row.id not in older]
    for row in rows:
        connection.execute(update(_O).where(_O.c.id == row.id).values(
            lane=row.owed.lane, channel_id=row.owed.channel_id, body=row.owed.body, outcome=None, done_at=None))
    return rows


def _held_lane(channel_id: int) -> Any:
    """The lanes of a channel and of its threads (``thread:<parent>:<name>``)."""
    return (_O.c.lane == f"channel:{channel_id}") | _O.c.lane.like(f"thread:{channel_id}:%")


class OwedService(ServiceBase):
    """``clerk.outbox``: what the bot owes Discord, kept until delivered."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._owe_batcher: Batcher[str, Any, Any] = Batcher(self._write_owed, limit=200)
        self._settle_batcher: Batcher[str, Any, Any] = Batcher(self._write_owed, limit=200)

    async def owe(self, messages: Sequence[Owed]) -> list[OwedRow | None]:
        """Keep ``messages`` until delivered; returns each one's row (None when its nonce was already owed). Returns
        once they are committed."""
        if not messages:
            return []
        rows: list[OwedRow | None] = await self._owe_batcher.submit("owe", list(messages))
        return rows

    async def settle(self, row_id: int, outcome: str) -> None:
        """Record what became of a row: ``sent``, ``superseded`` or ``undeliverable`` (it is owed no longer)."""
        await self._settle_batcher.submit("settle", [(row_id, outcome)])

    def settle_soon(self, row_id: int, outcome: str) -> asyncio.Future[None]:
        """``settle`` without waiting (``Batcher.put``): the future is done once the mark is committed."""
        done: asyncio.Future[None] = self._settle_batcher.put("settle", [(row_id, outcome)])
        return done

    async def amend(self, row: OwedRow, body: dict[str, Any]) -> OwedRow | None:
        """``row``, owed with a write and not queued yet, as it goes now: with ``body`` (a card's chart, drawn off the
        event loop once the write had committed: ``bot/actions/owed_files.py``), in a transaction of its own; the row
        so amended, or None when it is owed no longer (nothing changed)."""
        async with self._sessions() as session, session.begin():
            await lock_for_write(session, None)
            done = await session.execute(update(_O).where(_O.c.id == row.id, _O.c.outcome.is_(None))
                                         .values(body=body).execution_options(synchronize_session=False))
            if not getattr(done, "rowcount", 0):
                return None
        return OwedRow(row.id, Owed(row.owed.lane, row.owed.channel_id, row.owed.priority, row.owed.nonce, body,
                                    row.owed.coalesce, row.owed.source_id))

    async def owed(self) -> list[OwedRow]:
        """Everything still owed, oldest first: what the queue resumes at start."""
        async with self._read() as session:
            found = await session.execute(select(_O).where(_O.c.outcome.is_(None)).order_by(_O.c.id))
            return [OwedRow(r.id, Owed(r.lane, r.channel_id, r.priority, r.nonce, dict(r.body), r.coalesce,
                                       r.source_id)) for r in found]

    async def owed_count(self) -> int:
        """How many messages are waiting to be delivered (``/round status`` and the log say it)."""
        async with self._read() as session:
            found = await session.execute(select(func.count()).select_from(_O).where(_O.c.outcome.is_(None)))
            return int(found.scalar_one())

    async def last_event_id(self) -> int:
        """The id of the newest event (0 if none): ``unanswered_ballots`` looks no further than this, taken at start,
        so a ballot committed by this process since (its receipt about to be owed) is never taken for one of a dead
        process."""
        async with self._read() as session:
            return int((await session.execute(select(func.max(_E.c.id)))).scalar_one_or_none() or 0)

    async def unanswered_ballots(self, since: datetime, up_to: int, kind: str = "BallotCast"
                                 ) -> list[tuple[int, int, str, dict[str, Any]]]:
        """(game id, user id, source id, payload) of every DM ballot (an event of ``kind``, ``BallotCast`` or a
        ruleset's own such as ``ChoiceMade``, under ``msg:<id>``) recorded since ``since``, with an event id of at
        most ``up_to``, whose receipt was never owed: the bot died between the ballot's commit and owing its
        receipt."""
        async with self._read() as session:
            first = (await session.execute(select(func.min(_O.c.owed_at)))).scalar_one_or_none()
            if first is None:  # nothing was ever owed: a database from before the queue; its ballots were answered
                return []
            since = max(since, utc(first))
            found = await session.execute(
                select(_E.c.game_id, _E.c.actor, _E.c.source_id, _E.c.payload)
                .select_from(_E.outerjoin(_O, _O.c.source_id == _E.c.source_id))
                .where(and_(_E.c.kind == kind, _E.c.at >= since, _E.c.id <= up_to,
                            _E.c.source_id.like("msg:%"), _O.c.id.is_(None)))
                .order_by(_E.c.id))
            return [(g, int(a), str(s), dict(p)) for g, a, s, p in found]

    async def dm_answers(self) -> datetime | None:
        """When the newest answer to a DM was owed (None: never): read at start, before ``forget_delivered``, by the
        catch-up of the DMs sent while the bot was offline (bot/discord/catch_up.py). Only the process that reads
        DMs owes answers to them, so it is a time when this bot could still read DMs."""
        async with self._read() as session:
            newest = (await session.execute(select(func.max(_O.c.owed_at)).where(
                _O.c.lane.like("user:%"), _O.c.source_id.like("msg:%")))).scalar_one_or_none()
            return utc(newest) if newest is not None else None

    async def handled(self, sources: Sequence[str]) -> set[str]:
        """Those of the source ids ``sources`` (``msg:<id>``, ``msg:<id>:edit:<ms>``) that were handled: an answer
        owed to it (sent or not) or an event recorded under it."""
        found: set[str] = set()
        async with self._read() as session:
            for start in range(0, len(sources), 400):
                part = list(sources[start:start + 400])
                found.update((await session.execute(select(_O.c.source_id).where(_O.c.source_id.in_(part))))
                             .scalars())
                found.update((await session.execute(select(_E.c.source_id).where(_E.c.source_id.in_(part))))
                             .scalars())
        return found

    async def held_count(self, channel_id: int) -> int:
        """How many messages for the channel ``channel_id`` and its threads are held (the channel was deleted)."""
        async with self._read() as session:
            found = await session.execute(select(func.count()).select_from(_O).where(
                _O.c.outcome == HELD, _held_lane(channel_id)))
            return int(found.scalar_one())

    async def hold(self, row_id: int, game_id: int, channel_id: int) -> int | None:
        """The row ``row_id``, refused because ``channel_id``, the channel of game ``game_id`` when it was looked up,
        does not exist: settled ``held`` (until ``/game move``) in a transaction that first takes the game's lock and
        reads its channel, so that a move committed since the refusal, whose ``release_in`` could not see the row
        (not held yet), is seen: then nothing is written (the row stays owed) and the game's channel now is returned,
        for the row to go there. None: held. Before 2026-12-07 the row was settled held in the group-committed marks
        whatever the game's channel, and a move committed in between left it held for a channel the game had left,
        never posted."""
        async with self._sessions() as session, session.begin():
            await lock_for_write(session, game_id)
            now_in = (await session.execute(select(_G.c.channel_id).where(_G.c.id == game_id))).scalar_one_or_none()
            if now_in is not None and now_in != channel_id:
                return int(now_in)
            await session.execute(_SETTLE, {"row": row_id, "outcome": HELD, "now": self.clock.now()})
            return None

    async def release_held(self, channel_id: int, retarget: Callable[[Owed], Owed]) -> list[OwedRow]:
        """The messages held for the deleted channel ``channel_id`` and its threads, owed again as ``retarget`` makes
        them (the game's new channel), in their order; their rows, to queue (``release_in``, in a transaction of its
        own)."""
        now = self.clock.now()
        async with self._sessions() as session, session.begin():
            await lock_for_write(session, None)
            released: list[OwedRow] = await session.run_sync(
                lambda s: release_in(s.connection(), now, channel_id, retarget))
            return released

    async def forget_delivered(self, before: datetime) -> int:
        """Delete rows settled before ``before`` (kept a while so a restart can tell a receipt owed from one never
        owed; the newest row is always kept, so ``unanswered_ballots`` knows since when receipts were owed); returns
        how many. First, in the same transaction, the DM channel the rows name of each user not kept yet is kept
        (``dm_channels``: the catch-up reads it without a create-DM request)."""
        async with self._sessions() as session, session.begin():
            await lock_for_write(session, None)
            await session.run_sync(lambda s: keep_queue_channels(s.connection()))
            newest = select(func.max(_O.c.id)).scalar_subquery()
            done = await session.execute(delete(_O).where(_O.c.outcome.is_not(None), _O.c.outcome != HELD,
                                                          _O.c.done_at < before, _O.c.id < newest))
            return int(getattr(done, "rowcount", 0) or 0)

    async def _write_owed(self, kind: str, items: Sequence[Any]) -> list[Any]:
        """One transaction for the batch, in one statement or two: on a SQLite file in one worker thread on the sync
        twin (one hop, as the ballot batch: a transaction of many hops would hold the write lock for long under
        load), elsewhere through the async session."""
        now = self.clock.now()
        twin = self._twin
        if twin is not None:
            def in_twin() -> list[Any]:
                with turn_connection(twin) as connection, connection.begin():  # in turns (``_in_twin``)
                    return _write_batch(connection, now, kind, items, prebuilt_sql=True)

            return await self._in_twin(in_twin)
        async with self._sessions() as session, session.begin():
            await lock_for_write(session, None)
            written: list[Any] = await session.run_sync(lambda s: _write_batch(s.connection(), now, kind, items))
            return written
