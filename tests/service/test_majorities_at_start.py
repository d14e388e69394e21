"""R3-20 at a start (``majorities_at_start``): every running Landsdraad game past round 5 is looked at by ONE read
(``majorities_to_tell``: a statement, and three for each 50 games, none per game: bench ``many-long``), and only a game
whose majority holder differs from the one last told is checked (a write) and its moderators told. The one read
picks exactly the games the look at each game alone picks (``_majority_change``, what ``check_majority`` records):
a holder not told yet, a holder lost, a majority made by holdings (electors, planets and their Diplomacy bonus); not
a game told already, one before round 5 is complete, one whose big player is inactive, an ended game nor a game of
another ruleset. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from conftest import GUILD, MOD, RecordingDice, Table
from sqlalchemy import event, update
from sqlalchemy.ext.asyncio import AsyncEngine
from test_service_victory_end import crisis

from bot.actions.commands import App
from bot.actions.landsdraad.victory_posts import majorities_at_start
from bot.actions.outbox import ToThread
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.landsdraad import victory_scoring
from engine.service.landsdraad.victory_scoring import _majority_change
from engine.store.database import make_sessionmaker
from engine.store.models import Game

ANN, BO, CY = 601, 602, 603


@contextmanager
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", note)


class Games:
    def __init__(self, clerk: Clerk, clock: ManualClock, dice: RecordingDice, engine: AsyncEngine) -> None:
        self.clerk, self.clock, self.dice, self.engine = clerk, clock, dice, engine
        self.tables: dict[str, Table] = {}

    async def new(self, name: str, ann: int = 27, bo: int = 8, rounds: int = 5) -> Table:
        """A game in which ann (D 1, I 1, d3 1: 4 votes, and ``ann`` misc) and bo (4 and ``bo``) play ``rounds``
        rounds, each closed with no ballot."""
        game = await self.clerk.games.create_game(guild_id=GUILD, channel_id=1000 + len(self.tables), name=name,
                                                  ruleset="landsdraad", moderator_role_id=None, actor=MOD)
        table = self.tables[name] = Table(self.clerk, self.clock, self.dice, self.engine, game)
        for user_id, who, misc in ((ANN, "ann", ann), (BO, "bo", bo)):
            await table.player(user_id, who, 1, 1, 1, roll=1)
            if misc:
                await self.clerk.landsdraad.ledger.set_player(game.id, user_id=user_id, misc=misc, actor=MOD)
        for _ in range(rounds):
            await crisis(table, {})
        return table

    def id(self, name: str) -> int:
        return self.tables[name].game_id

    async def told(self, name: str) -> None:
        assert await self.clerk.landsdraad.victory.check_majority(self.id(name), actor=None) is not None

    async def each_alone(self) -> list[int]:
        """The games the look at one game picks, each looked at alone (``_majority_change``), in order."""
        picked = []
        for table in self.tables.values():
            async with make_sessionmaker(self.engine)() as session:
                if await _majority_change(session, table.game_id) is not None:
                    picked.append(table.game_id)
        return picked


async def test_one_read_picks_the_games_each_look_alone_picks_and_only_they_are_checked_and_told(
        clerk: Clerk, clock: ManualClock, dice: RecordingDice, db_engine: AsyncEngine) -> None:
    g = Games(clerk, clock, dice, db_engine)
    await g.new("untold")  # ann 31 of 43: holds it, not told yet
    await g.new("told")
    await g.told("told")
    lost = await g.new("lost")
    await g.told("lost")
    await lost.player(CY, "cy", 1, 1, 1, roll=1)
    await clerk.landsdraad.ledger.set_player(lost.game_id, user_id=CY, misc=30, actor=MOD)  # 34 against 31: lost
    await g.new("short", rounds=4)  # round 5 not complete
    held = await g.new("holdings", ann=0, bo=8)  # 4 against 12, until ann's holdings count
    await held.elector(ANN, "Count Hasimir", "strong", 20)
    await clerk.landsdraad.ledger.set_player(held.game_id, user_id=ANN, diplomacy=5, actor=MOD)  # base 12, as bo's
    await held.planet(ANN, "Ecaz", "rich")  # ann 12 + 20 + 4 and the Diplomacy bonus: a majority by her holdings
    idle = await g.new("inactive", ann=60)
    await idle.player(CY, "cy", 1, 1, 1, roll=1)
    await clerk.landsdraad.ledger.set_player(idle.game_id, user_id=ANN, active=False, actor=MOD)
    await g.told("inactive")  # bo 12 of 16 (ann's 64 not counted): bo holds it, told
    ended = await g.new("ended")
    async with make_sessionmaker(db_engine)() as session, session.begin():
        await session.execute(update(Game).where(Game.id == ended.game_id).values(status="ended"))
        session.add(Game(guild_id=GUILD, channel_id=4242, name="senate", ruleset="convocate", settings={},
                         current_round=6, last_seq=0, created_at=clock.now()))
    await g.new("untold too", ann=0, bo=30)  # bo 34 of 38

    victory = clerk.landsdraad.victory
    wanted = [g.id(name) for name in ("untold", "lost", "holdings", "untold too")]
    assert await g.each_alone() == wanted
    with statements(db_engine) as seen:
        assert await victory.majorities_to_tell() == wanted
    assert len(seen) == 4, seen  # the ids, and one step: the players' V(p), the holdings, the holders told
    with patch.object(victory_scoring, "MAJORITY_GAMES_A_READ", 4), statements(db_engine) as steps:
        assert await victory.majorities_to_tell() == wanted  # the 6 long games in steps of 4 and 2
    assert len(steps) == 1 + 3 * 2, steps
    assert [t.game_id for t in g.tables.values() if await victory.majority_to_tell(t.game_id)] == wanted

    out = await majorities_at_start(App(clerk), clock.now())
    told = [(o.to.game_id, o.text) for o in out if isinstance(o.to, ToThread)]
    assert [game for game, _ in told] == wanted and len(out) == len(told)
    texts = dict(told)
    assert "ann" in texts[g.id("untold")] and "bo" in texts[g.id("untold too")]
    assert "ann" in texts[g.id("lost")] and "ann" in texts[g.id("holdings")]
    assert await victory.majorities_to_tell() == [] == await g.each_alone()
    assert await majorities_at_start(App(clerk), clock.now()) == []


async def test_the_one_read_makes_as_many_statements_for_twelve_long_games_as_for_one(
        clerk: Clerk, clock: ManualClock, dice: RecordingDice, db_engine: AsyncEngine) -> None:
    """The start's look in numbers: its statements do not grow with the games it looks at (before, five a game),
    but by three for each ``MAJORITY_GAMES_A_READ`` (50) games."""
    g = Games(clerk, clock, dice, db_engine)
    await g.new("first")
    with statements(db_engine) as one:
        assert await clerk.landsdraad.victory.majorities_to_tell() == [g.id("first")]
    for n in range(11):
        await g.new(f"long {n}", ann=27 if n % 2 else 0, bo=8 if n % 2 else 0)  # every other one held by ann
    with statements(db_engine) as twelve:
        picked = await clerk.landsdraad.victory.majorities_to_tell()
    assert picked == await g.each_alone() and len(picked) == 1 + 5
    assert len(twelve) == len(one)
