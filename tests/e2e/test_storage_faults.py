"""A database that refuses writes, through the real discord.py client (issue 14, part 4): a DM ballot is answered
"could not record your ballot … nothing was counted … send it again in a minute", never acknowledged; the game's
moderators (its creator and the server's owner, by DM) are told once when writes start failing and once when they
work again; the next ballot after the fault clears is recorded, with no restart. The fault is injected
(tests/storage_faults.py: the driver's own "database or disk is full"); tests/service/test_storage_faults.py has the
other faults and the real ones."""

from __future__ import annotations

import logging

import pytest
from storage_faults import FaultInjector

from .clerkbot import Harness


def notices(h: Harness, user: object) -> list[str]:
    return [m.content for m in h.fake.dms(user)  # type: ignore[arg-type]
            if m.content.startswith(("⚠️ Moderators of **sirius**: I cannot save", "✅ Moderators of **sirius**"))]


async def test_a_full_disk_refuses_dm_ballots_in_plain_words_tells_the_moderators_once_and_recovers(
        clerk_bot: Harness, caplog: pytest.LogCaptureFixture) -> None:
    h = clerk_bot
    caplog.set_level(logging.WARNING, "clerk")
    await h.new_game()
    faults = FaultInjector().install(h.engine.sync_engine, *([h.clerk._twin] if h.clerk._twin else []))
    faults.arm("full")

    first = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    assert first.content == ("I could not record your ballot right now: my database is not taking writes at the "
                             "moment. Nothing was counted; please send it again in a minute.")
    [told] = await h.fake.wait_for(lambda: notices(h, h.mod), "the notice to the game's creator")
    assert told.startswith("⚠️ Moderators of **sirius**: I cannot save anything right now: the disk is full")
    assert await h.fake.wait_for(lambda: notices(h, h.fake.owner), "the notice to the server's owner") == [told]
    second = await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    assert second.content == first.content
    await h.settle()
    assert notices(h, h.mod) == [told]  # once, not once per refused ballot
    assert (await h.clerk.landsdraad.rounds.round_status(await h.game_id())).voted == ()

    faults.disarm()
    recorded = await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    assert "Ballot recorded for round 1 of sirius: **Nay**" in recorded.content
    back = await h.fake.wait_for(lambda: notices(h, h.mod)[1:], "the notice that writes work again")
    assert back[0].startswith("✅ Moderators of **sirius**: I can save again")
    assert (await h.clerk.landsdraad.rounds.round_status(await h.game_id())).voted == ("bob",)
    clerk_lines = [r for r in caplog.records if r.name.startswith("clerk")]
    assert not [r for r in clerk_lines if r.exc_info]  # no traceback in the log
    assert sum("write refused (full)" in r.getMessage() for r in clerk_lines) == 2  # one line per refused ballot
