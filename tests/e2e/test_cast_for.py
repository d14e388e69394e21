"""``/cast-for``: a moderator enters a ballot a player sent another way, through the real discord.py client. The
choice is read by the player's own forms; the moderator's receipt is ephemeral, the player is told by DM, nothing
public shows a crisis ballot, and the log names the moderator as the actor with ``proxy: true``."""

from __future__ import annotations

import json
import re
from typing import Any

from .clerkbot import Harness


async def events(h: Harness, kind: str) -> list[dict[str, Any]]:
    doc = await h.clerk.exports.export(await h.game_id())
    return [e for e in doc["events"] if e["kind"] == kind]


async def test_a_crisis_ballot_and_an_ag_vote_entered_for_a_player(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    before = len(h.fake.messages(h.game))
    refused = await h.run(h.alice, "cast-for", h.game, player=h.bob, choice="Vote: Nay")
    assert refused.first.ephemeral and "Only the moderators" in refused.first.content

    done = await h.run(h.mod, "cast-for", h.game, player=h.bob, choice="Vote: Nay", note="by email")
    await h.settle()
    assert done.first.ephemeral
    assert done.first.content.startswith("Entered for **bob** in sirius (`Vote: Nay`, note: by email). bob is told:\n"
                                         "> Ballot recorded")  # bob's receipt, quoted: its "your" is bob's (T5.10)
    told = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.bob) if "entered this for you" in m.content],
                                 "bob's DM")
    assert "The moderator" in told[0].content and "`Vote: Nay`" in told[0].content and "by email" in told[0].content
    assert not any("Nay" in m.content or "bob" in m.content for m in h.fake.messages(h.game)[before:])

    closed = await h.run(h.mod, "round close", h.game)
    await h.settle()
    result = [m for m in h.fake.messages(h.game) if m.embeds and "Nay" in m.fields()]
    assert result and result[-1].fields()["Nay"] != "0", closed.first.content

    cast = (await events(h, "BallotCast"))[-1]
    assert cast["actor"] == h.mod.id and cast["payload"]["user_id"] == h.bob.id
    assert cast["payload"]["proxy"] is True and cast["payload"]["proxy_for"] == h.bob.id
    assert cast["payload"]["note"] == "by email"

    log = await h.run(h.mod, "log", h.game, player=h.bob)
    assert f"**{h.mod.name}** BallotCast: entered for bob (by email): bob voted nay in round 1" in log.first.content

    not_player = await h.run(h.mod, "cast-for", h.game, player=h.carol, choice="Vote: Aye")
    assert "carol is not a player in sirius" in not_player.first.content
    unread = await h.run(h.mod, "cast-for", h.game, player=h.bob, choice="Vote: maybe")
    assert "Aye" in unread.first.content and unread.first.ephemeral  # the crisis ballot's own refusal
    late = await h.run(h.mod, "cast-for", h.game, player=h.bob, choice="Vote: Aye")
    # the round is closed: refused as the player's own DM would be
    assert re.search(r"Round 1 of \w+ is closed.*; ballots are no longer accepted", late.first.content)

    await h.run(h.mod, "ag open", h.game)
    ag = await h.run(h.mod, "cast-for", h.game, player=h.alice, choice="AG Vote: bob")
    await h.settle()
    assert ag.first.ephemeral and "Entered for **alice**" in ag.first.content
    vote = (await events(h, "AgBallotCast"))[-1]
    assert vote["actor"] == h.mod.id and vote["payload"]["proxy"] is True and vote["payload"]["proxy_for"] == h.alice.id
    status = await h.run(h.alice, "ag status", h.game)
    assert "bob" in json.dumps(status.first.embed)


async def test_a_mylantium_primary_choice_entered_for_a_player(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    for who, faction, party in ((h.alice, "Plutocrat", "Whig"), (h.bob, "Prole", "Federalist")):
        await h.run(h.mod, "faction register", h.game, faction=faction, user=who, party=party, vp=20, treasury=10)
    await h.run(h.mod, "candidate add", h.game, name="Lee Adams", faction="Plutocrat", charisma=7)
    await h.run(h.mod, "candidate add", h.game, name="Kit Marlow", faction="Prole", charisma=5)
    await h.run(h.mod, "election start", h.game)
    await h.run(h.mod, "election primary open", h.game, deadline="24h")

    done = await h.run(h.mod, "cast-for", h.game, player=h.alice, choice="Primary: Lee Adams", note="by phone")
    await h.settle()
    assert done.first.ephemeral and done.first.content.startswith("Entered for **alice** in sirius")
    assert "Lee Adams" in done.first.content
    await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "entered this for you" in m.content
                                   and "Primary: Lee Adams" in m.content], "alice's DM")
    choice = (await events(h, "ChoiceMade"))[-1]
    assert choice["actor"] == h.mod.id and choice["payload"]["proxy"] is True
    assert choice["payload"]["proxy_for"] == h.alice.id and choice["payload"]["note"] == "by phone"

    wrong = await h.run(h.mod, "cast-for", h.game, player=h.bob, choice="Primary: Nobody Known")
    assert wrong.first.ephemeral and "Entered for" not in wrong.first.content
    landsdraad = await h.run(h.mod, "cast-for", h.game, player=h.bob, choice="Vote: Kit Marlow")  # another's form
    assert "did you mean `Primary: Kit Marlow`?" in landsdraad.first.content, landsdraad.first.content
    assert "Aye, Nay or Abstain" not in landsdraad.first.content
    assert len(await events(h, "ChoiceMade")) == 1


async def test_a_convocate_second_entered_for_a_player(clerk_bot: Harness) -> None:
    from .test_convocate import senate

    h = clerk_bot
    await senate(h)
    mid = await h.fake.say(h.alice, h.game, "Motion: Land Reform by Kista\nMoved: Draw a card.\nMorality: Loyal")
    await h.fake.reply_to(mid)
    await h.idle()
    await h.fake.wait_for(lambda: h.fake.dms(h.alice), "the offer to alice")
    declined = await h.run(h.mod, "cast-for", h.game, player=h.alice, choice="Second: no")
    await h.settle()
    assert declined.first.ephemeral and "You decline to second Motion #1" in declined.first.content
    await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.carol) if "Will you second it?" in m.content],
                          "the offer passed on to carol")
    seconded = await h.run(h.mod, "cast-for", h.game, player=h.carol, choice="Second: yes")
    await h.settle()
    assert "You second Motion #1 (Land Reform) with Quill." in seconded.first.content
    assert h.fake.messages(h.game)[-1].embed["title"] == "sirius: Motion #1, Land Reform, resolves"
    entered = [e for e in (await h.clerk.exports.export(await h.game_id()))["events"] if e["payload"].get("proxy")]
    assert {e["payload"]["proxy_for"] for e in entered} == {h.alice.id, h.carol.id}
    assert all(e["actor"] == h.mod.id for e in entered)
