"""Service fixtures: a Clerk on a migrated database (SQLite file, and PostgreSQL when TEST_POSTGRES_URL is set),
a manual clock, seeded dice that remember what they rolled, and a small harness for one game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.views import BallotReceipt, PlayerView
from engine.service.views import GameView
from engine.store.database import make_sessionmaker
from engine.store.models import DiceRoll, Event

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GUILD, CHANNEL, MOD = 900, 901, 1
SEED = 20260301


class RecordingDice:
    """RandomDice with a fixed seed that keeps the label of every secret it gave (a seed, a salt), so a test can
    tell when the service sealed a seed; the rolls themselves are in ``dice_rolls`` (``Table.rolls``)."""

    def __init__(self, seed: int = SEED) -> None:
        self._dice = RandomDice(seed)
        self.secrets: list[str] = []

    def secret(self, label: str) -> str:
        self.secrets.append(label)
        return self._dice.secret(label)


@dataclass
class Table:
    """One game on a real database, and shortcuts for the commands the tests repeat."""

    clerk: Clerk
    clock: ManualClock
    dice: RecordingDice
    engine: AsyncEngine
    game: GameView
    _source: int = field(default=0)

    @property
    def game_id(self) -> int:
        return self.game.id

    def source(self) -> str:
        self._source += 1
        return f"msg-{self._source}"

    async def player(self, user_id: int, name: str, d: int, c: int, i: int, roll: int | None = 1,
                     faction: str | None = None) -> PlayerView:
        return await self.clerk.landsdraad.ledger.add_player(self.game_id, user_id=user_id, name=name, diplomacy=d,
                                                             command=c, intrigue=i, roll=roll, faction=faction,
                                                             actor=MOD)

    async def elector(self, user_id: int, name: str, tier: str, votes: int) -> PlayerView:
        return await self.clerk.landsdraad.ledger.add_holding(self.game_id, user_id=user_id, kind="elector",
                                                              name=name, grade=tier, votes=votes, homeworld=False,
                                                              actor=MOD)

    async def planet(self, user_id: int, name: str, quality: str, homeworld: bool = False) -> PlayerView:
        return await self.clerk.landsdraad.ledger.add_holding(self.game_id, user_id=user_id, kind="planet",
                                                              name=name, grade=quality, votes=None,
                                                              homeworld=homeworld, actor=MOD)

    async def open(self, crisis: str = "Piracy in Sirius Sector", deadline: timedelta | None = None) -> None:
        await self.clerk.landsdraad.rounds.open_round(self.game_id, crisis=crisis,
                                                      deadline=self.clock.now() + deadline if deadline else None,
                                                      actor=MOD)

    async def faction(self, name: str, votes: int, stance: str, table: str | None = None,
                      roll: int | None = None) -> None:
        await self.clerk.landsdraad.rounds.add_faction(self.game_id, name=name, votes=votes, stance=stance,
                                                       table=table, roll=roll, actor=MOD)

    async def vote(self, user_id: int, text: str, *, at: datetime | None = None,
                   source_id: str | None = None) -> BallotReceipt:
        return await self.clerk.landsdraad.ballots.cast_ballot(self.game_id, user_id=user_id,
                                                               command=parse_ballot(text),
                                                               received_at=at or self.clock.now(),
                                                               source_id=source_id or self.source())

    async def events(self) -> list[Event]:
        async with make_sessionmaker(self.engine)() as session:
            found = await session.execute(select(Event).where(Event.game_id == self.game_id).order_by(Event.seq))
            return list(found.scalars())

    async def rolls(self) -> list[tuple[int, int]]:
        """Every die Clerk rolled in the game (not a face a moderator set): (sides, face), in order."""
        async with make_sessionmaker(self.engine)() as session:
            found = await session.execute(select(DiceRoll.sides, DiceRoll.face).where(
                DiceRoll.game_id == self.game_id, DiceRoll.sealed.is_(None)).order_by(DiceRoll.id))
            return [(s, f) for s, f in found.all()]

    async def kinds(self) -> list[str]:
        return [e.kind for e in await self.events()]

    @staticmethod
    def numbers(result: Any) -> dict[str, Any]:
        return {"outcome": result.outcome, "aye": result.aye, "nay": result.nay, "abstain": result.abstain,
                "in_play": result.in_play, "needed": result.needed}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def dice() -> RecordingDice:
    return RecordingDice()


@pytest.fixture
def clerk(db_engine: AsyncEngine, clock: ManualClock, dice: RecordingDice) -> Clerk:
    """The service on a migrated database; parametrized over SQLite and PostgreSQL by ``db_engine``."""
    return Clerk(make_sessionmaker(db_engine), clock, dice)


@pytest.fixture
async def table(clerk: Clerk, clock: ManualClock, dice: RecordingDice, db_engine: AsyncEngine) -> AsyncIterator[Table]:
    game = await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="sirius", ruleset="landsdraad",
                                         moderator_role_id=None, actor=MOD)
    yield Table(clerk, clock, dice, db_engine, game)

