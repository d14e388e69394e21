"""Dice anyone can verify (docs/dice.md): the stored seeds, their commitments and reveals, every roll made from them,
and ``/verify``. A ruleset rolls through ``roll`` and seals a moderator's face through ``seal``; the face is the pure
function of ``engine.core.dice``. A seed's ``scope`` is the round's number, or ``GAME_SCOPE`` for the rolls made
outside rounds (revealed when the game ends). Until its reveal a seed and its salt leave the database nowhere: not
in a post, a DM, the log, an export or a moderator's answer; nothing changes a seed once it is stored."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, and_, bindparam, exists, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from engine.core import dice as pure
from engine.core.errors import NotFoundError, RuleError
from engine.service.clock import Dice
from engine.service.ledger import load_game
from engine.service.uow import ServiceBase
from engine.store.models import Base, DiceRoll, DiceSeed, Event, Game

if TYPE_CHECKING:  # ruleset -> uow: only the type is needed here
    from engine.service.ruleset import Ruleset

GAME_SCOPE = 0
"""The scope of the rolls outside rounds (the base d3 at ``/player add``): one seed a game, revealed at its end."""


@dataclass(frozen=True)
class SealView:
    """What may be shown of a scope's seed: its commitment always; the seed and salt once revealed."""

    scope: int
    commitment: str
    seed: str | None = None
    salt: str | None = None

    @property
    def revealed(self) -> bool:
        return self.seed is not None


@dataclass(frozen=True)
class DiceReport:
    """``/verify``: the seal of one scope and, once revealed, the check of each of its rolls."""

    game: str
    scope: int
    seal: SealView | None
    verdict: pure.Verdict | None
    rolls: int
    """How many rolls were made under it (known before the reveal; their faces are not)."""
    note: str | None = None
    """What the game's ruleset says of the scope beside the check (``Ruleset.dice_note``: a void round)."""


ADD_ROLLS = insert(Base.metadata.tables["dice_rolls"])
ROLL_FIELDS = ("game_id", "scope", "purpose", "index", "sides", "face", "sealed")
"""A roll's row as ``roll_many`` makes it (``deferred``)."""
_SEEDS = Base.metadata.tables["dice_seeds"]
REVEAL = update(_SEEDS).where(_SEEDS.c.id == bindparam("row")).values(revealed_at=bindparam("at"))


def seed_row(session: Session, game_id: int, scope: int) -> DiceSeed | None:
    found: DiceSeed | None = session.execute(select(DiceSeed).where(
        DiceSeed.game_id == game_id, DiceSeed.scope == scope)).scalar_one_or_none()
    return found


_SEEDS_AND_ROLLS = (select(DiceSeed, DiceRoll.purpose, DiceRoll.sealed)
                    .outerjoin(DiceRoll, and_(DiceRoll.game_id == DiceSeed.game_id, DiceRoll.scope == DiceSeed.scope,
                                              DiceSeed.scope != GAME_SCOPE))
                    .where(DiceSeed.game_id == bindparam("game"),
                           or_(DiceSeed.scope == bindparam("scope"), DiceSeed.scope == GAME_SCOPE))
                    .order_by(DiceSeed.scope, DiceRoll.id))


def seeds_and_rolls(session: Session, game_id: int, scope: int
                    ) -> tuple[dict[int, DiceSeed], dict[str, int], dict[str, str]]:
    """The seed rows of ``scope`` (a round's, not ``GAME_SCOPE``) and of ``GAME_SCOPE`` (those stored), by scope, and
    the scope's rolls so far: how many of each purpose (the next index of each, as ``_next_index`` counts) and the
    seal of each purpose sealed by a moderator (the last one, as ``rolls_of`` in order gives it), what a close's
    ``roll_many``, its reveal and its round's view read of the dice, in ONE statement: the seeds joined to the
    scope's rolls (no ``IN`` list, which is expanded, and so compiled again, at every execution). Every roll of a
    scope is made from its seed (``commit_seed`` before it is recorded, and a seal likewise; nothing deletes a
    seed but its game), so a scope with rolls has its seed row and the join misses none of them."""
    if scope == GAME_SCOPE:
        raise ValueError("seeds_and_rolls reads a round's scope with the game's")
    seeds: dict[int, DiceSeed] = {}
    counts: dict[str, int] = {}
    seals: dict[str, str] = {}
    for row, purpose, sealed in session.execute(_SEEDS_AND_ROLLS, {"game": game_id, "scope": scope}):
        seeds[row.scope] = row
        if purpose is not None:
            counts[purpose] = counts.get(purpose, 0) + 1
            if sealed is not None:
                seals[purpose] = sealed
    return seeds, counts, seals


