"""Closing a crisis round (R0-15..R0-20): tally with every weight read now, roll the d6 factions, the round-end
steps, the result and its ``RoundClosed`` event with every voter's weight.

Synchronous: it runs as one ``ServiceBase._unit`` (on a SQLite file, one hop to a worker thread on the twin for the
whole transaction; on PostgreSQL through ``run_sync`` after the game's row lock). The voters are read in one plain
query (weight computed by the database, ballot joined) and walked once, so a round of 10,000 voters builds no ORM
object and makes no call per voter (docs/performance-history.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import timedelta
from functools import cache
from operator import itemgetter
from typing import Any

from sqlalchemy import Integer, Select, Update, and_, bindparam, case, exists, func, insert, or_, select, true, update
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine.core.disclosure import InconsistentError
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.adjutant import NO_AG_PENALTY
from engine.landsdraad.close_weights import columns
from engine.landsdraad.crisis import CrisisResult, resolve_counted
from engine.landsdraad.disclosure import crisis_check_counted
from engine.landsdraad.model import Option
from engine.landsdraad.settings import SETTINGS
from engine.service.announcements import POST_TOKEN, new_post_token, pending_event
from engine.service.clock import Dice, utc
from engine.service.dice import (
    ADD_ROLLS,
    GAME_SCOPE,
    REVEAL,
    ROLL_FIELDS,
    SeedsAndRolls,
    ended_ever,
    is_revealed,
    reveal,
    roll_many,
    seeds_and_rolls,
    seeds_rolled,
    view_of,
)
from engine.service.landsdraad.adjutant import AG, ElectionView, close_elections_with_round, read_adjutant
from engine.service.landsdraad.ledger import active_players, holding_extras
from engine.service.landsdraad.majority import expire_votes
from engine.service.landsdraad.round_state import (
    KnownDice,
    faction_of,
    faction_purpose,
    read_round_view,
    result_view,
)
from engine.service.landsdraad.views import ResultView
from engine.service.owed import OwedWith, owe_with
from engine.service.settings import value_of
from engine.service.uow import SyncUnit, check_not_done, locking_read, read_before_lock
from engine.store.collector import collector_paused
from engine.store.models import Base, DiceRoll, DiceSeed, Game, Player
from engine.store.models.landsdraad import (
    AgElection,
    Ballot,
    Holding,
    Office,
    PlayerVoteRow,
    Round,
    TempFactionRow,
)
from engine.store.prebuilt import Prebuilt, built_for

LATE = timedelta(minutes=1)
"""A timer close later than this after the deadline is reported as late (the bot was offline)."""

_FACTIONS, _ROUNDS = Base.metadata.tables["temp_factions"], Base.metadata.tables["rounds"]
_SET_FACTION = (update(_FACTIONS).where(_FACTIONS.c.id == bindparam("row"))
                .values(roll=bindparam("roll"), vote=bindparam("vote")))
"""A closing round's temporary faction: its d6 face (None for a fixed stance) and its vote (R0-16), one
executemany for all of them (Core, built once: the ORM's flush made one statement per set of changed columns)."""
_CLOSE_ROUND = (update(_ROUNDS).where(_ROUNDS.c.id == bindparam("row"))
                .values(status="closed", closed_at=bindparam("closed_at"), result=bindparam("result")))

_ROLLS, _SEEDS = Base.metadata.tables["dice_rolls"], Base.metadata.tables["dice_seeds"]


@cache
def _close_writes(factions: int, rolls: int, revealed: bool) -> Update:
    """PostgreSQL: the close's writes but its events as ONE statement, the round's update (``_CLOSE_ROUND``) after
    data-modifying ``WITH``s: the insert of ``rolls`` new rolls (``roll_<field>_<n>``, ``dice.ROLL_FIELDS``), the
    update of ``factions`` temporary factions (``faction_<n>``, ``faction_roll_<n>``, ``faction_vote_<n>``: the
    rows of ``_SET_FACTION``) and, if ``revealed``, the seed's reveal (``seed_row``, ``revealed_at``: the update of
    ``dice.reveal``). The same rows and values as those statements one by one; ``uow.append_events_along`` adds the
    events' numbers and insert to it, so that the close writes in one round trip instead of six. Built once a
    shape. Every ``WITH`` runs once whether or not it is referenced, and they change different rows."""
    ctes = []
    if rolls:
        ctes.append(insert(_ROLLS).values([
            {f: bindparam(f"roll_{f}_{n}", type_=_ROLLS.c[f].type) for f in ROLL_FIELDS} for n in range(rolls)])
            .cte("rolled"))
    ctes += [update(_FACTIONS).where(_FACTIONS.c.id == bindparam(f"faction_{n}", type_=_FACTIONS.c.id.type))
             .values(roll=bindparam(f"faction_roll_{n}", type_=_FACTIONS.c.roll.type),
                     vote=bindparam(f"faction_vote_{n}", type_=_FACTIONS.c.vote.type)).cte(f"faction_{n}")
             for n in range(factions)]
    if revealed:
        ctes.append(update(_SEEDS).where(_SEEDS.c.id == bindparam("seed_row", type_=_SEEDS.c.id.type))
                    .values(revealed_at=bindparam("revealed_at", type_=_SEEDS.c.revealed_at.type)).cte("revealed"))
    return _CLOSE_ROUND.add_cte(*ctes) if ctes else _CLOSE_ROUND


def _rolls_built(dialect: Dialect) -> Prebuilt:
    return Prebuilt(ADD_ROLLS, dialect, dict.fromkeys(ROLL_FIELDS), column_keys=ROLL_FIELDS)


def _factions_built(dialect: Dialect) -> Prebuilt:
    return Prebuilt(_SET_FACTION, dialect, {"row": 0, "roll": 0, "vote": ""})


def _round_built(dialect: Dialect) -> Prebuilt:
    return Prebuilt(_CLOSE_ROUND, dialect, {"row": 0, "closed_at": None, "result": None})


def _reveal_built(dialect: Dialect) -> Prebuilt:
    return Prebuilt(REVEAL, dialect, {"row": 0, "at": None})


def _close_params(rolls: Sequence[dict[str, Any]], factions: Sequence[dict[str, Any]], seed_row: int | None,
                  revealed_at: Any, round_params: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``_close_writes(len(factions), len(rolls), seed_row is not None)``."""
    params = dict(round_params)
    for n, roll in enumerate(rolls):
        params.update({f"roll_{f}_{n}": roll[f] for f in ROLL_FIELDS})
    for n, faction in enumerate(factions):
        params.update({f"faction_{n}": faction["row"], f"faction_roll_{n}": faction["roll"],
                       f"faction_vote_{n}": faction["vote"]})
    if seed_row is not None:
        params.update({"seed_row": seed_row, "revealed_at": revealed_at})
    return params


RoundEnd = tuple[str | None, bool, bool]
"""What the round end reads (R0-20): the Adjutant General's name (None if the office is empty; ``read_adjutant``),
whether an election closes with the round (``close_elections_with_round``) and whether a player vote of the round
is open (``expire_votes``)."""

_ROUND_END_READ = (
    select(Player.name).join(Office, Office.player_id == Player.id)
    .where(Office.game_id == Round.game_id, Office.office == AG).scalar_subquery(),
    exists().where(AgElection.game_id == Round.game_id, AgElection.status == "open",
                   AgElection.closes_with_round == Round.number),
    exists().where(PlayerVoteRow.game_id == Round.game_id, PlayerVoteRow.round_number == Round.number,
                   PlayerVoteRow.status == "open"),
    exists().where(Holding.game_id == Round.game_id))
"""The round end's reads (``RoundEnd``) and whether the game has a holding, as columns of a round's row."""
_ROUND_READ = (
    select(Round, TempFactionRow, *_ROUND_END_READ)
    .outerjoin(TempFactionRow, TempFactionRow.round_id == Round.id)
    .where(Round.game_id == bindparam("game"), Round.number == bindparam("number")).order_by(TempFactionRow.id))
"""A closing round, its temporary factions (``read_factions``), what its round end reads (``RoundEnd``) and whether
the game has any holding (``voters`` reads the holders' extras only then), in one statement (built once): one row a
faction (one with none if it has none)."""


def round_of(session: Session, game: Game, number: int | None = None
             ) -> tuple[Round | None, list[TempFactionRow], RoundEnd, bool]:
    """``read_round``, ``read_factions`` and the round end's reads of round ``number`` (the current round if None)
    in one statement, and whether the game has a holding (an Elector or a planet) at all. Read at the start of the
    close: nothing the close writes before its round end changes them, and every writer of those rows holds the
    game's lock, as the close does."""
    number = game.current_round if number is None else number
    if number == 0:
        return None, [], (None, False, False), True
    rows = session.execute(_ROUND_READ, {"game": game.id, "number": number}).all()
    if not rows:
        return None, [], (None, False, False), True
    first = rows[0]
    return (first[0], [row[1] for row in rows if row[1] is not None], (first[2], bool(first[3]), bool(first[4])),
            bool(first[5]))


@cache
def _game_round_read() -> Select[Any]:
    """The game and its current round as ``_ROUND_READ`` reads it, in one statement (built on first use): one ORM
    read fewer than ``read_game`` and then ``round_of`` (SQLite, whose unit holds the write lock from its BEGIN)."""
    return (select(Game, Round, TempFactionRow, *_ROUND_END_READ)
            .outerjoin(Round, and_(Round.game_id == Game.id, Round.number == Game.current_round))
            .outerjoin(TempFactionRow, TempFactionRow.round_id == Round.id)
            .where(Game.id == bindparam("game")).order_by(TempFactionRow.id))


@cache
def _locking_round_read() -> Select[Any]:
    """PostgreSQL (a ``self_locking`` unit): ``_game_round_read`` with the game's row lock (``uow.locking_read``) in
    the same statement: one round trip and one ORM read fewer than the lock's own statement and then the round's.
    And, in the same statement again, what ``dice.seeds_and_rolls`` reads for the current round (pt-pgclose: a round
    trip fewer): the seed rows of the current round's scope and of the game's (LEFT JOIN, the columns after the
    two ``last_seq``), each with its scope's rolls' purposes and seals in their order (``array_agg``, a ``LATERAL``
    subquery of the seed's row; none for the game's scope, as there), and for the game's seed if it is not
    revealed, whether the game has ever ended (``dice.ended_ever``: ``dice.is_revealed``'s question, two statements
    at the end of the close before). A row a faction times a seed (at most two).
    ``populate_existing``: a second read (``_locked_round``) refreshes what the first put in the session."""
    from sqlalchemy.dialects.postgresql import aggregate_order_by  # its dialect is loaded (start-up does not load it)

    locked, seqs = locking_read()
    of_seed = (DiceRoll.game_id == DiceSeed.game_id, DiceRoll.scope == DiceSeed.scope, DiceSeed.scope != GAME_SCOPE)
    rolled = select(func.array_agg(aggregate_order_by(DiceRoll.purpose, DiceRoll.id)).label("purposes"),
                    func.array_agg(aggregate_order_by(DiceRoll.sealed, DiceRoll.id)).label("seals")
                    ).where(*of_seed).lateral("seed_rolls")
    unrevealed_base = and_(DiceSeed.scope == GAME_SCOPE, DiceSeed.revealed_at.is_(None))
    base_ended = case((unrevealed_base, ended_ever(bindparam("game", type_=Integer))), else_=None)
    return (_game_round_read().add_columns(*seqs, DiceSeed, rolled.c.purposes, rolled.c.seals, base_ended)
            .join(locked, locked.c.id == Game.id)
            .outerjoin(DiceSeed, and_(DiceSeed.game_id == Game.id,
                                      or_(DiceSeed.scope == Game.current_round, DiceSeed.scope == GAME_SCOPE)))
            .outerjoin(rolled, true())
            .order_by(DiceSeed.scope)
            .execution_options(populate_existing=True))


def _game_and_round(rows: Sequence[Any]) -> tuple[Game, tuple[Round | None, list[TempFactionRow], RoundEnd, bool]]:
    """The game and ``round_of`` its current round, from the rows of ``_game_round_read`` or
    ``_locking_round_read`` (the same first seven columns)."""
    if not rows:
        raise NotFoundError("That game no longer exists.")
    first = rows[0]
    game: Game = first[0]
    if first[1] is None:
        return game, (None, [], (None, False, False), True)
    # each faction once, in order (the locking read has its row once a seed: the same object each time)
    factions = list(dict.fromkeys(row[2] for row in rows if row[2] is not None))
    return game, (first[1], factions, (first[3], bool(first[4]), bool(first[5])), bool(first[6]))


def _locked_round(session: Session, game_id: int
                  ) -> tuple[Game, tuple[Round | None, list[TempFactionRow], RoundEnd, bool], SeedsAndRolls, bool]:
    """The game, locked, ``round_of`` its current round, ``seeds_and_rolls`` of that round (``seeds_rolled``) and
    whether the game's seed is revealed (``dice.is_revealed``; False without one), in one statement
    (``_locking_round_read``). Under READ COMMITTED a statement that waited for the lock sees the locked row as the
    other writer left it but every other row as before; the game's ``last_seq`` as read and as locked then differ
    (``uow.read_before_lock``), and it is read again, under the lock it now holds."""
    for _ in range(2):
        rows = session.execute(_locking_round_read(), {"game": game_id}).all()
        if not rows:
            raise NotFoundError("That game no longer exists.")
        if not read_before_lock(rows[0]):
            break
    else:
        raise RuntimeError(f"game {game_id} changed while this transaction held its row lock")
    dice = seeds_rolled((row[9], row[10], row[11]) for row in rows)
    base = dice[0].get(GAME_SCOPE)
    base_revealed = base is not None and (base.revealed_at is not None or bool(
        next(row[12] for row in rows if row[9] is base)))
    return (*_game_and_round(rows), dice, base_revealed)


OPTIONS = {o.value: o for o in Option}
ALL_OPTIONS = frozenset(OPTIONS)


def end_of_round(unit: SyncUnit, game: Game, number: int, read: RoundEnd) -> dict[str, Any]:
    """Round end, after the crisis vote and before Income (R0-20): an election tied to the round closes
    (R0-35), the AG check docks 300 MS of income if the office is empty (R0-34), and open player votes
    expire (R0-43). ``read``: what ``round_of`` read of them; rows are read and changed only if there are some."""
    holder, electing, voting = read
    closed: Sequence[ElectionView] = ()
    if electing:  # the election decides who holds the office at the check: read after it
        closed = close_elections_with_round(unit, game, number)
        ag = read_adjutant(unit.session, game.id)
        holder = ag.name if ag else None
    expired = expire_votes(unit, game, number) if voting else []
    return {"adjutant_general": holder, "income_penalty": 0 if holder is not None else NO_AG_PENALTY,
            "expired_votes": expired, "elections_closed": [e.number for e in closed]}


def _voters_of(game_id: Any, round_id: Any) -> Select[Any]:
    """``voters``' query: every active player (``active_players``) with their ballot in the round (LEFT JOIN)."""
    return active_players(game_id, Ballot.option).outerjoin(
        Ballot, and_(Ballot.round_id == round_id, Ballot.player_id == Player.id))


def _voters_built(dialect: Dialect) -> Prebuilt:
    """``_voters_of`` as the driver runs it, its game and round bound (``game``, ``round``)."""
    return Prebuilt(_voters_of(bindparam("game", type_=Integer), bindparam("round", type_=Integer)), dialect,
                    {"game": 0, "round": 0})


Counted = dict[tuple[int, str | None], int]
"""The active players counted by (V(p) read now, the option of their ballot or None): how many have each."""


def voters(unit: SyncUnit, game_id: int, round_id: int, holders: bool = True
           ) -> tuple[Counted, dict[str, Sequence[Any]]]:
    """Every active player's V(p) read now (R0-15) and ballot, in the order they joined: the players counted by
    (V(p), ballot), which is all the tally and the disclosure check need, and the ``weights`` of the ``RoundClosed``
    event in its column form (``engine.landsdraad.close_weights``). A ballot of a player who is no longer active is
    not read (it would not count).

    The rows are the DB-API cursor's own (tuples on SQLite, asyncpg's records on PostgreSQL), all fetched at once,
    turned into columns by ``map`` and ``itemgetter`` and counted by ``Counter``, all in C: no SQLAlchemy ``Row``,
    no object and no Python step per player (docs/performance-history.md). The columns need no conversion (integers
    and text).
    ``holders``: False if the caller knows the game has no holding (``round_of``): no extras to read then. The query
    runs as its driver's SQL, compiled once (``engine.store.prebuilt``), the same statement and values. ``close``
    pauses the garbage collector while they are made (``engine.store.collector``)."""
    session = unit.session
    session.flush()  # what session.execute would autoflush; the plain connection below does not
    extras = holding_extras(session, game_id) if holders else {}
    connection = session.connection()
    found = built_for(connection, _voters_built).run(connection, {"game": game_id, "round": round_id})
    try:
        rows = found.cursor.fetchall()
    finally:
        found.close()
    if not rows:
        return {}, columns((), (), (), ())
    # one column at a time (``map`` and ``itemgetter``, in C): a third less than ``zip(*rows)``'s transposition
    user_ids, names, votes, options = (list(map(itemgetter(n), rows)) for n in (1, 2, 3, 4))
    if extras:
        votes = [v + extras.get(p, 0) for p, v in zip(map(itemgetter(0), rows), votes, strict=True)]
    counted: Counted = dict(Counter(zip(votes, options, strict=True)))
    return counted, columns(user_ids, names, votes, options)


def disclosed(game: Game, cast: Iterable[tuple[str, int, str | None]], outcome: CrisisResult,
              counted: Counted | None = None) -> dict[str, Any] | None:
    """The disclosure check of a closing round (docs/rulings.md): None when the posted totals give no ballot away,
    not even in part; else what the ``disclosure`` setting does with the result (``mode``: the setting when a ballot
    is given away whole, else ``post``, since a partial leak only warns), who is exposed and how they voted
    (``exposed``), whose ballot the totals give away in part (``ruled_out``: name, votes and the options ruled out;
    both for the moderators only, in the order the players joined), whether the check was only the quick one
    (``partial``) and whether the result is held until a moderator releases it (``held``). ``cast``: each player's
    (name, V(p), ballot or None), in the order they joined. The check is worked out per class of players (V(p),
    whether they cast a ballot); only the players of a class it gives something away about are then looked for by
    name. ``counted``: ``cast`` counted as ``voters`` counts it, if known."""
    if counted is None:
        cast = list(cast)
        counted = dict(Counter((int(votes), ballot) for _, votes, ballot in cast))
    players: dict[tuple[int, bool], int] = {}
    for (votes, option), count in counted.items():
        key = (votes, option is not None)
        players[key] = players.get(key, 0) + count
    try:
        complete, given_away = crisis_check_counted(
            players, [(f.name, f.votes, f.option) for f in outcome.factions], outcome.tally)
    except InconsistentError:  # cannot happen (the totals are these ballots'); the close must not fail for it
        return None
    if not given_away:
        return None
    exposed: list[list[Any]] = []
    ruled_out: list[list[Any]] = []
    for name, votes, ballot in cast:
        left = given_away.get((votes, ballot is not None))
        if left is None:
            continue
        if len(left) == 1:
            exposed.append([name, next(iter(left))])
        else:
            ruled_out.append([name, int(votes), sorted(ALL_OPTIONS - left)])
    setting = str(value_of(game.settings, "disclosure", SETTINGS))
    mode = setting if exposed else "post"
    return {"mode": mode, "setting": setting, "exposed": exposed, "ruled_out": ruled_out,
            "partial": not complete, "held": mode == "hold"}


def close(unit: SyncUnit, dice: Dice, game_id: int, actor: int | None, source_id: str | None,
          expected_round: int | None, answer: OwedWith[ResultView] | None = None) -> ResultView:
    """``RoundService.close_round``: ``expected_round`` (from the scheduler) makes a late or repeated timer a no-op.
    ``answer``: what the close posts that nothing posts again after a kill (a result the disclosure check holds
    back: the card saying so, the moderators' warning), owed in its transaction, last (``owe_with``; nothing, no
    statement, for any other close: its marked card is posted again after a kill, ``ResultPending``).

    The garbage collector is paused for the close (``engine.store.collector``): the voters' rows (``voters``), a
    tracked object each and in no cycle, are freed before it runs again. Not for ``voters`` alone: on PostgreSQL the
    driver's list of them is held by SQLAlchemy's greenlet until the close's next statement returns (its last
    awaited value), so a pause that ended with ``voters`` found all of them still alive and young (one pass of the
    young generation over 100,000 records, 18-22 ms, at the end of the pause)."""
    with collector_paused():
        return _close(unit, dice, game_id, actor, source_id, expected_round, answer)


def _close(unit: SyncUnit, dice: Dice, game_id: int, actor: int | None, source_id: str | None,
           expected_round: int | None, answer: OwedWith[ResultView] | None) -> ResultView:
    """``close``, with the collector paused."""
    session = unit.session
    dice_read: SeedsAndRolls | None = None  # the current round's seeds and rolls, if the first read has them
    base_revealed = False  # and whether the game's seed is revealed (then)
    if unit.self_locking:  # PostgreSQL: the lock is this unit's first statement; the redelivery check after it
        game, (rnd, factions, round_end, holders), dice_read, base_revealed = _locked_round(session, game_id)
        check_not_done(unit.connection, source_id)
    else:  # SQLite: the unit's BEGIN IMMEDIATE holds the write lock
        game, (rnd, factions, round_end, holders) = _game_and_round(
            session.execute(_game_round_read(), {"game": game_id}).all())
    if expected_round is not None and (rnd is None or rnd.number != expected_round):
        rnd, factions, round_end, holders = round_of(session, game, expected_round)
        if rnd is None:
            raise NotFoundError(f"{game.name} has no round {expected_round}.")
    if rnd is None:
        raise RuleError(f"No round is open in {game.name}.")
    if rnd.status == "void":  # the game's end or /round void made it so: nothing to tally (play-test Y6, Y7)
        raise RuleError(f"Round {rnd.number} of {game.name} is void, so it has nothing to close; `/round open` puts "
                        "its crisis to the vote again as a new round.")
    if rnd.status == "closed":
        view = read_round_view(session, game, rnd, factions)
        if expected_round is None:
            raise RuleError(f"Round {rnd.number} of {game.name} is already closed.")
        assert rnd.result is not None
        return result_view(view, rnd.result, already_closed=True)
    counted, cast = voters(unit, game_id, rnd.id, holders)
    # On PostgreSQL every write but the ORM's is held until the end and made in one statement (``_close_writes``);
    # elsewhere each is made where it was, as its driver's SQL compiled once (``engine.store.prebuilt``)
    connection = unit.connection
    postgres = connection.dialect.name == "postgresql"
    rolled: list[dict[str, Any]] = []
    unrolled = [row for row in factions if row.stance == "d6" and row.roll is None]
    # The round's seed and the game's and the round's rolls so far in one statement: what the rolls, the reveal
    # and the round's view read of the dice (each read them again before); on PostgreSQL the locking read's, if it
    # read the round closing now (the scheduler's ``expected_round`` may name another).
    folded = dice_read is not None and rnd.number == game.current_round
    seeds, counts, seals = dice_read if dice_read is not None and folded else seeds_and_rolls(session, game_id,
                                                                                              rnd.number)
    seed = seeds.get(rnd.number)
    if unrolled:  # rolled from the round's committed seed (docs/dice.md), in the factions' order
        faces, seed = roll_many(session, dice, game_id, rnd.number,
                                [(faction_purpose(row.name), 6) for row in unrolled], unit.now, (seed, counts),
                                rolled)
        if rolled and not postgres:
            built_for(connection, _rolls_built).run_many(connection, rolled)
        for row, face in zip(unrolled, faces, strict=True):
            set_committed_value(row, "roll", face)  # written below with the vote, in one statement
    rolls = {row.name: row.roll for row in factions if row.stance == "d6" and row.roll is not None}
    outcome = resolve_counted({(votes, OPTIONS[option] if option is not None else None): count
                               for (votes, option), count in counted.items()}, [faction_of(f) for f in factions], rolls)
    set_factions = [{"row": row.id, "roll": row.roll, "vote": fv.option.value}
                    for row, fv in zip(factions, outcome.factions, strict=True)]
    if factions:
        if not postgres:
            built_for(connection, _factions_built).run_many(connection, set_factions)
        for row, fv in zip(factions, outcome.factions, strict=True):
            set_committed_value(row, "vote", fv.option.value)
    t = outcome.tally
    result: dict[str, Any] = {"outcome": "passed" if t.passed else "failed", "aye": t.aye, "nay": t.nay,
                              "abstain": t.abstain, "in_play": t.in_play, "needed": t.needed}
    result.update(end_of_round(unit, game, rnd.number, round_end))
    disclosure = disclosed(game, zip(cast["name"], cast["votes"], cast["ballot"], strict=True), outcome, counted)
    if disclosure is not None:
        result["disclosure"] = disclosure
    closed_at = unit.now
    if expected_round is not None and rnd.deadline is not None and unit.now - utc(rnd.deadline) > LATE:
        # Found overdue (the bot was offline): the round closes once, as of the time it should have closed.
        result["due_at"] = utc(rnd.deadline).isoformat()
        closed_at = utc(rnd.deadline)
    result[POST_TOKEN] = new_post_token()  # this close's own: its card's nonce carries it (play-test V2.2)
    close_round = {"row": rnd.id, "closed_at": closed_at, "result": result}
    if not postgres:
        built_for(connection, _round_built).run(connection, close_round)
    for key, value in (("status", "closed"), ("closed_at", closed_at), ("result", dict(result))):
        set_committed_value(rnd, key, value)  # as written: the session has nothing of the round's to flush
    # The seed is public with the result (none if the round never rolled: no seed was read above).
    revealed: list[int] = []
    shown = reveal(session, game_id, rnd.number, unit.now, seed, revealed) if seed is not None else None
    if revealed and not postgres:
        built_for(connection, _reveal_built).run(connection, {"row": revealed[0], "at": unit.now})
    payload = {"round": rnd.number, "result": result, "rolls": rolls, "weights": cast,
               "by_deadline": expected_round is not None}
    if shown is not None:
        payload["dice"] = {"commitment": shown.commitment, "seed": shown.seed, "salt": shown.salt}
    events: list[tuple[str, int | None, dict[str, Any], str | None]] = [("RoundClosed", actor, payload, source_id)]
    if disclosure is None or not disclosure["held"]:
        events.append(pending_event("round", rnd.number))  # a held result is announced when released
    if postgres:  # all the writes above and the events', at once
        seed_row = revealed[0] if revealed else None
        unit.record_all_with(game_id, events, _close_writes(len(set_factions), len(rolled), seed_row is not None),
                             _close_params(rolled, set_factions, seed_row, unit.now, close_round))
    else:  # both numbers in one statement, both events in one statement (on SQLite as prebuilt driver SQL)
        unit.record_all(game_id, events, prebuilt_sql=True)
    base = seeds.get(GAME_SCOPE)  # the close ends no game: whether it ever ended is as the first read found it
    known = KnownDice(seals, None if base is None else view_of(
        base, revealed=base_revealed if folded else is_revealed(session, base)))
    closed = result_view(read_round_view(session, game, rnd, factions, shown, known), result)
    if answer is not None:
        owe_with(connection, unit.now, [(answer, closed)])
    return closed
