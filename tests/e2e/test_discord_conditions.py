"""A Landsdraad round under Discord's failures (play-test R, docs/playtests/discord-conditions-2026-12-07.md): an
invalidated session, a message edited after it was sent, an interaction answered too late."""

from __future__ import annotations

from .clerkbot import Harness
from .test_ballot_buttons import ballots


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