SeedsAndRolls = tuple[dict[int, DiceSeed], dict[str, int], dict[str, str]]
"""``seeds_and_rolls``' answer: the seed rows by scope, the scope's rolls counted by purpose and its seals."""


def seeds_rolled(found: Iterable[tuple[DiceSeed | None, Sequence[str] | None, Sequence[str | None] | None]]
                 ) -> SeedsAndRolls:
    """``seeds_and_rolls`` from rows read elsewhere (a round close's locking read, ``round_close``): each seed row
    of the two scopes (None: the read found none) with its scope's rolls' purposes and seals, both in the rolls'
    order (None for the game's scope, whose rolls are not counted, or for a scope without rolls). A seed row may
    come more than once (the read's other rows); it is counted once."""
    seeds: dict[int, DiceSeed] = {}
    counts: dict[str, int] = {}
    seals: dict[str, str] = {}
    for row, purposes, sealed in found:
        if row is None or row.scope in seeds:
            continue
        seeds[row.scope] = row
        for purpose, seal_of_roll in zip(purposes or (), sealed or (), strict=True):
            counts[purpose] = counts.get(purpose, 0) + 1
            if seal_of_roll is not None:
                seals[purpose] = seal_of_roll
    return seeds, counts, seals


def commit_seed(session: Session, dice: Dice, game_id: int, scope: int, now: datetime) -> DiceSeed:
    """The scope's seed, made and sealed the first time it is needed (kept as it is afterwards)."""
    row = seed_row(session, game_id, scope)
    return row if row is not None else _new_seed(session, dice, game_id, scope, now)


def _new_seed(session: Session, dice: Dice, game_id: int, scope: int, now: datetime) -> DiceSeed:
    """The scope's seed made and sealed now (it has none yet)."""
    seed = dice.secret(f"game {game_id} scope {scope} seed")
    salt = dice.secret(f"game {game_id} scope {scope} salt")
    row = DiceSeed(game_id=game_id, scope=scope, seed=seed, salt=salt, commitment=pure.commitment(seed, salt),
                   created_at=now)
    session.add(row)
    session.flush()
    return row


def _next_index(session: Session, game_id: int, scope: int, purpose: str) -> int:
    count = session.execute(select(func.count()).select_from(DiceRoll).where(
        DiceRoll.game_id == game_id, DiceRoll.scope == scope, DiceRoll.purpose == purpose)).scalar_one()
    return int(count)


def roll(session: Session, dice: Dice, game_id: int, scope: int, purpose: str, sides: int, now: datetime) -> int:
    """Roll a d``sides`` named ``purpose`` under the scope's seed, and record it."""
    row = commit_seed(session, dice, game_id, scope, now)
    index = _next_index(session, game_id, scope, purpose)
    face = pure.face(row.seed, purpose, index, sides)
    session.add(DiceRoll(game_id=game_id, scope=scope, purpose=purpose, index=index, sides=sides, face=face))
    session.flush()
    return face


