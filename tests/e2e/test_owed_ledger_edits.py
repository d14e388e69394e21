"""Landsdraad's moderator commands that edit the ledger, the round or the prestige owe what they post in the
transaction of their write (``AnswerWith``; the ledger's edits with what follows them, ``clerk.landsdraad.edits``):
the bot killed between that commit and the front end owing anything loses none of it; the next start posts each once
(docs/reliability.md). Kept messages (the set-up summary, a round's opening card) are edited then."""

from __future__ import annotations

from functools import partial

from fakediscord import Attachment, Channel, Sent

from .clerkbot import Harness
from .test_owed_interactions import killed_as_it_returns, nothing_more, posted_once_at_start


async def test_what_the_ledgers_edits_post_during_set_up_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """During set-up the moderator's `/player add`, `/holding add`, `/holding remove`, `/player set` and `/player
    remove` each edit the set-up summary; each killed after its commit, before anything is owed: after the restart
    the summary shows the change (and `/player remove` DMs carol once; in set-up the channel is not told, play-test
    Y2); a second restart posts nothing more. Before, the summary was read and owed after the commit and the kill
    lost its edit (the next change brought it up to date), and lost the removal's line and DM."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=2, command=2, intrigue=1, roll=1)
    await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=2, command=2, intrigue=1, roll=1)
    summary = h.fake.messages(h.game)[-1]
    assert "being set up" in summary.text() and "bob" not in summary.text()

    async def edited_after_restart(act: partial[object], piece: str, *,
                                   wanted: dict[str, tuple[Channel | None, str]] | None = None) -> None:
        """``act`` killed after its commit: the summary is as it was, and nothing of ``wanted`` was sent; after
        the restart the summary shows ``piece``, and each of ``wanted`` is posted once."""
        before, ids = summary.text(), {m.id for m in h.fake.sent}
        await killed_as_it_returns(h, act)  # type: ignore[arg-type]
        assert summary.text() == before, "killed before the summary was edited"
        await posted_once_at_start(h, ids, wanted or {})
        assert piece in summary.text(), summary.text()
        await nothing_more(h, ids, wanted or {})

    await edited_after_restart(partial(h.fake.slash, h.mod, "player add", h.game, user=h.bob, diplomacy=2,
                                       command=3, intrigue=1, roll=1), "bob")
    await edited_after_restart(partial(h.fake.slash, h.mod, "holding add", h.game, player=h.bob, kind="planet",
                                       name="Deneb", quality="rich"), "1 planet")
    await edited_after_restart(partial(h.fake.slash, h.mod, "holding remove", h.game, player=h.bob, name="Deneb"),
                               "Holdings recorded: none yet")
    await edited_after_restart(partial(h.fake.slash, h.mod, "player set", h.game, user=h.alice, active=False),
                               "alice (inactive)")
    await edited_after_restart(partial(h.fake.slash, h.mod, "player remove", h.game, user=h.carol),
                               "Players (2)", wanted={  # removed in set-up: off the summary, nothing posted (Y1, Y2)
                                   "the removal, to carol": (h.fake.dm_channel(h.carol),
                                                             "The moderator mod removed you from sirius.")})


async def round_two(h: Harness) -> None:
    """#sirius: alice (D 3), bob and carol (D 2), bob holding the rich planet Lankiveil; round 1 open."""
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=3, command=2, intrigue=2, roll=1)
    for who in (h.bob, h.carol):
        await h.run(h.mod, "player add", h.game, user=who, diplomacy=2, command=2, intrigue=2, roll=1)
    await h.run(h.mod, "holding add", h.game, player=h.bob, kind="planet", name="Lankiveil", quality="rich")
    await h.run(h.mod, "round open", h.game, crisis="Spice quotas")


async def test_what_a_transfers_commands_and_a_correction_post_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """The moderators' `/transfer record` (their notice, with its Apply button), `/transfer apply` (their line and
    each player's DM), and after round 1 has closed `/transfer correct` (the correction's notice and what it
    changes in round 1's result, with the **Post erratum** button), `/player set … since:1` and `/holding add …
    since:1` (what each correction changes), each killed after its commit, before anything is owed. After each
    restart each is posted once; a second restart posts nothing more. Before, each was owed after its commit (what a
    correction changes read after it) and the kill lost it."""
    h = clerk_bot
    await round_two(h)
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "transfer record", h.game, sender=h.bob, to=h.alice,
                                                       what="Planet Lankiveil"))
    recorded: dict[str, tuple[Channel | None, str]] = {
        "the moderators' notice": (None, "📦 Transfer #1 · round 1 of sirius (recorded by mod"),
    }
    await posted_once_at_start(h, before, recorded)
    notice = next(m for m in h.fake.sent if m.id not in before and "📦 Transfer #1" in m.text())
    assert [b["label"] for b in notice.buttons()] == ["Apply: Lankiveil to alice"]
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "transfer apply", h.game, id=1))
    applied: dict[str, tuple[Channel | None, str]] = {
        "the moderators' line": (None, "✅ mod applied transfer #1"),
        "to bob": (h.fake.dm_channel(h.bob), "The moderators applied your transfer #1 in sirius"),
        "to alice": (h.fake.dm_channel(h.alice), "The moderators applied bob's transfer #1 in sirius"),
    }
    await posted_once_at_start(h, before, applied)
    for who, choice in ((h.alice, "aye"), (h.bob, "nay"), (h.carol, "nay")):
        await h.run(who, "vote", h.game, choice=choice)
    await h.run(h.mod, "round close", h.game)
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "transfer correct", h.game, id=1,
                                                       note="bob meant carol", to=h.carol))
    corrected: dict[str, tuple[Channel | None, str]] = {
        "the correction's notice": (None, "✏️ Transfer #2 corrects #1 (by mod)"),
        "what it changes": (None, "Transfer #2 (correcting #1) changes closed results of sirius"),
    }
    await posted_once_at_start(h, before, corrected)
    changes = next(m for m in h.fake.sent if m.id not in before and "changes closed results" in m.text())
    assert [b["label"] for b in changes.buttons()] == ["Post erratum: round 1"]
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player set", h.game, user=h.alice, misc=20, since=1))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "holding add", h.game, player=h.carol,
                                                       kind="elector", name="Count Jasek", tier="strong", votes=30,
                                                       since=1))
    edits: dict[str, tuple[Channel | None, str]] = {
        "what the /player set changes": (None, "The correction of alice (misc 20 from round 1) changes closed"),
        "what the /holding add changes": (None, "The correction of carol (Count Jasek added from round 1) changes"),
    }
    await posted_once_at_start(h, before, edits)
    await nothing_more(h, before, {**recorded, **applied, **corrected, **edits})


