"""Many crisis ballots of one game in one transaction (group commit, batching.py): a constant number of statements
per batch, not per ballot. Each ballot is judged as it would be alone, in the order
the ballots arrived, and one refused ballot never stops the others.

The DM ballot's hot path, so SQLAlchemy Core on the unit's connection and no ORM: the statements are built once,
here (their compiled form is cached by the engine), the reads return plain rows, and a batch costs the duplicate
check, ONE joined read of the game, its round, the voters, their ballots and their holdings, and the writes (the
game's ``last_seq``, the events, the ballots' upsert, the receipts owed with them): on PostgreSQL ONE statement,
guarded by the game's ``last_seq`` as read, with no transaction around the read and the write (optimistic:
``_guarded_statement``, ``uow.ServiceBase._optimistic_unit``), on SQLite four in the twin's transaction (the
events and the ballots each as a multi-row statement per power of two of the batch: ``Prebuilt.execute_rows``).
docs/performance-history.md has the measurements."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from itertools import zip_longest
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from sqlalchemy import (
    CompoundSelect,
    Connection,
    Insert,
    Select,
    Table,
    and_,
    bindparam,
    null,
    select,
    true,
    type_coerce,
    union_all,
)
from sqlalchemy import cast as sql_cast

from engine.core.errors import ClerkError, NotFoundError, RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.crisis import RoundWindow, accept_ballot
from engine.landsdraad.model import Elector, Option, Planet, Tier, quality_of
from engine.landsdraad.votes import total_votes
from engine.service.clock import utc
from engine.service.landsdraad.views import BallotReceipt
from engine.service.ledger import require_running
from engine.service.membership import StaleGames
from engine.service.owed import Made, OwedWith, guarded_owe, kept, made_of, owe_made, owe_params
from engine.service.proxy import marked
from engine.service.uow import (
    Changed,
    Duplicate,
    SyncUnit,
    append_events_with,
    guarded_append,
    guarded_params,
    insert_events,
    locking_read,
    read_before_lock,
    seq_as_read,
    typed_param,
)
from engine.service.views import GameView

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.engine import Dialect
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import Ballot, Holding, Round
from engine.store.prebuilt import Prebuilt, built_for, padded, prebuilt

T = TypeVar("T")
CHUNK = 400
"""Ids per ``IN (...)`` list: well under SQLite's limit on bound parameters."""


@dataclass(frozen=True)
class BallotRequest:
    user_id: int
    command: BallotCommand
    received_at: datetime
    source_id: str | None
    expected_round: int | None


def chunks(values: Sequence[T]) -> Iterable[Sequence[T]]:
    for start in range(0, len(values), CHUNK):
        yield values[start:start + CHUNK]


_G, _R, _P, _B, _H, _E = (cast(Table, model.__table__) for model in (Game, Round, Player, Ballot, Holding, Event))

def _listed(column: Any, name: str) -> Any:
    """``column IN (:name...)``: an expanding list, rendered for its length (SQLite)."""
    return column.in_(bindparam(name, expanding=True))


def _in_array(column: Any, name: str) -> Any:
    """``column = ANY(:name)``: one array parameter (PostgreSQL), so the statement's text never changes and neither
    SQLAlchemy nor asyncpg renders or prepares it again for another length."""
    from sqlalchemy import ARRAY, any_

    return column == any_(bindparam(name, type_=ARRAY(column.type)))


def _game_rows(listed: Any, locked: Any = None) -> Select[Any]:
    """The game, in GameView's order, then what require_running reads, its current round and the batch's voters
    (``users``) with their ballots and holdings; joined to ``locked`` (a CTE of the game's id) if given."""
    game = _G if locked is None else _G.join(locked, locked.c.id == _G.c.id)
    return (
        select(
            _G.c.id, _G.c.guild_id, _G.c.channel_id, _G.c.name, _G.c.ruleset, _G.c.moderator_role_id,
            _G.c.current_round, _G.c.status, _G.c.ended_at,
            _R.c.id.label("round_id"), _R.c.number, _R.c.status.label("round_status"), _R.c.deadline,
            _R.c.paused_left,
            _P.c.id.label("player_id"), _P.c.user_id, _P.c.active, _P.c.removed, _P.c.diplomacy, _P.c.diplomacy_max,
            _P.c.intrigue_max, _P.c.roll, _P.c.misc_votes,
            _B.c.option, _B.c.revotes,
            _H.c.kind, _H.c.name.label("holding"), _H.c.grade, _H.c.votes, _H.c.homeworld,
        )
        .select_from(
            game.outerjoin(_R, and_(_R.c.game_id == _G.c.id, _R.c.number == _G.c.current_round))
            .outerjoin(_P, and_(_P.c.game_id == _G.c.id, listed(_P.c.user_id, "users")))
            .outerjoin(_B, and_(_B.c.round_id == _R.c.id, _B.c.player_id == _P.c.id))
            .outerjoin(_H, _H.c.player_id == _P.c.id))
        .where(_G.c.id == bindparam("game"))
    )


