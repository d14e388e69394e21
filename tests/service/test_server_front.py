"""Several games in a server through the front end: ``/game list``, ``/game moderators``, ``/help`` and the DM
``help`` by ruleset, the audit trail ``/log``, and ``/game export format:csv``."""

from __future__ import annotations

import csv
import io
import json
from itertools import count
from typing import Any

import pytest
from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, dm, public, slash, text_of, user

from bot.actions import help
from bot.actions.commands import COMMON, App, Role, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.outbox import Card, Here, Outgoing, ToChannel
from bot.actions.rulesets import COMMANDS
from engine.core.errors import RuleError
from engine.service import Clerk

OTHER_CHANNEL = 902
ROLE = 555
_ids = count(1)
BOB = actor(10, "Bob")


async def slash_in(clerk: Clerk, who: Actor, name: str, channel: int | None, **options: Any) -> list[Outgoing]:
    place = Place(GUILD, channel) if channel is not None else Place(None, None)
    return await dispatch(App(clerk), Ctx(who, place, f"srv-{next(_ids)}", clerk.clock.now()), name, options)


def texts(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out)


async def two_games(table: Table) -> int:
    await table.player(10, "Bob", 3, 2, 1)
    other = await table.clerk.games.create_game(guild_id=GUILD, channel_id=OTHER_CHANNEL, name="republic",
                                                ruleset="mylantium", moderator_role_id=None, actor=1)
    return other.id


async def test_game_list_in_a_server_and_in_a_dm(table: Table) -> None:
    await two_games(table)
    await table.clerk.games.create_game(guild_id=GUILD, channel_id=903, name="senate", ruleset="convocate",
                                        moderator_role_id=None, actor=1)
    out = await slash(table.clerk, BOB, "game list")
    assert public(out) and len(out) == 1
    text = texts(out)
    # play-test T5.6: a game in set-up is "being set up", in each ruleset's own sense (Ruleset.setting_up), not
    # "round 0, active"
    assert "**sirius** in <#901>: Landsdraad, being set up, 1 player" in text
    assert "**republic** in <#902>: Mylantium, being set up, 0 players" in text
    assert "**senate** in <#903>: Convocate, being set up, 0 players" in text
    await slash(table.clerk, MODERATOR, "round open", crisis="Piracy")
    # issue 16: once played, each ruleset's own unit, not "round 0" for the rulesets that count turns
    assert "**sirius** in <#901>: Landsdraad, round 1, active, 1 player" in texts(await slash(table.clerk, BOB,
                                                                                             "game list"))
    mine = await slash(table.clerk, BOB, "game list", in_dm=True)
    assert "Your games" in texts(mine) and "sirius" in texts(mine) and "republic" not in texts(mine)
    stranger = await slash(table.clerk, actor(77, "Zed"), "game list", in_dm=True)
    assert "not a player in any game" in texts(stranger)


async def test_moderator_role_changed_recorded_and_shown(table: Table) -> None:
    refused = await slash(table.clerk, BOB, "game moderators", role=Role(ROLE))
    assert "Only the moderators" in texts(refused)
    out = await slash(table.clerk, MODERATOR, "game moderators", role=Role(ROLE))
    assert out[0].ephemeral and isinstance(out[1].to, ToChannel)
    assert "now <@&555> (before: members with Manage Server)" in texts(out)
    assert (await table.events())[-1].kind == "ModeratorRoleChanged"
    assert (await table.events())[-1].payload == {"from": None, "to": ROLE}
    assert (await table.clerk.games.game(table.game_id)).moderator_role_id == ROLE
    holder = Actor(20, "Ann", frozenset({ROLE}))
    assert "Round 1 is open" in texts(await slash(table.clerk, holder, "round open", crisis="Piracy"))
    settings = texts(await slash(table.clerk, BOB, "game settings"))
    assert "**moderators** = <@&555>" in settings
    again = await slash(table.clerk, holder, "game moderators", role=Role(ROLE))
    assert "already has that moderator role" in texts(again)
    back = await slash(table.clerk, holder, "game moderators")
    assert "now members with Manage Server" in texts(back)


