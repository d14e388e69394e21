"""The Republic of Mylantium and the Convocate through the real bot under Discord's failures (play-test S,
docs/playtests/discord-myl-conv-2026-12-07.md): a moderators' channel the bot may no longer post in, offers to
players whose DMs are closed, a choice committed just before a kill."""

from __future__ import annotations

from .clerkbot import Harness
from .test_convocate import senate


async def primary(h: Harness) -> None:
    """#sirius plays Mylantium: alice the Plutocrats (4 votes from 2 ports), bob the Grangers (8), both Whigs,
    carol the Proles (12, Federalist); the Primary of turn 1 open, and each has chosen by DM."""
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    await h.run(h.mod, "territory add", h.game, name="Avalon")
    await h.run(h.mod, "building add", h.game, territory="Avalon", kind="port", count=2)
    for who, faction, party, votes in ((h.alice, "Plutocrat", "Whig", 0), (h.bob, "Granger", "Whig", 8),
                                       (h.carol, "Prole", "Federalist", 12)):
        await h.run(h.mod, "faction register", h.game, faction=faction, user=who, party=party, vp=20, treasury=10)
        if votes:
            await h.run(h.mod, "faction votes", h.game, faction=faction, territory="Avalon", votes=votes)
    await h.run(h.mod, "candidate add", h.game, name="Lee Adams", faction="Plutocrat", charisma=7)
    await h.run(h.mod, "candidate add", h.game, name="Ann Oakes", faction="Granger", charisma=3)
    await h.run(h.mod, "candidate add", h.game, name="Kit Marlow", faction="Prole", charisma=5)
    await h.run(h.mod, "government set", h.game, president="Prole", approval=60)
    await h.run(h.mod, "election start", h.game)
    await h.run(h.mod, "election primary open", h.game, deadline="3h")
    for who, text in ((h.alice, "Primary: Lee Adams"), (h.bob, "Primary: Lee Adams"), (h.carol, "Primary: Kit")):
        await h.fake.reply_to(await h.fake.dm(who, text))


async def test_what_a_refused_moderators_channel_was_to_get_goes_to_the_moderators_by_dm(clerk_bot: Harness) -> None:
    """Play-test S4.1: the moderators chose #mods for what only they may read, and the bot has lost Send Messages
    there. The Primary's close gives away what the Plutocrats and Grangers chose (a warning for the moderators
    only): it reaches the moderator by DM, with why, the first time; nothing of it is posted anywhere else. Before,
    it was refused 403 and dropped with a line in the log, and nobody was told."""
    h = clerk_bot
    mods = h.fake.add_channel("mods")
    await primary(h)
    await h.run(h.mod, "game settings", h.game, moderator_channel=mods)
    h.fake.refuse_posts(mods)
    await h.run(h.mod, "election primary close", h.game)
    warned = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.mod) if "give away" in m.content],
                                   "the disclosure warning by DM")
    why = [m.content for m in h.fake.dms(h.mod) if "could not post in your moderators' channel" in m.content]
    assert len(why) == 1 and f"<#{mods.id}>" in why[0]
    assert "the Plutocrats (Lee Adams), the Grangers (Lee Adams)" in warned[0].content
    await h.settle()
    elsewhere = [m for m in h.fake.sent if m.channel_id != h.fake.dm_channel(h.mod).id and "Lee Adams)" in m.text()]
    assert elsewhere == []  # the secret choices are nowhere but the moderator's DMs
    assert not h.fake.messages(mods)


