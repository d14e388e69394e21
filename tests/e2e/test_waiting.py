"""How the end-to-end tests wait (docs/reliability.md, "How the tests wait"): for the bot's own signals, never for a
stretch of wall time, so a machine busy with other work makes them slower, not red."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import fakediscord.server
import pytest

import bot.discord.client

from .clerkbot import Harness


async def test_settle_returns_after_the_bot_has_answered_every_event_already_sent(clerk_bot: Harness) -> None:
    """``settle`` waits for the bot to have *read* what the fake sent (the heartbeat barrier), not only for the
    handlers already running: right after the DMs are written to the gateway there are none yet."""
    h = clerk_bot
    await h.new_game()
    ids = [await h.fake.dm(user, "Vote: Aye") for user in (h.alice, h.bob)]
    ids += await h.fake.dm_burst([(h.alice, "Vote: Nay"), (h.bob, "Vote: Abstain")])

    await h.settle()

    assert [len(replies) for replies in h.fake.replied(ids).values()] == [1, 1, 1, 1]


async def test_sync_waits_for_a_bot_that_reads_the_gateway_late(clerk_bot: Harness,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The barrier holds however late the bot reads: here every frame waits 0.2 s before discord.py reads it."""
    h = clerk_bot
    await h.new_game()
    socket = h.bot.ws
    read = socket.received_message

    async def slowly(msg: Any, /) -> None:
        await asyncio.sleep(0.2)
        await read(msg)

    monkeypatch.setattr(socket, "received_message", slowly)
    mid = await h.fake.dm(h.alice, "Vote: Aye")

    await h.settle()

    assert len(h.fake.replies_to(mid)) == 1


async def test_the_fake_counts_the_3_s_of_an_interaction_in_cpu_seconds_not_wall_seconds(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Discord wants the first answer within 3 s. A busy machine stretches wall time whatever the bot does, so the
    fake also counts the CPU time of the test's process (where the bot runs): a handler that waits without working is
    in time however long it waits (below the hang ceiling); one that keeps the CPU busy past the deadline is refused.
    The deadline is cut to 0.5 s here to keep the test short."""
    h = clerk_bot
    await h.new_game()
    monkeypatch.setattr(fakediscord.server, "INTERACTION_DEADLINE", 0.5)
    real = bot.discord.client.dispatch

    async def waits(*args: Any) -> Any:
        await asyncio.sleep(0.75)  # past the deadline in wall time, no CPU: as a loaded machine looks
        return await real(*args)

    monkeypatch.setattr(bot.discord.client, "dispatch", waits)
    answer = await h.run(h.alice, "me", None)
    assert answer.first.embed["title"].startswith("alice in sirius")

    async def works(*args: Any) -> Any:
        busy_until = time.process_time() + 0.75  # past the deadline in CPU time, the event loop blocked
        while time.process_time() < busy_until:
            pass
        return await real(*args)

    monkeypatch.setattr(bot.discord.client, "dispatch", works)
    late = await h.fake.slash(h.alice, "me", None)
    await h.settle()
    assert not late.acknowledged and late.responses == []
    assert any("Discord no longer knew interaction" in r.getMessage() for r in caplog.records)
    # the answer Discord refused goes by DM (play-test R4.1)
    assert any("did not take my answer to your /me" in m.content for m in h.fake.dms(h.alice))
