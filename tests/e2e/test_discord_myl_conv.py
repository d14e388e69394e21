"""The Republic of Mylantium and the Convocate through the real bot under Discord's failures (play-test S,
docs/playtests/discord-myl-conv-2026-12-07.md): a moderators' channel the bot may no longer post in, offers to
players whose DMs are closed, a choice committed just before a kill."""

from __future__ import annotations

from typing import Any

from fakediscord import Channel, User

from .clerkbot import Harness
from .test_convocate import senate
from .test_mylantium import coup_offer


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
    """Play-test S4.5: bob's ``Primary:`` DM was committed without its receipt (a database written by an older
    version, whose receipt was owed after the commit; now it is owed in the choice's transaction: the test below).
    At start the receipt is owed and sent as a reply to the DM, once; before, bob never heard that his choice
    counted."""
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


async def killed_after_its_commit(h: Harness, user: User, text: str) -> int:
    """``user`` DMs ``text``: the bot reads it, its handler commits, and the bot is killed as the handler returns,
    before the front end owes or queues anything (``Courier.to_message``). The DM's id."""
    async def killed(*_args: Any, **_kwargs: Any) -> None:
        return None

    real = h.bot.courier.to_message
    h.bot.courier.to_message = killed  # type: ignore[method-assign]
    try:
        message_id = await h.fake.dm(user, text)
        await h.settle()
    finally:
        h.bot.courier.to_message = real  # type: ignore[method-assign]
    return message_id


async def also_plays(h: Harness, ruleset: str, name: str, *, moved: bool = True) -> Channel:
    """A second game of ``ruleset`` in a channel of its own, with alice, bob and carol: the Convocate's with
    alice's offer to second waiting (as ``senate``; without ``moved``, alice's Action Phase, no Motion moved yet), or
    Landsdraad's with round 1 open."""
    channel = h.fake.add_channel(name)
    await h.run(h.mod, "game new", channel, ruleset=ruleset, name=name)
    if ruleset == "landsdraad":
        for who in (h.alice, h.bob):
            await h.run(h.mod, "player add", channel, user=who, diplomacy=2, command=2, intrigue=1, roll=1)
        await h.run(h.mod, "round open", channel, crisis="Raise the fleet levy?")
        return channel
    for who, sov, home in ((h.alice, "Union", "Union Prime"), (h.carol, "Republic", "Tribune")):
        await h.run(h.mod, "convocate player", channel, user=who, sovereignty=sov)
        await h.run(who, "card add", channel, kind="homeworld", name=home)
    await h.run(h.alice, "card add", channel, kind="character", name="Kista", at="Union Prime", morality="Loyal")
    await h.run(h.alice, "card add", channel, kind="character", name="Dorn", at="Union Prime")
    await h.run(h.carol, "card add", channel, kind="character", name="Quill", at="Tribune", morality="Ruthless")
    await h.run(h.mod, "phase next", channel)
    await h.run(h.alice, "phase next", channel)
    if not moved:
        return channel
    await h.run(h.alice, "motion move", channel, name="Land Reform", convocant="Kista")
    await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "Will you second" in m.content],
                          "the offer to alice")
    return channel


async def test_a_dm_forms_answer_committed_just_before_a_kill_is_sent_after_it_once(clerk_bot: Harness) -> None:
    """Play-test S4.5, the part left: the bot is killed between committing a DM form and owing its answer. Each
    answer is owed in its form's own transaction (``AnswerWith``, ``engine.service.owed.owe_in``), so it is kept
    with what it answers and sent at the next start, once: Mylantium's `Coup:` (the same for `Realign:`,
    `Contribute:`, `Primary:`, `General:`), the Convocate's `Second:`, Landsdraad's `Transfer:` (and `AG Vote:`, a
    Pro tempore's query). Before, each counted and its player was never told (a resent DM was answered as a
    repeat)."""
    h = clerk_bot
    await coup_offer(h)  # #sirius: alice the Brass Hats, offered a coup
    await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform
    await also_plays(h, "landsdraad", "rigel")
    forms = {await killed_after_its_commit(h, h.alice, "Coup: no"):
             (h.alice, "Recorded: the Brass Hats let the Revolution go on."),
             await killed_after_its_commit(h, h.alice, "Second: no"):
             (h.alice, "You decline to second Motion #1 (Land Reform)."),
             await killed_after_its_commit(h, h.bob, "Transfer: 500 MS to alice"):
             (h.bob, "Recorded your transfer of 500 MS to alice in round 1 of rigel.")}
    assert all(h.fake.replies_to(m) == [] for m in forms), "killed before any answer"
    await h.restart()
    await h.settle()  # what was owed before the kill is sent from the outgoing queue at start
    answered = {said: [r.content for r in h.fake.replies_to(m) if r.channel_id == h.fake.dm_channel(who).id]
                for m, (who, said) in forms.items()}
    assert {said: [said in text for text in texts] for said, texts in answered.items()} == {
        said: [True] for said in answered}, answered
    await h.restart()
    await h.settle()
    assert [len(h.fake.replies_to(m)) for m in forms] == [1, 1, 1], "owed once, sent once"


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


