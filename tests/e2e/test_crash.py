"""Crashes: the bot runs as its own process (``python -m bot run``) and is SIGKILLed in the middle of a burst of
ballots, then started again on the same SQLite file. See docs/reliability.md.

A ballot that was acknowledged is in the tally; none counts twice. Discord does not send a MESSAGE_CREATE again
to a new session, and the bot does not read old DMs at start (docs/reliability.md says why): a player whose DM got
no answer sends it again, and the answer then says it was recorded (or that it stands, if it had been recorded just
before the kill), so it still counts once."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fakediscord import Channel, FakeDiscord

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker

from .child import ChildBot
from .crowd import choice, crowd_game, expected_tally

BURST = 600
KILL_AFTER = 150
"""Receipts the fake has received when the test kills the bot."""


@pytest.fixture
def clock() -> SystemClock:  # the child runs on the system clock; the fake's ids and timestamps follow it too
    return SystemClock()


@pytest.fixture
async def service(tmp_path: Path, migrated_database: Path) -> AsyncIterator[tuple[Clerk, Path]]:
    """The test's own Clerk on the SQLite file the bot process uses (to set up a game and to read the result)."""
    database = tmp_path / "clerk.db"
    shutil.copy(migrated_database, database)
    engine = make_engine(f"sqlite+aiosqlite:///{database}")
    yield Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(1)), database
    await engine.dispose()


@pytest.fixture
async def child(fake: FakeDiscord, service: tuple[Clerk, Path], tmp_path: Path) -> AsyncIterator[ChildBot]:
    bot = ChildBot(fake, service[1], tmp_path)
    try:
        yield bot
    finally:
        await bot.stop()
    assert not bot.errors(), "\n".join(bot.errors())


async def ballot_sources(clerk: Clerk, game_id: int) -> list[int]:
    """The Discord message ids of the recorded ballots (source ids ``msg:<id>``)."""
    export = await clerk.export(game_id)
    return [int(str(e["source_id"]).removeprefix("msg:")) for e in export["events"] if e["kind"] == "BallotCast"]


async def test_a_kill_in_the_middle_of_a_burst_loses_no_acknowledged_ballot_and_doubles_none(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, _ = service
    users = fake.add_users("p", BURST)
    game = fake.add_channel("sirius")
    game_id = await crowd_game(clerk, fake, game, users)
    await child.start()

    ids = await fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await fake.wait_for(lambda: len(fake.sent) >= KILL_AFTER, f"{KILL_AFTER} receipts", timeout=30)
    await child.kill()

    answered = {mid for mid, replies in fake.replied(ids).items() if replies}
    assert KILL_AFTER <= len(answered) < BURST, "the kill landed in the middle of the burst"
    recorded = await ballot_sources(clerk, game_id)
    assert len(recorded) == len(set(recorded)), "no message counted twice"
    assert answered <= set(recorded), "every acknowledged ballot was recorded"
    committed_unanswered = set(recorded) - answered
    print(f"\nkilled after {len(answered)} of {BURST} receipts; {len(committed_unanswered)} more were recorded "
          "but not answered")

    await child.start()
    unanswered = [(n, u) for n, (u, mid) in enumerate(zip(users, ids, strict=True)) if mid not in answered]
    again = await fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in unanswered])  # the players send them again
    await fake.wait_for(lambda: all(fake.replied(again).values()), "answers to the messages sent again", timeout=30)
    for (n, _), mid in zip(unanswered, again, strict=True):
        [reply] = fake.replied([mid])[mid]
        if ids[n] in committed_unanswered:
            assert f"stays **{choice(n)}** (the same choice again; it counts once)" in reply.content
        else:
            assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in reply.content

    result = await clerk.close_round(game_id, actor=fake.owner.id)
    voted = {u.id: choice(n) for n, u in enumerate(users)}
    assert (result.aye, result.nay, result.abstain) == await expected_tally(clerk, game_id, voted)
    status = await clerk.round_status(game_id)
    assert len(status.voted) == BURST


GAMES = 6
ELECTIONS = 4


def results_posted(fake: FakeDiscord, channels: list[Channel]) -> dict[int, int]:
    """How many result cards the bot posted in each game channel."""
    return {c.id: sum(1 for s in fake.messages(c) if "the measure" in s.embed.get("title", "")) for c in channels}


