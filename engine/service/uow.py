"""The unit of work: one transaction per command, a lock per game (in this process and in the database), and the
event it appends.

Every change to a game records an event, and every event takes the game's next sequence number here
(``reserve_seqs``; no other module writes ``games.last_seq``, tests/test_closed_game.py checks). That is where an
ended game's ledger is closed: once a game has ended (``games.status``), appending to it raises ``GameClosed`` and
the transaction, with whatever it changed, is rolled back. Only the transaction that ends or reopens the game
(``UnitOfWork.end`` / ``reopen``) and the kinds of ``WHILE_CLOSED`` may still record."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import CTE, Connection, Engine, Insert, Label, Row, Update, bindparam, insert, select, union_all, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session
from sqlalchemy.util.concurrency import greenlet_spawn

from engine.core.errors import ClerkError, GameClosed, RuleError
from engine.service.clock import Clock, Dice
from engine.service.lease import Lease
from engine.service.membership import GamesCache
from engine.service.proxy import marked
from engine.service.storage_health import StorageHealth
from engine.store.faults import UNREACHABLE, StorageFault, fault_kind, storage_fault
from engine.store.locking import lock_for_write
from engine.store.models import Event, Game
from engine.store.prebuilt import Prebuilt, built_for, prebuilt
from engine.store.twin import WouldWait, close_twin, sync_twin, turn_connection, turn_connection_now

if TYPE_CHECKING:  # a ruleset's record names its service, a ServiceBase: only the type is needed here
    from engine.service.ruleset import Ruleset

P = ParamSpec("P")
T = TypeVar("T")


class Duplicate(ClerkError):
    """The Discord message or interaction was already processed (a redelivery); nothing is done twice."""

    def __init__(self, source_id: str, kind: str, payload: dict[str, Any]) -> None:
        super().__init__("That was already done (the same message arrived twice); nothing was changed.")
        self.source_id = source_id
        self.kind = kind
        self.payload = payload


class GameLocks:
    """One asyncio lock per game: commands on one game run one at a time in this process."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    def __call__(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


_EVENTS = Event.metadata.tables["events"]
_GAMES = Game.metadata.tables["games"]
_DONE = select(_EVENTS.c.kind, _EVENTS.c.payload).where(_EVENTS.c.source_id == bindparam("source_id"))
_NEXT_SEQ_COLUMNS = (_GAMES.c.last_seq, _GAMES.c.status, _GAMES.c.ended_at, _GAMES.c.name)
_NEXT_SEQ = (update(_GAMES).where(_GAMES.c.id == bindparam("game"))
             .values(last_seq=_GAMES.c.last_seq + bindparam("count"))
             .returning(*_NEXT_SEQ_COLUMNS))

WHILE_CLOSED = frozenset({"GameScored", "GameReopened", "ResultPosted", "GameMoved"})
"""What may still be recorded in an ended game: scoring a game that an End Game vote ended (its end, completed by
``/game end``), its reopening, the bookkeeping that a result already decided was posted, and a move to another
channel (its old one deleted: its export and ``/log`` need a channel to be run in)."""
_APPEND = insert(_EVENTS)


def check_not_done(session: Session | Connection, source_id: str | None) -> None:
    """Raise Duplicate if a Discord message or interaction was already processed (one indexed lookup)."""
    if source_id is None:
        return
    connection = session.connection() if isinstance(session, Session) else session
    done = connection.execute(_DONE, {"source_id": source_id}).one_or_none()
    if done is not None:
        raise Duplicate(source_id, done.kind, dict(done.payload))


def _next_seq(dialect: Dialect) -> Prebuilt:
    return Prebuilt(_NEXT_SEQ, dialect, {"game": 0, "count": 0}, columns=_NEXT_SEQ_COLUMNS)


def reserve_seqs(connection: Connection, game_id: int, count: int, kinds: Iterable[str], *, opens: bool = False,
                 prebuilt_sql: bool = False) -> int:
    """Take the game's next ``count`` event numbers for events of ``kinds`` (one row update); returns the last. An
    ended game refuses (``GameClosed``) unless the transaction ends or reopens it (``opens``) or every kind is
    ``WHILE_CLOSED``: the one place an ended game's ledger is closed, with no statement of its own.
    ``prebuilt_sql``: the statement as its driver's SQL, compiled once (``engine.store.prebuilt``; the SQLite
    ballot batch's hot path), the same statement and values."""
    if prebuilt_sql:
        built = built_for(connection, _next_seq)
        (row,) = built.fetch(connection, {"game": game_id, "count": count})
    else:
        row = connection.execute(_NEXT_SEQ, {"game": game_id, "count": count}).one()
    if row.status == "ended" and not opens and not set(kinds) <= WHILE_CLOSED:
        raise GameClosed(row.name, row.ended_at)
    last: int = row.last_seq
    return last