async def test_settings_show_the_moderators_in_a_ruleset_without_settings(clerk: Clerk) -> None:
    await clerk.games.create_game(guild_id=GUILD, channel_id=CHANNEL, name="cv", ruleset="convocate",
                                  moderator_role_id=ROLE, actor=1)
    text = texts(await slash(clerk, BOB, "game settings"))
    assert "**moderators** = <@&555>" in text and "/convocate rulings" in text


async def test_help_in_a_channel_is_for_its_ruleset(table: Table) -> None:
    await two_games(table)
    assert {"help", "log", "game list", "game moderators"} <= COMMON
    out = await slash(table.clerk, BOB, "help")
    assert len(out) == 1 and isinstance(out[0].to, Here) and out[0].ephemeral and out[0].card is not None
    text = texts(out)
    assert "`Vote: Aye`" in text and "`AG Vote: Bob`" in text and "Primary:" not in text
    assert "`/round` open" in text and "`/me [game]`:" in text
    assert "/election" not in text and "`/help [command]`" in text
    mylantium = texts(await slash_in(table.clerk, BOB, "help", OTHER_CHANNEL))
    assert "`Primary: <Candidate>`" in mylantium and "Vote: Aye" not in mylantium
    assert "/round" not in mylantium and "export" in mylantium
    assert "`/player` remove" in mylantium  # the shared command, where the ruleset supplies its work
    nowhere = texts(await slash_in(table.clerk, BOB, "help", 999))
    assert "This channel has no game" in nowhere


def card_size(card: Card) -> int:
    return len(card.title) + len(card.description) + len(card.footer or "") + sum(
        len(name) + len(value) for name, value, _ in card.fields)


def test_help_lists_every_command_a_ruleset_takes_within_discord_limits(table: Any) -> None:
    """One embed per ruleset (issue 17), within Discord's limits (bot/discord/limits.py): every command the
    ruleset takes is named, a moderator's in its group's line."""
    from bot.discord import limits
    assert (help.FIELD_VALUE, help.EMBED_TOTAL) == (limits.FIELD_VALUE, limits.EMBED_TOTAL)
    app = App(table.clerk)
    for ruleset in ("landsdraad", "mylantium", "convocate"):
        card = help.help_card(app, ruleset, "g")
        assert card_size(card) <= limits.EMBED_TOTAL and len(card.fields) <= limits.EMBED_FIELDS, ruleset
        assert len(card.description) <= limits.EMBED_DESCRIPTION
        assert all(len(value) <= limits.FIELD_VALUE for _, value, _ in card.fields)
        joined = card.as_text()
        for spec in COMMANDS.values():
            head, _, rest = spec.name.partition(" ")
            named = (f"`/{spec.name}" in joined if not spec.moderator
                     else any(line.startswith(f"`/{head}`") and (not rest or f" {rest}" in line)
                              for line in (item.strip() for item in joined.splitlines())))
            assert named == help.takes(app, ruleset, spec), (ruleset, spec.name)


def test_help_lists_a_group_with_making_a_game_first(table: Any) -> None:
    """Play-test D5.7: the moderators' `/game` line read "end · new · ...": a new moderator met `end` first."""
    line = next(x.strip() for x in help.help_card(App(table.clerk), "landsdraad", "g").as_text().splitlines()
                if x.strip().startswith("`/game`"))
    assert line.startswith("`/game` new · import · "), line


def test_help_for_one_command_and_a_near_miss(table: Any) -> None:
    app = App(table.clerk)
    card = help.command_card(app, "/Round  open")
    assert card.title == "/round open" and ("Who", "moderators only, in Landsdraad games", False) in card.fields
    with pytest.raises(RuleError, match=r"There is no command `/rond open`\. Did you mean `/round open`\?"):
        help.command_card(app, "rond open")


async def test_dm_help_is_for_the_senders_games(table: Table) -> None:
    await two_games(table)
    out = await dm(table.clerk, BOB, "help")
    text = texts(out)
    assert "Clerk in #sirius (Landsdraad)" in text and "`Vote: Aye`" in text
    assert len(out) == 1 and out[0].card is not None
    stranger = texts(await dm(table.clerk, actor(77, "Zed"), "help"))
    assert "not a player in any game" in stranger


