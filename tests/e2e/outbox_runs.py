"""The two runs of issue 14, at any size: a burst of DM ballots over Discord's global rate limit, with the bot in the
test's process (``burst``) and as its own process killed with SIGKILL halfway through the receipts (``killed``).
test_outbox.py runs them at 150 ballots (both in ``make test-long``; ``burst`` was in ``make test`` until 2026-12-07),
test_outbox_long.py at 5,000 (``make test-long``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import aiosqlite
from fakediscord import FakeDiscord, until

from engine.service import Clerk

from .child import ChildBot
from .clerkbot import Harness
from .crowd import choice, crowd_game, expected_tally

PER_SECOND = 50


@dataclass
class Figures:
    ballots: int
    seconds: float
    too_many: int
    """429 answers the fake sent."""
    peak: int
    requests: int

    def line(self) -> str:
        return (f"{self.ballots} receipts at {PER_SECOND}/s in {self.seconds:.1f} s (ideal "
                f"{self.ballots / PER_SECOND:.1f} s); {self.requests} requests, {self.too_many} answered 429; "
                f"peak {self.peak} requests in a second")


def receipts(fake: FakeDiscord, ids: list[int]) -> dict[int, int]:
    """How many replies each message got."""
    return {mid: len(replies) for mid, replies in fake.replied(ids).items()}


class Answered:
    """Which of ``ids`` have a reply, counted incrementally: ``wait_for`` checks its predicate after every request,
    and a full pass over what the bot sent each time would make a run of 5,000 quadratic."""

    def __init__(self, fake: FakeDiscord, ids: list[int] | set[int]) -> None:
        self.fake = fake
        self.wanted = set(ids)
        self.answered: set[int] = set()
        self.seen = 0

    def all(self) -> bool:
        sent = self.fake.sent
        for s in sent[self.seen:]:
            if s.reference in self.wanted and s.kind != "system":
                self.answered.add(s.reference)
        self.seen = len(sent)
        return len(self.answered) == len(self.wanted)


async def burst(h: Harness, count: int) -> Figures:
    """``count`` players DM their ballots at once under the global limit; returns when every one has its receipt."""
    users = h.fake.add_users("p", count)
    await crowd_game(h.clerk, h.fake, h.game, users)
    rates = h.fake.limit_rates(PER_SECOND)
    h.bot.pacer.set_limit(PER_SECOND)  # Discord's: what the bot paces to in production
    started = time.monotonic()
    ids = await h.fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await h.fake.wait_for(Answered(h.fake, ids).all, f"{count} receipts",
                          timeout=count / PER_SECOND * 3 + 60)
    seconds = time.monotonic() - started
    await h.settle()
    assert sorted(set(receipts(h.fake, ids).values())) == [1], "every ballot gets exactly one receipt"
    for n, mid in enumerate(ids):
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in h.fake.replied([mid])[mid][0].content
    return Figures(count, seconds, rates.limited, rates.peak, rates.counted)


async def burst_in_a_process(fake: FakeDiscord, clerk: Clerk, child: ChildBot, count: int) -> Figures:
    """As ``burst``, with the bot as its own process (``python -m bot run``, as in production): the fake's work (5,000
    DMs in, 5,000 receipts and their echoes out) is not on the bot's event loop."""
    users = fake.add_users("p", count)
    channel = fake.add_channel("sirius")
    await crowd_game(clerk, fake, channel, users)
    rates = fake.limit_rates(PER_SECOND)
    await child.start()
    requests_before = rates.counted
    started = time.monotonic()
    ids = await fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await fake.wait_for(Answered(fake, ids).all, f"{count} receipts", timeout=count / PER_SECOND * 3 + 60)
    seconds = time.monotonic() - started
    await until(lambda: nothing_owed(child.database), "the bot's queue to owe nothing more")
    assert sorted(set(receipts(fake, ids).values())) == [1], "every ballot gets exactly one receipt"
    for n, mid in enumerate(ids):
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in fake.replied([mid])[mid][0].content
    return Figures(count, seconds, rates.limited, rates.peak, rates.counted - requests_before)


