"""The test ruleset "council" (tests/council) with the bot as its own process (``python -m bot run``, its
config.toml naming the ruleset, its PYTHONPATH reaching tests/): a kill between a moderator's ``/council close`` and
its result's post, announced once when the bot starts again."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from council.service import CouncilService
from fakediscord import FakeDiscord

from bot.plugins import load_plugins
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker

from .child import ChildBot
from .test_council import results

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture
def clock() -> SystemClock:  # the child runs on the system clock; the fake's ids and timestamps follow it too
    return SystemClock()


@pytest.fixture
async def service(tmp_path: Path, migrated_database: Path) -> AsyncIterator[tuple[Clerk, Path]]:
    """The test's own Clerk (playing the council too) on the SQLite file the bot process uses."""
    database = tmp_path / "clerk.db"
    shutil.copy(migrated_database, database)
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    plugged = load_plugins(["council"])
    yield Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(1), plugged.all_rulesets), database
    await engine.dispose()


@pytest.fixture
async def child(fake: FakeDiscord, service: tuple[Clerk, Path], tmp_path: Path) -> AsyncIterator[ChildBot]:
    workdir = tmp_path / "bot"
    workdir.mkdir()
    (workdir / "config.toml").write_text('rulesets = ["council"]\n')
    bot = ChildBot(fake, service[1], workdir, paths=(TESTS,))
    try:
        yield bot
    finally:
        await bot.stop()
    assert not bot.errors(), "\n".join(bot.errors())


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_between_a_close_and_its_result_posts_the_result_once_at_start(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, _ = service
    hall, mod = fake.add_channel("hall"), fake.owner
    members = [fake.add_user(name) for name in ("ann", "ben")]
    council = clerk.plugged["council"]
    assert isinstance(council, CouncilService)
    game = await clerk.games.create_game(guild_id=fake.guild_id, channel_id=hall.id, name="hall", ruleset="council",
                                         moderator_role_id=None, actor=mod.id)
    for user, weight in zip(members, (1, 2), strict=True):
        await council.seat(game.id, user_id=user.id, name=user.name, weight=weight,
                           actor=mod.id, source_id=None)
    await council.open_vote(game.id, question="Dissolve?", deadline=datetime.now(UTC) + timedelta(days=1),
                            actor=mod.id, source_id=None)
    await council.cast(game.id, user_id=members[1].id, yes=False, number=1, source_id=None)

    await child.start()
    fake.stall_posts(hall, recorded=False)
    await fake.slash(mod, "council close", hall)
    await fake.wait_for(lambda: fake.stalled >= 1, "the result card to stall")
    await child.kill()
    fake.release_posts()
    assert results(fake, hall) == []

    await child.start()  # returns after the first deadline pass, which posts what the kill left unannounced
    [card] = results(fake, hall)
    assert card.embed["title"] == "hall: council vote 1 failed"
    events = (await clerk.exports.export(game.id))["events"]
    assert [e["kind"] for e in events].count("CouncilClosed") == 1
    assert [(e["payload"]["kind"], e["payload"]["number"]) for e in events if e["kind"] == "ResultPosted"] == [
        ("council", 1)]
