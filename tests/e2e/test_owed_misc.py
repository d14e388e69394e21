"""What is left of the messages owed after their commit (branch pt-owedmisc): the Landsdraad majority notice after a
round's close, owed in the check's own transaction and checked again at start; the Convocate's and Mylantium's
`/game import` (its line in the game channel); the set-up summary after the Convocate's `/convocate player` and
Mylantium's set-up additions. Each killed after its commit, before anything is owed: the next start posts each once,
and a second start nothing more (the kill-window checks of tests/e2e/test_owed_interactions.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest.mock import patch

from fakediscord import Attachment, Channel

from bot.actions.landsdraad import closing

from .clerkbot import Harness
from .test_discord_myl_conv import also_plays, primary
from .test_owed_interactions import killed_as_it_returns, killed_in_a_pass, nothing_more, posted_once_at_start

MAJORITY = "**Moderators: Majority Victory?** alice controls 13 of the 19 votes players control, more than half."


async def four_rounds_closed(h: Harness, channel: Channel, name: str) -> None:
    """A Landsdraad game ``name`` in ``channel`` with alice (13 votes) and bob (6), rounds 1 to 4 closed: alice
    holds a majority, which counts once round 5 is complete (R3-20)."""
    await h.run(h.mod, "game new", channel, ruleset="landsdraad", name=name)
    await h.run(h.mod, "player add", channel, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    await h.run(h.mod, "player add", channel, user=h.bob, diplomacy=2, command=3, intrigue=1, roll=1)
    for number in range(1, 5):
        await h.run(h.mod, "round open", channel, crisis=f"Measure {number}?")
        await h.run(h.mod, "round close", channel)
    await h.settle()


async def test_the_majority_a_rounds_close_makes_is_told_after_a_kill_once(clerk_bot: Harness) -> None:
    """R3-20: alice holds a majority once round 5 is complete. #sirius's round 5 closes at its deadline, the pass
    killed as it is about to deliver, after the close's commit and the majority check's: after the restart the
    result card (the announcements' recovery) and the moderators' majority notice (owed in the check's transaction)
    are posted once. Before, the notice was owed after the check's commit, and the recovery's check found the
    majority told already: it was never posted. #vega's round 5 result is held back (`disclosure: hold`; its card
    owed with the close), and the bot is killed between the close's commit and the check: the check runs at the next
    start, and the notice is posted once (before, a held close was not announced again at start, and the majority
    waited for the next edit or close). A second restart posts nothing more."""
    h = clerk_bot
    await four_rounds_closed(h, h.game, "sirius")
    await h.run(h.mod, "round open", h.game, crisis="Measure 5?", deadline="2h")
    before = {m.id for m in h.fake.sent}
    await killed_in_a_pass(h, timedelta(hours=3))
    told: dict[str, tuple[Channel | None, str]] = {
        "the card": (h.game, "sirius, round 5"),
        "the majority notice": (None, MAJORITY),
    }
    await posted_once_at_start(h, before, told)
    await nothing_more(h, before, told)

    vega = h.fake.add_channel("vega")
    await four_rounds_closed(h, vega, "vega")
    await h.run(h.mod, "game settings", vega, setting="disclosure", value="hold")
    await h.run(h.mod, "round open", vega, crisis="Measure 5?")
    await h.run(h.alice, "vote", vega, choice="aye")
    await h.run(h.bob, "vote", vega, choice="nay")
    before = {m.id for m in h.fake.sent}

    async def killed_before_the_check(*_args: Any) -> list[Any]:
        return []

    with patch.object(closing, "majority_check", killed_before_the_check):
        await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round close", vega))
    held: dict[str, tuple[Channel | None, str]] = {
        "the held card": (vega, "vega, round 5 is closed"),
        "the majority notice": (None, MAJORITY),
    }
    await posted_once_at_start(h, before, held)
    await nothing_more(h, before, held)


def summary_of(h: Harness, channel: Channel) -> str:
    """The one set-up summary message in ``channel`` (edited in place as the set-up goes)."""
    [message] = [m for m in h.fake.messages(channel) if "being set up" in m.text() or "set-up" in m.text().lower()]
    return message.text()


async def test_a_convocate_or_mylantium_import_just_before_a_kill_is_posted_after_it_once(clerk_bot: Harness) -> None:
    """`/game import` of a Convocate and of a Mylantium file, each killed after its commit, before anything is
    owed: during set-up the game channel's set-up summary (made of the board or the government page read in the
    import's transaction) reads as the import left it after the restart, one message; once play has begun, the line
    in the game channel is posted once, and a second restart posts nothing more. Before, the summary or the line
    was read and owed after the commit, and the kill lost it."""
    h = clerk_bot
    senate = h.fake.add_channel("senate")
    await h.run(h.mod, "game new", senate, ruleset="convocate", name="senate")
    data = ("record,user,name,sovereignty,order,homeworld,kind,controller,owner,vote,pallarch,at,morality,penalty,"
            f"faces,readied\nplayer,<@{h.alice.id}>,,Union,,,,,,,,,,,,\n"
            f"card,,Union Prime,,,,homeworld,<@{h.alice.id}>,,,,,,,,\n").encode()
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game import", senate,
                                                       file=Attachment("senate.csv", data)))
    assert not [m for m in h.fake.messages(senate) if "Union Prime" in m.text()], "killed before it was posted"
    await h.restart()
    await h.settle()
    assert "Union Prime" in summary_of(h, senate), "the summary as the import left it"

    vega = await also_plays(h, "convocate", "vega", moved=False)  # past its set-up
    data = ("record,user,name,sovereignty,order,homeworld,kind,controller,owner,vote,pallarch,at,morality,penalty,"
            f"faces,readied\nplayer,<@{h.bob.id}>,,Kingdom,,,,,,,,,,,,\n"
            f"card,,Korhal,,,,homeworld,<@{h.bob.id}>,,,,,,,,\n").encode()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game import", vega, file=Attachment("vega.csv", data)))
    lines: dict[str, tuple[Channel | None, str]] = {
        "the Convocate import's line": (vega, "The moderators added 1 player and 1 card to vega from a file.")}
    await posted_once_at_start(h, before, lines)
    await nothing_more(h, before, lines)

    republic = h.fake.add_channel("republic")
    await h.run(h.mod, "game new", republic, ruleset="mylantium", name="republic")
    data = ("record,faction,user,party,vp,treasury,name,territory,kind,count,charisma,maintenance,cost,status,votes,"
            f"building\nfaction,Plutocrats,<@{h.alice.id}>,Whig,3,100,,,,,,,,,,\n"
            "territory,,,,,,Avalon,,,,,,,,,\n").encode()
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game import", republic,
                                                       file=Attachment("republic.csv", data)))
    assert not [m for m in h.fake.messages(republic) if "Avalon" in m.text()], "killed before it was posted"
    await h.restart()
    await h.settle()
    assert "Avalon" in summary_of(h, republic), "the summary as the import left it"

    await primary(h)  # #sirius: Mylantium, its Primary open (past its set-up)
    data = (b"record,faction,user,party,vp,treasury,name,territory,kind,count,charisma,maintenance,cost,status,votes,"
            b"building\nterritory,,,,,,Bicardia,,,,,,,,,\n")
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game import", h.game,
                                                       file=Attachment("sirius.csv", data)))
    lines = {"the Mylantium import's line": (h.game, "The moderators added 1 territory to sirius from a file.")}
    await posted_once_at_start(h, before, lines)
    await nothing_more(h, before, lines)


async def test_a_set_up_summary_changed_by_convocate_player_or_a_mylantium_addition_is_brought_up_to_date_after_a_kill(
        clerk_bot: Harness) -> None:
    """While a game is being set up its channel has one set-up summary, edited in place. The Convocate's `/convocate
    player` and Mylantium's `/faction register`, `/territory add`, `/building add` and `/candidate add` are each
    killed after their commit, before anything is owed: after each restart the summary reads as the change left it
    (made of what the write's transaction read after it, ``clerk.followed``, and owed there) and is still one
    message. Before, it was read and owed after the commit, and the kill left it out of date until the next
    change."""
    h = clerk_bot
    vega = h.fake.add_channel("vega")
    await h.run(h.mod, "game new", vega, ruleset="convocate", name="vega")
    await h.run(h.mod, "card add", vega, kind="location", name="Corovan")
    await h.settle()
    republic = h.fake.add_channel("republic")
    await h.run(h.mod, "game new", republic, ruleset="mylantium", name="republic")
    await h.run(h.mod, "territory add", republic, name="Avalon")
    await h.settle()
    for channel, act, piece in (
            (vega, lambda: h.fake.slash(h.mod, "convocate player", vega, user=h.alice, sovereignty="Union"), "alice"),
            (republic, lambda: h.fake.slash(h.mod, "faction register", republic, faction="Plutocrat", user=h.bob,
                                            party="Whig", vp=3, treasury=10), "Plutocrats"),
            (republic, lambda: h.fake.slash(h.mod, "territory add", republic, name="Bicardia"), "Bicardia"),
            (republic, lambda: h.fake.slash(h.mod, "building add", republic, territory="Avalon", kind="port",
                                            count=2), "port"),
            (republic, lambda: h.fake.slash(h.mod, "candidate add", republic, name="Lee Adams", faction="Plutocrat",
                                            charisma=7), "Lee Adams")):
        shown = summary_of(h, channel)
        await killed_as_it_returns(h, act)
        assert summary_of(h, channel) == shown, "killed before the summary was edited"
        await h.restart()
        await h.settle()
        assert summary_of(h, channel) != shown, "brought up to date at start"
        assert piece in summary_of(h, channel)


async def test_a_convocate_or_mylantium_player_removed_just_before_a_kill_is_told_after_it_once(
        clerk_bot: Harness) -> None:
    """`/player remove` in a Convocate game (carol's seat leaves the table) and in a Mylantium game (carol's Proles
    withdraw), each killed after its commit, before anything is owed: after the restart the line in the game
    channel and the DM to the removed player are posted once (owed in the removal's transaction with what it read
    after it, ``clerk.followed``); a second restart posts nothing more. Before, they were owed after the commit and
    the kill lost them."""
    h = clerk_bot
    vega = await also_plays(h, "convocate", "vega", moved=False)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player remove", vega, user=h.carol))
    told: dict[str, tuple[Channel | None, str]] = {
        "the line in vega": (vega, "**carol** has left **vega**"),
        "the DM to carol": (h.fake.dm_channel(h.carol), "removed you from vega"),
    }
    await posted_once_at_start(h, before, told)
    await nothing_more(h, before, told)

    await primary(h)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player remove", h.game, user=h.carol))
    told = {
        "the line in sirius": (h.game, "**carol** has left **sirius**"),
        "the DM to carol": (h.fake.dm_channel(h.carol), "removed you from sirius"),
    }
    await posted_once_at_start(h, before, told)
    await nothing_more(h, before, told)