def roll_many(session: Session, dice: Dice, game_id: int, scope: int, wanted: Sequence[tuple[str, int]],
              now: datetime, known: tuple[DiceSeed | None, dict[str, int]] | None = None,
              deferred: list[dict[str, Any]] | None = None) -> tuple[list[int], DiceSeed]:
    """``roll`` of each ``(purpose, sides)`` of ``wanted`` in turn, as the same rolls with the same faces, in three
    statements whatever their number (the seed, the counts so far by purpose, the insert): a close's d6 factions.
    The faces, and the scope's seed row (for ``reveal``). ``known``: the scope's stored seed row (None if there is
    none yet) and its rolls' counts by purpose (``seeds_and_rolls``) if the caller has read them: the insert alone.
    ``deferred``: the rolls' rows (``ADD_ROLLS``' values) are appended to it instead of inserted; the caller
    inserts them in its own statement, in this transaction (a close on PostgreSQL, ``round_close.close``)."""
    if known is None:
        row = commit_seed(session, dice, game_id, scope, now)
        purposes = sorted({p for p, _ in wanted})
        counts = dict(session.execute(select(DiceRoll.purpose, func.count()).where(
            DiceRoll.game_id == game_id, DiceRoll.scope == scope, DiceRoll.purpose.in_(purposes))
            .group_by(DiceRoll.purpose)).all()) if purposes else {}
    else:
        row = known[0] if known[0] is not None else _new_seed(session, dice, game_id, scope, now)
        counts = dict(known[1])
    faces: list[int] = []
    rows = []
    for purpose, sides in wanted:
        index = int(counts.get(purpose, 0))
        counts[purpose] = index + 1
        face = pure.face(row.seed, purpose, index, sides)
        rows.append({"game_id": game_id, "scope": scope, "purpose": purpose, "index": index, "sides": sides,
                     "face": face, "sealed": None})
        faces.append(face)
    if deferred is not None:
        deferred.extend(rows)
    elif rows:  # Core, built once: no ORM object a roll and no flush (nothing reads them as objects afterwards)
        session.connection().execute(ADD_ROLLS, rows)
    return faces, row


def seal(session: Session, dice: Dice, game_id: int, scope: int, purpose: str, sides: int, face: int,
         now: datetime) -> str:
    """Record a face a moderator set instead of a roll, sealed by the scope's salt; the seal is posted."""
    row = commit_seed(session, dice, game_id, scope, now)
    index = _next_index(session, game_id, scope, purpose)
    sealed = pure.sealed_face(row.salt, purpose, face)
    session.add(DiceRoll(game_id=game_id, scope=scope, purpose=purpose, index=index, sides=sides, face=face,
                         sealed=sealed))
    session.flush()
    return sealed


def reveal(session: Session, game_id: int, scope: int, now: datetime, row: DiceSeed | None = None,
           deferred: list[int] | None = None) -> SealView | None:
    """The scope's seed is public from now on (the round's result is posted with it). ``row``: the scope's seed
    row if the caller holds it (``roll_many``'s). ``deferred``: the seed row's id is appended to it instead of
    written; the caller sets its ``revealed_at`` to ``now`` in its own statement, in this transaction."""
    if row is None:
        row = seed_row(session, game_id, scope)
    if row is None:
        return None
    if row.revealed_at is None:
        if deferred is not None:
            deferred.append(row.id)
        else:
            session.connection().execute(REVEAL, {"row": row.id, "at": now})  # Core: the ORM's flush costs more
        set_committed_value(row, "revealed_at", now)  # as written (or to be, in the caller's statement)
    return view_of(row, revealed=True)


def view_of(row: DiceSeed, *, revealed: bool) -> SealView:
    if revealed:
        return SealView(row.scope, row.commitment, row.seed, row.salt)
    return SealView(row.scope, row.commitment)


ENDED_KINDS = ("GameEnded", "GameReopened")
"""The events that say a game has ended at some time (``_ended``)."""


def _ended(session: Session, game_id: int) -> bool:
    """Has the game ever ended (the game scope is revealed then, and stays so after a reopening)? It has ended now,
    or a ``GameEnded`` or ``GameReopened`` event says it did: a game an End Game vote ended records no ``GameEnded``
    (Landsdraad: ``PlayerVoteEnacted`` and ``GameScored``), and its base d3s stayed sealed for good (play-test W1).
    ``ended_ever`` is the same question as a column of a read of the game."""
    if session.execute(select(Game.status).where(Game.id == game_id)).scalar_one_or_none() == "ended":
        return True
    return session.execute(select(Event.id).where(Event.game_id == game_id,
                                                  Event.kind.in_(ENDED_KINDS))
                           .limit(1)).first() is not None


