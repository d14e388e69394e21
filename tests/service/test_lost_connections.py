"""Play-test V5.2: after the PostgreSQL server ends the pool's sessions (a restart, a failover, a proxy's idle
timeout; here ``pg_terminate_backend`` of this test's own sessions, told apart by their ``application_name``), the
next ballot, command or lookup is not refused: the unit that finds its pooled connection dead is run again once, on a
new connection (SQLAlchemy's optimistic disconnect handling, no ping per checkout), counted once, and the moderators
hear of no storage fault. The PostgreSQL tests (``postgresql`` in their names) run with TEST_POSTGRES_URL (`make
test-postgres`); docs/reliability.md, "A connection the server ended".
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import MOD, START, RecordingDice
from databases import ON_POSTGRES, POSTGRES_URL, migrated_copy
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine
from test_storage_faults import sirius

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.storage_health import StorageNotice
from engine.store.database import make_engine, make_sessionmaker


@dataclass
class Game:
    clerk: Clerk
    engine: AsyncEngine
    game_id: int
    application: str
    notices: list[StorageNotice] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """The statements that found their connection lost (``handle_error``): the test's ends reached the pool."""

    async def end_sessions(self) -> None:
        """End this test's sessions on the server, and only them, as a restart would (waiting until they ended)."""
        admin = make_engine(POSTGRES_URL)
        try:
            async with admin.begin() as connection:
                ended = await connection.execute(
                    text("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                         "WHERE application_name = :application"), {"application": self.application})
                assert ended.scalars().all() == [True]  # the pool holds one idle session
        finally:
            await admin.dispose()

    async def vote(self, user_id: int, choice: str, source_id: str) -> Any:
        return await self.clerk.landsdraad.ballots.cast_ballot(
            self.game_id, user_id=user_id, command=parse_ballot(f"Vote: {choice}"),
            received_at=self.clerk.clock.now(), source_id=source_id)

    async def count(self, kind: str) -> int:
        async with make_sessionmaker(self.engine)() as session:
            found = await session.execute(text("SELECT count(*) FROM events WHERE kind = :kind"), {"kind": kind})
            return int(found.scalar_one())


@pytest.fixture
async def game(tmp_path: Path, sqlite_template: Path, postgres_schema: str | None) -> AsyncIterator[Game]:
    migrated = await migrated_copy("postgresql", tmp_path, sqlite_template, postgres_schema)
    application = f"clerk-lost-{uuid.uuid4().hex[:12]}"
    settings = {**migrated.options["connect_args"]["server_settings"], "application_name": application}
    engine = make_engine(migrated.url, connect_args={"server_settings": settings})
    clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RecordingDice())
    found = Game(clerk, engine, await sirius(clerk), application)
    clerk.storage.listen(found.notices.append)

    @event.listens_for(engine.sync_engine, "handle_error")
    def _lost(context: Any) -> None:
        if context.is_disconnect:
            found.lost.append(str(context.statement))

    try:
        yield found
    finally:
        await engine.dispose()


@ON_POSTGRES
async def test_a_dm_ballot_after_postgresql_ended_the_sessions_is_recorded_once_with_no_storage_alarm(
        game: Game) -> None:
    assert (await game.vote(101, "Aye", "msg-1")).option == "aye"
    await game.end_sessions()
    receipt = await game.vote(101, "Nay", "msg-2")  # the optimistic unit (ballot_batch): its read finds it
    assert (receipt.option, receipt.replaced, receipt.duplicate) == ("nay", "aye", False)
    assert len(game.lost) == 1  # the pooled connection was dead, and found so
    assert game.notices == []  # no "I cannot save anything right now" to the moderators
    assert await game.count("BallotCast") == 2


@ON_POSTGRES
async def test_a_command_after_postgresql_ended_the_sessions_is_done_once(game: Game) -> None:
    await game.end_sessions()
    player = await game.clerk.landsdraad.ledger.add_player(  # a ``_write``: its lock statement finds it
        game.game_id, user_id=103, name="Carol", diplomacy=1, command=1, intrigue=1, roll=1, faction=None, actor=MOD,
        source_id="cmd-1")
    assert player.name == "Carol"
    assert (len(game.lost), game.notices) == (1, [])
    assert await game.count("PlayerAdded") == 3  # Alice, Bob, and Carol once


@ON_POSTGRES
async def test_a_lookup_of_a_players_games_after_postgresql_ended_the_sessions_works(game: Game) -> None:
    await game.end_sessions()
    assert [g.id for g in await game.clerk.games.games_of_user(101)] == [game.game_id]  # a DM's first read
    assert len(game.lost) == 1


@ON_POSTGRES
async def test_a_round_close_after_postgresql_ended_the_sessions_is_done_once(game: Game) -> None:
    await game.vote(101, "Aye", "msg-1")
    await game.end_sessions()
    closed = await game.clerk.landsdraad.rounds.close_round(game.game_id, actor=MOD, source_id="cmd-2")
    assert (closed.aye, closed.already_closed) == (8, False)  # Alice's 8 votes; the close's self-locking unit
    assert (len(game.lost), game.notices) == (1, [])
    assert await game.count("RoundClosed") == 1


# -- what is run again, and what is not (no database needed) --------------------------------------------------------

class _Closed(ConnectionError):
    """A driver's "connection is closed" (asyncpg's, as SQLAlchemy's asyncpg dialect hands it on)."""


class _ReadOnly(Exception):
    sqlstate = "25006"  # a read-only session: ``reopen_after_faults`` makes it a disconnect, but it is no loss


@pytest.mark.parametrize(("statement", "orig", "invalidated", "reading", "again"), [
    pytest.param("SELECT 1", _Closed("connection is closed"), True, False, True, id="a statement found it lost"),
    pytest.param(None, _Closed("connection is closed"), True, False, False, id="the COMMIT found it: may be done"),
    pytest.param(None, _Closed("connection is closed"), True, True, True, id="a read: whatever found it"),
    pytest.param("SELECT 1", _ReadOnly("read-only transaction"), True, False, False, id="read-only: not a loss"),
    pytest.param("SELECT 1", _Closed("connection is closed"), False, False, False, id="not invalidated"),
])
def test_only_a_loss_before_anything_was_committed_is_run_again(
        statement: str | None, orig: Exception, invalidated: bool, reading: bool, again: bool) -> None:
    from sqlalchemy.exc import DBAPIError

    from engine.service.uow import lost_uncommitted

    error = DBAPIError(statement, None, orig, connection_invalidated=invalidated)
    assert lost_uncommitted(error, reading=reading) is again
