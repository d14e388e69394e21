"""Bulk set-up through the real discord.py client and the fake Discord (issue 16): ``/game import file`` with a
real attachment upload. Discord sends the attachment in the interaction's ``resolved.attachments``; the bot
downloads it from its URL (the fake serves it on 127.0.0.1), checks it as a whole and writes it in one go."""

from __future__ import annotations

from fakediscord import Attachment, Interaction

from .clerkbot import Harness


def texts(interaction: Interaction) -> str:
    return "\n".join(r.content for r in interaction.responses)


async def test_a_file_attached_to_game_import_sets_the_game_up(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    bad = (f"record,user,diplomacy,command,intrigue,roll,player,kind,name,quality\n"
           f"player,<@{h.alice.id}>,3,2,1,9,,,,\n"
           f"holding,,,,,,<@{h.alice.id}>,planet,Deneb,\n").encode()
    refused = await h.run(h.mod, "game import", h.game, file=Attachment("sirius.csv", bad))
    assert refused.responses[0].ephemeral
    assert "Nothing was imported from sirius.csv: 2 problems." in texts(refused)
    assert "line 2 (player): `roll` must be a whole number from 1 to 3, not “9”." in texts(refused)
    assert ("line 3 (holding): a planet needs its `quality` (poor, average or rich); a Homeworld needs none."
            in texts(refused))
    assert await h.clerk.landsdraad.ledger.players(await h.game_id()) == []

    good = (f"record,user,diplomacy,command,intrigue,roll,player,kind,name,quality\n"
            f"player,<@{h.alice.id}>,3,2,1,2,,,,\n"
            f"player,{h.bob.id},2,3,2,1,,,,\n"
            f"holding,,,,,,<@{h.bob.id}>,planet,Deneb,rich\n").encode()
    done = await h.run(h.mod, "game import", h.game, file=Attachment("sirius.csv", good))
    assert "Imported sirius.csv into sirius: 2 players and 1 holding." in texts(done)
    assert len(h.fake.downloads) == 2  # the bot fetched each upload from its URL
    players = {p.user_id: p for p in await h.clerk.landsdraad.ledger.players(await h.game_id())}
    assert set(players) == {h.alice.id, h.bob.id}
    assert players[h.alice.id].name == "alice" and players[h.bob.id].name == "bob"  # names from the server
    assert [x.name for x in players[h.bob.id].holdings] == ["Deneb"]
    await h.fake.wait_for(lambda: [m for m in h.fake.messages(h.game) if "set up sirius from a file" in m.content],
                          "the announcement")

    not_mod = await h.run(h.alice, "game import", h.game, file=Attachment("sirius.csv", good))
    assert "Only the moderators of sirius can use /game import." in texts(not_mod)


async def test_a_file_too_big_is_refused_before_it_is_downloaded(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    big = await h.run(h.mod, "game import", h.game, file=Attachment("big.csv", b"record\n" + b"#" * 300_000))
    assert "a file for Clerk may have at most 256 KB" in texts(big)
    assert h.fake.downloads == []


async def test_a_mylantium_file_sets_the_republic_up(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="republic")
    header = "record,faction,user,party,vp,name,territory,kind,count,charisma\n"
    bad = (header + f"faction,Wizards,<@{h.alice.id}>,Whig,3,,,,,\n"
           "building,,,,,,Avalon,port,0,\n").encode()
    refused = await h.run(h.mod, "game import", h.game, file=Attachment("republic.csv", bad))
    assert "Nothing was imported from republic.csv: 2 problems." in texts(refused)
    assert "line 2 (faction): `faction` must be a Faction:" in texts(refused)
    assert "line 3 (building): `count` must be a whole number, at least 1, not “0”." in texts(refused)
    assert (await h.clerk.mylantium.government(await h.game_id())).factions == ()

    good = (header + f"faction,Plutocrats,<@{h.alice.id}>,Whig,3,,,,,\n"
            f"faction,GR,{h.bob.id},federalist,,,,,,\n"
            "territory,,,,,Avalon,,,,\n"
            "building,,,,,,Avalon,port,2,\n"
            "candidate,PL,,,,Hamilton,,,,7\n").encode()
    done = await h.run(h.mod, "game import", h.game, file=Attachment("republic.csv", good))
    assert ("Imported republic.csv into republic: 2 Factions, 1 territory, 1 building line, 1 Candidate."
            in texts(done))
    v = await h.clerk.mylantium.government(await h.game_id())
    assert [(f.code.name, f.player, f.national) for f in v.factions] == [("PL", "alice", 4), ("GR", "bob", 0)]
    assert [c.name for c in v.candidates] == ["Hamilton"]


async def test_a_convocate_file_seats_the_table(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="convocate", name="senate")
    header = "record,user,sovereignty,homeworld,kind,name,controller,vote\n"
    good = (header + f"player,<@{h.alice.id}>,Union,Union Prime,,,,\n"
            f"player,<@{h.bob.id}>,Kingdom,,,,,\n"
            f"card,,,,homeworld,Union Prime,<@{h.alice.id}>,\n"
            f"card,,,,location,Ironhold,<@{h.bob.id}>,2\n").encode()
    done = await h.run(h.mod, "game import", h.game, file=Attachment("senate.csv", good))
    assert "Imported senate.csv into senate: 2 players and 2 cards." in texts(done)
    view = await h.clerk.convocate.board.board(await h.game_id())
    assert [(s.player, s.homeworld, s.vote.total) for s in view.standings] == [("alice", "Union Prime", 1),
                                                                              ("bob", None, 2)]
    again = await h.run(h.mod, "game import", h.game, file=Attachment("senate.csv", good))
    assert "line 2 (player): alice is already at the table; change them with /convocate player." in texts(again)


async def test_an_id_that_is_no_member_of_the_server_is_refused_with_its_line(clerk_bot: Harness) -> None:
    """Play-test I1.4: a player must be a member of the server. The bot asks Discord for the member by id (a REST
    call that needs no members intent); an id Discord has no member for (someone elsewhere on Discord, or nobody)
    and an id too short to be anyone's are each named with their line, and nobody is added."""
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    stranger = h.fake.add_user("stranger", member=False)
    bad = ("record,user,diplomacy,command,intrigue,roll\n"
           f"player,<@{h.alice.id}>,3,2,1,2\n"
           f"player,<@{stranger.id}>,3,2,1,2\n"
           "player,<@12345>,3,2,1,2\n"
           f"player,{h.alice.id + 1000},3,2,1,2\n").encode()
    refused = await h.run(h.mod, "game import", h.game, file=Attachment("sirius.csv", bad))
    text = texts(refused)
    assert "Nothing was imported from sirius.csv: 3 problems." in text
    assert f"line 3 (player): <@{stranger.id}> is no member of this server; a player must be one." in text
    assert "line 4 (player): <@12345> cannot be a Discord user: a Discord id has 17 to 20 digits." in text
    assert f"line 5 (player): {h.alice.id + 1000} is no member of this server" in text
    assert await h.clerk.landsdraad.ledger.players(await h.game_id()) == []
