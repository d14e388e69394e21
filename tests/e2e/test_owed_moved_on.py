"""The last messages owed after their commit (branch pt-owedlast): what a Convocate or Mylantium `/player remove`
and Mylantium's `/faction set` move on (a Motion's offer to second passed on, or its resolution; a Revolution's
next step: its news, the coup offer, Social Collapse), and the moderators' private notice of what Mylantium's
`/government set approval: since:` changes in the closed General Elections. Each killed after its commit, before
anything is owed: the next start posts each once, and a second start nothing more (the kill-window checks of
tests/e2e/test_owed_interactions.py)."""

from __future__ import annotations

from fakediscord import Channel

from .clerkbot import Harness
from .test_discord_myl_conv import also_plays, primary
from .test_owed_interactions import killed_as_it_returns, nothing_more, posted_once_at_start


async def mylantium(h: Harness, channel: Channel, name: str, vps: tuple[int, int, int]) -> None:
    """A Mylantium game ``name`` being set up in ``channel``: alice the Brass Hats, bob the Proles, carol the
    Plutocrats, with ``vps``."""
    await h.run(h.mod, "game new", channel, ruleset="mylantium", name=name)
    await h.run(h.mod, "territory add", channel, name="Avalon")
    for who, faction, party, vp in zip((h.alice, h.bob, h.carol), ("Brass Hat", "Prole", "Plutocrat"),
                                       ("Federalist", "Federalist", "Whig"), vps, strict=True):
        await h.run(h.mod, "faction register", channel, faction=faction, user=who, party=party, vp=vp, treasury=20)


async def test_what_a_removal_or_a_factions_change_moves_on_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """Each killed after its commit, before anything is owed: in #vega (the Convocate) carol, with whom the offer to
    second Land Reform is, the last asked, is removed: the Motion resolves; in #sirius (Mylantium) `/faction set`
    puts the Proles at 0 VP: a Revolution, the Brass Hats asked about a coup; in #republic (Mylantium) carol's
    Plutocrats withdraw (`/player remove`) and the VP in play fall to 9: Social Collapse. After the restart the
    resolution, the Revolution's news and the coup offer to alice, and the Social Collapse are each posted once
    (made of what the write returned, owed in its transaction: ``quietly_owed``); a second restart posts nothing
    more. Before, they were owed after the commit and the kill lost them: the Motion never resolved in the channel,
    and alice was never asked about the coup."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega")  # alice's Land Reform offered to alice, carol next
    await h.run(h.alice, "motion decline", vega)  # the offer is with carol, the last asked
    await mylantium(h, h.game, "sirius", (14, 3, 20))
    republic = h.fake.add_channel("republic")
    await mylantium(h, republic, "republic", (5, 4, 20))
    await h.settle()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player remove", vega, user=h.carol))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "faction set", h.game, faction="Prole", vp=0,
                                                       treasury=100))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player remove", republic, user=h.carol))
    moved: dict[str, tuple[Channel | None, str]] = {
        "the Motion resolved": (vega, "vega: Motion #1, Land Reform, resolves\nNobody seconded it."),
        "the Revolution's news": (h.game, "**Revolution in sirius!** The Proles have fallen to 0 VP"),
        "play suspended": (h.game, "The Brass Hats are asked whether they attempt a military coup"),
        "the coup offer to alice": (h.fake.dm_channel(h.alice), "As the Brass Hats you may attempt a **military "
                                                                "coup** first"),
        "the Social Collapse": (republic, "**Social Collapse.** The Victory Points in play have fallen to 9"),
    }
    await posted_once_at_start(h, before, moved)
    offer = next(m for m in h.fake.dms(h.alice) if "military coup" in m.content)
    assert [b["label"] for b in offer.buttons()] == ["Attempt a coup", "No coup"]
    await nothing_more(h, before, moved)


async def test_what_a_correction_of_the_approval_changes_told_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """#sirius's General Election of turn 1 closed at approval 60; `/government set approval:10 since:1` corrects
    it, and the bot is killed after its commit, before anything is owed. After the restart the moderators' private
    notice (the winner changes; a **Post erratum** button) is posted once: read in the correction's transaction and
    owed there (``clerk.followed``). Before, it was read after the commit, and the kill lost it; a second restart
    posts nothing more."""
    h = clerk_bot
    await primary(h)
    await h.run(h.mod, "election primary close", h.game)
    await h.run(h.mod, "election general open", h.game)
    await h.run(h.mod, "election general close", h.game)
    await h.settle()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "government set", h.game, approval=10, since=1))
    told: dict[str, tuple[Channel | None, str]] = {
        "the moderators' notice": (None, "The correction of the Approval Rating (-50 from turn 1) changes closed "
                                         "results of sirius"),
    }
    await posted_once_at_start(h, before, told)
    notice = next(m for m in h.fake.sent if m.id not in before and "changes closed results" in m.text())
    assert "**the winner changes**" in notice.text()
    assert [b["label"] for b in notice.buttons()] == ["Post erratum: turn 1"]
    assert h.fake.channels[notice.channel_id].name == "sirius moderators", "the moderators' private thread"
    await nothing_more(h, before, told)