async def closed_rounds(clerk: Clerk, game_ids: list[int]) -> int:
    rounds = [await clerk.round_of(g, 1) for g in game_ids]
    return sum(1 for r in rounds if r.status == "closed")


async def test_a_kill_while_rounds_close_at_their_deadline_leaves_one_close_and_one_result_each(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, _ = service
    channels = [fake.add_channel(f"game{n}") for n in range(GAMES)]
    game_ids = []
    for n, channel in enumerate(channels):
        users = fake.add_users(f"g{n}p", 3)
        game_ids.append(await crowd_game(clerk, fake, channel, users, deadline=datetime.now(UTC) + timedelta(hours=1)))
        await clerk.cast_ballot(game_ids[-1], user_id=users[0].id, command=parse_ballot("Vote: Aye"),
                                received_at=datetime.now(UTC), source_id=f"setup:{n}")
    soon = datetime.now(UTC) + timedelta(seconds=1.5)  # every round is due at the same instant, while the bot runs
    for game_id in game_ids:
        await clerk.extend_round(game_id, to=max(soon, datetime.now(UTC) + timedelta(seconds=0.2)), actor=None)
    await child.start()

    # Kill 1: while the scheduler is closing the rounds (some closed in the database, not all).
    while (closed := await closed_rounds(clerk, game_ids)) == 0:
        await asyncio.sleep(0.005)
    await child.kill()
    first_kill = closed, sum(results_posted(fake, channels).values())
    await child.start()
    # Kill 2: while it announces them (some results posted, not all), if the restart has not finished already.
    await fake.wait_for(lambda: sum(results_posted(fake, channels).values()) >= 1, "a result", timeout=60)
    await child.kill()
    second_kill = sum(results_posted(fake, channels).values())
    await child.start()
    await fake.wait_for(lambda: all(results_posted(fake, channels).values()), "every result", timeout=60)
    await asyncio.sleep(0.3)  # let anything extra arrive
    print(f"\nkill 1 with {first_kill[0]}/{GAMES} rounds closed and {first_kill[1]} results posted; "
          f"kill 2 with {second_kill} results posted; {fake.nonce_repeats} repeated posts dropped by nonce")

    assert first_kill[0] < GAMES or first_kill[1] < GAMES, "the first kill landed inside the closing"
    assert set(results_posted(fake, channels).values()) == {1}, "one result per round"
    for game_id in game_ids:
        export = await clerk.export(game_id)
        assert [e["kind"] for e in export["events"]].count("RoundClosed") == 1
        assert [e["kind"] for e in export["events"]].count("ResultPosted") == 1


def election_results(fake: FakeDiscord, channels: list[Channel]) -> dict[int, int]:
    """How many AG election result cards the bot posted in each game channel."""
    return {c.id: sum(1 for s in fake.messages(c) if "Adjutant General" in s.embed.get("title", "")
                      and ("elected" in s.embed.get("title", "")))
            for c in channels}


async def test_a_kill_while_ag_elections_close_at_their_deadline_leaves_one_close_and_one_result_each(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, _ = service
    channels = [fake.add_channel(f"game{n}") for n in range(ELECTIONS)]
    game_ids = [await crowd_game(clerk, fake, channel, fake.add_users(f"g{n}p", 2))
                for n, channel in enumerate(channels)]
    soon = datetime.now(UTC) + timedelta(seconds=1.5)
    for game_id in game_ids:
        await clerk.open_election(game_id, deadline=max(soon, datetime.now(UTC) + timedelta(seconds=0.2)), actor=None)
    await child.start()

    async def closed() -> int:
        elections = [await clerk.election(g) for g in game_ids]
        return sum(1 for e in elections if e is not None and e.status != "open")

    while (first := await closed()) == 0:
        await asyncio.sleep(0.005)
    await child.kill()  # inside the closing pass
    await child.start()
    await fake.wait_for(lambda: all(election_results(fake, channels).values()), "every election result", timeout=60)
    await asyncio.sleep(0.3)
    print(f"\nAG elections: killed with {first}/{ELECTIONS} closed; {fake.nonce_repeats} repeated posts dropped")

    assert set(election_results(fake, channels).values()) == {1}, "one result per election"
    for game_id in game_ids:
        kinds = [e["kind"] for e in (await clerk.export(game_id))["events"]]
        assert kinds.count("AgElectionClosed") == 1 and kinds.count("ResultPosted") == 1
