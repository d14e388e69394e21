"""A Landsdraad round under Discord's failures (play-test R, docs/playtests/discord-conditions-2026-12-07.md): an
invalidated session, a message edited after it was sent, an interaction answered too late, a deleted game channel
(R4.2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fakediscord import Channel, Sent, User

from bot.actions.outbox import Outgoing, ToChannel, ToThread
from bot.actions.wire import encode
from engine.service.owed import NOTICE, Owed, OwedRow

from .clerkbot import Harness
from .test_ballot_buttons import ballots, offer_to


@pytest.mark.long  # discord.py waits 5 s before identifying again: `make test-long` (CI runs it), not make test
async def test_after_an_invalidated_session_the_bot_identifies_again_and_answers(clerk_bot: Harness) -> None:
    """Discord ends the session (op 9, not resumable): discord.py clears its cache and identifies anew; a DM ballot and
    a ``/vote`` after it are answered and recorded once each."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    identifies = h.fake.identifies
    await h.fake.invalidate_session()
    await h.fake.sync()
    assert h.fake.identifies == identifies + 1 and h.fake.invalidations == 1
    receipt = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    voted = await h.run(h.bob, "vote", h.game, choice="nay")
    assert "Ballot recorded for round 1 of sirius: **Aye**" in receipt.content
    assert "Ballot recorded for round 1 of sirius: **Nay**" in voted.first.content
    assert sorted(b["payload"]["option"] for b in await ballots(h)) == ["aye", "nay"]


async def test_an_edited_dm_ballot_is_read_as_a_revote_at_the_time_of_the_edit(clerk_bot: Harness) -> None:
    """Play-test R3.1: alice edits her DM ``Vote: Aye`` to read ``Vote: Nay``. The edit is read as a new DM sent then:
    a revote, answered under her message; the same edit delivered twice counts once; an edit after the deadline is
    refused as late, and the ballot stays."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    dm = h.fake.dm_channel(h.alice)
    mid = await h.fake.dm(h.alice, "Vote: Aye")
    await h.fake.reply_to(mid)

    h.clock.advance(timedelta(minutes=5))
    await h.fake.edit(h.alice, dm, mid, "Vote: Nay")
    replies = await h.fake.wait_for(lambda: h.fake.replies_to(mid)[1:], "the answer to the edit")
    assert "Revote recorded for round 1 of sirius: **Nay** (was Aye)" in replies[0].content
    await h.fake.edit(h.alice, dm, mid, "Vote: Nay")  # Discord sends the same edit again
    await h.settle()
    cast = await ballots(h)
    assert [b["payload"]["option"] for b in cast] == ["aye", "nay"]
    assert cast[1]["at"] == "2026-03-01T18:05:00+00:00"  # judged at the time of the edit

    h.clock.advance(timedelta(hours=2))  # past the deadline (the closer has not run yet)
    await h.fake.edit(h.alice, dm, mid, "Vote: Aye")
    late = await h.fake.wait_for(lambda: [r for r in h.fake.replies_to(mid) if "too late" in r.content],
                                 "the answer to the late edit")
    assert "Your ballot (Nay) stands" in late[0].content and "Nothing was recorded" in late[0].content
    assert [b["payload"]["option"] for b in await ballots(h)] == ["aye", "nay"]


async def test_a_vote_whose_interaction_discord_no_longer_knows_is_answered_by_dm(clerk_bot: Harness) -> None:
    """Play-test R4.1: the bot's first answer comes after Discord's 3 s (refused 404 10062 Unknown interaction): the
    ballot is recorded, and the player, whom Discord told "This interaction failed", gets the receipt by DM, saying
    why; a ballot button's press the same."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    offer = await offer_to(h, h.alice)
    await h.settle()
    h.fake.interactions_expired = True

    voted = await h.fake.slash(h.bob, "vote", h.game, choice="nay")
    by_dm = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.bob) if "did not take my answer" in m.content],
                                  "bob's receipt by DM")
    assert "Ballot recorded for round 1 of sirius: **Nay**" in by_dm[0].content and not voted.acknowledged
    await h.fake.press(h.alice, offer, "Aye")
    by_dm = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "did not take my answer" in m.content],
                                  "alice's receipt by DM")
    assert "**Aye**" in by_dm[0].content
    assert by_dm[0].content.startswith("Discord did not take my answer to your button press in time")  # S5.1: not "?"
    await h.settle()
    assert sorted(b["payload"]["option"] for b in await ballots(h)) == ["aye", "nay"]


def lost_reports(h: Harness, user: User) -> list[Sent]:
    return [m for m in h.fake.dms(user) if "its game channel" in m.content and "was deleted" in m.content]