@cache
def locking_read() -> tuple[CTE, tuple[Label[int], Label[int]]]:
    """For a read that takes the game's row lock itself (PostgreSQL, ``ServiceBase._self_locking_unit``): the lock,
    ``WITH locked AS (SELECT id, last_seq FROM games WHERE id = :game FOR UPDATE)``, to join ``games`` to, and two
    columns for the game's rows, its ``last_seq`` as read and as locked (``read_before_lock``).

    Under READ COMMITTED a statement reads every table as of its start. One that waited for the lock (another
    writer of the game held it, then committed) gets the locked row as that writer left it, the row read again,
    but every other row as it was before: it would miss a ballot, a closed round, a removed player. Every change to
    a game appends an event and so moves ``last_seq`` (``reserve_seqs``: the writer's own statement, under the same
    lock), so the two columns differ exactly when a writer committed between the statement's start and the lock;
    then the caller reads again, under the lock it now holds, and sees all of it."""
    locked = select(_GAMES.c.id, _GAMES.c.last_seq).where(_GAMES.c.id == bindparam("game")).with_for_update()
    cte = locked.cte("locked")
    return cte, (_GAMES.c.last_seq.label("read_seq"), cte.c.last_seq.label("locked_seq"))


def read_before_lock(row: Row[Any]) -> bool:
    """Whether a row of a ``locking_read`` was read before another writer's commit that its lock waited for."""
    return bool(row.read_seq != row.locked_seq)


_EVENT_FIELDS = ("game_id", "kind", "actor", "payload", "source_id", "at")  # bound as event_<column>_<n>


class _Lost(Exception):
    """The first statements of a ``_write`` found its connection lost: they are run again on a new one."""


class Changed(Exception):
    """An optimistic unit's write found the game changed since its read (``ServiceBase._optimistic_unit``): it
    wrote nothing, and the unit is run again, from its read."""


OPTIMISTIC_TRIES = 2
"""How many times an optimistic unit is tried before it runs under the game's row lock (``_optimistic_unit``)."""


def lost_uncommitted(error: BaseException, *, reading: bool = False) -> bool:
    """Whether ``error`` is a connection found lost (SQLAlchemy's disconnect: the pool drops every connection opened
    before it, so the next checkout connects anew) by a STATEMENT of a transaction, so that nothing of it was
    committed (the server rolls back a transaction whose session ended) and it may be run again whole on a new
    connection (play-test V5.2: a restart, ``pg_terminate_backend``, a proxy's idle timeout). Not a loss found by
    the COMMIT itself (``statement`` None: the commit may have happened), and not the read-only or I/O faults that
    ``reopen_after_faults`` also makes disconnects (engine/store/faults.py). ``reading``: a read, which commits
    nothing, is repeatable whatever found the loss. docs/reliability.md, "A connection the server ended"."""
    return (isinstance(error, DBAPIError) and error.connection_invalidated
            and (reading or error.statement is not None) and fault_kind(error) == UNREACHABLE)


async def again_if_lost(attempt: Callable[[], Awaitable[T]], *, reading: bool = False) -> T:
    """``attempt()``, and once more if it failed on a connection found lost before anything was committed
    (``lost_uncommitted``). Costs nothing when the first attempt succeeds (no statement, no ping)."""
    try:
        return await attempt()
    except DBAPIError as error:
        if not lost_uncommitted(error, reading=reading):
            raise
    return await attempt()


_GUARDED_SEQ = (update(_GAMES)
                .where(_GAMES.c.id == bindparam("game"), _GAMES.c.last_seq == bindparam("seen"),
                       _GAMES.c.status != "ended")
                .values(last_seq=_GAMES.c.last_seq + bindparam("count"))
                .returning(_GAMES.c.last_seq))


def typed_param(name: str, column: Any) -> Any:
    """A parameter in a SELECT's list, cast to ``column``'s type (PostgreSQL would take an untyped one for text)."""
    return sql_cast(bindparam(name, type_=column.type), column.type)


@cache
def guarded_append(count: int) -> tuple[CTE, CTE]:
    """For an optimistic write (PostgreSQL, ``ServiceBase._optimistic_unit``): the reservation of the game's next
    ``count`` event numbers ONLY if its ``last_seq`` is still ``:seen`` (what the unit read) and it has not ended,
    ``UPDATE games ... RETURNING last_seq``, and the insert of ``count`` events numbered from it (bound as
    ``event_<column>_<n>``), as two data-modifying ``WITH``s. The events are selected FROM the reservation, so
    they are written only if it was; so must every other write of the statement be (``FROM reserved``), and a
    statement that returns no row of ``reserved`` wrote nothing: ``Changed``.

    Every change to a game appends an event and so moves ``last_seq`` (``reserve_seqs``), so an unchanged
    ``last_seq`` means that nothing the unit read of the game has changed since; a writer that holds the row
    (uncommitted) makes the UPDATE wait, and its commit makes the UPDATE find ``last_seq`` moved (PostgreSQL
    re-checks the WHERE of a row it waited for). An ended game is refused by the guard, and the caller's read
    again refuses it with its reason."""
    reserved = _GUARDED_SEQ.cte("reserved")
    rows = [select((reserved.c.last_seq - (count - 1 - n)).label("seq"),
                   *(typed_param(f"event_{name}_{n}", _EVENTS.c[name]) for name in _EVENT_FIELDS)).select_from(reserved)
            for n in range(count)]
    appended = insert(_EVENTS).from_select(["seq", *_EVENT_FIELDS], rows[0] if count == 1 else union_all(*rows))
    return reserved, appended.cte("appended")


