"""Issue 20, PostgreSQL: the ballot batch is first tried optimistically (``uow._optimistic_unit``: its read takes
no lock and no transaction; its one write takes the game's next event numbers only if ``last_seq`` is still what
the read saw, ``uow.guarded_append``, and otherwise writes nothing and the batch is read again), then, after
``OPTIMISTIC_TRIES``, under the row lock taken in its read (``ballot_batch._pg_read``, no statement of its own for
the lock). Under READ COMMITTED a statement that waited for the lock reads the other tables as of its start, before
the lock's holder committed; the read compares the game's ``last_seq`` as read and as locked and reads again
(``uow.locking_read``). Every test runs both ways (``mode``: ``optimistic``, and ``locked``, with no optimistic try).
Two Clerks, each on an engine (a pool) of its own on one schema, as two bot processes are:

- one holds the game's lock in an open transaction (a ``_batch``, as a bulk import does) and writes in it (a
  ballot, the round's close) while the other's ballot waits for the lock (seen on the server, not a time: the
  locked read waits, or the optimistic write's guarded UPDATE of the game's row); when the
  first commits, the second must see what it wrote: the revote replaces the first ballot and counts as a revote,
  a ballot into the closed round is refused;
- both cast ballots and revotes of the same players into one game at once, batched: every acknowledged ballot is
  one event, none is lost or counted twice, and each player's revotes and replaced options follow their events.
"""

from __future__ import annotations

import asyncio
import contextvars
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from databases import POSTGRES_URL
from fakediscord.waiting import HANG, until
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.core.errors import RuleError
from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.close_weights import entries_of
from engine.service import Clerk, uow
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.views import BallotReceipt
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import upgrade
from engine.store.models import Event, Player
from engine.store.models.landsdraad import Ballot

pytestmark = [pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped"),
              pytest.mark.postgresql]  # make test leaves them to make test-postgres (its -k "not postgresql")

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
USERS = list(range(101, 109))


class Side:
    """One of the two 'processes': a Clerk on an engine of its own, its sessions named on the server."""

    def __init__(self, schema: str, name: str) -> None:
        self.name = f"clerk-race-{name}-{uuid.uuid4().hex[:8]}"
        self.engine: AsyncEngine = make_engine(POSTGRES_URL, connect_args={"server_settings": {
            "search_path": schema, "application_name": self.name}})
        self.clock = ManualClock(START)
        self.clerk = Clerk(make_sessionmaker(self.engine), self.clock, RandomDice(1))
        self.sent = 0

    async def vote(self, game_id: int, user_id: int, choice: str) -> BallotReceipt:
        self.sent += 1
        return await self.clerk.landsdraad.ballots.cast_ballot(
            game_id, user_id=user_id, command=parse_ballot(f"Vote: {choice}"), received_at=self.clock.now(),
            source_id=f"{self.name}-{self.sent}")

    async def waiting_for_a_lock(self) -> None:
        """Until one of this side's sessions waits for a lock on the server (the event, not a time)."""
        async def waits() -> bool:
            async with self.engine.connect() as connection:
                found = await connection.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = :name "
                    "AND wait_event_type = 'Lock'"), {"name": self.name})
                return bool(found.scalar_one())

        await until(waits, f"a session of {self.name} to wait for the game's lock")