async def realigning(h: Harness, name: str) -> Channel:
    """#<name> plays Mylantium, its Election Round begun (realignments open): alice the Plutocrats (Whigs, 4 votes
    from 2 ports), bob the Grangers (Whigs, 8), carol the Proles (Federalists, 12)."""
    channel = h.fake.add_channel(name)
    await h.run(h.mod, "game new", channel, ruleset="mylantium", name=name)
    await h.run(h.mod, "territory add", channel, name="Avalon")
    await h.run(h.mod, "building add", channel, territory="Avalon", kind="port", count=2)
    for who, faction, party, votes in ((h.alice, "Plutocrat", "Whig", 0), (h.bob, "Granger", "Whig", 8),
                                       (h.carol, "Prole", "Federalist", 12)):
        await h.run(h.mod, "faction register", channel, faction=faction, user=who, party=party, vp=20, treasury=10)
        if votes:
            await h.run(h.mod, "faction votes", channel, faction=faction, territory="Avalon", votes=votes)
    await h.run(h.mod, "government set", channel, president="Prole", approval=60)
    await h.run(h.mod, "election start", channel)
    return channel


async def test_what_a_dm_form_posts_elsewhere_committed_just_before_a_kill_is_posted_after_it_once(
        clerk_bot: Harness) -> None:
    """The bot is killed between committing a DM form and owing anything for it (as the test above). What the form
    posts elsewhere is owed in the form's own transaction too (``AnswerWith``), so it is posted at the next start,
    once: a realignment's public line in the game channel, a transfer's notice to the moderators, the offer to
    second passed to the next player after `Second: no` (its line in the channel and the DM to them), what a
    `Coup:` answer moves on, and an AG election's running count. Before, each was owed after the commit, and the kill
    lost it."""
    h = clerk_bot
    await coup_offer(h)  # #sirius: alice the Brass Hats, offered a coup
    vega = await also_plays(h, "convocate", "vega")  # alice offered to second Land Reform, carol next
    rigel = await also_plays(h, "landsdraad", "rigel")
    await h.run(h.mod, "ag open", rigel)
    republic = await realigning(h, "republic")
    tally = next(m for m in h.fake.sent if "rigel: Adjutant General election #1" in m.text())
    before = {m.id for m in h.fake.sent}
    for who, text in ((h.alice, "Realign: Federalist #republic"), (h.alice, "Coup: no #sirius"),
                      (h.alice, "Second: no"), (h.bob, "Transfer: 500 MS to alice"), (h.bob, "AG Vote: alice")):
        await killed_after_its_commit(h, who, text)
    carol = h.fake.dm_channel(h.carol)
    wanted = {  # where each is posted, and a piece of it
        "the realignment's public line": (republic, "The **Plutocrats** have realigned: Whig → **Federalist**."),
        "the coup answer's news": (h.game, "The Brass Hats do not attempt a coup."),
        "the requests for contributions": (carol, "sirius: the Proles' Revolution is under way."),
        "the offer's move, in the channel": (vega, "Motion #1 (Land Reform): alice declined. The offer to second is "
                                                   "now with **carol**"),
        "the offer to the next player": (carol, "vega: alice moved **Land Reform** with Kista.\nWill you second it?"),
        "the moderators' notice": (None, "📦 Transfer #1 · round 1 of rigel (by DM,"),
    }

    def posted() -> dict[str, int]:
        new = [m for m in h.fake.sent if m.id not in before and m.kind == "message"]
        return {what: sum(1 for m in new if piece in m.text() and (where is None or m.channel_id == where.id))
                for what, (where, piece) in wanted.items()}

    assert posted() == dict.fromkeys(wanted, 0), "killed before anything was sent"
    assert "bob → alice" not in tally.text()
    await h.restart()
    await h.settle()  # what was owed before the kill is sent from the outgoing queue at start
    assert {what: n for what, n in posted().items() if n != 1} == {}, "each posted once at start"
    notice = next(m for m in h.fake.sent if wanted["the moderators' notice"][1] in m.text())
    assert h.fake.channels[notice.channel_id].name == "rigel moderators"  # their private thread, nowhere public
    assert "bob → alice" in tally.text(), "the AG election's running count brought up to date"
    edits = tally.edits
    await h.restart()
    await h.settle()
    assert posted() == dict.fromkeys(wanted, 1), "owed once, posted once"
    assert tally.edits == edits
