"""Setting up a game, opening and closing rounds with slash commands, as a moderator and as a player."""

from __future__ import annotations

import json

from .clerkbot import Harness


async def test_game_new_player_add_and_round_open_by_slash_commands(clerk_bot: Harness) -> None:
    h = clerk_bot

    created = await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    added = await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3,
                        faction="House Vey")
    opened = await h.run(h.mod, "round open", h.game, crisis="Raise the fleet levy?", deadline="2h")

    assert "New Landsdraad game **sirius**" in created.first.content
    assert not created.first.ephemeral
    assert added.first.ephemeral and "Added alice to sirius: D 4 / C 2 / I 2, d3 3" in added.first.content
    assert opened.first.ephemeral and "Round 1 is open" in opened.first.content
    summary, announcement, forecast = h.fake.messages(h.game)
    assert summary.embed["title"] == "sirius: being set up"  # edited by each addition before the first round
    assert announcement.embed["title"] == "sirius: round 1 is open"
    assert forecast.embed["title"] == "sirius: Victory Point Forecast"  # R3-08, with its chart
    assert [name for name, _ in forecast.files] == ["forecast.png"]
    assert announcement.embed["description"] == "Raise the fleet levy?"
    assert announcement.fields()["Deadline"] == "<t:1772395200:F> (<t:1772395200:R>)"  # 20:00 UTC, each reader's zone

    player = await h.clerk.landsdraad.ledger.player(await h.game_id(), h.alice.id)
    assert (player.name, player.faction, player.diplomacy) == ("alice", "House Vey", 4)
    assert await h.clerk.landsdraad.rounds.pending_deadlines(
        ) == [(await h.game_id(), 1, h.clock.now().replace(hour=20))]


async def test_round_close_by_a_moderator_posts_the_result_and_no_ballots(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))
    gid = await h.game_id()
    alice, bob = (await h.clerk.landsdraad.ledger.player(
        gid, h.alice.id)).votes, (await h.clerk.landsdraad.ledger.player(gid, h.bob.id)).votes

    closed = await h.run(h.mod, "round close", h.game)

    assert closed.first.ephemeral and "Round 1 closed" in closed.first.content
    result = await h.fake.posted(h.game, 4)
    assert len(result) == 4  # the set-up summary, the opening announcement, the Forecast, then the result
    embed = result[-1]
    fields = embed.fields()
    assert alice > bob
    assert embed.embed["title"] == "sirius, round 1: the measure PASSED"
    assert fields["Aye"] == str(alice)
    assert fields["Nay"] == str(bob)
    assert fields["Abstain"] == "0"
    assert fields["Votes in play"] == str(alice + bob)
    assert fields["Needed to pass"].startswith(str((alice + bob) // 2 + 1))
    for secret in ("alice", "bob"):
        assert secret not in embed.text().lower()
    assert (await h.clerk.landsdraad.rounds.round_of(gid)).status == "closed"


async def test_round_close_by_a_player_is_refused_and_the_round_stays_open(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    refused = await h.run(h.alice, "round close", h.game)

    assert refused.first.ephemeral
    assert "Only the moderators" in refused.first.content
    assert len(h.fake.messages(h.game)) == 3  # only the set-up summary, the opening announcement and the Forecast
    assert (await h.clerk.landsdraad.rounds.round_of(await h.game_id())).status == "open"


async def test_a_moderator_role_set_on_the_game_lets_its_members_close(clerk_bot: Harness) -> None:
    h = clerk_bot
    role = await h.fake.create_role("Game Master")
    gm = h.fake.add_user("gm", roles=(role,))
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius", moderator_role=role)
    added = await h.run(gm, "player add", h.game, user=h.alice, diplomacy=1, command=1, intrigue=1, roll=1)
    await h.run(gm, "round open", h.game, crisis="Tax the guilds?")
    refused = await h.run(h.bob, "round close", h.game)
    closed = await h.run(gm, "round close", h.game)

    assert "Added alice" in added.first.content
    assert "Only the moderators of sirius" in refused.first.content
    assert "Round 1 closed" in closed.first.content


async def test_slash_vote_me_and_status_from_a_dm_and_a_thread(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()

    voted = await h.run(h.alice, "vote", None, choice="nay")
    me = await h.run(h.alice, "me", None)
    status = await h.run(h.bob, "round status", h.thread)  # in a thread of the game channel

    assert voted.first.ephemeral and "**Nay**" in voted.first.content
    assert me.first.ephemeral and me.first.embed["title"].startswith("alice in sirius:")
    fields = status.first.fields()
    assert fields["Have voted (1)"] == "alice"
    assert fields["Not yet voted (1)"] == "bob"
    assert "nay" not in status.first.text().lower()


async def test_game_export_sends_a_json_file_to_the_moderator_only(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))

    exported = await h.run(h.mod, "game export", h.game)

    assert exported.first.ephemeral
    [(name, data)] = exported.first.files
    doc = json.loads(data)
    assert name == "sirius.json"
    assert {key: doc["game"][key] for key in ("name", "ruleset", "round")} == {"name": "sirius",
                                                                             "ruleset": "landsdraad", "round": 1}
    assert [p["name"] for p in doc["players"]] == ["alice", "bob"]


async def test_a_rule_error_is_an_ephemeral_answer(clerk_bot: Harness) -> None:
    h = clerk_bot

    answer = await h.run(h.mod, "round close", h.lobby)

    assert answer.first.ephemeral
    assert "this channel has no game" in answer.first.content
