"""Issue 19's AG erratum end to end, through the fake Discord: in a game that weighs AG ballots (``ag_weighted``)
alice (13 votes) beats bob (6); a correction of the ledger since round 1 gives bob 10 misc votes, so the recount
would elect bob. The moderators are told in their private thread, with a **Post erratum** button; a player's
press is refused; the moderator's press posts the erratum in the game channel, linking the original result card
(guild, channel and the card's own message id) and showing no voter's own votes; the office stays with alice. The
same for a corrected transfer (``/transfer correct``)."""

from __future__ import annotations

from .clerkbot import Harness
from .test_explaining_an_ag_election import weighted_election
from .test_politics import answer
from .test_transfers import PRIVATE_THREAD, posted

BUTTON = "Post erratum: AG election 1"


async def test_a_correction_that_changes_a_weighted_ag_election_posts_its_erratum_from_the_button(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    card = await weighted_election(h, "alice", "bob")  # alice 13, bob 6
    assert "alice is the Adjutant General" in card.text()

    await h.run(h.mod, "player set", h.game, user=h.bob, misc=10, since=1)
    [thread] = await h.fake.wait_for(lambda: [t for t in h.fake.threads_of(h.game) if t.type == PRIVATE_THREAD],
                                     "the moderators' private thread")
    notice = await posted(h, thread, "AG election 1: posted alice 13, bob 6")
    assert "bob 16, alice 13" in notice.content and "the winner would be bob, not alice" in notice.content
    assert h.alice.id not in thread.members and h.bob.id not in thread.members

    refused = await h.press(h.bob, notice, BUTTON)
    assert refused.first.ephemeral and "moderators" in refused.first.content
    assert not [m for m in h.fake.messages(h.game) if "erratum" in m.text()]

    await h.press(h.mod, notice, BUTTON)
    [erratum] = await h.fake.wait_for(
        lambda: [m for m in h.fake.messages(h.game) if "Adjutant General election #1: erratum" in m.text()],
        "the AG erratum")
    text = erratum.text()
    link = f"https://discord.com/channels/{h.game.guild_id}/{h.game.id}/{card.id}"
    assert f"({link})" in text and erratum.id != card.id
    assert "bob 16, alice 13" in text and "alice 13, bob 6" in text and "would have been bob" in text
    assert "misc" not in text and "6 → 16" not in text  # no voter's own votes
    status = (await h.run(h.bob, "ag status", h.game)).first.content
    assert "alice" in status  # the office stays until the moderators decide


async def test_a_transfer_corrected_after_a_weighted_ag_election_posts_its_erratum_from_the_button(
        clerk_bot: Harness) -> None:
    """bob gives alice his Elector Count Jasek (9 votes) by DM and the moderator applies it before the weighted
    election closes: alice wins. ``/transfer correct cancel:true`` (it never happened) tells the moderators privately
    that bob would have won, with the AG erratum button; the moderator's press posts the erratum."""
    h = clerk_bot
    await h.new_game()
    await h.run(h.mod, "game settings", h.game, setting="ag_weighted", value="yes")
    await h.run(h.mod, "holding add", h.game, player=h.bob, kind="elector", name="Count Jasek", tier="strong",
                votes=9)
    await h.fake.reply_to(await h.fake.dm(h.bob, "Transfer: Count Jasek to alice"))
    await h.settle()
    applied = await h.run(h.mod, "transfer apply", h.game, id=1)
    assert "applied transfer #1" in applied.first.content
    await h.run(h.mod, "ag open", h.game)
    await answer(h, await h.fake.dm(h.alice, "AG Vote: alice"))
    await answer(h, await h.fake.dm(h.bob, "AG Vote: bob"))
    await h.run(h.mod, "ag close", h.game)
    await h.settle()
    [card] = [m for m in h.fake.messages(h.game) if "is the Adjutant General" in m.text()]
    assert "alice is the Adjutant General" in card.text()

    await h.run(h.mod, "transfer correct", h.game, id=1, note="it never happened", cancel=True)
    [thread] = [t for t in h.fake.threads_of(h.game) if t.type == PRIVATE_THREAD]
    notice = await posted(h, thread, "AG election 1: posted alice 24, bob 6; under the corrected ledger bob 15, "
                                     "alice 13")
    assert "the winner would be bob, not alice" in notice.content and "alice 24 → 13, bob 6 → 15" in notice.content
    assert h.alice.id not in thread.members and h.bob.id not in thread.members
    assert not [m for m in h.fake.messages(h.game) if "erratum" in m.text() or "AG election 1" in m.text()]
    await h.press(h.mod, notice, BUTTON)
    [erratum] = await h.fake.wait_for(
        lambda: [m for m in h.fake.messages(h.game) if "Adjutant General election #1: erratum" in m.text()],
        "the AG erratum")
    text = erratum.text()
    assert f"https://discord.com/channels/{h.game.guild_id}/{h.game.id}/{card.id}" in text
    assert "bob 15, alice 13" in text and "alice 24, bob 6" in text and "would have been bob" in text
    assert "Count Jasek" not in text and "→ 13" not in text  # no voter's own votes, nor what moved them