_DONE_COLUMNS = (_E.c.source_id.label("done_source"), _E.c.kind.label("done_kind"), _E.c.payload.label("done_payload"))
_MEMBER_COLUMNS = (_P.c.user_id.label("member_user"), _P.c.game_id.label("member_game"))


def _nulls(columns: Iterable[Any]) -> list[Any]:
    return [type_coerce(null(), c.type).label(c.name) for c in columns]


def _typed_nulls(columns: Iterable[Any]) -> list[Any]:
    """NULLs cast to the columns' types: PostgreSQL types a UNION's columns branch by branch, and two untyped NULLs
    before the members' ids would be text."""
    return [sql_cast(null(), c.type).label(c.name) for c in columns]


def _joined_read(listed: Any, game_rows: Select[Any], seqs: Sequence[Any] = ()) -> CompoundSelect[Any]:
    """ONE statement for the batch's duplicate check, the check of remembered games and its joined read: the rows of
    the game (``id`` set), the events already recorded for the batch's source ids (``id`` NULL, ``done_*`` set), and
    every game of the users whose games were remembered (``member_*`` set; membership.py). ``seqs``: more columns of
    the game's rows (NULL in the others)."""
    tail = _typed_nulls(seqs)
    return union_all(
        game_rows.add_columns(*_nulls(_DONE_COLUMNS), *_typed_nulls(_MEMBER_COLUMNS), *seqs),
        select(*_nulls(game_rows.selected_columns), *_DONE_COLUMNS, *_typed_nulls(_MEMBER_COLUMNS), *tail)
        .where(listed(_E.c.source_id, "sources")),
        select(*_nulls(game_rows.selected_columns), *_nulls(_DONE_COLUMNS), *_MEMBER_COLUMNS, *tail)
        .where(listed(_P.c.user_id, "members")))


_READ = _joined_read(_listed, _game_rows(_listed))
"""SQLite's read (the twin's ``BEGIN IMMEDIATE`` has taken the database's write lock before it)."""


@cache
def _pg_read() -> CompoundSelect[Any]:
    """PostgreSQL's read, which takes the game's row lock itself (``ServiceBase._self_locking_unit``: no statement
    of its own for the lock, one round trip fewer): the game's rows are joined to ``uow.locking_read``'s CTE
    (``SELECT ... FROM games ... FOR UPDATE``) and carry its two columns, which tell whether the statement read the
    game as it was before the lock (it waited for another writer, who committed: ``_read`` reads again, under the
    lock). Built on first use (a bot on SQLite never needs it)."""
    locked, seqs = locking_read()
    return _joined_read(_in_array, _game_rows(_in_array, locked), seqs)


@cache
def _pg_optimistic_read() -> CompoundSelect[Any]:
    """PostgreSQL's read for an optimistic unit (``ServiceBase._optimistic_unit``): no lock; the game's rows carry
    its ``last_seq``, which the write is guarded by (``uow.guarded_append``)."""
    return _joined_read(_in_array, _game_rows(_in_array), (seq_as_read(),))



def _upsert(statement: sqlite.Insert | postgresql.Insert) -> Insert:
    """One row per voter and round: inserted, or replaced in place (its ``revotes`` counted by the batch)."""
    kept = ("option", "declared", "revotes", "received_at", "source_id")
    return statement.on_conflict_do_update(index_elements=[_B.c.round_id, _B.c.player_id],
                                           set_={name: statement.excluded[name] for name in kept})


def _pg_insert() -> Callable[[Table], postgresql.Insert]:
    """SQLAlchemy's PostgreSQL ``insert`` (its dialect imported on first use, as ``_upsert_on``)."""
    insert_of: Callable[[Table], postgresql.Insert] = importlib.import_module("sqlalchemy.dialects.postgresql").insert
    return insert_of


