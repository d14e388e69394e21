"""Backpressure on the gateway (bot/discord/backpressure.py, issue 20): while as many messages as the intake's limit
are taken in and not yet handled, the bot reads no further gateway frame; it resumes when half are done. A burst
is then answered in full, each DM once, with never more than the limit in the process at once."""

from __future__ import annotations

import asyncio

import discord
from sqlalchemy import distinct, func, select

from bot.discord.backpressure import Intake, intake_of
from engine.store.models import Event

from .clerkbot import Harness
from .crowd import choice, crowd_game

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
