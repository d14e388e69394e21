"""A Landsdraad round under Discord's failures (play-test R, docs/playtests/discord-conditions-2026-12-07.md): an
invalidated session, a message edited after it was sent, an interaction answered too late."""

from __future__ import annotations

from datetime import timedelta

from .clerkbot import Harness
from .test_ballot_buttons import ballots, offer_to


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
