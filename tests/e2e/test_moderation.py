"""Issue 7's moderation commands through the real discord.py client and the fake Discord: /help in a channel of
each ruleset's game and by DM, /log (paged, filtered, moderators only), /game list, /game moderators with a role,
and /game export whose CSV answer carries two files (every attachment must reach Discord, ephemeral)."""

from __future__ import annotations

import csv
import io
import json

from fakediscord import Interaction

from .clerkbot import Harness


def texts(interaction: Interaction) -> str:
    return "\n".join(r.text() for r in interaction.responses)


async def test_help_names_each_rulesets_dm_forms_and_commands(clerk_bot: Harness) -> None:
    """/help is ONE private answer (issue 17), an embed within Discord's limits: the DM forms first, then the
    thread forms, the commands everyone has, and the moderators' commands by group."""
    h = clerk_bot
    await h.new_game()
    republic, assembly = h.fake.add_channel("republic"), h.fake.add_channel("assembly")
    await h.run(h.mod, "game new", republic, ruleset="mylantium", name="republic")
    await h.run(h.mod, "game new", assembly, ruleset="convocate", name="assembly")

    landsdraad = await h.run(h.alice, "help", h.game)
    mylantium = await h.run(h.alice, "help", republic)
    convocate = await h.run(h.alice, "help", assembly)
    nowhere = await h.run(h.alice, "help", h.lobby)

    for answer in (landsdraad, mylantium, convocate):
        assert len(answer.responses) == 1 and answer.responses[0].ephemeral
        embed = answer.responses[0].embed
        size = len(embed["title"]) + len(embed["description"]) + len(embed.get("footer", {}).get("text", "")) + sum(
            len(f["name"]) + len(f["value"]) for f in embed["fields"])
        assert size <= 6000 and all(len(f["value"]) <= 1024 for f in embed["fields"])
    assert nowhere.responses and all(r.ephemeral for r in nowhere.responses)
    text = texts(landsdraad)
    assert text.startswith("Clerk in #sirius (Landsdraad)")
    assert text.index("`Vote: Aye`") < text.index("`Vote: No Confidence`") < text.index("`/vote [choice] [game]`")
    assert "`/round` open · close" in text and "/election" not in text
    assert texts(mylantium).startswith("Clerk in #republic (Mylantium)")
    assert "`Primary: <Candidate>`" in texts(mylantium) and "`/election` start" in texts(mylantium)
    assert "`Vote: Aye`" not in texts(mylantium) and "/round" not in texts(mylantium)
    assert texts(convocate).startswith("Clerk in #assembly (Convocate)")
    assert "`Second: <Convocant>`" in texts(convocate) and "/round" not in texts(convocate)
    for answer in (landsdraad, mylantium, convocate):
        assert "`/help [command]`" in texts(answer) and "`/log`" in texts(answer)
    assert "This channel has no game" in texts(nowhere)
    one = await h.run(h.alice, "help", h.game, command="round open")
    assert one.responses[0].ephemeral and "`crisis` (required): the crisis text" in texts(one)

    await h.fake.dm(h.alice, "help")  # alice plays in sirius only: its DM forms, and a pointer to /help
    dm = await h.fake.wait_for(lambda: [m for m in h.fake.dms(h.alice) if "Clerk in #sirius" in m.text()], "help")
    assert "`Vote: Aye`" in dm[0].text() and "Primary:" not in dm[0].text()
    assert "`/help` in the game channel also lists the slash commands" in dm[0].text()


