"""The DMs sent while the bot, still running, had no gateway session (play-test V6.1): Discord does not send a new
session the DMs of the gap, as it does not send a new process those of its downtime; they are read back from the DM
channels once the new session begins, as at start (tests/e2e/test_offline_dms.py). A RESUME reads nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from .clerkbot import Harness
from .test_offline_dms import OFFLINE, events, read_back


@pytest.mark.long  # discord.py waits 5 s before identifying again: `make test-long` (CI runs it), not make test
async def test_dms_sent_while_the_gateway_session_was_lost_are_read_back_once_a_new_session_begins(
        clerk_bot: Harness) -> None:
    """Play-test V6.1: the bot kept running, but its gateway session was lost past what Discord resumes (an outage,
    the host's network down for a while, an INVALIDATE_SESSION); Discord does not send the new session the DMs of the
    gap, and they were read back only at a start: alice's ballot got no answer and the round closed without it."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    answered = await h.fake.dm(h.bob, "Vote: Nay")  # answered before the gap: not answered again
    await h.fake.reply_to(answered)
    h.clock.advance(timedelta(minutes=10))
    gap = h.fake.dm_offline(h.alice, "Vote: Aye")  # sent while the bot had no session: never delivered
    reads = h.fake.history_reads
    h.clock.advance(timedelta(minutes=10))

    await h.fake.invalidate_session()  # a new session (IDENTIFY, READY), not a RESUME

    receipt = await h.fake.reply_to(gap)
    assert receipt.content.startswith(OFFLINE) and "Ballot recorded for round 1 of sirius: **Aye**" in receipt.content
    await read_back(h)
    live = await h.fake.dm(h.bob, "Revote: Aye")  # after the new session: on the gateway, answered once
    await h.fake.reply_to(live)
    h.clock.advance(timedelta(hours=3))
    await h.tick()
    await h.settle()
    assert [len(h.fake.replies_to(m)) for m in (answered, gap, live)] == [1, 1, 1]
    assert [e["source_id"] for e in await events(h, "BallotCast")] == [f"msg:{answered}", f"msg:{gap}", f"msg:{live}"]
    [closed] = await events(h, "RoundClosed")
    assert closed["payload"]["result"]["nay"] == 0 < closed["payload"]["result"]["aye"]  # alice's Aye, bob's revote
    assert h.fake.history_reads > reads


async def test_a_resumed_session_reads_nothing_back(clerk_bot: Harness) -> None:
    """A RESUME gets the gap's events from Discord: no history is read for it."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await read_back(h)
    reads = h.fake.history_reads

    await h.fake.reconnect()  # op 7: discord.py resumes
    await h.fake.wait_for(lambda: h.fake.resumes, "the bot to resume")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.settle()

    assert h.fake.history_reads == reads


async def test_a_deadline_that_passes_while_the_session_is_lost_closes_once_it_is_back_with_the_gaps_ballots(
        clerk_bot: Harness) -> None:
    """The rest of play-test V6.1: the deadline passed while the gateway session was lost, and the scheduler, still
    running, closed the round at once, without the ballot alice DMed in the gap (read back only later, and refused as
    too late). Now nothing is closed while the session is lost; once a new one begins, the gap's DMs are read back
    first, and the close counts alice's Aye, sent before the deadline."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    back = asyncio.Event()

    async def identify_when_back(shard_id: int | None, *, initial: bool = False) -> None:
        await back.wait()  # Discord (or the host's network) away: no new session until the test says

    h.bot.before_identify_hook = identify_when_back  # type: ignore[method-assign]
    lost = asyncio.create_task(h.fake.invalidate_session())
    await h.fake.wait_for(lambda: not h.bot.in_session.is_set(), "the bot to lose its session")
    h.clock.advance(timedelta(minutes=30))
    gap = h.fake.dm_offline(h.alice, "Vote: Aye")  # before the deadline, never delivered on the gateway
    h.clock.advance(timedelta(hours=2))  # the deadline passes while the session is lost
    held = h.bot.held_passes
    h.app.deadlines_changed()
    await h.fake.wait_for(lambda: h.bot.held_passes > held, "a scheduler pass to wait for the session")
    assert await events(h, "RoundClosed") == []

    back.set()
    await lost  # identified again: a new session
    await h.fake.wait_for(lambda: h.bot.scheduler.passes > 1 and not h.bot.scheduler._in_pass, "the held pass")
    await read_back(h)
    await h.settle()
    receipt = await h.fake.reply_to(gap)
    assert receipt.content.startswith(OFFLINE) and "Ballot recorded for round 1 of sirius: **Aye**" in receipt.content
    [closed] = await events(h, "RoundClosed")
    assert (closed["payload"]["result"]["aye"], closed["payload"]["result"]["nay"]) == (13, 6)  # alice's 13, bob's 6
