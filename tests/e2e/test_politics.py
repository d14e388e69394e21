"""Landsdraad politics through the real discord.py client: the Adjutant General election in its thread with a
pinned tally edited in place, and a player-majority vote in a thread that passes and awaits the moderator."""

from __future__ import annotations

from datetime import timedelta

from fakediscord import Channel, Sent

from .clerkbot import Harness


async def three_players(h: Harness) -> int:
    """sirius with alice, bob and carol, round 1 open; returns the game id."""
    await h.new_game()
    await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=1, command=1, intrigue=3, roll=2)
    return await h.game_id()


def thread_named(h: Harness, name: str) -> Channel:
    thread = h.fake.thread_named(name, h.game)
    assert thread is not None, f"no thread {name!r}"
    return thread


async def kept(h: Harness, key: str) -> Sent:
    found = await h.clerk.posts.kept_message(await h.game_id(), key)
    assert found is not None, f"nothing kept under {key!r}"
    message = h.fake.message(found[1])
    assert message is not None and not message.deleted
    return message


async def answer(h: Harness, message_id: int) -> Sent:
    reply = await h.fake.reply_to(message_id)
    await h.idle()
    return reply


async def test_an_ag_election_keeps_one_pinned_tally_edited_in_place_and_closes_at_its_deadline(
        clerk_bot: Harness) -> None:
    h = clerk_bot
    gid = await three_players(h)

    opened = await h.run(h.mod, "ag open", h.game, deadline="48h")
    thread = thread_named(h, "ag-election-1")
    tally = await kept(h, "ag-tally:1")
    assert opened.first.ephemeral and "AG election #1 is open" in opened.first.content
    assert tally.channel_id == thread.id and tally.pinned and tally.edits == 0
    assert tally.embed["title"] == "sirius: Adjutant General election #1"
    assert tally.fields()["Standings"] == "no ballots yet"
    assert "`ag-election-1`" in h.fake.messages(h.game)[-1].content  # the announcement in the game channel

    first = await answer(h, await h.fake.say(h.alice, thread, "AG Vote: bob"))
    second = await answer(h, await h.fake.say(h.bob, thread, f"AG Vote: <@{h.alice.id}>"))
    by_dm = await answer(h, await h.fake.dm(h.carol, "AG Vote: Bob"))
    unknown = await answer(h, await h.fake.say(h.alice, thread, "AG Vote: zed"))

    assert (first.channel_id, second.channel_id) == (thread.id, thread.id)
    assert "alice → **bob**" in first.content and "bob → **alice**" in second.content
    assert by_dm.channel_id == h.fake.dm_channel(h.carol).id and "carol → **bob**" in by_dm.content
    assert "No player in sirius is called “zed”" in unknown.content and "Nothing was recorded" in unknown.content
    tally = await kept(h, "ag-tally:1")
    assert tally.edits == 3  # one edit per ballot, none for the refused one
    assert tally.fields()["Standings"].startswith("1. **bob**: 2 ballots")
    assert [s.id for s in h.fake.pinned(thread)] == [tally.id]
    assert [s for s in h.fake.messages(thread) if s.reference is None] == [tally]  # the rest are replies
    assert h.fake.threads_created == [thread]

    h.clock.advance(timedelta(hours=47, minutes=59))
    await h.tick()
    assert await h.clerk.landsdraad.adjutant.adjutant(gid) is None
    h.clock.advance(timedelta(minutes=1))
    await h.tick()

    assert await h.clerk.landsdraad.adjutant.adjutant(gid) == (h.bob.id, "bob")
    announced = await h.fake.wait_for(
        lambda: [s for s in h.fake.messages(h.game) if s.embeds and "Adjutant General" in s.embed["title"]],
        "the result in the game channel")
    assert [s.embed["title"] for s in announced] == ["sirius: bob is the Adjutant General"]
    tally = await kept(h, "ag-tally:1")
    assert tally.embed["title"].endswith("(closed)") and tally.fields()["Adjutant General"] == "bob"
    assert tally.edits == 4 and tally.pinned
    late = await answer(h, await h.fake.say(h.carol, thread, "AG Vote: carol"))
    assert "No Adjutant General election is open" in late.content
    assert (await kept(h, "ag-tally:1")).edits == 4


async def elect(h: Harness, who: str) -> None:
    """An AG election won by ``who`` (every player votes for them), closed by the moderator."""
    await h.run(h.mod, "ag open", h.game)
    thread = thread_named(h, "ag-election-1")
    for voter in (h.alice, h.bob, h.carol):
        await answer(h, await h.fake.say(voter, thread, f"AG Vote: {who}"))
    await h.run(h.mod, "ag close", h.game)