@cache
def _upsert_on(dialect: str) -> Insert:
    """The upsert of ``dialect`` (``sqlite`` or ``postgresql``), built once, on first use: a bot on SQLite never
    imports SQLAlchemy's PostgreSQL dialect (about 20 ms at start-up)."""
    return _upsert(importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert(_B))


_BALLOT_COLUMNS = ("round_id", "player_id", "option", "declared", "revotes", "received_at", "source_id")


@cache
def _pg_upsert(count: int) -> Insert:
    """PostgreSQL's upsert of ``count`` ballots, bound as ``b_<column>_<n>``: built once per size, so that the
    ballot alone (the usual batch) is one statement compiled once (SQLAlchemy never caches a multi-row
    ``VALUES``: a bigger batch compiles its statement, a cost its ballots share)."""
    rows = [{name: bindparam(f"b_{name}_{n}", type_=_B.c[name].type) for name in _BALLOT_COLUMNS}
            for n in range(count)]
    return _upsert_on("postgresql").values(rows[0] if count == 1 else rows)


class _Game(NamedTuple):
    view: GameView
    status: str
    seq: int | None
    """Its ``last_seq`` as read (an optimistic read's; None otherwise)."""

    @property
    def name(self) -> str:
        return self.view.name

    @property
    def ended_at(self) -> datetime | None:
        return self.view.ended_at


class _Round(NamedTuple):
    id: int
    window: RoundWindow
    paused_left: timedelta | None


@dataclass
class _Voter:
    """A player of the batch as read: what the checks need, their holdings, and their ballot as the batch leaves it."""

    id: int
    active: bool
    removed: bool
    numbers: tuple[int, int, int, int, int]
    """diplomacy, diplomacy_max, intrigue_max, roll, misc_votes: the arguments of ``total_votes``."""
    option: str | None
    revotes: int
    electors: list[Elector] = field(default_factory=list)
    planets: list[Planet] = field(default_factory=list)
    ballot: dict[str, Any] | None = None
    """The row to upsert, once the batch has accepted a ballot of this player."""

    @property
    def votes(self) -> int:
        return total_votes(*self.numbers, self.electors, self.planets)


def cast_batch(uow: SyncUnit, game_id: int, items: Sequence[BallotRequest],
               plays_in: Sequence[frozenset[int] | None] | None = None,
               answers: Sequence[OwedWith[BallotReceipt] | None] | None = None) -> list[BallotReceipt | ClerkError]:
    """Record every acceptable ballot of ``items``; the result of each is its receipt, its refusal (a RuleError) or
    a ``Duplicate`` (its message was already handled: answered again by the caller after the commit).
    ``plays_in``: for each item, the ids of the games it was chosen from when they were remembered (None: looked
    up now); an item whose user's games are not exactly those now is answered ``StaleGames``, unrecorded
    (membership.py; read in the same statement as the rest).
    ``answers``: for each item, the messages to owe with its receipt if it is accepted (``OwedWith``), written
    with the ballots (in an optimistic unit, in the same statement).
    Synchronous: it runs as one ``ServiceBase._optimistic_unit`` (on SQLite ``_unit``: one hop to a worker thread
    for the whole batch); in an optimistic unit its write raises ``Changed`` if the game changed since its read."""
    if not items:
        return []
    connection = uow.connection
    expected = list(plays_in) if plays_in is not None else [None] * len(items)
    done: dict[str, tuple[str, dict[str, Any]]] = {}
    members: dict[int, set[int]] = {}
    remembered = sorted({i.user_id for i, games in zip(items, expected, strict=True) if games is not None})
    game, rnd, voters = _read(connection, uow.optimistic, game_id, sorted({i.user_id for i in items}),
                              [i.source_id for i in items if i.source_id is not None], done, remembered, members)
    stale = {i.user_id for i, games in zip(items, expected, strict=True)
             if games is not None and members.get(i.user_id, set()) != games}

    results: list[BallotReceipt | ClerkError] = []
    accepted: list[tuple[int, dict[str, Any], str | None]] = []
    owing: list[tuple[OwedWith[BallotReceipt], BallotReceipt]] = []
    for item, games, answer in zip(items, expected, answers or [None] * len(items), strict=True):
        if games is not None and item.user_id in stale:
            results.append(StaleGames(item.user_id))
            continue
        if item.source_id is not None and item.source_id in done:
            kind, payload = done[item.source_id]
            results.append(Duplicate(item.source_id, kind, payload))
            continue
        try:
            receipt, payload = _judge(game, rnd, voters.get(item.user_id), item)
        except ClerkError as refused:
            results.append(refused)
            continue
        results.append(receipt)
        accepted.append((item.user_id, payload, item.source_id))
        if answer is not None:
            owing.append((answer, receipt))
        if item.source_id is not None:
            done[item.source_id] = ("BallotCast", payload)
    if accepted:
        _write(uow, game, accepted, [v.ballot for v in voters.values() if v.ballot is not None], made_of(owing))
    return results