async def test_log_game_list_moderator_role_and_csv_export(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game()  # 4 events: the game, two players, round 1
    for choice in ("Aye", "Nay") * 6:  # 12 ballots: 16 events, two pages
        await h.fake.reply_to(await h.fake.dm(h.alice, f"Vote: {choice}"))
    await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay"))

    refused = await h.run(h.alice, "log", h.game)
    first = await h.run(h.mod, "log", h.game)
    second = await h.run(h.mod, "log", h.game, page=2)
    beyond = await h.run(h.mod, "log", h.game, page=3)
    bobs = await h.run(h.mod, "log", h.game, player=h.bob)
    assert refused.first.ephemeral and "Only the moderators of sirius" in refused.first.content
    round_one = await h.run(h.mod, "log", h.game, round=1)
    round_two = await h.run(h.mod, "log", h.game, round=2)
    mod = f"**{h.mod.name}**"  # the moderator plays in no game: named as the asker; anyone else as a mention
    assert refused.first.ephemeral and "Only the moderators of sirius" in refused.first.content
    assert all(a.first.ephemeral for a in (first, second, beyond, bobs, round_one, round_two))
    lines = first.first.content.splitlines()
    assert lines[0] == "Log of sirius: 17 events, page 1 of 2" and len(lines) == 16  # 15 a page, newest first
    assert lines[1] == "`#17` 2026-03-01 18:00 **bob** BallotCast: bob voted nay in round 1"
    assert lines[2] == "`#16` 2026-03-01 18:00 **alice** BallotCast: alice voted nay in round 1 (was aye)"
    assert lines[-1].startswith(f"`#3` 2026-03-01 18:00 {mod} PlayerAdded: bob joined; ")
    assert second.first.content.splitlines()[1:] == [
        f"`#2` 2026-03-01 18:00 {mod} PlayerAdded: alice joined; diplomacy 4, command 2, intrigue 2, roll 3",
        f"`#1` 2026-03-01 18:00 {mod} GameCreated: Landsdraad game sirius created"]
    assert not any(c in first.first.content + second.first.content for c in ("user ", "{", "user id")), \
        "people by name, payloads in words"
    assert beyond.first.content == "There are 2 pages; page 3 does not exist."
    assert [line.split()[0] for line in bobs.first.content.splitlines()] == ["Log", "`#17`", "`#3`"]
    assert bobs.first.content.startswith("Log of sirius (player bob): 2 events, page 1 of 1\n")
    assert round_one.first.content.startswith("Log of sirius (round 1): 14 events, page 1 of 1\n`#17`")
    assert round_one.first.content.splitlines()[-1].startswith(f"`#4` 2026-03-01 18:00 {mod} RoundOpened: round 1")
    assert round_two.first.content == "sirius has no round 2 (it is at round 1)."  # play-test T5.5

    listed = await h.run(h.alice, "game list", h.lobby)
    mine = await h.run(h.alice, "game list")  # in a DM: her own games
    assert not listed.first.ephemeral
    assert listed.first.content == (f"Games of this server:\n**sirius** in <#{h.game.id}>: Landsdraad, round 1, "
                                    "active, 2 players")
    assert mine.first.content.startswith("Your games:\n**sirius**")

    mods = await h.fake.create_role("Mods")
    dora, erin = h.fake.add_user("dora", roles=(mods,)), h.fake.add_user("erin")
    before = await h.run(dora, "round remind", h.game)
    changed = await h.run(h.mod, "game moderators", h.game, role=mods)
    allowed = await h.run(dora, "round remind", h.game)
    denied = await h.run(erin, "round remind", h.game)
    assert "Only the moderators" in before.first.content
    assert changed.first.content == (f"The moderators of sirius are now <@&{mods.id}> (before: members with Manage "
                                     "Server).")
    assert h.fake.messages(h.game)[-1].content == changed.first.content  # announced in the game channel
    assert allowed.first.ephemeral and allowed.first.content == "Reminded: nobody (everyone has voted)."
    assert denied.first.ephemeral and "Only the moderators" in denied.first.content

    export = await h.run(h.mod, "game export", h.game, format="csv")
    assert [r.ephemeral for r in export.responses] == [True, True]
    files = dict(f for r in export.responses for f in r.files)
    assert list(files) == ["sirius-events.csv", "sirius-players.csv"]
    events = list(csv.DictReader(io.StringIO(files["sirius-events.csv"].decode("utf-8-sig"))))
    players = list(csv.DictReader(io.StringIO(files["sirius-players.csv"].decode("utf-8-sig"))))
    assert [e["kind"] for e in events][:4] == ["GameCreated", "PlayerAdded", "PlayerAdded", "RoundOpened"]
    assert len(events) == 19 and events[-1]["kind"] == "ReminderSent"
    assert [(p["name"], p["user_id"]) for p in players] == [("alice", str(h.alice.id)), ("bob", str(h.bob.id))]
    as_json = await h.run(h.mod, "game export", h.game)
    [(name, data)] = as_json.first.files
    assert as_json.first.ephemeral and name == "sirius.json" and json.loads(data)["events"][-1]["seq"] == 19
    denied_export = await h.run(erin, "game export", h.game, format="csv")
    assert not denied_export.first.files and "Only the moderators" in denied_export.first.content
