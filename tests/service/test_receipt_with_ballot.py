"""A DM ballot's receipt owed in the ballot's own transaction (``OwedWith``, engine/service/owed.py; issue 20): the
receipt is kept exactly when the ballot commits, never without it and never the ballot without it, in one
transaction instead of two, on SQLite and PostgreSQL. Counted, not timed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.core.errors import ClerkError
from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.roster import RosterRow
from engine.service.landsdraad.views import BallotReceipt
from engine.service.owed import RECEIPT, Owed, OwedWith
from engine.store.database import make_sessionmaker
from engine.store.models import Base

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
_E = Base.metadata.tables["events"]


def answer_for(user: int, made: list[BallotReceipt] | None = None) -> OwedWith[BallotReceipt]:
    def make(receipt: BallotReceipt) -> list[Owed]:
        if made is not None:
            made.append(receipt)
        return [Owed(f"user:{user}", 500 + user, RECEIPT, f"r{user}-{receipt.option}",
                     {"text": f"recorded {receipt.option}"}, source_id=f"msg:{user}")]

    return OwedWith(make)


@contextmanager
def statements(clerk: Clerk, engine: AsyncEngine) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    engines = [engine.sync_engine, *([clerk._twin] if clerk._twin is not None else [])]
    for e in engines:
        event.listen(e, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        for e in engines:
            event.remove(e, "before_cursor_execute", count)


async def game_of(clerk: Clerk, users: tuple[int, ...] = (11, 12, 13)) -> int:
    game = await clerk.games.create_game(guild_id=1, channel_id=2, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=None)
    await clerk.landsdraad.roster.add_players(
        game.id, [RosterRow(u, f"p{u}", diplomacy=2, command=1, intrigue=1, roll=2) for u in users], actor=None)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Levy?", deadline=None, actor=None)
    return game.id


async def ballots_cast(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(_E).where(_E.c.kind == "BallotCast")))
                   .scalar_one())


async def test_the_receipt_is_owed_in_the_ballots_transaction(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    game = await game_of(clerk)
    answer = answer_for(11)
    with statements(clerk, db_engine) as seen:
        receipt = await clerk.landsdraad.ballots.cast_ballot(game, user_id=11, command=parse_ballot("Vote: Aye"),
                                                             received_at=T0, source_id="msg:11", answer=answer)
    assert receipt.option == "aye" and not receipt.duplicate
    assert [(r.owed.nonce, r.owed.source_id) for r in answer.rows] == [("r11-aye", "msg:11")]
    assert [r.id for r in await clerk.outbox.owed()] == [r.id for r in answer.rows]
    owed = [s for s in seen if "owed_messages" in s]
    assert len(owed) == 1 and "INSERT INTO owed_messages" in owed[0], owed  # no nonce read, one insert
    if db_engine.dialect.name == "postgresql":  # the ballot's one write (ballot_batch._guarded_statement)
        assert "UPDATE games" in owed[0] and "INSERT INTO ballots" in owed[0] and "INSERT INTO events" in owed[0]
    begins = [s for s in seen if s.startswith("BEGIN")]
    assert len(begins) <= 1, begins  # one transaction (SQLite's BEGIN IMMEDIATE; PostgreSQL's BEGIN is not a cursor's)
    assert clerk.outbox._owe_batcher.batches == 0, "the receipt took no transaction of its own"
    up_to = await clerk.outbox.last_event_id()
    assert await clerk.outbox.unanswered_ballots(T0 - timedelta(days=1), up_to) == [], "its receipt is owed"


async def test_when_the_receipt_cannot_be_owed_the_ballot_is_not_recorded(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    game = await game_of(clerk)

    def broken(_receipt: BallotReceipt) -> list[Owed]:
        raise RuntimeError("the receipt could not be made")

    with pytest.raises(RuntimeError):
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=11, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id="msg:11", answer=OwedWith(broken))
    assert await ballots_cast(db_engine) == 0, "the ballot was rolled back with its receipt"
    assert await clerk.outbox.owed() == []
    assert (await clerk.landsdraad.rounds.round_status(game)).voted == ()


async def test_a_refused_or_redelivered_ballot_owes_nothing_in_the_transaction(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    game = await game_of(clerk)
    made: list[BallotReceipt] = []
    stranger = answer_for(99, made)
    with pytest.raises(ClerkError, match="not a player"):
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=99, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id="msg:99", answer=stranger)
    assert stranger.rows == [] and made == []

    first = answer_for(12, made)
    await clerk.landsdraad.ballots.cast_ballot(game, user_id=12, command=parse_ballot("Vote: Nay"),
                                               received_at=T0, source_id="msg:12", answer=first)
    again = answer_for(12, made)
    receipt = await clerk.landsdraad.ballots.cast_ballot(game, user_id=12, command=parse_ballot("Vote: Nay"),
                                                         received_at=T0, source_id="msg:12", answer=again)
    assert receipt.duplicate
    assert again.rows == [], "a message that came again is answered after the commit, by the caller"
    assert len(made) == 1 and len(first.rows) == 1
    assert [r.owed.source_id for r in await clerk.outbox.owed()] == ["msg:12"]
    assert await ballots_cast(db_engine) == 1


async def test_ballots_batched_together_owe_their_receipts_in_one_statement(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    users = tuple(range(20, 30))
    game = await game_of(clerk, users)
    answers = {u: answer_for(u) for u in users}
    batcher = clerk.landsdraad.ballots._ballot_batcher
    before = batcher.batches
    with statements(clerk, db_engine) as seen:
        await asyncio.gather(*(clerk.landsdraad.ballots.cast_ballot(
            game, user_id=u, command=parse_ballot("Vote: Abstain"), received_at=T0, source_id=f"msg:{u}",
            answer=answers[u]) for u in users))
    batches = batcher.batches - before
    assert batches < len(users), "the ballots were batched"
    assert len([s for s in seen if "INSERT INTO owed_messages" in s]) == batches
    for u, answer in answers.items():
        assert [(r.owed.source_id, r.owed.lane) for r in answer.rows] == [(f"msg:{u}", f"user:{u}")]
    owed = await clerk.outbox.owed()
    assert sorted(r.id for r in owed) == sorted(r.id for a in answers.values() for r in a.rows)
    assert await ballots_cast(db_engine) == len(users)


async def test_the_check_of_remembered_games_is_part_of_the_ballots_read(db_engine: AsyncEngine) -> None:
    """A ballot chosen from remembered games (``plays_in``) costs no statement more than one looked up now: the
    players' games are read in the batch's one read (membership.py, ballot_batch.py); stale games still refuse it."""
    from engine.service.membership import StaleGames

    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    game = await game_of(clerk)
    with statements(clerk, db_engine) as plain:
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=11, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id="msg:1")
    with statements(clerk, db_engine) as remembered:
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=12, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id="msg:2", plays_in=[game])
    assert len(remembered) == len(plain), (plain, remembered)
    with pytest.raises(StaleGames):
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=13, command=parse_ballot("Vote: Aye"),
                                                   received_at=T0, source_id="msg:3", plays_in=[game, game + 1])
    assert await ballots_cast(db_engine) == 2


async def test_an_optimistic_ballot_that_keeps_finding_its_game_changed_is_written_under_the_lock_once(
        db_engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL (``uow.ServiceBase._optimistic_unit``): a guarded write that finds the game changed writes nothing
    and the batch is read and judged again; after ``OPTIMISTIC_TRIES`` it runs in the locked transaction: the ballot
    and its receipt once, whatever the tries before did."""
    if db_engine.dialect.name != "postgresql":
        pytest.skip("the optimistic unit is PostgreSQL's")
    from engine.service import uow
    from engine.service.landsdraad import ballot_batch

    tries: list[int] = []

    def changed(*_args: Any) -> None:
        tries.append(1)
        raise uow.Changed("another process wrote the game (simulated)")

    monkeypatch.setattr(ballot_batch, "_guarded", changed)
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    game = await game_of(clerk)
    made: list[BallotReceipt] = []
    answer = answer_for(11, made)
    receipt = await clerk.landsdraad.ballots.cast_ballot(game, user_id=11, command=parse_ballot("Vote: Aye"),
                                                         received_at=T0, source_id="msg:11", answer=answer)
    assert len(tries) == uow.OPTIMISTIC_TRIES >= 1
    assert receipt.option == "aye" and receipt.replaced is None
    assert len(made) == uow.OPTIMISTIC_TRIES + 1, "judged again at every try"
    assert [r.owed.nonce for r in answer.rows] == ["r11-aye"]
    assert [r.id for r in await clerk.outbox.owed()] == [r.id for r in answer.rows]
    assert await ballots_cast(db_engine) == 1