@pytest.fixture(params=["optimistic", "locked"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """``optimistic``: as a bot runs; ``locked``: no optimistic try, every batch under the row lock at once."""
    if request.param == "locked":
        monkeypatch.setattr(uow, "OPTIMISTIC_TRIES", 0)
    yield request.param


@pytest.fixture
async def sides(mode: str) -> AsyncIterator[tuple[Side, Side, int]]:
    """Two sides on one migrated schema (dropped afterwards), and a game of USERS with round 1 open."""
    schema = f"clerk_race_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES_URL)
    async with admin.begin() as connection:
        await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    a = b = None
    try:
        a, b = Side(schema, "a"), Side(schema, "b")
        await upgrade(a.engine)
        game = await a.clerk.games.create_game(guild_id=900, channel_id=901, name="race", ruleset="landsdraad",
                                               moderator_role_id=None, actor=1)
        for user in USERS:
            await a.clerk.landsdraad.ledger.add_player(game.id, user_id=user, name=f"p{user}", diplomacy=3,
                                                       command=2, intrigue=2, roll=2, faction=None, actor=1)
        await a.clerk.landsdraad.rounds.open_round(game.id, crisis="Race the levy?", deadline=None, actor=1)
        yield a, b, game.id
    finally:
        for side in (a, b):
            if side is not None:
                await side.engine.dispose()
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


async def _ballots(side: Side, game_id: int) -> dict[int, tuple[str, int]]:
    """Each user's ballot in the game: (option, revotes)."""
    async with side.engine.connect() as connection:
        rows = await connection.execute(
            select(Player.user_id, Ballot.option, Ballot.revotes).join(Ballot, Ballot.player_id == Player.id)
            .where(Player.game_id == game_id))
        return {user: (option, revotes) for user, option, revotes in rows.all()}


async def _cast_events(side: Side, game_id: int) -> list[dict[str, Any]]:
    """The BallotCast payloads of the game, in their order (seq)."""
    async with side.engine.connect() as connection:
        rows = await connection.execute(select(Event.payload).where(Event.game_id == game_id,
                                                                    Event.kind == "BallotCast").order_by(Event.seq))
        return [payload for (payload,) in rows.all()]


async def _while_held(a: Side, b: Side, game_id: int, write: Coroutine[Any, Any, object],
                      waiting: Coroutine[Any, Any, Any]) -> Any:
    """``write`` in a transaction of ``a`` that holds the game's lock; ``waiting`` (a ballot of ``b``) started
    meanwhile and seen waiting for the lock before ``a`` commits; its result (or its error, raised)."""
    outside = contextvars.copy_context()  # b's task must not see a's batch (``uow._BATCH``): another process
    async with a.clerk.landsdraad.ballots._batch(game_id):
        await write
        task = asyncio.get_running_loop().create_task(waiting, context=outside)
        await b.waiting_for_a_lock()
        assert not task.done()
    return await asyncio.wait_for(task, HANG)


async def test_a_revote_that_waited_for_the_lock_replaces_the_ballot_committed_meanwhile(
        sides: tuple[Side, Side, int]) -> None:
    a, b, game_id = sides
    receipt = await _while_held(a, b, game_id, a.vote(game_id, 101, "Aye"), b.vote(game_id, 101, "Nay"))
    assert (receipt.option, receipt.replaced) == ("nay", "aye")
    assert (await _ballots(a, game_id))[101] == ("nay", 1)
    assert [(e["option"], e["replaced"]) for e in await _cast_events(a, game_id)] == [("aye", None), ("nay", "aye")]


async def test_a_ballot_that_waited_for_the_lock_is_refused_by_the_round_closed_meanwhile(
        sides: tuple[Side, Side, int]) -> None:
    a, b, game_id = sides
    await a.vote(game_id, 101, "Aye")
    with pytest.raises(RuleError, match=r"Round 1 of \w+ is closed.*; ballots are no longer accepted"):
        await _while_held(a, b, game_id, a.clerk.landsdraad.rounds.close_round(game_id, actor=1),
                          b.vote(game_id, 102, "Nay"))
    assert await _ballots(a, game_id) == {101: ("aye", 0)}
    assert [e["user_id"] for e in await _cast_events(a, game_id)] == [101]
    async with a.engine.connect() as connection:
        (closed,) = (await connection.execute(select(Event.payload).where(Event.game_id == game_id,
                                                                         Event.kind == "RoundClosed"))).scalars()
    assert {w["user_id"]: w["ballot"] for w in entries_of(closed) if w["ballot"] is not None} == {101: "aye"}


async def test_two_sides_casting_and_recasting_at_once_lose_nothing_and_count_nothing_twice(
        sides: tuple[Side, Side, int]) -> None:
    a, b, game_id = sides
    choices = ("Aye", "Nay", "Abstain")
    # every user votes four times, twice from each side, the sides' ballots sent all at once (batched by each)
    plan = [(side, user, choices[(user + n) % 3]) for n in range(2) for user in USERS for side in (a, b)]
    results = await asyncio.wait_for(asyncio.gather(*(side.vote(game_id, user, choice) for side, user, choice in plan),
                                                    return_exceptions=True), HANG)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    assert a.clerk.landsdraad.ballots._ballot_batcher.batches < len(plan) // 2  # batches of several, on each side
    events = await _cast_events(a, game_id)
    assert len(events) == len(plan)  # one event per acknowledged ballot: none lost, none twice
    ballots = await _ballots(a, game_id)
    for user in USERS:
        mine = [e for e in events if e["user_id"] == user]
        assert len(mine) == 4
        # each replaced the one before it, in the ledger's order; the row is the last, with three revotes
        assert [e["replaced"] for e in mine] == [None] + [e["option"] for e in mine[:-1]], mine
        assert ballots[user] == (mine[-1]["option"], 3)
    receipts = [r for r in results if isinstance(r, BallotReceipt)]
    assert sorted(r.replaced is None for r in receipts).count(True) == len(USERS)  # one first ballot each


async def test_a_close_that_waited_for_the_lock_counts_the_ballot_committed_meanwhile(
        sides: tuple[Side, Side, int]) -> None:
    """The close's first statement takes the game's row lock and reads the game with it (``ServiceBase._unit`` on
    PostgreSQL): it waits for ``a``'s transaction, then counts its ballot, and its two events (numbered in one
    statement, ``SyncUnit.record_all``) follow ``a``'s, in order."""
    a, b, game_id = sides
    await a.vote(game_id, 101, "Aye")
    view = await _while_held(a, b, game_id, a.vote(game_id, 102, "Nay"),
                             b.clerk.landsdraad.rounds.close_round(game_id, actor=1))
    assert (view.aye > 0, view.nay > 0) == (True, True)
    async with a.engine.connect() as connection:
        events = (await connection.execute(select(Event.seq, Event.kind, Event.payload).where(
            Event.game_id == game_id).order_by(Event.seq))).all()
    kinds = [kind for _, kind, _ in events]
    assert kinds[-4:] == ["BallotCast", "BallotCast", "RoundClosed", "ResultPending"]
    assert [seq for seq, _, _ in events] == list(range(events[0].seq, events[0].seq + len(events)))
    closed = events[-2].payload
    assert {w["user_id"]: w["ballot"] for w in entries_of(closed) if w["ballot"] is not None} == {
        101: "aye", 102: "nay"}
    assert events[-1].payload == {"kind": "round", "number": 1}
