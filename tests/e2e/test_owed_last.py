"""The last messages owed after their commit (branch pt-owedlast): what a Convocate or Mylantium `/player remove`
and Mylantium's `/faction set` move on (a Motion's offer to second passed on, or its resolution; a Revolution's
next step: its news, the coup offer, Social Collapse), and the moderators' private notice of what Mylantium's
`/government set approval: since:` changes in the closed General Elections. Each killed after its commit, before
anything is owed: the next start posts each once, and a second start nothing more (the kill-window checks of
tests/e2e/test_owed_interactions.py). And a card whose chart is drawn after its write's commit, killed before the
chart was added to its row: the next start draws it and posts the card with it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from unittest.mock import patch

from fakediscord import Channel, Interaction

from .clerkbot import Harness
from .test_convocate_erratum_link import table
from .test_discord_myl_conv import also_plays, primary
from .test_owed_interactions import killed_as_it_returns, nothing_more, posted_once_at_start

Wanted = dict[str, tuple[Channel | None, str]]


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


async def killed_before_the_chart(h: Harness, act: Callable[[], Awaitable[Interaction]]) -> None:
    """``act`` (a slash command whose card carries a chart drawn after its write) commits, its card owed without the
    chart; the bot is killed before the chart is added to the card's row (``clerk.outbox.amend``) and before anything
    is queued (``killed_as_it_returns``)."""
    async def never(*_args: Any) -> None:
        return None

    with patch.object(h.app.clerk.outbox, "amend", never):
        await killed_as_it_returns(h, act)


def files_of(h: Harness, before: set[int], wanted: Wanted) -> dict[str, list[str]]:
    """The file names of the one message, new since ``before``, that carries each of ``wanted``."""
    found = {}
    for what, (where, piece) in wanted.items():
        [message] = [m for m in h.fake.sent if m.id not in before and m.kind == "message" and piece in m.text()
                     and (where is None or m.channel_id == where.id)]
        found[what] = [name for name, _ in message.files]
    return found


async def test_a_card_whose_chart_a_kill_left_undrawn_is_posted_with_it_after_the_restart(clerk_bot: Harness) -> None:
    """A card owed with its write has its chart drawn after the commit and added to its row before it is queued; the
    bot is killed in between (`/round open`'s Forecast in #rigel, Landsdraad; `/phase business close`'s card in
    #sirius, Mylantium). At the next start, before the queue resumes, each card's chart is drawn again from what its
    game reads now, which is what the write read (the digest in the card's marker), and each card is posted once
    with its chart. Before, they were posted without it. Round 2's Forecast, killed so too, and bob's votes changed
    before the restart: what the chart is drawn from is no longer what the card says, so it is posted without it
    (as before). `/game end`'s final table, killed so too: posted with its chart. A second restart posts nothing
    more."""
    h = clerk_bot
    await primary(h)  # #sirius: Mylantium
    for step in ("election primary close", "election general open", "election general close"):
        await h.run(h.mod, step, h.game)
    rigel = h.fake.add_channel("rigel")
    await h.run(h.mod, "game new", rigel, ruleset="landsdraad", name="rigel")
    for who in (h.alice, h.bob):
        await h.run(h.mod, "player add", rigel, user=who, diplomacy=2, command=2, intrigue=1, roll=1)
    await h.settle()
    before = {m.id for m in h.fake.sent}
    await killed_before_the_chart(h, lambda: h.fake.slash(h.mod, "round open", rigel, crisis="Raise the levy?"))
    await killed_before_the_chart(h, lambda: h.fake.slash(h.mod, "phase business close", h.game))
    charted: Wanted = {
        "the Forecast": (rigel, "Forecast taken: start of round 1"),
        "the Business Phase's card": (h.game, "sirius: the Business Phase of turn 1 is closed"),
    }
    await posted_once_at_start(h, before, charted)
    assert files_of(h, before, charted) == {"the Forecast": ["forecast.png"],
                                            "the Business Phase's card": ["history.png"]}, "each with its chart"

    await h.run(h.mod, "round close", rigel)
    later = {m.id for m in h.fake.sent}
    await killed_before_the_chart(h, lambda: h.fake.slash(h.mod, "round open", rigel, crisis="Tithe?"))
    await h.run(h.mod, "player set", rigel, user=h.bob, misc=5)  # a write after the card's: its chart is not drawn
    changed: Wanted = {"round 2's Forecast": (rigel, "Forecast taken: start of round 2")}
    await posted_once_at_start(h, later, changed)
    assert files_of(h, later, changed) == {"round 2's Forecast": []}, "not a chart of another Forecast than its own"

    await h.run(h.mod, "round close", rigel)
    end = {m.id for m in h.fake.sent}
    await killed_before_the_chart(h, lambda: h.fake.slash(h.mod, "game end", rigel))
    ended: Wanted = {"the final table": (rigel, "rigel: final scores")}
    await posted_once_at_start(h, end, ended)
    assert files_of(h, end, ended) == {"the final table": ["scores.png"]}
    await nothing_more(h, before, {**charted, **changed, **ended})


async def test_a_convocate_correction_a_ruling_changed_and_an_erratum_just_before_a_kill_are_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """bob's Repeal of X resolved tied (kept) in #sirius (the Convocate). Each killed after its commit, before anything
    is owed: `/game settings repeal_count:before` (the line in the game channel; what the ruling changes, told to the
    moderators privately, read in the change's transaction), `/motion erratum` (the erratum in the game channel) and
    `/card set LB vote:2 since:1` (what the correction changes, told to the moderators privately, read in the
    correction's transaction). After the restart each is posted once (owed in its write's transaction); a second
    restart posts nothing more. Before, each was owed after its commit (the notices read after it), and the kill lost
    it; the erratum could not even be posted again ("posted already")."""
    h = clerk_bot
    await table(h)
    await h.run(h.bob, "repeal", h.game, statute="X", convocant="K_B")
    await h.settle()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game settings", h.game, setting="repeal_count",
                                                       value="before"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "motion erratum", h.game, number=1))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "card set", h.game, name="LB", vote=2, since=1))
    told: Wanted = {
        "the setting's line": (h.game, "The moderators changed the setting **repeal_count** from after to before."),
        "what the ruling changes": (None, "The change of the ruling repeal_count to before changes resolved Repeals "
                                          "of sirius"),
        "the erratum": (h.game, "sirius, Motion #1: erratum"),
        "what the correction changes": (None, "The correction of LB from turn 1 (Vote 1 → 2) changes resolved "
                                              "Repeals of sirius"),
    }
    await posted_once_at_start(h, before, told)
    notices = [m for m in h.fake.sent if m.id not in before and "changes resolved Repeals" in m.text()]
    assert {h.fake.channels[m.channel_id].name for m in notices} == {"sirius moderators"}, "privately"
    assert all([b["label"] for b in m.buttons()] == ["Post erratum: Motion #1"] for m in notices)
    await nothing_more(h, before, told)


async def test_what_a_form_entered_for_a_player_tells_them_just_before_a_kill_is_sent_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderator enters bob's `Vote: Nay` (`/cast-for`), and alice's support for ending the game (`/cast-for`
    `Vote: End Game`: the player vote's running count posted in a thread), each killed after its commit, before
    anything is owed: after the restart the DM telling each player what was entered for them, with their receipt, is
    sent once (made of the form's answer and owed in the form's transaction: ``answered_by_dm``), and the running
    count posted once; a second restart sends nothing more. Before, the DMs were owed after the commit and the kill
    lost them: the player never learnt what the moderator had entered."""
    h = clerk_bot
    await h.new_game()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "cast-for", h.game, player=h.bob, choice="Vote: Nay",
                                                       note="by email"))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "cast-for", h.game, player=h.alice,
                                                       choice="Vote: End Game"))
    told: Wanted = {
        "bob told": (h.fake.dm_channel(h.bob), "The moderator mod entered this for you in sirius: `Vote: Nay` (note: "
                                               "by email)."),
        "alice told": (h.fake.dm_channel(h.alice), "The moderator mod entered this for you in sirius: `Vote: End "
                                                   "Game`."),
        "the running count": (None, "Player vote #1: End Game"),
    }
    await posted_once_at_start(h, before, told)
    [bob] = [m for m in h.fake.dms(h.bob) if "entered this for you" in m.content]
    assert "Ballot recorded for round 1 of sirius: **Nay**" in bob.content, "their receipt, quoted"
    await nothing_more(h, before, told)