def opening_card(h: Harness, number: int) -> Sent:
    return next(m for m in h.fake.messages(h.game) if f"sirius: round {number} is open" in m.text())


async def test_what_a_running_rounds_commands_post_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """In round 1, each killed after its commit, before anything is owed: `/faction add` and `/faction remove`
    (the round's opening card edited to show the faction, then to leave it out), `/round auctions-closed` (each
    perk DMed to its holder), `/prestige award … announce:true` (the DM to alice, the line in the channel), and a
    player vote judged again by `/player set … active:false` (the vote's passed card) and `/player remove` (the
    channel's line, the DM to the player removed). After each restart each is posted once (the card edited); a
    second restart posts nothing more. Before, each was owed after its commit and the kill lost it."""
    h = clerk_bot
    dave = h.fake.add_user("dave")
    await h.new_game()  # alice and bob, round 1 open
    for who in (h.carol, dave):
        await h.run(h.mod, "player add", h.game, user=who, diplomacy=1, command=1, intrigue=1, roll=1)
    for who in (h.alice, h.bob):
        await h.run(who, "pv support", h.game, subject="End Game")  # 2 of the 3 needed of 4 active players
    card = opening_card(h, 1)
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "faction add", h.game, name="Hawks", votes=3,
                                                       stance="aye"))
    assert "Hawks" not in card.text(), "killed before the card was edited"
    await h.restart()
    await h.settle()
    assert "Hawks" in card.text()
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "faction remove", h.game, name="Hawks"))
    await h.restart()
    await h.settle()
    assert "Hawks" not in card.text()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "round auctions-closed", h.game))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "prestige award", h.game, player=h.alice, vp=5,
                                                       reason="Bloodiest Ambush", announce=True))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player set", h.game, user=dave, active=False))
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "player remove", h.game, user=h.carol))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the Pro tempore perk, to alice": (h.fake.dm_channel(h.alice), "**Chancellor Pro tempore**, round 1 of "
                                                                       "sirius"),
        "the prestige, to alice": (h.fake.dm_channel(h.alice), "You receive 5 prestige VP in sirius"),
        "the prestige, in the channel": (h.game, "**Prestige:** alice receives 5 VP: Bloodiest Ambush."),
        "the vote passed": (h.game, "Player vote passed: End Game"),
        "the removal, in the channel": (h.game, "**carol** has left **sirius**"),
        "the removal, to carol": (h.fake.dm_channel(h.carol), "The moderator mod removed you from sirius."),
    }
    await posted_once_at_start(h, before, wanted)
    await nothing_more(h, before, wanted)


async def test_a_games_import_committed_just_before_a_kill_is_announced_after_it_once(clerk_bot: Harness) -> None:
    """`/game import` of a Landsdraad file during set-up, killed after its commit, before anything is owed: after
    the restart the game channel's line (its words and count read in the import's transaction) is posted once; a
    second restart posts nothing more. Before, it was owed after the commit (the players read after it) and the
    kill lost it."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    data = (f"record,user,diplomacy,command,intrigue,roll,player,kind,name,quality\n"
            f"player,<@{h.alice.id}>,3,2,1,2,,,,\n"
            f"player,{h.bob.id},2,3,2,1,,,,\n"
            f"holding,,,,,,<@{h.bob.id}>,planet,Deneb,rich\n").encode()
    before = {m.id for m in h.fake.sent}
    await killed_as_it_returns(h, lambda: h.fake.slash(h.mod, "game import", h.game,
                                                       file=Attachment("sirius.csv", data)))
    wanted: dict[str, tuple[Channel | None, str]] = {
        "the import's line": (h.game, "The moderators set up sirius from a file: 2 players and 1 holding. 2 players "
                                      "in all."),
    }
    await posted_once_at_start(h, before, wanted)
    await nothing_more(h, before, wanted)
