"""Reminders beyond the crisis round, through the fake Discord: a Mylantium Primary (the players whose Faction has
not chosen) and an AG election that closes with the round (no deadline of its own: reminded at the round's
instants). Each goes once (also across a restart) and only to those who have not voted; the moderator's
/election remind and /round remind send them at once, and the status commands list who has not voted."""

from __future__ import annotations

from datetime import timedelta

from fakediscord import User

from . import test_politics as politics
from .clerkbot import Harness


def reminders(h: Harness, user: User) -> list[str]:
    return [m.content for m in h.fake.dms(user) if m.content.startswith("Reminder:")]


async def test_a_mylantium_primary_reminds_the_factions_that_have_not_chosen(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    for who, faction, party in ((h.alice, "Plutocrat", "Whig"), (h.bob, "Granger", "Whig"),
                                (h.carol, "Prole", "Federalist")):
        await h.run(h.mod, "faction register", h.game, faction=faction, user=who, party=party, vp=20, treasury=10)
    await h.run(h.mod, "candidate add", h.game, name="Lee Adams", faction="Plutocrat", charisma=7)
    await h.run(h.mod, "election start", h.game)
    await h.run(h.mod, "election primary open", h.game, deadline="3h")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Primary: Lee Adams"))

    refused = await h.run(h.alice, "election remind", h.game)
    now = await h.run(h.mod, "election remind", h.game)
    status = await h.run(h.mod, "election status", h.game)
    # 21:00 UTC, on Discord "in 3 hours", "in 2 hours" ... in each reader's client (engine/core/stamps.py)
    text = ("Reminder: The Primary of turn 1 of sirius closes <t:1772398800:R>; your Faction has not chosen: DM me "
            "`Primary: <Candidate>`.")
    assert refused.first.ephemeral and "Only the moderators" in refused.first.content
    assert now.first.ephemeral and now.first.content == "Reminded for the Primary of turn 1: bob, carol."
    assert status.first.fields()["Waiting for"] == "Grangers, Proles"
    await h.fake.wait_for(lambda: reminders(h, h.carol), "carol's reminder")
    assert reminders(h, h.bob) == reminders(h, h.carol) == [text]

    await h.fake.reply_to(await h.fake.dm(h.bob, "Primary: Lee Adams"))
    h.clock.advance(timedelta(hours=1))  # 2 h before the deadline (24 h before was before the opening)
    await h.tick()
    await h.fake.wait_for(lambda: reminders(h, h.carol)[1:], "carol's 2 h reminder")
    await h.restart()
    await h.tick()
    await h.settle()

    assert reminders(h, h.carol) == [text, text]
    assert reminders(h, h.bob) == [text]  # bob has chosen since
    assert reminders(h, h.alice) == []


async def test_an_ag_election_closing_with_the_round_is_reminded_at_the_rounds_instants(clerk_bot: Harness) -> None:
    h = clerk_bot
    gid = await politics.three_players(h)  # round 1 open, no deadline
    await h.run(h.mod, "ag open", h.game)  # carol is elected with her own ballot
    await h.fake.reply_to(await h.fake.dm(h.carol, "AG Vote: carol"))
    await h.run(h.mod, "ag close", h.game)
    for voter in (h.alice, h.bob):
        await politics.answer(h, await h.fake.say(voter, h.thread, "Vote: No Confidence"))
    [vote] = await h.clerk.landsdraad.majority.votes(gid)
    await h.run(h.mod, "pv enact", h.game, vote=vote.id)  # AG election 2 closes with round 1: no deadline of its own
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.reply_to(await h.fake.dm(h.bob, "AG Vote: alice"))
    await h.run(h.mod, "round extend", h.game, to="3h")  # the round (and so the election) closes at 21:00

    status = await h.run(h.alice, "ag status", h.game)
    assert status.first.fields()["Closes"] == "at the end of round 1"
    assert status.first.fields()["Not yet voted (2)"] == "alice, carol"

    h.clock.advance(timedelta(minutes=59))
    await h.tick()
    assert reminders(h, h.carol) == []
    h.clock.advance(timedelta(minutes=1))  # 2 h before the round's deadline
    await h.tick()
    await h.fake.wait_for(lambda: reminders(h, h.carol)[1:], "carol's two reminders")
    await h.tick()  # a later pass sends nothing again
    await h.settle()

    ag = ("Reminder: The Adjutant General election 2 of sirius (it closes with round 1) closes <t:1772398800:R>; "
          "you have not voted: DM me `AG Vote: <Name>`.")
    crisis = "Reminder: Round 1 of sirius closes <t:1772398800:R>; you have not voted: DM me `Vote: Aye|Nay|Abstain`."
    assert sorted(reminders(h, h.carol)) == sorted([crisis, ag])
    assert reminders(h, h.bob) == [crisis]  # bob has an AG ballot
    assert reminders(h, h.alice) == [ag]  # alice has a crisis ballot

    h.clock.advance(timedelta(minutes=30))
    reminded = await h.run(h.mod, "round remind", h.game)
    assert reminded.first.content == ("Reminded for round 1: bob, carol. Reminded for AG election 2: alice, carol.")
    await h.fake.wait_for(lambda: reminders(h, h.alice)[1:], "alice's reminder at /round remind")
    assert reminders(h, h.alice)[1] == ag
