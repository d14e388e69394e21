"""DMs sent while the bot was offline (play-test R3.2): read back from each player's DM channel at start, before the
round whose deadline passed meanwhile closes; each judged by Discord's time, answered once, counted once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from .clerkbot import Harness

OFFLINE = "I was offline or restarting when you sent this"


async def events(h: Harness, kind: str) -> list[dict[str, Any]]:
    doc = await h.clerk.exports.export(await h.game_id())
    return [e for e in doc["events"] if e["kind"] == kind]


async def read_back(h: Harness) -> None:
    await h.fake.wait_for(lambda: h.bot.catch_up.done.is_set(), "the DMs sent while the bot was down read back")


async def test_dms_sent_while_the_bot_was_down_are_handled_at_start_by_their_time_and_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    opened = h.clock.now()
    answered = await h.fake.dm(h.alice, "Vote: Aye")  # answered before the stop: not answered again
    await h.fake.reply_to(answered)
    await h.stop()

    in_time = h.fake.dm_offline(h.bob, "Vote: Nay", at=opened + timedelta(hours=1))
    asked = h.fake.dm_offline(h.bob, "help", at=opened + timedelta(hours=1, minutes=10))
    late = h.fake.dm_offline(h.alice, "Vote: Nay", at=opened + timedelta(hours=2, minutes=30))
    h.clock.advance(timedelta(hours=3))
    await h.start()  # the round's deadline passed while the bot was down: it closes at start

    receipt = await h.fake.reply_to(in_time)
    assert receipt.content.startswith(OFFLINE) and "Ballot recorded for round 1 of sirius: **Nay**" in receipt.content
    # the deadline has passed since: the receipt says the round closes with it, not "change it until then"
    assert "it has passed since you sent this, and the round closes with this counted" in receipt.content
    assert "Revote" not in receipt.content
    refusal = await h.fake.reply_to(late)
    assert refusal.content.startswith(OFFLINE) and "Nothing was recorded" in refusal.content
    assert (await h.fake.reply_to(asked)).content.startswith(OFFLINE)  # any DM: answered as a live one would be
    [closed] = await events(h, "RoundClosed")
    weights = closed["payload"]["result"]
    assert weights["nay"] > 0 and weights["aye"] > 0, weights  # bob's Nay, sent in time, counts; alice's Aye stands
    casts = await events(h, "BallotCast")
    assert [e["source_id"] for e in casts] == [f"msg:{answered}", f"msg:{in_time}"]

    await h.restart()  # read back again: nothing new is handled or answered
    await read_back(h)
    await h.restart()
    await read_back(h)
    await h.settle()
    assert [len(h.fake.replies_to(m)) for m in (answered, in_time, asked, late)] == [1, 1, 1, 1]
    assert len(await events(h, "BallotCast")) == 2
    assert len(await events(h, "RoundClosed")) == 1


async def test_a_ballot_dmed_while_down_into_a_round_still_open_is_read_back_in_the_background(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.stop()
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=30))
    h.clock.advance(timedelta(hours=1))
    await h.start()  # nothing is due: the first pass does not wait for it

    receipt = await h.fake.reply_to(sent)
    assert receipt.content.startswith(OFFLINE) and "Ballot recorded for round 1 of sirius: **Nay**" in receipt.content
    # read in the background: its requests in the global budget's spare time, none holding a live receipt up
    assert h.bot.pacer.spare_starts > 0
    live = await h.fake.dm(h.alice, "Vote: Aye")  # sent after the start: answered as ever, without the note
    assert not (await h.fake.reply_to(live)).content.startswith(OFFLINE)
    await read_back(h)
    h.clock.advance(timedelta(hours=2))
    await h.tick()
    [closed] = await events(h, "RoundClosed")
    assert (closed["payload"]["result"]["aye"], closed["payload"]["result"]["nay"]) == (13, 6)