async def test_a_dm_no_form_reads_from_someone_in_no_game_says_who_clerk_is(table: Table) -> None:
    """``hi`` from someone who plays no game: not a crisis ballot's refusal ("it is not a ballot"), but who Clerk is
    and how a game starts; a ballot from them is refused as from no player."""
    await two_games(table)
    zed = actor(77, "Zed")
    before = len(await table.events())
    hello = texts(await dm(table.clerk, zed, "hi"))
    assert hello.startswith("I couldn't read “hi”. I'm Clerk, the vote clerk of play-by-post games. You are not a "
                            "player in any game; a moderator starts one with `/game new ruleset name`")
    assert hello.endswith("\nNothing was recorded.") and "ballot" not in hello
    assert "You are not a player in any game here" in texts(await dm(table.clerk, zed, "Vote: Aye"))
    assert "it is not a ballot" in texts(await dm(table.clerk, BOB, "hi"))  # a player's answer is the forms'
    assert len(await table.events()) == before


async def test_log_pages_newest_first_with_filters(table: Table) -> None:
    await table.player(10, "Bob", 3, 2, 1)
    await table.player(11, "Cy", 2, 2, 2)
    await table.open()
    await table.vote(10, "Vote: Aye")
    for _ in range(20):
        await table.vote(11, "Revote: Nay")
    refused = await slash(table.clerk, BOB, "log")
    assert "Only the moderators" in texts(refused)
    out = await slash(table.clerk, MODERATOR, "log")
    assert all(o.ephemeral and isinstance(o.to, Here) for o in out)
    text = texts(out)
    total = len(await table.events())
    assert f"{total} events, page 1 of {-(-total // 15)}" in text
    lines = [line for line in text.splitlines() if line.startswith("`#")]
    assert len(lines) == 15 and lines[0].startswith(f"`#{total}`")
    page2 = texts(await slash(table.clerk, MODERATOR, "log", page=2))
    assert "page 2 of" in page2 and "PlayerAdded" in page2
    bob = texts(await slash(table.clerk, MODERATOR, "log", player=user(10, "Bob")))
    assert "player Bob" in bob and "Cy" not in bob.split("\n", 1)[1] and "**Bob**" in bob
    first = texts(await slash(table.clerk, MODERATOR, "log", round=1, player=user(10, "Bob")))
    assert "round 1, player Bob" in first and "1 event," in first
    none = texts(await slash(table.clerk, MODERATOR, "log", round=7))
    assert "sirius has no round 7 (it is at round 1)." in none  # not a bare "Nothing recorded" (play-test T5.5)
    zed = texts(await slash(table.clerk, MODERATOR, "log", player=user(77, "Zed")))
    assert "Nothing recorded. Zed is not a player in sirius, and nothing recorded names them." in zed
    beyond = texts(await slash(table.clerk, MODERATOR, "log", page=99))
    assert "page 99 does not exist" in beyond


async def test_export_csv_events_and_players(table: Table) -> None:
    await table.player(10, "Bob", 3, 2, 1, faction="Atreides")
    await table.open()
    await table.vote(10, "Vote: Aye")
    out = await slash(table.clerk, MODERATOR, "game export", format="csv")
    assert len(out) == 2 and all(o.ephemeral and o.file for o in out)
    (events_name, events_data), (players_name, players_data) = (o.file for o in out if o.file)
    assert events_name == "sirius-events.csv" and players_name == "sirius-players.csv"
    events = list(csv.DictReader(io.StringIO(events_data.decode("utf-8-sig"))))
    assert [e["kind"] for e in events] == await table.kinds()
    assert list(events[0]) == ["seq", "at", "kind", "actor", "actor_name", "summary", "payload"]
    ballot = events[-1]
    assert ballot["actor_name"] == "Bob" and json.loads(ballot["payload"])["option"] == "aye"
    players = list(csv.DictReader(io.StringIO(players_data.decode("utf-8-sig"))))
    assert players[0]["name"] == "Bob" and players[0]["faction"] == "Atreides" and players[0]["user_id"] == "10"
    assert int(players[0]["votes"]) > 0 and "base" in players[0]["breakdown"]
    as_json = await slash(table.clerk, MODERATOR, "game export")
    assert as_json[0].file and as_json[0].file[0] == "sirius.json"
    assert "Only the moderators" in texts(await slash(table.clerk, BOB, "game export", format="csv"))
