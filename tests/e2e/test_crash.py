"""Crashes: the bot runs as its own process (``python -m bot run``) and is SIGKILLed in the middle of a burst of
ballots, then started again on the same SQLite file. See docs/reliability.md.

A ballot that was acknowledged is in the tally; none counts twice. Discord does not send a MESSAGE_CREATE again
to a new session, and the bot does not read old DMs at start (docs/reliability.md says why): a player whose DM got
no answer sends it again, and the answer then says it was recorded (or that it stands, if it had been recorded just
before the kill), so it still counts once."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest
from fakediscord import HANG, Channel, FakeDiscord, until

from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.service import Clerk
from engine.service.announcements import posted_marker, warning_marker
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker

from .child import ChildBot
from .crowd import choice, crowd_game, expected_tally

BURST = 150
KILL_AFTER = 50
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
    export = await clerk.exports.export(game_id)
    return [int(str(e["source_id"]).removeprefix("msg:")) for e in export["events"] if e["kind"] == "BallotCast"]


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_in_the_middle_of_a_burst_loses_no_acknowledged_ballot_and_doubles_none(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, _ = service
    users = fake.add_users("p", BURST)
    game = fake.add_channel("sirius")
    game_id = await crowd_game(clerk, fake, game, users)
    await child.start()

    ids = await fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await fake.wait_for(lambda: len(fake.sent) >= KILL_AFTER, f"{KILL_AFTER} receipts")
    await child.kill()

    answered = {mid for mid, replies in fake.replied(ids).items() if replies}
    assert KILL_AFTER <= len(answered) < BURST, "the kill landed in the middle of the burst"
    recorded = await ballot_sources(clerk, game_id)
    assert len(recorded) == len(set(recorded)), "no message counted twice"
    assert answered <= set(recorded), "every acknowledged ballot was recorded"
    committed_unanswered = set(recorded) - answered
    print(f"\nkilled after {len(answered)} of {BURST} receipts; {len(committed_unanswered)} more were recorded "
          "but not answered")

    await child.start()  # the ballots it never read are read back from the DM channels (play-test R3.2)
    await fake.wait_for(lambda: all(fake.replied(ids).values()), "an answer to every ballot of the burst")
    for n, mid in enumerate(ids):
        [reply] = fake.replied([mid])[mid]  # each answered once: before the kill, by the recovery or read back
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in reply.content
        read_back = reply.content.startswith("I was offline or restarting when you sent this")
        assert read_back == (mid not in answered and mid not in committed_unanswered), reply.content
    assert sorted(await ballot_sources(clerk, game_id)) == sorted(ids)

    result = await clerk.landsdraad.rounds.close_round(game_id, actor=fake.owner.id)
    voted = {u.id: choice(n) for n, u in enumerate(users)}
    assert (result.aye, result.nay, result.abstain) == await expected_tally(clerk, game_id, voted)
    status = await clerk.landsdraad.rounds.round_status(game_id)
    assert len(status.voted) == BURST


async def marks_all_and_nothing_owed(database: Path, results: int) -> bool:
    """Whether ``results`` results are marked posted and the outgoing queue owes nothing more."""
    async with aiosqlite.connect(database) as db:
        found = await db.execute("SELECT (SELECT count(*) FROM events WHERE kind = 'ResultPosted'), "
                                 "(SELECT count(*) FROM owed_messages WHERE outcome IS NULL)")
        row = await found.fetchone()
    return row is not None and int(row[0]) >= results and int(row[1]) == 0


ROUND_GAMES = 5
ELECTION_GAMES = 3


def result_cards(fake: FakeDiscord, channels: list[Channel], words: str) -> dict[int, int]:
    """How many result cards whose title has ``words`` the bot posted in each channel."""
    return {c.id: sum(1 for s in fake.messages(c) if words in s.embed.get("title", "")) for c in channels}


async def closes(database: Path) -> int:
    """How many rounds and AG elections are closed in the database (one cheap query: the test polls it while the bot
    process works)."""
    async with aiosqlite.connect(database) as db:
        found = await db.execute("SELECT count(*) FROM events WHERE kind IN ('RoundClosed', 'AgElectionClosed')")
        row = await found.fetchone()
    return int(row[0]) if row else 0


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_while_rounds_and_ag_elections_close_at_their_deadline_leaves_one_close_and_one_result_each(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    clerk, database = service
    later = datetime.now(UTC) + timedelta(hours=1)
    round_channels = [fake.add_channel(f"round{n}") for n in range(ROUND_GAMES)]
    ag_channels = [fake.add_channel(f"ag{n}") for n in range(ELECTION_GAMES)]
    rounds = [await crowd_game(clerk, fake, c, fake.add_users(f"r{n}p", 3), deadline=later)
              for n, c in enumerate(round_channels)]
    elections = [await crowd_game(clerk, fake, c, fake.add_users(f"a{n}p", 2)) for n, c in enumerate(ag_channels)]
    soon = datetime.now(UTC) + timedelta(seconds=1.5)  # all due at the same instant, while the bot runs
    for game_id in rounds:
        await clerk.landsdraad.rounds.extend_round(game_id, to=max(soon, datetime.now(UTC) + timedelta(seconds=0.2)),
                                                   actor=None)
    for game_id in elections:
        await clerk.landsdraad.adjutant.open_election(game_id,
                                                      deadline=max(soon, datetime.now(UTC) + timedelta(seconds=0.2)),
                                                      actor=None)

    def posted() -> int:
        return (sum(result_cards(fake, round_channels, "the measure").values())
                + sum(result_cards(fake, ag_channels, "Adjutant General").values()))

    await child.launch()  # not start(): that waits for the first pass, and the closing may be in it
    # Kill 1: inside the scheduler's closing pass (something closed in the database).
    closed = await until(lambda: closes(database), "the first close in the database")
    await child.kill()
    first_kill = closed, posted()
    await child.launch()
    # Kill 2: once results are being posted.
    await fake.wait_for(lambda: posted() >= 1, "a result")
    await child.kill()
    second_kill = posted()
    await child.start()  # returns after the first pass, which owes every result still unannounced
    await fake.wait_for(lambda: posted() >= ROUND_GAMES + ELECTION_GAMES, "every result")
    # Each card is marked posted once Discord has it (a repeat dropped by its nonce too), and the outgoing queue has
    # nothing left to send: then nothing more will arrive.
    await until(lambda: marks_all_and_nothing_owed(database, ROUND_GAMES + ELECTION_GAMES),
                "every result marked posted and nothing left owed")
    print(f"\nkill 1 with {first_kill[0]}/{ROUND_GAMES + ELECTION_GAMES} closed and {first_kill[1]} results posted; "
          f"kill 2 with {second_kill} posted; {fake.nonce_repeats} repeated posts dropped by their nonce")

    assert first_kill[0] < ROUND_GAMES + ELECTION_GAMES or first_kill[1] == 0, "kill 1 landed inside the closing"
    assert set(result_cards(fake, round_channels, "the measure").values()) == {1}, "one result per round"
    assert set(result_cards(fake, ag_channels, "Adjutant General").values()) == {1}, "one result per election"
    for game_id, closed_kind in [*((g, "RoundClosed") for g in rounds), *((g, "AgElectionClosed") for g in elections)]:
        kinds = [e["kind"] for e in (await clerk.exports.export(game_id))["events"]]
        assert kinds.count(closed_kind) == 1 and kinds.count("ResultPosted") == 1, (game_id, kinds)


async def game_with_an_election_closing_with_the_round(clerk: Clerk, fake: FakeDiscord,
                                                      name: str) -> tuple[int, Channel]:
    """Round 1 open, and AG election 2 (after No Confidence in the first AG, R0-35) closes with it: its result card
    is posted before the round's."""
    owner = fake.owner.id
    users = fake.add_users(f"{name}-p", 3)
    channel = fake.add_channel(name)
    game_id = await crowd_game(clerk, fake, channel, users)
    await clerk.landsdraad.adjutant.open_election(game_id, deadline=None, actor=owner)
    await clerk.landsdraad.adjutant.cast_ag_vote(game_id, user_id=users[0].id, candidate=users[0].name,
                                                 at=datetime.now(UTC), source_id=f"{name}:ag1")
    await clerk.landsdraad.adjutant.close_election(game_id, actor=owner)
    # election 1 was announced (this test has no bot yet)
    await clerk.announcements.mark_posted(posted_marker("ag", game_id, 1))
    for user in users[1:]:
        support = await clerk.landsdraad.majority.support(game_id, user_id=user.id,
                                                          motion=Motion(Subject.NO_CONFIDENCE), thread_id=None,
                                                          at=datetime.now(UTC), source_id=f"{name}:nc{user.id}")
    await clerk.landsdraad.majority.enact(game_id, vote_id=support.vote.id, actor=owner)
    await clerk.landsdraad.adjutant.cast_ag_vote(game_id, user_id=users[1].id, candidate=users[1].name,
                                                 at=datetime.now(UTC), source_id=f"{name}:ag2")
    return game_id, channel


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_between_a_moderators_close_and_its_result_posts_each_card_once_at_start(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    """``/round close`` commits, then posts the result, the election's card first. The kill lands while Discord
    holds that first card: in one game before Discord has it; in the other after Discord has it but before the
    bot knows (the kill between the two cards)."""
    clerk, database = service
    lost, held = [await game_with_an_election_closing_with_the_round(clerk, fake, name) for name in ("lost", "held")]
    channels = [lost[1], held[1]]
    await child.start()
    fake.stall_posts(lost[1], recorded=False)
    fake.stall_posts(held[1], recorded=True)
    for channel in channels:
        await fake.slash(fake.owner, "round close", channel)
    await fake.wait_for(lambda: fake.stalled >= 2, "the first result card of both games to stall")
    await child.kill()
    fake.release_posts()
    assert result_cards(fake, channels, "Adjutant General") == {lost[1].id: 0, held[1].id: 1}
    assert result_cards(fake, channels, "the measure") == {lost[1].id: 0, held[1].id: 0}

    await child.start()
    # child.start() returned after the scheduler's first pass, which owes what the kill left unannounced; the
    # outgoing queue sends it: once every card is there and nothing is left owed, nothing more will arrive.
    await fake.wait_for(lambda: min(result_cards(fake, channels, "the measure").values()) >= 1, "both round cards")
    await until(lambda: marks_all_and_nothing_owed(database, 0), "nothing left owed")
    assert result_cards(fake, channels, "Adjutant General") == {c.id: 1 for c in channels}, "one election card each"
    assert result_cards(fake, channels, "the measure") == {c.id: 1 for c in channels}, "one round card each"
    # the card Discord had was sent again and dropped by its nonce (once, or twice when the kill came after the bot
    # had also owed it to its queue: then the queue and the recovery each send it; either way it shows once)
    assert fake.nonce_repeats >= 1, "the card Discord had was sent again and dropped by its nonce"
    for game_id, _ in (lost, held):
        events = (await clerk.exports.export(game_id))["events"]
        assert [e["kind"] for e in events].count("RoundClosed") == 1
        posted = sorted((e["payload"]["kind"], e["payload"]["number"]) for e in events if e["kind"] == "ResultPosted")
        assert posted == [("ag", 1), ("ag", 2), ("round", 1)]


async def test_sigterm_stops_the_bot_cleanly_and_lets_the_deadline_lease_go(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    """systemd, Kubernetes and ``docker stop`` send SIGTERM: the bot closes (exit 0) and releases the lease, so
    another process can do the deadline work at once instead of after the lease expires, and removes its entry in
    the ``processes`` table, so another process on its shards can start at once (play-test V3.1)."""
    _, database = service
    await child.start()
    assert "now does the deadline work" in child.log.read_text(), "the first pass took the lease"
    assert child.proc is not None
    async with aiosqlite.connect(database) as db:
        running = await (await db.execute("SELECT pid, shard_count FROM processes")).fetchall()
    assert running == [(child.proc.pid, None)], "its entry in the processes table, written at start"
    child.proc.terminate()
    assert await asyncio.wait_for(child.proc.wait(), HANG) == 0
    async with aiosqlite.connect(database) as db:
        found = await db.execute("SELECT expires_at FROM leases WHERE name = 'deadlines'")
        row = await found.fetchone()
        left = await (await db.execute("SELECT count(*) FROM processes")).fetchone()
    assert row is not None
    assert datetime.fromisoformat(row[0]).replace(tzinfo=UTC) <= datetime.now(UTC), "the lease was let go"
    assert left == (0,), "its entry in the processes table was removed: a process started next need not wait"
    assert "SIGTERM: stopping" in child.log.read_text()


async def owed_left(database: Path) -> int:
    async with aiosqlite.connect(database) as db:
        found = await (await db.execute("SELECT count(*) FROM owed_messages WHERE outcome IS NULL")).fetchone()
    assert found is not None
    return int(found[0])


def logged(child: ChildBot, line: str) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return child.log.exists() and line in child.log.read_text()
    return check


async def closed_with_its_card_stalled(fake: FakeDiscord, clerk: Clerk, child: ChildBot, name: str, *,
                                       recorded: bool) -> None:
    """A game in a new channel ``name``, the bot started, and its round closed by the moderator while Discord does
    not answer the result card's post: the card stays waiting in the outgoing queue."""
    channel = fake.add_channel(name)
    await crowd_game(clerk, fake, channel, fake.add_users(f"{name}-p", 2))
    await child.start()
    fake.stall_posts(channel, recorded=recorded)
    await fake.slash(fake.owner, "round close", channel)
    await fake.wait_for(lambda: fake.stalled >= 1, "the result card to stall")


async def test_a_clean_stop_sends_what_is_still_waiting_before_it_exits(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot, tmp_path: Path) -> None:
    """Play-test 1.3: a bot stopped (SIGTERM, `docker stop`) just after `/round close` left the result card, waiting
    on Discord, unsent until the next start: a bot stopped for a long maintenance held its announcements that long.
    Now the stop sends what is waiting first (at most `stop_wait`, here longer than the test can take, so that the
    test waits for events, not for seconds), then exits 0 with nothing left owed."""
    clerk, database = service
    (tmp_path / "config.toml").write_text("stop_wait = 600\n")
    await closed_with_its_card_stalled(fake, clerk, child, "stopping", recorded=True)  # Discord slow to answer

    assert child.proc is not None
    try:
        child.proc.terminate()
        await until(logged(child, "stopping: sending the 1 message(s) still waiting first"),
                    "the stop to wait for the card")
        assert child.proc.returncode is None, "it waits for the card before it exits"
    finally:
        fake.release_posts()

    assert await asyncio.wait_for(child.proc.wait(), HANG) == 0
    assert await owed_left(database) == 0, "the card was sent and marked: the next start sends nothing again"
    assert "they are sent at the next start" not in child.log.read_text()


@pytest.mark.long  # a second bot process for a second signal: make test-long (CI runs it)
async def test_a_second_sigterm_ends_the_wait_and_leaves_the_rest_owed(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot, tmp_path: Path) -> None:
    """Discord not answering at all: a second SIGTERM ends the wait (as `stop_wait`, 5 s by default, would), and the
    card is left owed for the next start, saying so."""
    clerk, database = service
    await closed_with_its_card_stalled(fake, clerk, child, "stuck", recorded=False)

    assert child.proc is not None
    try:
        child.proc.terminate()
        await until(logged(child, "stopping: sending the 1 message(s) still waiting first"),
                    "the stop to wait for the card")
        child.proc.terminate()  # again: stop at once
        assert await asyncio.wait_for(child.proc.wait(), HANG) == 0
    finally:
        fake.release_posts()
    log = child.log.read_text()
    assert "SIGTERM again: stopping without waiting for the messages" in log
    assert "stopping with 1 message(s) still waiting: they are sent at the next start" in log
    assert await owed_left(database) == 1, "still owed: the next start sends it"


@pytest.mark.long  # a bot process killed and started again: make test-long (CI runs it); make test stays < 3 min
async def test_a_kill_between_the_disclosure_warning_and_the_result_warns_the_moderators_once(
        fake: FakeDiscord, service: tuple[Clerk, Path], child: ChildBot) -> None:
    """A unanimous round gives every ballot away (issue 19's disclosure check): ``/round close`` sends the
    moderators' private warning, then the result card. The kill lands after the warning reached Discord and while
    the card never did; at start the recovery posts the card, and not the warning again (it was recorded sent, and
    carries its own nonce for the moment between the send and the record)."""
    clerk, database = service
    users = fake.add_users("warned-p", 3)
    channel = fake.add_channel("warned")
    game_id = await crowd_game(clerk, fake, channel, users)
    for n, user in enumerate(users):
        await clerk.landsdraad.ballots.cast_ballot(game_id, user_id=user.id, command=parse_ballot("Vote: Aye"),
                                                   received_at=datetime.now(UTC), source_id=f"warned:{n}")
    await child.start()
    fake.stall_posts(channel, recorded=False)
    await fake.slash(fake.owner, "round close", channel)
    [thread] = await fake.wait_for(lambda: [t for t in fake.threads_of(channel) if t.type == 12],
                                   "the moderators' private thread")
    await fake.wait_for(lambda: warnings(fake, thread), "the disclosure warning")
    await until(lambda: clerk.announcements.warned(warning_marker("round", game_id, 1)), "the warning recorded sent")
    await fake.wait_for(lambda: fake.stalled >= 1, "the result card to stall")
    await child.kill()
    fake.release_posts()
    assert result_cards(fake, [channel], "the measure") == {channel.id: 0}
    # the card's owed row goes, as if the kill had come before it was owed: only the recovery posts it at start
    async with aiosqlite.connect(database) as db:
        await db.execute("DELETE FROM owed_messages WHERE lane = ?", (f"channel:{channel.id}",))
        await db.commit()

    await child.start()
    await fake.wait_for(lambda: result_cards(fake, [channel], "the measure")[channel.id] >= 1, "the card at start")
    # the recovery's sends go through the outgoing queue: once it owes nothing, a warning sent again would be here
    await until(lambda: marks_all_and_nothing_owed(database, 0), "nothing left owed")
    assert result_cards(fake, [channel], "the measure") == {channel.id: 1}, "the card is posted at start, once"
    assert len(warnings(fake, thread)) == 1, "the moderators were warned once"


def warnings(fake: FakeDiscord, thread: Channel) -> list[str]:
    return [m.content for m in fake.messages(thread) if "give away how these players voted" in m.content]