async def nothing_owed(database: object) -> bool:
    """Whether the bot process's outgoing queue has delivered everything it owed (read directly: the bot is another
    process); after that, nothing more arrives."""
    async with aiosqlite.connect(str(database)) as db:
        found = await db.execute("SELECT count(*) FROM owed_messages WHERE outcome IS NULL")
        row = await found.fetchone()
    return row is not None and int(row[0]) == 0


async def recorded_sources(database: object, game_id: int) -> set[int]:
    """The message ids of the ballots recorded (``BallotCast`` under ``msg:<id>``), read directly (cheap)."""
    async with aiosqlite.connect(str(database)) as db:
        found = await db.execute("SELECT source_id FROM events WHERE game_id = ? AND kind = 'BallotCast'", (game_id,))
        rows = await found.fetchall()
    sources = [str(r[0]) for r in rows]
    assert len(sources) == len(set(sources)), "no message counted twice"
    return {int(s.removeprefix("msg:")) for s in sources}


@dataclass
class KillFigures:
    ballots: int
    answered_at_kill: int
    recorded_at_kill: int
    sent_again: int
    nonce_repeats: int
    too_many: int
    seconds: float

    def line(self) -> str:
        return (f"{self.ballots} ballots; killed after {self.answered_at_kill} receipts with {self.recorded_at_kill} "
                f"recorded; after the restart every ballot got its receipt; {self.sent_again} were read back from "
                f"the DM channels; {self.nonce_repeats} repeated sends dropped by their nonce; {self.too_many} "
                f"answered 429; {self.seconds:.1f} s in all")


async def killed(fake: FakeDiscord, clerk: Clerk, child: ChildBot, database: object, count: int) -> KillFigures:
    """``count`` ballots DMed at once under the global limit; the bot is killed (SIGKILL) once half the receipts have
    arrived, and started again. Every ballot gets exactly one receipt, without its player sending it again: a ballot
    recorded gets its own, one never read (it died with the process) is read back from the DM channel at start
    (play-test R3.2) and recorded then. None twice."""
    users = fake.add_users("p", count)
    channel = fake.add_channel("sirius")
    game_id = await crowd_game(clerk, fake, channel, users)
    rates = fake.limit_rates(PER_SECOND)
    await child.start()
    started = time.monotonic()
    ids = await fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await fake.wait_for(lambda: len(fake.sent) >= count // 2, f"{count // 2} receipts", timeout=count / 10 + 60)
    await child.kill()
    answered_at_kill = sum(1 for n in receipts(fake, ids).values() if n)
    recorded = await recorded_sources(database, game_id)
    assert answered_at_kill < count, "the kill landed before the last receipt"
    assert {m for m, n in receipts(fake, ids).items() if n} <= recorded, "only recorded ballots were answered"

    await child.start()  # the ballots it never read are read back from the DM channels (play-test R3.2)
    await fake.wait_for(Answered(fake, ids).all, "a receipt for every ballot", timeout=count / 10 + 60)
    unread = [mid for mid in ids if mid not in recorded]
    seconds = time.monotonic() - started
    await until(lambda: nothing_owed(child.database), "the bot's queue to owe nothing more")

    per_message = receipts(fake, ids)
    assert all(per_message[mid] == 1 for mid in ids), "each ballot has exactly one receipt"
    assert all(fake.replied([mid])[mid][0].content.startswith("I was offline or restarting") for mid in unread)
    assert await recorded_sources(database, game_id) == set(ids)
    dms: dict[int, int] = {u.id: len(fake.dms(u)) for u in users}
    assert set(dms.values()) == {1}, "every player has exactly one receipt in their DMs"
    result = await clerk.landsdraad.rounds.close_round(game_id, actor=fake.owner.id)
    voted = {u.id: choice(n) for n, u in enumerate(users)}
    assert (result.aye, result.nay, result.abstain) == await expected_tally(clerk, game_id, voted)
    return KillFigures(count, answered_at_kill, len(recorded), len(unread), fake.nonce_repeats, rates.limited,
                       seconds)