def _write(uow: SyncUnit, game: _Game, accepted: Sequence[tuple[int, dict[str, Any], str | None]],
           ballots: list[dict[str, Any]], owed: Sequence[Made[BallotReceipt]]) -> None:
    """The batch's writes: the game's next event numbers, the events, the ballots' upsert, the owed receipts. In
    an optimistic unit (PostgreSQL) ONE statement, guarded by the game's ``last_seq`` as read (``_guarded``; no
    transaction around it); in PostgreSQL's locked transaction the first three in one statement
    (``append_events_with``: data-modifying ``WITH``), then the receipts; on SQLite, which has no such statement
    (and no round trip to save), one each."""
    connection = uow.connection
    game_id = game.view.id
    rows = [(marked(user, payload, source), source) for user, payload, source in accepted]  # proxy.py
    events = [{"game_id": game_id, "kind": "BallotCast", "actor": actor, "payload": marked_payload,
               "source_id": source, "at": uow.now} for (actor, marked_payload), source in rows]
    if uow.optimistic:
        if game.seq is None:
            raise RuntimeError("an optimistic unit's read did not read the game's last_seq")
        _guarded(uow, game_id, game.seq, events, ballots, owed)
        return
    if connection.dialect.name == "postgresql":
        params = {f"b_{name}_{n}": value for n, row in enumerate(ballots) for name, value in row.items()}
        append_events_with(connection, game_id, events, ("BallotCast",), _pg_upsert(len(ballots)), params,
                           opens=game_id in uow.opened)
    else:  # SQLite: each statement compiled once to its driver's SQL (``engine.store.prebuilt``)
        last = uow.reserve(game_id, len(events), ("BallotCast",), prebuilt_sql=True)
        first = last - len(events) + 1
        insert_events(connection, [{**event, "seq": first + n} for n, event in enumerate(events)], prebuilt_sql=True)
        built_for(connection, _sqlite_upsert).execute_rows(connection, ballots)  # one voter a row: no key twice
    owe_made(connection, uow.now, owed, prebuilt_sql=connection.dialect.name == "sqlite")


def _sqlite_upsert(dialect: Dialect) -> Prebuilt:
    """The ballots' upsert as SQLite's driver runs it (``_upsert_on("sqlite")``)."""
    return Prebuilt(_upsert_on("sqlite"), dialect, dict.fromkeys(_BALLOT_COLUMNS), column_keys=_BALLOT_COLUMNS)


def _execute_read(connection: Connection, statement: CompoundSelect[Any], params: dict[str, Any]) -> Iterable[Any]:
    """The rows of ``_read``'s statement as its driver's SQL, compiled once (``engine.store.prebuilt``), the same
    statement and values: on PostgreSQL once (its lists are arrays), on SQLite once per length of its lists (up to
    4, then padded to a power of two: ``_padded``)."""
    dialect = connection.dialect
    if statement is not _READ:
        built = prebuilt(statement, dialect, lambda: _read_built(statement, dialect, params))
        return built.fetch(connection, params)
    padded = {**params, "users": _padded(params["users"]), "sources": _padded(params["sources"]),
              "members": _padded(params["members"])}
    key = (statement, len(padded["users"]), len(padded["sources"]), len(padded["members"]))
    built = prebuilt(key, dialect, lambda: _read_built(statement, dialect, padded))
    return built.fetch(connection, padded)


def _padded(values: list[T]) -> list[T]:
    """``values`` (an ``IN`` list of at most ``CHUNK``) padded with its last value to the next power of two above 4
    (at most ``CHUNK``), so that the read of a batch of any size is one of a few statements compiled once: a value
    again in an ``IN`` list selects nothing more (issue 20, branch burst3: the burst's batches of up to 400 voters
    had their statement rendered for its lengths and their rows made by SQLAlchemy's ``CursorResult`` each time)."""
    return padded(values, CHUNK)


