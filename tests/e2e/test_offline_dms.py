"""DMs sent while the bot was offline (play-test R3.2): read back from each player's DM channel at start, before the
round whose deadline passed meanwhile closes; each judged by Discord's time, answered once, counted once."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from service.test_service_scaling import statements
from sqlalchemy import delete, update

from bot.discord import ClerkBot, catch_up
from bot.discord.contexts import DirectMessage
from engine.store.models import DmChannel

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


OPEN_DM = ("POST", "/api/v10/users/@me/channels")


def dms_opened(h: Harness, since: int = 0) -> int:
    """Create-DM requests the bot made (of the fake's requests, from ``since`` on)."""
    return sum(1 for method, path in h.fake.requests[since:] if (method, path) == OPEN_DM)


async def kept_channels(h: Harness) -> dict[int, int]:
    return await h.clerk.dm_channels.channels_of([h.alice.id, h.bob.id, h.carol.id])


async def forget_kept_channels(h: Harness) -> None:
    """Empty dm_channels (the bot stopped), as in a database from before it."""
    async with h.engine.begin() as connection:
        await connection.execute(delete(DmChannel))


async def test_a_restart_reads_a_kept_dm_channel_without_asking_discord_to_open_it(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    answered = await h.fake.dm(h.alice, "Vote: Aye")  # the answer's row in the outgoing queue names alice's channel
    await h.fake.reply_to(answered)
    await h.stop()
    await forget_kept_channels(h)  # only the outgoing queue knows alice's channel now; nothing knows bob's
    await h.start()  # alice's kept at start from the queue's rows; bob's asked of Discord by the catch-up, and kept
    await read_back(h)
    await h.settle()
    assert h.bot.catch_up.created == 1 and h.bot.catch_up.read_channels == 2
    await h.stop()
    assert await kept_channels(h) == {h.alice.id: h.fake.dm_channel(h.alice).id,
                                      h.bob.id: h.fake.dm_channel(h.bob).id}

    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    again = h.fake.dm_offline(h.alice, "help", at=h.clock.now() + timedelta(minutes=6))
    h.clock.advance(timedelta(minutes=10))
    before = len(h.fake.requests)
    await h.start()
    assert "Ballot recorded" in (await h.fake.reply_to(sent)).content
    assert (await h.fake.reply_to(again)).content.startswith(OFFLINE)
    await read_back(h)
    await h.settle()
    assert dms_opened(h, before) == 0  # both channels were read as kept: no create-DM at all
    assert h.bot.catch_up.created == 0 and h.bot.catch_up.read_channels == 2


async def test_a_player_whose_channel_was_never_kept_is_still_read_back_and_kept_for_the_next_start(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    await h.stop()
    await forget_kept_channels(h)
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    h.clock.advance(timedelta(minutes=10))
    before = len(h.fake.requests)
    await h.start()
    assert "Ballot recorded" in (await h.fake.reply_to(sent)).content
    await read_back(h)
    await h.settle()
    assert dms_opened(h, before) >= 2 and h.bot.catch_up.created == 2  # alice's and bob's: asked of Discord
    await h.stop()
    assert await kept_channels(h) == {h.alice.id: h.fake.dm_channel(h.alice).id,
                                      h.bob.id: h.fake.dm_channel(h.bob).id}

    before = len(h.fake.requests)
    await h.start()
    await read_back(h)
    await h.settle()
    assert h.bot.catch_up.read_channels == 2 and h.bot.catch_up.created == 0 and dms_opened(h, before) == 0


async def test_a_kept_channel_discord_no_longer_knows_is_opened_again(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    await h.stop()
    # bob never DMed the bot: his channel was kept when the courier asked Discord for it (the round's DM to him)
    assert (await kept_channels(h))[h.bob.id] == h.fake.dm_channel(h.bob).id
    async with h.engine.begin() as connection:  # bob's kept channel is one Discord does not know
        await connection.execute(update(DmChannel).where(DmChannel.user_id == h.bob.id).values(channel_id=42))
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    h.clock.advance(timedelta(minutes=10))
    await h.start()
    assert "Ballot recorded" in (await h.fake.reply_to(sent)).content
    await read_back(h)
    await h.settle()
    assert h.bot.catch_up.created == 1  # bob's, asked of Discord after the kept one was refused (404)
    await h.stop()
    assert (await kept_channels(h))[h.bob.id] == h.fake.dm_channel(h.bob).id


async def test_a_dm_ballot_writes_nothing_for_its_dm_channel(clerk_bot: Harness) -> None:
    """The channel of a player who DMs is kept at the next start, from the answer's row in the outgoing queue: no
    statement on the DM's path (a first DM of this process, and a second)."""
    h = clerk_bot
    await h.new_game()
    await h.restart()  # a new process: nobody has DMed it yet
    await read_back(h)
    await h.settle()
    twin = h.clerk._twin
    for text in ("Vote: Aye", "Revote: Nay"):
        with statements(h.engine.sync_engine, *([twin] if twin is not None else [])) as seen:
            await h.fake.reply_to(await h.fake.dm(h.alice, text))
            await h.settle()
        assert seen and not [s for s in seen if "dm_channels" in s], seen


# The race of a DM that comes on the gateway at the moment it is read back from its channel's history (a DM sent
# while the bot was becoming ready is both in the history before ``ready_at`` and delivered live): handled exactly
# once, by whichever path comes first (one answer, one ballot counted).

async def handled_once(h: Harness, message_id: int) -> str:
    await read_back(h)
    await h.settle()
    [answer] = h.fake.replies_to(message_id)
    casts = [e for e in await events(h, "BallotCast") if e["source_id"] == f"msg:{message_id}"]
    assert len(casts) == 1, casts
    assert "Ballot recorded" in answer.content, answer.content
    return answer.content


@pytest.mark.parametrize("when", ["before the page", "after the page"])
async def test_a_dm_delivered_live_while_its_channel_is_read_back_is_handled_once(clerk_bot: Harness,
                                                                                  when: str) -> None:
    h = clerk_bot
    await h.new_game()
    await h.stop()
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    h.clock.advance(timedelta(minutes=10))

    async def deliver() -> None:
        await h.fake.dm(h.bob, "Vote: Nay", message_id=sent)  # the same message, on the gateway

    async def deliver_after_the_page() -> None:
        asyncio.get_running_loop().create_task(deliver())

    h.fake.on_history[h.fake.dm_channel(h.bob).id] = deliver if when == "before the page" else deliver_after_the_page
    await h.start()
    await h.fake.wait_for(lambda: not h.fake.on_history, "bob's channel read back")
    await handled_once(h, sent)


async def test_a_dm_delivered_before_the_reading_began_and_not_yet_handled_is_not_read_back_again(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gateway delivers a DM sent before the ready between its READY and the catch-up's start, and its handling
    has not committed (nothing is owed or recorded under it yet) when its channel is read: it is not handled from the
    history too. Before, the catch-up noted live DMs only once it had started: the DM got a receipt read back and a
    second answer ("This message reached me twice") from its live handling."""
    h = clerk_bot
    await h.new_game()
    await h.stop()
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    h.clock.advance(timedelta(minutes=10))
    monkeypatch.setattr(catch_up, "QUIET_WAIT", 0.01)  # the held DM keeps the bot busy: read on without waiting
    live = ClerkBot.on_direct_message

    async def held(bot: ClerkBot, message: DirectMessage, note: str | None = None) -> None:
        if note is None and message.id == sent:  # the live one: handled once its channel has been read back
            await bot.catch_up.done.wait()
        await live(bot, message, note)

    monkeypatch.setattr(ClerkBot, "on_direct_message", held)

    async def deliver() -> None:
        await h.fake.dm(h.bob, "Vote: Nay", message_id=sent)

    h.fake.at_ready.append(deliver)
    await h.start()
    assert not (await handled_once(h, sent)).startswith(OFFLINE)  # answered by its live handling


async def test_a_dm_read_back_and_then_delivered_on_the_gateway_is_not_handled_again(clerk_bot: Harness) -> None:
    """A DM sent just before the ready may come on the gateway after its channel was read back, even once the reading
    has ended: it was handled, it is dropped."""
    h = clerk_bot
    await h.new_game()
    await h.stop()
    sent = h.fake.dm_offline(h.bob, "Vote: Nay", at=h.clock.now() + timedelta(minutes=5))
    h.clock.advance(timedelta(minutes=10))
    await h.start()
    await read_back(h)
    await h.fake.dm(h.bob, "Vote: Nay", message_id=sent)  # late, on the gateway
    assert (await handled_once(h, sent)).startswith(OFFLINE)
