"""``dm_channels``: each user's DM channel, kept once known (engine/service/dm_channels.py), so the catch-up of the DMs
sent while the bot was offline reads it without a create-DM request (bot/discord/catch_up.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.owed import NOTICE, RECEIPT, Owed
from engine.store.models import DmChannel


async def kept(db_engine: AsyncEngine) -> dict[int, int]:
    async with db_engine.connect() as connection:
        return {u: c for u, c in await connection.execute(select(DmChannel.user_id, DmChannel.channel_id))}


def owed(lane: str, channel: int | None, nonce: str, source: str | None = None) -> Owed:
    return Owed(lane, channel, RECEIPT if source else NOTICE, nonce, {"text": "hi"}, source_id=source)


async def test_a_start_keeps_the_dm_channel_of_every_user_the_queue_answered_or_dmed(
        clerk: Clerk, clock: ManualClock, db_engine: AsyncEngine) -> None:
    big = 1_234_567_890_123_456_789  # Discord's ids are 64-bit
    rows = await clerk.outbox.owe([
        owed(f"user:{big}", 9_000_000_000_000_000_001, "n1", "msg:1"),  # an answer to a DM: its channel
        owed("user:22", 2200, "n2", "msg:2"),
        owed("user:22", 2200, "n3"),  # the same user again
        owed("user:33", None, "n4"),  # a DM whose channel was not known when owed: nothing to keep
        owed("channel:44", 44, "n5"),  # a game channel: no user's
        owed("thread:44:crisis", 45, "n6"),
    ])
    for row in rows[:2]:
        assert row is not None
        await clerk.outbox.settle(row.id, "sent")
    await clerk.dm_channels.written()
    clock.advance(timedelta(days=3))

    await clerk.outbox.forget_delivered(clock.now() - timedelta(days=2))  # the rows it forgets are kept first
    assert await kept(db_engine) == {big: 9_000_000_000_000_000_001, 22: 2200}
    assert await clerk.dm_channels.channels_of([big, 22, 33, 44]) == {big: 9_000_000_000_000_000_001, 22: 2200}

    await clerk.outbox.owe([owed("user:22", 2299, "n7")])  # a user kept already is left as kept
    await clerk.outbox.forget_delivered(clock.now() - timedelta(days=2))
    assert (await kept(db_engine))[22] == 2200


async def test_a_channel_learnt_from_a_create_dm_is_kept_and_replaces_an_older_one(
        clerk: Clerk, db_engine: AsyncEngine) -> None:
    clerk.dm_channels.learnt(5, 500)
    clerk.dm_channels.learnt(6, 600)
    assert await clerk.dm_channels.channels_of([5, 6, 7]) == {5: 500, 6: 600}  # known before it is written
    await clerk.dm_channels.written()
    assert await kept(db_engine) == {5: 500, 6: 600}

    clerk.dm_channels.learnt(5, 501)  # Discord no longer knew 500: the create-DM's answer replaces it
    clerk.dm_channels.learnt(6, 600)  # the same again: nothing changes
    await clerk.dm_channels.written()
    assert await kept(db_engine) == {5: 501, 6: 600}


async def test_reading_many_users_at_once(clerk: Clerk) -> None:
    for user in range(1, 1_001):
        clerk.dm_channels.learnt(user, 10_000 + user)
    await clerk.dm_channels.written()
    found: dict[Any, Any] = await clerk.dm_channels.channels_of(range(1, 1_201))
    assert len(found) == 1_000 and found[1_000] == 11_000