def _read_built(statement: CompoundSelect[Any], dialect: Dialect, params: dict[str, Any]) -> Prebuilt:
    return Prebuilt(statement, dialect, params, columns=list(statement.selected_columns))


@cache
def _guarded_statement(events: int, ballots: int, owed: int) -> Select[Any]:
    """ONE statement for an optimistic batch: the guarded reservation and the events (``uow.guarded_append``), the
    upsert of ``ballots`` ballots (bound as ``b_<column>_<n>``) and the insert of ``owed`` owed messages
    (``owed.guarded_owe``), each selected FROM the reservation, so that nothing is written unless the game is as
    read. It returns a row per owed message (its nonce and id; one row of NULLs if none), or no row: the game had
    changed (``Changed``). Built once per size."""
    reserved, appended = guarded_append(events)
    branches = [select(*(typed_param(f"b_{name}_{n}", _B.c[name]) for name in _BALLOT_COLUMNS))
                .select_from(reserved) for n in range(ballots)]
    upsert = _upsert(_pg_insert()(_B).from_select(list(_BALLOT_COLUMNS),
                                                  branches[0] if ballots == 1 else union_all(*branches)))
    owing = guarded_owe(reserved, owed)
    return (select(*reserved.c, owing.c.nonce, owing.c.id)
            .select_from(reserved.outerjoin(owing, true()))
            .add_cte(appended, upsert.cte("upserted"), owing))


def _guarded(uow: SyncUnit, game_id: int, seen: int, events: Sequence[dict[str, Any]], ballots: list[dict[str, Any]],
             owed: Sequence[Made[BallotReceipt]]) -> None:
    """``_guarded_statement`` executed; ``Changed`` (nothing written) if the game changed since it was read."""
    messages = [m for _, made in owed for m in made]
    params = {f"b_{name}_{n}": value for n, row in enumerate(ballots) for name, value in row.items()}
    sizes = (len(events), len(ballots), len(messages))
    statement = _guarded_statement(*sizes)
    values = {**params, **guarded_params(game_id, seen, events), **owe_params(uow.now, messages)}
    connection = uow.connection
    # The statement commits by itself: if the connection is found lost while it runs, it may have been committed,
    # and a second run of the unit recognises that only by the events' source ids (``SyncUnit.repeatable``)
    uow.repeatable = all(event["source_id"] is not None for event in events)
    if max(sizes) <= 4:  # the usual batch: the statement as its driver's SQL, compiled once (engine.store.prebuilt)
        dialect = connection.dialect
        built = prebuilt(statement, dialect, lambda: Prebuilt(statement, dialect, values,
                                                              columns=list(statement.selected_columns)))
        found: Sequence[Any] = built.fetch(connection, values)
    else:
        found = connection.execute(statement, values).all()
    if not found:
        raise Changed(f"game {game_id} changed since its ballots were read")
    kept(owed, {nonce: id_ for _, nonce, id_ in found if nonce is not None})


def _read(connection: Connection, optimistic: bool, game_id: int, users: Sequence[int], sources: Sequence[str],
          done: dict[str, tuple[str, dict[str, Any]]], members: Sequence[int], games_of: dict[int, set[int]]
          ) -> tuple[_Game, _Round | None, dict[int, _Voter]]:
    """The game, its current round and the batch's voters with their ballots and holdings, (into ``done``) what
    was already recorded for the batch's ``sources``, and (into ``games_of``) the games each of ``members`` plays
    in: one statement (per ``CHUNK`` voters, sources or members), rows and not ORM objects. On PostgreSQL the
    statement takes the game's row lock; if it read the game as it was before another writer's commit (it waited
    for that writer's lock: ``_pg_read``), it reads again, under the lock, once. An ``optimistic`` read (PostgreSQL)
    takes no lock and reads the game's ``last_seq`` (``_pg_optimistic_read``)."""
    locking = connection.dialect.name == "postgresql" and not optimistic
    statement = _pg_optimistic_read() if optimistic else _pg_read() if locking else _READ
    for _ in range(2):
        done.clear()
        games_of.clear()
        found = _read_rows(connection, statement, locking, game_id, users, sources, done, members, games_of)
        if found is not None:
            return found
    raise RuntimeError(f"game {game_id} changed while this transaction held its row lock")