async def test_a_thread_vote_reaching_the_majority_awaits_the_moderator_who_enacts_it(clerk_bot: Harness) -> None:
    h = clerk_bot
    gid = await three_players(h)
    await elect(h, "carol")
    assert await h.clerk.landsdraad.adjutant.adjutant(gid) == (h.carol.id, "carol")
    passed_before = len(h.fake.messages(h.game))

    hint = await answer(h, await h.fake.say(h.alice, h.game, "Vote: No Confidence"))
    one = await answer(h, await h.fake.say(h.alice, h.thread, "Vote: No Confidence\nShe has done nothing."))
    [vote] = await h.clerk.landsdraad.majority.votes(gid)
    count = await kept(h, vote.key)
    assert "in a thread of this channel" in hint.content and "Nothing was recorded" in hint.content
    assert one.channel_id == h.thread.id and "1 of 2" in one.content
    assert count.channel_id == h.thread.id and count.embed["description"].startswith("open: 1 of the 2 needed")
    assert len(h.fake.messages(h.game)) == passed_before + 1  # only the hint: nothing announced yet

    two = await answer(h, await h.fake.say(h.bob, h.thread, "Vote: No Confidence"))

    assert "It has PASSED and awaits the moderator" in two.content
    count = await kept(h, vote.key)
    assert count.edits == 1 and count.embed["description"].startswith("PASSED: awaiting the moderator")
    assert count.fields()["Supporters (2)"] == "alice, bob"
    announcement = h.fake.messages(h.game)[-1]
    assert announcement.embed["title"] == "Player vote passed: No Confidence in carol"
    assert f"/pv enact vote:{vote.id}" in announcement.embed["description"]
    assert await h.clerk.landsdraad.adjutant.adjutant(gid) == (h.carol.id, "carol")  # nothing happens before enactment

    held = await answer(h, await h.fake.say(h.alice, h.thread, "AG Vote: bob"))  # R0-35: before the removal
    by_dm = await answer(h, await h.fake.dm(h.bob, "AG Vote: bob"))
    assert held.channel_id == h.thread.id and "holding your AG ballot for **bob**" in held.content
    assert "holding your AG ballot for **bob**" in by_dm.content

    refused = await h.run(h.alice, "pv enact", h.thread, vote=vote.id)
    assert refused.first.ephemeral and "Only the moderators of sirius" in refused.first.content
    assert await h.clerk.landsdraad.adjutant.adjutant(gid) == (h.carol.id, "carol")

    enacted = await h.run(h.mod, "pv enact", h.game, vote=vote.id)

    assert enacted.first.ephemeral and f"Enacted player vote #{vote.id}" in enacted.first.content
    assert await h.clerk.landsdraad.adjutant.adjutant(gid) is None
    count = await kept(h, vote.key)
    assert count.channel_id == h.thread.id and count.edits == 2
    assert count.embed["description"] == "enacted by the moderator"
    titles = [s.embed["title"] for s in h.fake.messages(h.game) if s.embeds]
    assert "Enacted: No Confidence in carol" in titles
    new_tally = await kept(h, "ag-tally:2")  # a new election opened at once, in its own thread
    assert new_tally.channel_id == thread_named(h, "ag-election-2").id and new_tally.pinned
    assert "after a vote of No Confidence" in new_tally.embed["description"]
    assert "alice → bob" in new_tally.text() and "bob → bob" in new_tally.text(), "the held ballots count"


async def test_thread_forms_are_read_when_the_intent_is_clear_and_an_unread_one_is_answered_in_the_thread(
        clerk_bot: Harness) -> None:
    """Issue 17: ``vote no confidence`` (no colon, lower case) is read as in a DM; a near miss and a name that is not
    the AG's are answered in the thread, saying nothing was recorded; chat that only starts with "vote" is not."""
    h = clerk_bot
    gid = await three_players(h)
    await elect(h, "carol")

    read = await answer(h, await h.fake.say(h.alice, h.thread, "vote no confidence"))
    chat = await h.fake.say(h.bob, h.thread, "vote for whoever brings snacks")
    near = await answer(h, await h.fake.say(h.bob, h.thread, "vote no confidance"))
    wrong = await answer(h, await h.fake.say(h.bob, h.thread, "Vote: No Confidence in alice"))

    assert read.channel_id == h.thread.id and "alice supports No Confidence in carol: 1 of 2" in read.content
    assert near.channel_id == wrong.channel_id == h.thread.id
    assert near.content.startswith("I couldn't read “vote no confidance”") and "“Vote: No Confidence”?" in near.content
    assert "alice is not the Adjutant General of sirius; carol is." in wrong.content
    assert near.content.endswith("Nothing was recorded.") and wrong.content.endswith("Nothing was recorded.")
    assert h.fake.replies_to(chat) == []
    [vote] = await h.clerk.landsdraad.majority.votes(gid)
    assert vote.supporters == ("alice",)