def seq_as_read() -> Label[int]:
    """The game's ``last_seq`` as a column of an optimistic unit's read (``read_seq``): what its write is guarded by
    (``guarded_append``)."""
    return _GAMES.c.last_seq.label("read_seq")


def guarded_params(game_id: int, seen: int, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The parameters of ``guarded_append(len(events))`` (``events``: rows but their ``seq``)."""
    values = {f"event_{name}_{n}": row[name] for n, row in enumerate(events) for name in _EVENT_FIELDS}
    return {**values, "game": game_id, "seen": seen, "count": len(events)}


@cache
def _appending(statement: Insert | Update, count: int) -> Insert | Update:
    """``statement`` after the reservation of ``count`` numbers and the insert of ``count`` events numbered from it
    (data-modifying ``WITH``s), returning the reservation's row. Built once per statement and count."""
    reserved = _NEXT_SEQ.cte("reserved")
    last = select(reserved.c.last_seq).scalar_subquery()
    rows = [{"seq": last - (count - 1 - n),
             **{name: bindparam(f"event_{name}_{n}", type_=_EVENTS.c[name].type) for name in _EVENT_FIELDS}}
            for n in range(count)]
    appended = insert(_EVENTS).values(rows[0] if count == 1 else rows).cte("appended")
    return statement.add_cte(reserved, appended).returning(
        *(select(c).scalar_subquery().label(c.name) for c in reserved.c))


def append_events_with(connection: Connection, game_id: int, events: Sequence[dict[str, Any]], kinds: Iterable[str],
                       statement: Insert | Update, params: dict[str, Any], *, opens: bool = False) -> int:
    """PostgreSQL: ``reserve_seqs``, the insert of ``events`` (rows but their ``seq``) and the caller's ``statement``
    (bound by ``params``) in ONE statement; the last number. ``GameClosed`` in an ended game, as ``reserve_seqs``."""
    count = len(events)
    taken = connection.execute(_appending(statement, count),
                               {**params, **_event_values(events), "game": game_id, "count": count}).first()
    return _taken(taken, kinds, opens)


def _taken(taken: Row[Any] | None, kinds: Iterable[str], opens: bool) -> int:
    """The last number of an ``_appending`` statement's returned row; ``GameClosed`` as ``reserve_seqs``."""
    if taken is None:  # the caller's statement wrote no row
        raise RuntimeError("the statement returned no row: its writes are not known to have happened")
    if taken.status == "ended" and not opens and not set(kinds) <= WHILE_CLOSED:
        raise GameClosed(taken.name, taken.ended_at)
    last: int = taken.last_seq
    return last


def append_event(session: Session | Connection, now: datetime, game_id: int, kind: str, actor: int | None,
                 payload: dict[str, Any], source_id: str | None, opens: bool = False) -> int:
    """Append an event with the game's next sequence number (one row update, one insert); returns the number.
    ``GameClosed`` in an ended game (``reserve_seqs``)."""
    connection = session.connection() if isinstance(session, Session) else session
    seq = reserve_seqs(connection, game_id, 1, (kind,), opens=opens)
    actor, payload = marked(actor, payload, source_id)  # a moderator's proxy ballot (engine/service/proxy.py)
    connection.execute(_APPEND, {"game_id": game_id, "seq": seq, "kind": kind, "actor": actor, "payload": payload,
                                 "source_id": source_id, "at": now})
    return seq


def append_events(connection: Connection, now: datetime, game_id: int,
                  events: Sequence[tuple[str, int | None, dict[str, Any], str | None]], opens: bool = False, *,
                  prebuilt_sql: bool = False) -> int:
    """``append_event`` of each of ``events`` (kind, actor, payload, source id) in order, numbered one after the
    other: the numbers reserved in one statement and the events inserted in one executemany (``prebuilt_sql``: a few
    multi-row statements, ``insert_events``); the last number.
    ``prebuilt_sql`` (SQLite): both statements as their driver's SQL, compiled once (``engine.store.prebuilt``),
    the same statements and values."""
    if not events:
        raise ValueError("no events to append")
    last = reserve_seqs(connection, game_id, len(events), [kind for kind, *_ in events], opens=opens,
                        prebuilt_sql=prebuilt_sql)
    rows = _event_rows(now, game_id, events, first=last - len(events) + 1)
    insert_events(connection, rows, prebuilt_sql=prebuilt_sql)
    return last


def _event_rows(now: datetime, game_id: int, events: Sequence[tuple[str, int | None, dict[str, Any], str | None]],
               *, first: int | None = None) -> list[dict[str, Any]]:
    """The rows of ``events`` (kind, actor, payload, source id) as the events table stores them, a moderator's proxy
    ballot marked (engine/service/proxy.py); numbered from ``first`` if it is given (else their ``seq`` is left to
    the statement: ``_appending``)."""
    rows = []
    for n, (kind, actor, payload, source_id) in enumerate(events):
        actor, payload = marked(actor, payload, source_id)
        row = {"game_id": game_id, "kind": kind, "actor": actor, "payload": payload, "source_id": source_id, "at": now}
        if first is not None:
            row["seq"] = first + n
        rows.append(row)
    return rows


def _event_values(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``rows`` (but their ``seq``) as the parameters of ``_appending``'s events: ``event_<column>_<n>``."""
    return {f"event_{name}_{n}": row[name] for n, row in enumerate(rows) for name in _EVENT_FIELDS}


def append_events_along(connection: Connection, now: datetime, game_id: int,
                        events: Sequence[tuple[str, int | None, dict[str, Any], str | None]],
                        statement: Insert | Update, params: dict[str, Any], *, opens: bool = False) -> int:
    """PostgreSQL: ``append_events`` of ``events`` (kind, actor, payload, source id) and the caller's ``statement``
    (bound by ``params``; it must return a row, and its own ``WITH``s may hold more writes) in ONE statement
    (``append_events_with``), run as its driver's SQL, compiled once a statement and number of events
    (``engine.store.prebuilt``): the same numbers, rows and payloads; the last number. ``GameClosed`` in an ended
    game (raised after the statement: the caller's transaction, which must not commit then, undoes its writes)."""
    if not events:
        raise ValueError("no events to append")
    count = len(events)
    values = {**params, **_event_values(_event_rows(now, game_id, events)), "game": game_id, "count": count}
    dialect = connection.dialect
    built = prebuilt(("append_events_along", statement, count), dialect,
                     lambda: Prebuilt(_appending(statement, count), dialect, dict.fromkeys(values)))
    found = built.run(connection, values)
    try:
        taken = found.first()
    finally:
        found.close()
    return _taken(taken, [kind for kind, *_ in events], opens)


def insert_events(connection: Connection, rows: Sequence[dict[str, Any]], *, prebuilt_sql: bool = False) -> None:
    """Insert the events ``rows`` (their numbers reserved: ``reserve_seqs``) in one executemany; ``prebuilt_sql``
    (SQLite): as its driver's SQL, compiled once (``engine.store.prebuilt``), the same statement and values, in one
    multi-row statement per power of two of the rows (``Prebuilt.execute_rows``: SQLite's driver lets go of the GIL at
    every step of an executemany, one a row)."""
    if prebuilt_sql:  # a few multi-row statements, not a step a row (``Prebuilt.execute_rows``)
        built_for(connection, _append_built).execute_rows(connection, rows)
    else:
        connection.execute(_APPEND, rows)


_APPEND_COLUMNS = ("game_id", "seq", "kind", "actor", "payload", "source_id", "at")


def _append_built(dialect: Dialect) -> Prebuilt:
    """``_APPEND`` with ``append_events``' columns as the driver runs it (``prebuilt_sql``)."""
    return Prebuilt(_APPEND, dialect, dict.fromkeys(_APPEND_COLUMNS), column_keys=_APPEND_COLUMNS)


def end_game(game: Game, now: datetime, opened: set[int]) -> None:
    game.status = "ended"
    game.ended_at = now
    opened.add(game.id)


def reopen_game(game: Game, opened: set[int]) -> None:
    game.status = "active"
    game.ended_at = None
    opened.add(game.id)


@dataclass
class UnitOfWork:
    session: AsyncSession
    now: datetime
    opened: set[int] = field(default_factory=set)
    """The games this transaction ends or reopens (``end``, ``reopen``): they may record whatever it records."""

    async def check_not_done(self, source_id: str | None) -> None:
        await self.session.run_sync(check_not_done, source_id)

    def end(self, game: Game) -> None:
        """The game ends now: its ledger is closed once this transaction commits (the only way a game ends)."""
        end_game(game, self.now, self.opened)

    def reopen(self, game: Game) -> None:
        """The ended game runs again (``/game reopen``)."""
        reopen_game(game, self.opened)

    async def record(
        self, game_id: int, kind: str, actor: int | None, payload: dict[str, Any], source_id: str | None
    ) -> int:
        return await self.session.run_sync(append_event, self.now, game_id, kind, actor, payload, source_id,
                                           game_id in self.opened)

    async def reserve(self, game_id: int, count: int, kinds: Iterable[str]) -> int:
        """The game's next ``count`` event numbers, for events written by the caller (a bulk insert); the last."""
        def bound(session: Session) -> int:
            return reserve_seqs(session.connection(), game_id, count, kinds, opens=game_id in self.opened)

        return await self.session.run_sync(bound)

    async def run(self, work: Callable[Concatenate[SyncUnit, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run synchronous ``work`` (written for ``ServiceBase._unit``) in this transaction, through ``run_sync``."""
        def bound(session: Session) -> T:
            return work(SyncUnit(session.connection(), self.now, session), *args, **kwargs)

        return await self.session.run_sync(bound)


class SyncUnit:
    """The unit of work of a synchronous transaction (``ServiceBase._unit``): a Core connection in its transaction
    (the ballot batch uses only that: an ORM session's identity map and flush cost more than its few statements),
    and an ORM ``session`` on the same connection, made on first use (the round close shares ORM code with the
    async use cases). What the session holds is flushed before the transaction commits."""

    def __init__(self, connection: Connection, now: datetime, session: Session | None = None,
                 optimistic: bool = False, self_locking: bool = False) -> None:
        self.connection = connection
        self.now = now
        self._session = session
        self._owns_session = False
        self.self_locking = self_locking
        """A unit whose work takes the game's row lock with its first statement (PostgreSQL,
        ``ServiceBase._self_locking_unit``): no lock was taken for it, and a ``_self_checking_unit``'s work checks
        its source id itself, under that lock."""
        self.optimistic = optimistic
        """An optimistic unit (``ServiceBase._optimistic_unit``): its statements run each in a transaction of its
        own, and its one write is guarded (``guarded_append``), raising ``Changed`` if the game changed since the
        unit read it."""
        self.opened: set[int] = set()
        """The games this transaction ends (``end``)."""
        self.repeatable = True
        """False once the unit sent a statement that commits by itself (an optimistic unit's write) and that a
        second run would not recognise as done: one recording an event without a source id. A connection found
        lost after it is not retried (``_on_connection``): the write may have been committed."""

    @property
    def session(self) -> Session:
        if self._session is None:
            # Joins the connection's transaction without ever committing it (the unit's caller does).
            self._session = Session(bind=self.connection, expire_on_commit=False,
                                    join_transaction_mode="rollback_only")
            self._owns_session = True
        return self._session

    def record(self, game_id: int, kind: str, actor: int | None, payload: dict[str, Any], source_id: str | None
               ) -> int:
        return append_event(self.connection, self.now, game_id, kind, actor, payload, source_id,
                            game_id in self.opened)

    def record_all(self, game_id: int, events: Sequence[tuple[str, int | None, dict[str, Any], str | None]], *,
                   prebuilt_sql: bool = False) -> int:
        """Record ``events`` (kind, actor, payload, source id), in that order: ``record`` of each, but their numbers
        taken in one statement and the events written in one executemany (a close's ``RoundClosed`` and
        ``ResultPending``: two statements fewer); the last number. ``GameClosed`` in an ended game.
        ``prebuilt_sql``: as ``append_events``."""
        return append_events(self.connection, self.now, game_id, events, game_id in self.opened,
                             prebuilt_sql=prebuilt_sql)

    def record_all_with(self, game_id: int, events: Sequence[tuple[str, int | None, dict[str, Any], str | None]],
                        statement: Insert | Update, params: dict[str, Any]) -> int:
        """PostgreSQL: ``record_all`` of ``events`` and the caller's ``statement`` in one statement
        (``append_events_along``); the last number."""
        return append_events_along(self.connection, self.now, game_id, events, statement, params,
                                   opens=game_id in self.opened)

    def reserve(self, game_id: int, count: int, kinds: Iterable[str], *, prebuilt_sql: bool = False) -> int:
        """The game's next ``count`` event numbers, for events written by the caller (the ballot batch's bulk
        insert); the last. ``GameClosed`` in an ended game. ``prebuilt_sql``: as ``reserve_seqs``."""
        return reserve_seqs(self.connection, game_id, count, kinds, opens=game_id in self.opened,
                            prebuilt_sql=prebuilt_sql)

    def end(self, game: Game) -> None:
        end_game(game, self.now, self.opened)

    def flush(self) -> None:
        if self._session is not None:
            self._session.flush()

    def close(self) -> None:
        if self._session is not None and self._owns_session:
            self._session.close()


def _run_unit(connection: Connection, now: datetime, source_id: str | None, work: Callable[[SyncUnit], T],
              session: Session | None = None, optimistic: bool = False, self_locking: bool = False) -> T:
    check_not_done(connection, source_id)
    unit = SyncUnit(connection, now, session, optimistic, self_locking)
    try:
        result = work(unit)
        unit.flush()
        return result
    finally:
        unit.close()


@dataclass(eq=False)
class Backend:
    """What every service of one Clerk shares: the database, the clock, the dice, the per-game locks, the storage
    health and the SQLite file's synchronous twin. The shared services and each ruleset's service are built on one
    ``Backend``, so a lock taken by one is the lock of all."""

    sessions: async_sessionmaker[AsyncSession]
    clock: Clock
    dice: Dice
    locks: GameLocks
    storage: StorageHealth
    twin: Engine | None
    rulesets: tuple[Ruleset, ...]
    """The rulesets this Clerk plays (``engine/service/clerk.py`` lists the shipped ones), in their order."""
    games: GamesCache = field(default_factory=GamesCache)
    """The games of each user's last lookup (``membership.py``), for every service of the Clerk."""
    twin_turns: asyncio.Lock = field(default_factory=asyncio.Lock)
    """The twin's transactions of this process, one at a time (``ServiceBase._in_twin``)."""
    postgres: AsyncEngine | None = None
    """The sessions' engine when it is PostgreSQL's (``ServiceBase._self_locking_unit`` runs on its connections)."""

    @classmethod
    def open(cls, sessions: async_sessionmaker[AsyncSession], clock: Clock, dice: Dice,
             rulesets: Sequence[Ruleset]) -> Backend:
        bind = sessions.kw.get("bind")
        twin = sync_twin(bind) if isinstance(bind, AsyncEngine) else None
        postgres = bind if isinstance(bind, AsyncEngine) and bind.dialect.name == "postgresql" else None
        backend = cls(sessions, clock, dice, GameLocks(), StorageHealth(), twin, tuple(rulesets), postgres=postgres)
        if twin is not None:
            weakref.finalize(backend, close_twin, twin)
        return backend

    def ruleset(self, name: str) -> Ruleset:
        """The ruleset called ``name``; a RuleError that lists the rulesets if there is none."""
        for ruleset in self.rulesets:
            if ruleset.name == name:
                return ruleset
        raise RuleError(f"“{name}” is not a ruleset. Choose one of: {', '.join(r.name for r in self.rulesets)}.")


@dataclass(frozen=True)
class _Batch:
    game_id: int
    uow: UnitOfWork


_BATCH: ContextVar[_Batch | None] = ContextVar("clerk_batch", default=None)
"""The batch (``ServiceBase._batch``) the current task writes in, if any."""

_SHORT: ContextVar[bool] = ContextVar("clerk_short_unit", default=False)
"""Whether the current task's units are short (``short_units``)."""


@contextmanager
def short_units(short: bool = True) -> Iterator[None]:
    """Inside the block, a unit of this task on the SQLite file's twin (``ServiceBase._unit``) is short enough to
    run on the event loop's own thread when it can begin at once (``twin.turn_connection_now``): no other twin
    transaction of this process having its turn, no other connection holding the write lock. For a
    transaction of a fixed, small size only (a lone DM ballot: ``BallotService._cast_batch``), never for one that
    grows with the game or a burst, which would hold up every other event of the bot meanwhile. Issue 20: a lone
    ballot's hop to the worker thread and back cost about 0.2 ms of its receipt's 3 ms. Not for the marks of the
    messages sent (``OwedService.settle``): they are off the receipt's path, and in a burst the hop is the moment in
    which the next marks gather into one transaction; written at once, each would be a transaction of its own."""
    token = _SHORT.set(short)
    try:
        yield
    finally:
        _SHORT.reset(token)


class ServiceBase:
    """A service on a ``Backend``: reads, writes (``_write``) and synchronous units (``_unit``) of one game."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._sessions = backend.sessions
        self.clock = backend.clock
        self.dice = backend.dice
        self._locks = backend.locks
        self.storage = backend.storage
        """Which games' writes fail now (storage faults); the bot tells the moderators (storage_health.py)."""
        self._twin = backend.twin

    def lease(self, name: str, holder: str, ttl: timedelta) -> Lease:
        """The lease ``name`` in this database, as taken by ``holder`` (``engine.service.lease``)."""
        return Lease(self._sessions, name, holder, ttl)

    async def _in_twin(self, transaction: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``transaction`` (one on the SQLite file's sync twin) in a worker thread, in turns with this process's
        other twin transactions. Each takes SQLite's write lock at BEGIN, and one that finds it taken waits in SQLite's
        busy handler, which sleeps 1, 2, 5, 10, ... ms however soon the other ends (a ballot batch and the marks of the
        receipts sent, in a burst); in turns, each begins as soon as the one before has committed."""
        async with self.backend.twin_turns:
            return await asyncio.to_thread(transaction, *args, **kwargs)

    def _twin_now(self, twin: Engine, transaction: Callable[[Connection], T]) -> T:
        """``transaction`` on the twin's kept connection, on this thread (the event loop's), begun at once and
        committed, for a short one only (``short_units``); ``WouldWait`` before anything ran when it cannot begin
        at once: another twin transaction of this process has its turn, or ``twin.turn_connection_now`` says so.
        Run synchronously, it cannot meet another of this process's twin transactions."""
        if self.backend.twin_turns.locked():
            raise WouldWait
        with turn_connection_now(twin) as connection:
            return transaction(connection)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncSession]:
        async with self._sessions() as session:
            yield session

    @asynccontextmanager
    async def _write(self, game_id: int | None, source_id: str | None = None) -> AsyncIterator[UnitOfWork]:
        """A transaction that commits only if the block finishes; raises Duplicate for a redelivery. The game's
        database lock (``engine.store.locking``) is its first statement, so two processes write one at a time."""
        batch = _BATCH.get()
        if batch is not None and batch.game_id == game_id:  # a step of a batch: its transaction, a savepoint
            await batch.uow.check_not_done(source_id)
            async with batch.uow.session.begin_nested():
                yield batch.uow
            return
        lock = self._locks(game_id) if game_id is not None else asyncio.Lock()
        async with lock, self._faults(game_id):
            # The block runs once; its first statements (the lock, the duplicate check) are where a connection the
            # server ended is found (the pool's connections are not pinged: play-test V5.2): then they are run
            # again once, on a new connection, before the block (``lost_uncommitted``).
            for again in (False, True):
                try:
                    async with self._sessions() as session, session.begin():
                        try:
                            await lock_for_write(session, game_id)
                            uow = UnitOfWork(session, self.clock.now())
                            await uow.check_not_done(source_id)
                        except DBAPIError as error:
                            if again or not lost_uncommitted(error):
                                raise
                            raise _Lost from error
                        yield uow
                except _Lost:
                    continue
                break
        if uow.opened:  # ended or reopened: who plays in a running game changed (membership.py)
            self.backend.games.forget()

    @asynccontextmanager
    async def _batch(self, game_id: int, source_id: str | None = None) -> AsyncIterator[UnitOfWork]:
        """One transaction for many writes (a bulk import): every ``_write`` of this game made by any service of
        the Backend inside the block joins it as a savepoint (a refused step is undone alone, so the caller can
        go on and name every refusal), and everything commits or nothing does. Raises Duplicate for a
        redelivery of ``source_id``."""
        async with self._write(game_id, source_id) as uow:
            token = _BATCH.set(_Batch(game_id, uow))
            try:
                yield uow
            finally:
                _BATCH.reset(token)

    @asynccontextmanager
    async def _faults(self, game_id: int | None) -> AsyncIterator[None]:
        """A write the database refuses (full, read-only, locked past the wait, gone) leaves as a ``StorageFault``
        (its text for the player, one log line, the moderators told once: ``StorageHealth``); a commit clears it."""
        try:
            yield
        except StorageFault as refused:
            self.storage.failed(game_id, refused)
            raise
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise
            self.storage.failed(game_id, fault)
            raise fault from None
        self.storage.succeeded(game_id)

    async def _unit(self, game_id: int, source_id: str | None, work: Callable[Concatenate[SyncUnit, P], T],
                    *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``work`` as one transaction under the game's lock, like ``_write``, but as synchronous code: on a
        SQLite file, in one worker thread on the sync twin (one thread hop instead of one per statement); elsewhere
        through the async session (``run_sync``). Raises Duplicate for a redelivery. For the hot paths only."""
        def bound(unit: SyncUnit) -> T:
            return work(unit, *args, **kwargs)

        batch = _BATCH.get()
        if batch is not None and batch.game_id == game_id:  # a step of a batch (``_batch``): a savepoint of it
            async with batch.uow.session.begin_nested():
                return await batch.uow.session.run_sync(_in_session, batch.uow.now, source_id, bound)
        async with self._locks(game_id), self._faults(game_id):
            now = self.clock.now()
            twin = self._twin
            if twin is not None:
                if _SHORT.get():
                    try:  # on this thread, at once, or not at all (``short_units``)
                        return self._twin_now(twin, lambda connection: _run_unit(connection, now, source_id, bound))
                    except WouldWait:
                        pass
                return await self._in_twin(_in_twin, twin, now, source_id, bound)
            async with self._sessions() as session, session.begin():
                if session.get_bind().dialect.name == "postgresql":
                    # The lock and the game's row in one statement (SELECT games.* ... FOR UPDATE), into the
                    # session, where the work's ``session.get(Game, ...)`` finds it: one round trip fewer. The
                    # row is the one as locked (read again if the lock was waited for), and every later
                    # statement sees what the writer waited for committed (READ COMMITTED), as with ``_LOCK``.
                    # Held here: the session's identity map keeps an object only while it is referenced.
                    locked = await session.get(Game, game_id, with_for_update=True)
                else:
                    locked = None
                    await lock_for_write(session, game_id)
                result = await session.run_sync(_in_session, now, source_id, bound)
                del locked
                return result


    async def _self_locking_unit(self, game_id: int, work: Callable[Concatenate[SyncUnit, P], T], *args: P.args,
                                 **kwargs: P.kwargs) -> T:
        """``_unit`` (no ``source_id``) for ``work`` whose first statement takes the game's row lock itself on
        PostgreSQL and reads again if it waited for it (the ballot batch's read, ``ballot_batch._pg_read``): no
        statement of its own for the lock, one round trip fewer, and the whole transaction (checkout, the
        statements, the commit) in one ``run_sync`` on a Core connection rather than an ORM session. On SQLite,
        and as a step of a ``_batch`` of the game (locked already), it is ``_unit``."""
        return await self._connection_unit(_in_connection, game_id, work, *args, **kwargs)

    async def _self_checking_unit(self, game_id: int, source_id: str | None,
                                  work: Callable[Concatenate[SyncUnit, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``_unit`` with ``source_id`` for ``work`` that, on PostgreSQL, takes the game's row lock with its first
        statement and then checks ``source_id`` itself (``check_not_done``, under that lock: a redelivery waits for
        the first delivery's commit and then finds it), when its unit is ``self_locking``: ``_self_locking_unit``
        (the round's close). On SQLite, and as a step of a ``_batch`` of the game, it is ``_unit``."""
        batch = _BATCH.get()
        if self.backend.postgres is None or (batch is not None and batch.game_id == game_id):
            return await self._unit(game_id, source_id, work, *args, **kwargs)
        return await self._connection_unit(_in_connection, game_id, work, *args, **kwargs)

    async def _optimistic_unit(self, game_id: int, work: Callable[Concatenate[SyncUnit, P], T], *args: P.args,
                               **kwargs: P.kwargs) -> T:
        """``_self_locking_unit`` for ``work`` that reads, then writes once, guarded (``guarded_append``), when its
        unit is ``optimistic``. On PostgreSQL the work runs first with no transaction around it and no lock
        (autocommit: no ``BEGIN``, no ``COMMIT``, each statement atomic by itself): its read, then its one write,
        which takes the game's next event numbers only if the game is as the read saw it and otherwise writes
        nothing (``Changed``): two round trips instead of four. Tried ``OPTIMISTIC_TRIES`` times (another process
        wrote the game between the read and the write), then under the row lock (``_self_locking_unit``), which
        waits for the other writer. Within this process the game's lock keeps its writers in turns, so only
        another process's write can make it try again. On SQLite it is ``_unit``."""
        return await self._connection_unit(_optimistically, game_id, work, *args, **kwargs)

    async def _connection_unit(self, runner: Callable[[Connection, datetime, Callable[[SyncUnit], T]], T],
                               game_id: int, work: Callable[Concatenate[SyncUnit, P], T], *args: P.args,
                               **kwargs: P.kwargs) -> T:
        """``work`` run by ``runner`` in one ``run_sync`` on a Core connection of PostgreSQL, under the game's lock
        in this process (``_self_locking_unit``, ``_optimistic_unit``); on SQLite, and as a step of a ``_batch``
        of the game, it is ``_unit``."""
        engine = self.backend.postgres
        batch = _BATCH.get()
        if engine is None or (batch is not None and batch.game_id == game_id):
            return await self._unit(game_id, None, work, *args, **kwargs)

        def bound(unit: SyncUnit) -> T:
            return work(unit, *args, **kwargs)

        async with self._locks(game_id), self._faults(game_id):
            # One greenlet for the checkout, the work and the return to the pool, on the sync engine: what
            # ``engine.connect()`` and ``run_sync`` do, less their three greenlets and the task of their own that the
            # async connection's close runs in (9 -> 6 steps of the event loop a ballot; docs/performance-history.md,
            # issue 20, branch ballot4). Nothing in the return awaits unless a transaction is left open (an error or a
            # cancellation in the locked unit): then its rollback runs in this task, and one that fails there has the
            # pool close the connection (SQLAlchemy's reset on return), not keep it.
            return await greenlet_spawn(_on_connection, engine.sync_engine, runner, self.clock.now(), bound)


def _on_connection(engine: Engine, runner: Callable[[Connection, datetime, Callable[[SyncUnit], T]], T],
                   now: datetime, work: Callable[[SyncUnit], T]) -> T:
    """``runner`` on a connection of the pool; once more, on a new connection, if the connection was found lost
    before anything was committed (``lost_uncommitted``; play-test V5.2), or after an optimistic unit's write that
    a second run recognises as done (``SyncUnit.repeatable``: its events' source ids, checked by its read)."""
    units: list[SyncUnit] = []

    def watched(unit: SyncUnit) -> T:
        units.append(unit)
        return work(unit)

    try:
        with engine.connect() as connection:
            return runner(connection, now, watched)
    except DBAPIError as error:
        if not lost_uncommitted(error) or (units and not units[-1].repeatable):  # the earlier ones wrote nothing
            raise
    with engine.connect() as connection:
        return runner(connection, now, work)


def _optimistically(connection: Connection, now: datetime, work: Callable[[SyncUnit], T]) -> T:
    """``_optimistic_unit``'s tries on ``connection``, then the locked transaction."""
    default = connection.default_isolation_level
    # SQLAlchemy sets the level back when the connection returns to its pool. Not here after an error: the
    # connection may have been invalidated (a lost or read-only session, engine/store/faults.py), and touching it
    # would open a new one in its place, outside the pool's reconnect
    connection.execution_options(isolation_level="AUTOCOMMIT")
    for _ in range(OPTIMISTIC_TRIES):
        try:
            with connection.begin():  # autocommit: SQLAlchemy's transaction sends no BEGIN and no COMMIT
                return _run_unit(connection, now, None, work, optimistic=True)
        except Changed:
            continue
    connection.execution_options(isolation_level=default)
    return _in_connection(connection, now, work)


def _in_connection(connection: Connection, now: datetime, work: Callable[[SyncUnit], T]) -> T:
    with connection.begin():
        return _run_unit(connection, now, None, work, self_locking=True)


def _in_session(session: Session, now: datetime, source_id: str | None, work: Callable[[SyncUnit], T]) -> T:
    return _run_unit(session.connection(), now, source_id, work, session)


def _in_twin(twin: Engine, now: datetime, source_id: str | None, work: Callable[[SyncUnit], T]) -> T:
    with turn_connection(twin) as connection, connection.begin():  # in turns (``ServiceBase._in_twin``)
        return _run_unit(connection, now, source_id, work)
