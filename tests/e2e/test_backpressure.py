"""Backpressure on the gateway (bot/discord/backpressure.py, issue 20): while as many messages as the intake's limit
are taken in and not yet handled, the bot reads no further gateway frame; it resumes when half are done. A burst
is then answered in full, each DM once, with never more than the limit in the process at once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord
from sqlalchemy import distinct, func, select

from bot.discord.backpressure import Intake, intake_of
from engine.store.models import Event

from .clerkbot import Harness
from .crowd import choice, crowd_game, expected_tally

PLAYERS = 60
LIMIT = 8


async def test_a_burst_waits_at_the_gateway_and_every_dm_is_answered_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", PLAYERS)
    game_id = await crowd_game(h.clerk, h.fake, h.game, users)
    intake = h.bot.intake
    intake.limit, intake.most = LIMIT, 0
    sent_before = len(h.fake.sent)

    ids = await h.fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await h.fake.wait_for(lambda: len(h.fake.sent) >= sent_before + PLAYERS, f"{PLAYERS} receipts")
    await h.settle()

    assert intake.pauses >= 1, "the reader waited for room"
    assert intake.most <= LIMIT, f"{intake.most} messages were in the process at once (limit {LIMIT})"
    assert intake.timeouts == 0 and intake.in_flight == 0
    replies = h.fake.replied(ids)
    assert all(len(r) == 1 for r in replies.values()), "every DM gets exactly one answer"
    for n, mid in enumerate(ids):
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in replies[mid][0].content
    async with h.engine.connect() as db:
        cast = (await db.execute(select(func.count(), func.count(distinct(Event.source_id)))
                                 .where(Event.game_id == game_id, Event.kind == "BallotCast"))).one()
    assert tuple(cast) == (PLAYERS, PLAYERS), "one BallotCast per message, none lost, none twice"


async def test_dms_sent_before_the_deadline_and_held_back_count_when_the_deadline_closes_the_round(
        clerk_bot: Harness) -> None:
    """P0-15 judges a ballot by when Discord got it: a burst just before the deadline, still held back at the gateway
    (or waiting its turn) when the deadline passes, is handled before the deadline closer closes the round, so each
    of those ballots counts and none is answered "Round 1 is closed" (docs/rulings.md)."""
    h = clerk_bot
    users = h.fake.add_users("p", PLAYERS)
    game_id = await crowd_game(h.clerk, h.fake, h.game, users, deadline=h.clock.now() + timedelta(hours=1))
    h.bot.intake.limit = 4
    ids = await h.fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])  # at 59 minutes to go
    h.clock.advance(timedelta(hours=1, seconds=1))
    await h.tick()  # the deadline closer's pass: it closes round 1
    result = await h.fake.wait_for(lambda: next((m for m in h.fake.messages(h.game) if "round 1: the measure" in
                                                 m.text()), None), "round 1's result")
    await h.settle()

    replies = h.fake.replied(ids)
    late = [mid for mid, r in replies.items() if not r or "Ballot recorded" not in r[0].content]
    assert late == [], f"{len(late)} ballots sent before the deadline were not counted"
    aye, nay, abstain = await expected_tally(h.clerk, game_id, {u.id: choice(n) for n, u in enumerate(users)})
    shown = result.text()
    assert f"Aye: {aye}" in shown and f"Nay: {nay}" in shown and f"Abstain: {abstain}" in shown, shown


async def test_a_redelivered_dm_held_back_is_still_counted_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", 20)
    game_id = await crowd_game(h.clerk, h.fake, h.game, users)
    h.bot.intake.limit = 4
    ids = await h.fake.dm_burst([(u, "Vote: Aye") for u in users])
    again = await h.fake.dm(users[0], "Vote: Aye", message_id=ids[0])  # Discord delivers the first one twice
    await h.settle()

    assert again == ids[0]
    async with h.engine.connect() as db:
        cast = (await db.execute(select(func.count()).where(Event.game_id == game_id,
                                                            Event.kind == "BallotCast"))).scalar_one()
    assert cast == 20
    assert all(len(r) >= 1 for r in h.fake.replied(ids).values())


async def test_the_wait_for_room_is_bounded() -> None:
    intake = Intake(limit=1, max_wait=0.01)
    intake.enter()
    assert intake.full
    assert await intake.room() is False  # a stuck bot still reads one more frame: the connection stays alive
    assert (intake.pauses, intake.timeouts) == (1, 1)


async def test_the_reader_resumes_when_half_are_handled() -> None:
    intake = Intake(limit=4)
    for _ in range(4):
        intake.enter()
    waiting = asyncio.ensure_future(intake.room())
    intake.leave()  # 3 left: still above half
    await asyncio.sleep(0)
    assert not waiting.done()
    intake.leave()  # 2: half
    assert await asyncio.wait_for(waiting, 5) is True


def test_a_client_without_an_intake_reads_as_discord_py_does() -> None:
    class Socket:
        _dispatch = discord.Client(intents=discord.Intents.none()).dispatch

    assert intake_of(Socket()) is None
    assert intake_of(object()) is None
