"""Issue 19's reading commands in one short Landsdraad round, through the fake Discord, as a moderator and a player
use them (one bot start): ``/round preview`` before the close, ``/why`` and ``/verify`` after it, ``/round
erratum`` with nothing to correct and after a correction, ``/why votes round:1`` after the ledger changed. Each
answer goes to its asker alone; the game channel gets only the result card and the erratum, with no ballot in
them."""

from __future__ import annotations

from .clerkbot import Harness
from .test_politics import answer


async def test_a_round_previewed_explained_verified_and_corrected(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()  # alice and bob, round 1 open
    await answer(h, await h.fake.dm(h.alice, "Vote: Aye"))
    await h.run(h.bob, "vote", h.game, choice="nay")

    preview = (await h.run(h.mod, "round preview", h.game)).first
    assert preview.ephemeral and "2 ballots counted. Only you see this" in preview.text()
    refused = (await h.run(h.bob, "round preview", h.game)).first
    assert refused.ephemeral and refused.text() == "Only the moderators of sirius can use /round preview."

    await h.run(h.mod, "round close", h.game)
    await h.settle()
    [card] = [m for m in h.fake.messages(h.game) if "round 1: the measure" in m.text()]

    mine = (await h.run(h.alice, "why", h.game, round=1)).first
    assert mine.ephemeral and "**Round 1 of sirius: the result**" in mine.content
    assert "alice: " in mine.content and "bob: " not in mine.content and "withheld" in mine.content
    everything = "\n".join(r.content for r in (await h.run(h.mod, "why", h.game, round=1)).responses)
    assert "alice: " in everything and "bob: " in everything and "withheld" not in everything
    others = (await h.run(h.alice, "why", h.game, what="votes", player=h.bob)).first
    assert others.ephemeral and "A player's votes are private" in others.content

    verified = (await h.run(h.bob, "verify", h.game, round=1)).first
    assert verified.ephemeral and "The dice of round 1 of sirius: no die was rolled" in verified.text()

    nothing = (await h.run(h.mod, "round erratum", h.game, round=1)).first
    assert nothing.ephemeral and nothing.text().startswith("Round 1 of sirius comes out as posted under the "
                                                           "corrected ledger; there is nothing to correct. (A change "
                                                           "counts from now on unless it says from when: `since:N`")
    await h.run(h.mod, "player set", h.game, user=h.bob, diplomacy=5, since=1)
    await h.run(h.mod, "round erratum", h.game, round=1)
    await h.settle()
    [erratum] = [m for m in h.fake.messages(h.game) if "rratum" in m.text() and m.id != card.id]
    assert str(card.id) in erratum.text() and "Nay: 12 (posted 6)" in erratum.text()

    # bob's Diplomacy changed after round 1 closed: /why votes round:1 still explains the 6 that close counted.
    then = "\n".join(r.content for r in (await h.run(h.mod, "why", h.game, what="votes", round=1,
                                                      player=h.bob)).responses)
    assert "bob's votes in round 1 of sirius**: 6 votes" in then and "may have changed since" in then
    assert "ledger stood at round 1's close" in then and "= 6 [" in then and "(R0-07)" in then
    own = (await h.run(h.bob, "why", h.game, what="votes", round=1)).first
    assert own.ephemeral and "6 votes" in own.content and "R0-" not in own.content
    hidden = (await h.run(h.alice, "why", h.game, what="votes", round=1, player=h.bob)).first
    assert hidden.ephemeral and "private" in hidden.content and "6 votes" not in hidden.content

    # Explain this on the Forecast card the round's opening posted (a card without a marker, kept by its id).
    [forecast] = [m for m in h.fake.messages(h.game) if "Victory Point Forecast" in m.text()]
    explained = await h.fake.answered(await h.fake.message_command(h.bob, "Explain this", forecast.id))
    asked = (await h.run(h.bob, "why", h.game, what="forecast")).first
    assert explained.ephemeral and explained.content == asked.content and "Forecast" in asked.content

    public = "\n".join(m.text() for m in h.fake.messages(h.game))
    assert "votes, all for" not in public and "Only you see this" not in public and "withheld" not in public