async def test_a_deleted_game_channel_is_told_once_and_the_game_moves_to_another_with_its_held_result(
        clerk_bot: Harness) -> None:
    """Play-test R4.2: #sirius is deleted mid-round. The moderators are told at once by DM (the creator and the
    server's owner), once for the channel loss however many messages it refuses; ballots by DM are still taken; the
    result card closed at the deadline is held, not dropped; a command where no game is points at /game move; the
    move (run in the new channel) is recorded, posts the held card there, and later announcements go there."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    gid = await h.game_id()
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: lost_reports(h, h.fake.owner), "the report to the server's owner")
    [report] = lost_reports(h, h.mod)  # the game's creator first
    assert "/game move game:sirius" in report.content and "ballots are recorded" in report.content
    receipt = await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    assert "Ballot recorded for round 1 of sirius: **Nay**" in receipt.content

    h.clock.advance(timedelta(hours=3))
    await h.tick()  # the round closes; its card is refused (404 10003) and held
    await h.settle()
    assert len(lost_reports(h, h.mod)) == 1 and len(lost_reports(h, h.fake.owner)) == 1  # once, not per message
    status = await h.run(h.mod, "round status", h.lobby)
    assert "The game channel of **sirius** was deleted" in status.first.content
    assert "`/game move game:sirius`" in status.first.content

    refused = await h.run(h.alice, "game move", h.lobby, game="sirius")
    assert "Only the moderators of sirius" in refused.first.content
    new = h.fake.add_channel("sirius-again")
    moved = await h.run(h.mod, "game move", new, game="Sirius")
    assert f"moved here from <#{h.game.id}> (deleted)" in moved.first.content
    assert "2 messages that could not be posted there are posted here now" in moved.first.content  # + a mods' note
    await h.settle()
    [card] = [m for m in h.fake.messages(new) if "round 1: the measure" in m.text()]
    assert "Nay" in card.text() and "Aye" in card.text()
    assert "is played in this channel from now on" in h.fake.messages(new)[-1].content
    [mods] = [t for t in h.fake.threads_of(new) if t.name == "sirius moderators"]  # its private thread, made anew
    assert h.fake.messages(mods)
    events = (await h.clerk.exports.export(gid))["events"]
    [event] = [e for e in events if e["kind"] == "GameMoved"]
    assert event["payload"] == {"from": h.game.id, "to": new.id, "deleted": True} and event["actor"] == h.mod.id
    [posted] = [e for e in events if e["kind"] == "ResultPosted"]  # the held card, posted at last
    assert posted["payload"]["message_id"] == str(card.id)

    await h.run(h.mod, "round open", new, crisis="Build the fleet?")
    await h.settle()
    assert any("Build the fleet?" in m.text() for m in h.fake.messages(new))
    assert len(lost_reports(h, h.mod)) == 1


async def test_a_channel_deleted_while_the_bot_was_down_is_told_with_the_card_it_refused_once_across_restarts(
        clerk_bot: Harness) -> None:
    """Play-test R4.2: the bot never saw CHANNEL_DELETE (it was down); the first post refused there (404 10003, the
    result card of a deadline passed meanwhile) tells the moderators, quoting it; a restart does not tell them
    again (the mark is stored)."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.stop()
    await h.fake.delete_channel(h.game)
    h.clock.advance(timedelta(hours=3))
    await h.start()  # the first pass closes the round; its card is refused
    [report] = await h.fake.wait_for(lambda: lost_reports(h, h.mod), "the moderator's report")
    assert "I could not post this there (and 1 more message):\n> **sirius, round 1: the measure" in report.content
    await h.restart()
    await h.settle()
    assert len(lost_reports(h, h.mod)) == 1
    assert await h.clerk.outbox.held_count(h.game.id) == 2  # the card and the moderators' note, kept


async def test_a_message_owed_for_the_old_channel_before_a_move_and_refused_after_it_goes_to_the_new_one(
        clerk_bot: Harness) -> None:
    """Play-test R4.2: a post owed for #sirius just before the move (the deadline's card racing /game move) is
    refused there after it: it is sent to the game's new channel, not dropped."""
    h = clerk_bot
    await h.new_game(deadline="2h")
    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: lost_reports(h, h.fake.owner), "the report")
    new = h.fake.add_channel("sirius-again")
    await h.run(h.mod, "game move", new, game="sirius")
    await h.settle()
    late = Outgoing(ToChannel(h.game.id), text="sirius: the late news")
    in_thread = Outgoing(ToThread(h.game.id, "crisis-1", await game_id_of(h, new)), text="in its thread")
    for n, (target, lane) in enumerate([(late, f"channel:{h.game.id}"), (in_thread, f"thread:{h.game.id}:crisis-1")]):
        row = OwedRow(0, Owed(lane, None, NOTICE, f"olate{n}", encode(target)))  # as the queue holds it
        outcome, _ = await h.bot.courier.deliver_owed(row)
        assert outcome == "sent"
    assert [m.content for m in h.fake.messages(new)][-1] == "sirius: the late news"
    [thread] = [t for t in h.fake.threads_of(new) if t.name == "crisis-1"]
    assert [m.content for m in h.fake.messages(thread)] == ["in its thread"]


async def game_id_of(h: Harness, channel: Channel) -> int:
    found = await h.clerk.games.game_in_channel(channel.id)
    assert found is not None
    return found.id


async def test_the_channel_of_an_ended_game_deleted_is_not_reported(clerk_bot: Harness) -> None:
    """Play-test R4.2: tidying away the channel of a game that has ended is no mistake to report."""
    h = clerk_bot
    await h.new_game()
    await h.run(h.mod, "round close", h.game)
    ended = await h.run(h.mod, "game end", h.game)
    assert (await h.clerk.games.game(await h.game_id())).ended, ended.first.text()
    await h.settle()
    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: h.bot.courier.lost.deletions == 1, "the deletion looked at")
    await h.settle()
    assert lost_reports(h, h.mod) == [] and lost_reports(h, h.fake.owner) == []
