"""``/player remove`` (issue 16) through the real discord.py client: a moderator removes bob from a Landsdraad game
with an open round; the game channel is told in one line with the votes in play now; bob's ballot is not counted at
the close, his later DM ballot is answered that he is no longer in the game; his history stays in /log and the
export; /player add brings him back. The same shared command in a Convocate game: the seat leaves the table."""

from __future__ import annotations

from typing import Any

from .clerkbot import Harness


async def events(h: Harness, kind: str) -> list[dict[str, Any]]:
    doc = await h.clerk.exports.export(await h.game_id())
    return [e for e in doc["events"] if e["kind"] == kind]


async def test_a_removed_players_ballot_stops_counting_and_the_change_is_announced(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    gid = await h.game_id()
    alice = (await h.clerk.landsdraad.ledger.player(gid, h.alice.id)).votes
    bob = (await h.clerk.landsdraad.ledger.player(gid, h.bob.id)).votes
    assert "**Aye**" in (await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))).content
    assert "**Nay**" in (await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))).content

    refused = await h.run(h.alice, "player remove", h.game, user=h.bob)
    assert refused.first.ephemeral and "Only the moderators" in refused.first.content

    before = len(h.fake.messages(h.game))
    done = await h.run(h.mod, "player remove", h.game, user=h.bob)
    await h.settle()
    assert done.first.ephemeral, done.first.content
    assert f"Removed bob from sirius. Votes in play now {alice}." in done.first.content
    assert "Their ballot in the open round no longer counts." in done.first.content
    posted = [m.content for m in h.fake.messages(h.game)[before:]]
    line = f"**bob** has left **sirius** (removed by <@{h.mod.id}>); votes in play now {alice}."
    assert line in posted, posted
    assert not any("Nay" in m for m in posted)  # the removed ballot's choice stays secret
    told = [m.content for m in h.fake.dms(h.bob) if "removed you" in m.content]
    assert told and told[-1].startswith(f"The moderator {h.mod.name} removed you from sirius. Your ballot in the open "
                                        "round no longer counts."), told

    again = await h.run(h.mod, "player remove", h.game, user=h.bob)
    assert "bob was already removed from sirius; nothing changed." in again.first.content

    late = await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Aye"))
    assert "You are no longer in sirius: a moderator removed you" in late.content, late.content

    await h.run(h.mod, "round close", h.game)
    await h.settle()
    result = [m for m in h.fake.messages(h.game) if m.embeds and "Nay" in m.fields()]
    assert result, [m.content for m in h.fake.messages(h.game)]
    fields = result[-1].fields()
    assert fields["Nay"].startswith("0"), fields
    assert fields["Aye"].startswith(str(alice)), fields
    assert bob != 0

    removed = await events(h, "PlayerRemoved")
    assert [e["payload"]["user_id"] for e in removed] == [h.bob.id] and removed[0]["actor"] == h.mod.id
    assert removed[0]["payload"]["in_play"] == alice and removed[0]["payload"]["round_ballot"] is True
    assert [e["payload"]["option"] for e in await events(h, "BallotCast")] == ["aye", "nay"]  # history kept
    doc = await h.clerk.exports.export(gid)
    assert "bob" in str(doc["players"]) if "players" in doc else "bob" in str(doc)
    log = await h.run(h.mod, "log", h.game, player=h.bob)
    assert "PlayerRemoved" in log.first.content, log.first.content

    back = await h.run(h.mod, "player add", h.game, user=h.bob, diplomacy=2, command=3, intrigue=1, roll=1)
    assert back.first.content.startswith("Added bob to sirius"), back.first.content
    assert (await h.clerk.landsdraad.ledger.player(gid, h.bob.id)).active


async def test_a_convocate_seat_leaves_the_table_and_the_offer_to_second_moves_on(clerk_bot: Harness) -> None:
    """The shared /player remove in a Convocate game: carol is offered the second of alice's Motion when she is
    removed; the offer moves on (bob is locked out, so nobody is left) and the Motion resolves unseconded; her
    Homeworld and Quill leave the board, the channel is told the standing votes now, carol is told by DM, her late
    answer is refused, and /convocate player seats her again."""
    from .test_convocate import senate

    h = clerk_bot
    await senate(h)
    await h.run(h.alice, "motion move", h.game, name="Land Reform", convocant="Kista")
    assert "You decline" in (await h.fake.reply_to(await h.fake.dm(h.alice, "Second: no"))).content
    await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.carol) if "Will you second" in m.content], "carol's offer")
    before = len(h.fake.messages(h.game))
    done = await h.run(h.mod, "player remove", h.game, user=h.carol)
    await h.settle()
    assert done.first.ephemeral, done.first.content
    assert "Removed carol from sirius. They no longer count in the offer to second Motion #1." in done.first.content
    posted = h.fake.messages(h.game)[before:]
    line = next(m.content for m in posted if "has left" in m.content)
    assert line.startswith(f"**carol** has left **sirius** (removed by <@{h.mod.id}>); their seat leaves the table. "
                           "Their cards leave the board: Tribune, Quill."), line
    assert "Standing Vote now: alice 2, bob 3. Political control: bob." in line, line
    assert [m.embed["title"] for m in posted if m.embeds] == ["sirius: Motion #1, Land Reform, resolves"]
    told = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.carol) if "removed you" in m.content], "carol's DM")
    assert told[-1].content.startswith(f"The moderator {h.mod.name} removed you from sirius."), told[-1].content
    late = await h.fake.reply_to(await h.fake.dm(h.carol, "Second: yes"))
    assert "no longer in sirius: a moderator removed you" in late.content, late.content
    board = await h.clerk.convocate.board.board(await h.game_id())
    assert "carol" not in [p.name for p in board.board.players]

    back = await h.run(h.mod, "convocate player", h.game, user=h.carol, sovereignty="Republic")
    assert not back.first.content.startswith("That"), back.first.content
    board = await h.clerk.convocate.board.board(await h.game_id())
    assert "carol" in [p.name for p in board.board.players]