def _read_rows(connection: Connection, statement: CompoundSelect[Any], locking: bool, game_id: int,
               users: Sequence[int], sources: Sequence[str], done: dict[str, tuple[str, dict[str, Any]]],
               members: Sequence[int], games_of: dict[int, set[int]]
               ) -> tuple[_Game, _Round | None, dict[int, _Voter]] | None:
    """``_read``'s statements once; None if a locking read (``locking``) found its read of the game older than the
    row it locked."""
    game: _Game | None = None
    rnd: _Round | None = None
    voters: dict[int, _Voter] = {}
    for user_part, source_part, member_part in zip_longest(chunks(users), chunks(sources), chunks(members),
                                                           fillvalue=()):
        for row in _execute_read(connection, statement, {"game": game_id, "users": list(user_part),
                                                         "sources": list(source_part), "members": list(member_part)}):
            if row.id is None:
                if row.done_source is not None:
                    done[row.done_source] = (row.done_kind, dict(row.done_payload))
                else:
                    games_of.setdefault(row.member_user, set()).add(row.member_game)
                continue
            if locking and read_before_lock(row):
                return None  # another writer committed after this statement began: read again (``_pg_read``)
            if game is None:
                ended = utc(row.ended_at) if row.status == "ended" and row.ended_at else None
                game = _Game(GameView(row.id, row.guild_id, row.channel_id, row.name, row.ruleset,
                                      row.moderator_role_id, row.current_round, ended), row.status,
                             None if locking or statement is _READ else row.read_seq)
                if row.round_id is not None:
                    deadline = utc(row.deadline) if row.deadline else None
                    rnd = _Round(row.round_id, RoundWindow(row.number, row.round_status == "open", deadline,
                                                              row.round_status == "void"),
                                 timedelta(seconds=row.paused_left) if row.paused_left is not None else None)
            if row.player_id is None:
                continue
            voter = voters.get(row.user_id)
            if voter is None:
                voter = voters[row.user_id] = _Voter(
                    row.player_id, row.active, row.removed,
                    (row.diplomacy, row.diplomacy_max, row.intrigue_max, row.roll, row.misc_votes),
                    row.option, row.revotes or 0)
            if row.kind == "elector":
                voter.electors.append(Elector(row.holding, Tier(row.grade), row.votes))
            elif row.kind == "planet":
                voter.planets.append(Planet(row.holding, quality_of(row.grade), row.homeworld))
    if game is None:
        raise NotFoundError("That game no longer exists.")
    return game, rnd, voters


def _judge(game: _Game, rnd: _Round | None, voter: _Voter | None, item: BallotRequest
           ) -> tuple[BallotReceipt, dict[str, Any]]:
    """One ballot, as it would be judged alone: the receipt and the event's payload, or a ClerkError. An accepted
    ballot becomes the voter's ``ballot`` row (written with the batch)."""
    require_running(game)
    if voter is None:
        raise NotFoundError(f"You are not a player in {game.name}.")
    if voter.removed:
        raise RuleError(f"You are no longer in {game.name}: a moderator removed you, so your ballot cannot count. "
                        "Ask a moderator if this is wrong.")
    if not voter.active:
        raise RuleError(f"You are marked inactive in {game.name}, so your ballot cannot count. "
                        "Ask a moderator if this is wrong.")
    if rnd is None:
        raise RuleError(f"No round is open in {game.name}, so there is nothing to vote on yet.")
    window = rnd.window
    if item.expected_round is not None and window.number != item.expected_round:
        raise RuleError(f"This ballot is for round {item.expected_round} of {game.name}, which is over; "
                        f"round {window.number} is the current one.")
    previous = Option(voter.option) if voter.option is not None else None
    accepted = accept_ballot(window, previous, item.command.option, item.command.declared, item.received_at,
                             game.name)
    if previous is not None:
        voter.revotes += 1
    voter.option = accepted.option.value
    voter.ballot = {"round_id": rnd.id, "player_id": voter.id, "option": voter.option, "declared": accepted.declared,
                    "revotes": voter.revotes, "received_at": item.received_at, "source_id": item.source_id}
    payload = {"round": window.number, "user_id": item.user_id, "option": accepted.option.value,
               "declared": accepted.declared, "replaced": previous.value if previous else None,
               "received_at": item.received_at.isoformat()}
    receipt = BallotReceipt(
        game=game.view, round_number=window.number, option=accepted.option.value, declared=accepted.declared,
        votes=voter.votes, replaced=previous.value if previous else None, deadline=window.deadline,
        paused_left=rnd.paused_left)
    return receipt, payload