def ended_ever(game_id: ColumnElement[int]) -> ColumnElement[bool]:
    """``_ended`` as a condition on a read of ``games`` (its ``status``) and of ``game_id``'s events: the events'
    read does not refer to the outer read's rows (``game_id`` a bound parameter), so PostgreSQL runs it once a
    statement, and only if a row needs it (an InitPlan)."""
    return or_(Game.status == "ended",
               exists().where(Event.game_id == game_id, or_(*(Event.kind == kind for kind in ENDED_KINDS))))


def is_revealed(session: Session, row: DiceSeed) -> bool:
    return row.revealed_at is not None or (row.scope == GAME_SCOPE and _ended(session, row.game_id))


def seal_of(session: Session, game_id: int, scope: int) -> SealView | None:
    """What anyone may see of the scope's seed now."""
    row = seed_row(session, game_id, scope)
    return None if row is None else view_of(row, revealed=is_revealed(session, row))


def rolls_of(session: Session, game_id: int, scope: int) -> list[pure.Roll]:
    rows = session.execute(select(DiceRoll).where(DiceRoll.game_id == game_id, DiceRoll.scope == scope)
                           .order_by(DiceRoll.id)).scalars()
    return [pure.Roll(r.purpose, r.index, r.sides, r.face, r.sealed) for r in rows]


def report(session: Session, game_id: int, scope: int) -> DiceReport:
    game = load_sync(session, game_id)
    shown = seal_of(session, game_id, scope)
    rolls = rolls_of(session, game_id, scope)
    verdict = None
    if shown is not None and shown.seed is not None and shown.salt is not None:
        verdict = pure.verify(shown.seed, shown.salt, shown.commitment, rolls)
    return DiceReport(game.name, scope, shown, verdict, len(rolls))


def load_sync(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("That game no longer exists.")
    return game


def export_section(session: Session, game_id: int) -> dict[str, Any]:
    """The export's ``dice``: every scope's commitment; the seed, salt and rolls of the revealed ones only."""
    rows = session.execute(select(DiceSeed).where(DiceSeed.game_id == game_id).order_by(DiceSeed.scope)).scalars()
    out: list[dict[str, Any]] = []
    for row in rows:
        entry: dict[str, Any] = {"scope": row.scope, "commitment": row.commitment}
        if is_revealed(session, row):
            entry |= {"seed": row.seed, "salt": row.salt, "rolls": [
                {"purpose": r.purpose, "index": r.index, "sides": r.sides, "face": r.face, "sealed": r.sealed}
                for r in rolls_of(session, game_id, row.scope)]}
        out.append(entry)
    return {"dice": out}


def require_dice(ruleset: Ruleset, game: str) -> None:
    """Refuses ``/verify`` in a game whose ruleset rolls no dice (``Ruleset.dice``; play-test M5.6)."""
    if not ruleset.dice:
        raise RuleError(f"{game} is a {ruleset.title} game, and {ruleset.title} rolls no dice: Clerk has no rolls of "
                        f"{game} to check. /verify checks the dice of a game whose ruleset rolls them.")


class DiceService(ServiceBase):
    """``/verify``: anyone may check a revealed seed and its rolls; before the reveal only the commitment shows."""

    async def verify(self, game_id: int, scope: int) -> DiceReport:
        if scope < 0:
            raise NotFoundError(f"There is no round {scope}; rounds are numbered from 1.")
        async with self._read() as session:
            game = await load_game(session, game_id)
            ruleset = self.backend.ruleset(game.ruleset)
            require_dice(ruleset, game.name)
            found = await session.run_sync(report, game_id, scope)
            if ruleset.dice_note is not None and scope != GAME_SCOPE:
                found = replace(found, note=await ruleset.dice_note(session, game_id, scope))
            return found

    async def seal(self, game_id: int, scope: int) -> SealView | None:
        async with self._read() as session:
            return await session.run_sync(seal_of, game_id, scope)


async def export_dice(session: AsyncSession, game_id: int) -> dict[str, Any]:
    return await session.run_sync(export_section, game_id)