async def test_an_offer_to_a_player_whose_dms_are_closed_is_made_in_the_game_channel(clerk_bot: Harness) -> None:
    """Play-test S4.4: carol's DMs are closed to the bot. Asked to second alice's Motion, she is told in the game
    channel (the offer is public, rules-spec 4.2.9) with her Convocants and how to answer without a DM, and she
    seconds with ``/motion second``; before, the DM was refused, the channel said only that the offer was with her,
    and it passed on "did not answer in time". The Brass Hats' player asked about a coup, DMs closed, is told in
    their game's channel the same way (the offer is announced there already)."""
    h = clerk_bot
    await senate(h)
    h.carol.accepts_dms = False
    await h.run(h.alice, "motion move", h.game, name="Land Reform", convocant="Kista")
    await h.run(h.alice, "motion decline", h.game)
    told = await h.fake.wait_for(lambda: [m for m in h.fake.messages(h.game) if "I cannot DM you" in m.content],
                                 "the offer in the channel")
    assert told[0].content.startswith("**carol**: I cannot DM you the offer to second Motion #1 (Land Reform)")
    assert "Your Convocants with access: Quill." in told[0].content and "`/motion second`" in told[0].content
    seconded = await h.run(h.carol, "motion second", h.game)
    assert "You second Motion #1 (Land Reform) with Quill." in seconded.first.content

    republic = h.fake.add_channel("republic")
    await h.run(h.mod, "game new", republic, ruleset="mylantium", name="republic")
    for who, faction, party, vp in ((h.alice, "Prole", "Federalist", 3), (h.carol, "Brass Hat", "Federalist", 14)):
        await h.run(h.mod, "faction register", republic, faction=faction, user=who, party=party, vp=vp, treasury=20)
    await h.run(h.mod, "faction set", republic, faction="Prole", vp=0, treasury=100)
    coup = await h.fake.wait_for(lambda: [m for m in h.fake.messages(republic) if "coup offer" in m.content],
                                 "the coup offer in the channel")
    assert coup[0].content.startswith(f"<@{h.carol.id}> (the Brass Hats): I cannot DM you the coup offer")
    assert not h.fake.dms(h.carol)


async def test_a_choice_committed_but_never_owed_a_receipt_gets_it_at_start_once(clerk_bot: Harness) -> None:
    """Play-test S4.5: the bot is killed between committing bob's ``Primary:`` DM and owing its receipt (a Mylantium
    choice's receipt is owed after its commit, not in its transaction as a Landsdraad ballot's). At start the
    receipt is owed and sent as a reply to the DM, once; before, bob never heard that his choice counted."""
    h = clerk_bot
    await primary(h)
    message_id = h.fake.ids.next()  # bob's DM, which the bot read, committed and died with
    await h.clerk.mylantium.elections.choose(await h.game_id(), user_id=h.bob.id, stage="primary", choice="Ann Oakes",
                                             at=h.clock.now(), source_id=f"msg:{message_id}")
    assert h.fake.replies_to(message_id) == []
    await h.restart()
    reply = await h.fake.reply_to(message_id)
    assert reply.content.startswith("Recorded for the Grangers in the Primary of sirius: **Ann Oakes** (was Lee "
                                    "Adams). Your 8 Faction Votes go to it")
    assert reply.channel_id == h.fake.dm_channel(h.bob).id
    await h.restart()
    await h.idle()
    assert len(h.fake.replies_to(message_id)) == 1, "owed once, sent once"


async def test_a_player_who_left_the_server_is_reported_so_not_as_having_closed_dms(clerk_bot: Harness) -> None:
    """Play-test S5.2: dave, the Rednecks' player, has left the server (Discord refuses a DM to him, 403 50007, and
    tells the bot nothing: it has no members intent). The moderators are told he is no member any more, from a member
    lookup, not that his DMs are closed; carol, a member with closed DMs, is told as before."""
    h = clerk_bot
    dave = h.fake.add_user("dave")
    await primary(h)
    await h.run(h.mod, "faction register", h.game, faction="Redneck", user=dave, party="Whig", vp=20, treasury=10)
    h.fake.outsiders.add(dave.id)
    dave.accepts_dms = h.carol.accepts_dms = False
    await h.run(h.mod, "election remind", h.game)  # dave has not chosen: his reminder is refused
    await h.fake.dm(h.carol, "help")  # carol's answer is refused too
    def warnings() -> list[str]:
        return [m.content for m in h.fake.messages(h.game) if "⚠️ Moderators" in m.content]

    await h.fake.wait_for(lambda: len(warnings()) >= 2, "both warnings")
    warned = warnings()
    assert any(w.startswith("⚠️ Moderators: **dave** is no longer a member of this server") for w in warned)
    assert any(w.startswith("⚠️ Moderators: I cannot send direct messages to **carol**") for w in warned)
    assert not any("**dave** (their DMs are closed" in w for w in warned)
