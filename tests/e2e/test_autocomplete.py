"""Autocomplete through the real discord.py client: the options that name something are registered with
``autocomplete: true``, and an APPLICATION_COMMAND_AUTOCOMPLETE interaction (the option being typed focused, the
others as typed so far) is answered with choices (response type 8) from the game of the channel, in each
ruleset; a player gets nothing from a moderators' command."""

from __future__ import annotations

from typing import Any

from bot.actions.rulesets import COMMANDS

from .clerkbot import Harness


def values(choices: list[dict[str, Any]]) -> list[str]:
    return [c["value"] for c in choices]


def registered_options(h: Harness) -> dict[tuple[str, str], dict[str, Any]]:
    """(command, option) → the option as the bot registered it, for every command and subcommand."""
    found: dict[tuple[str, str], dict[str, Any]] = {}

    def walk(path: list[str], options: list[dict[str, Any]]) -> None:
        for o in options:
            if o["type"] in (1, 2):
                walk([*path, o["name"]], o.get("options", []))
            else:
                found[(" ".join(path), o["name"])] = o

    for cmd in h.fake.commands[None]:
        walk([cmd["name"]], cmd.get("options", []))
    return found


async def test_registered_options_and_landsdraad_players_holdings_and_games(clerk_bot: Harness) -> None:
    h = clerk_bot
    registered = registered_options(h)
    wanted = {(name, o.name) for name, spec in COMMANDS.items() for o in spec.options if o.autocomplete}
    assert {key for key, o in registered.items() if o.get("autocomplete")} == wanted
    assert ("ag vote", "candidate") in wanted and ("commit", "cards") in wanted and ("unit set", "name") in wanted

    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    for who, faction in ((h.alice, {}), (h.bob, {"faction": "House Harkonnen"})):
        await h.run(h.mod, "player add", h.game, user=who, diplomacy=2, command=2, intrigue=2, roll=1, **faction)
    for who, kind, name, grade in ((h.alice, "planet", "Deneb", {"quality": "rich"}),
                                   (h.bob, "elector", "Count Jasek", {"tier": "weak", "votes": 1})):
        await h.run(h.mod, "holding add", h.game, player=who, kind=kind, name=name, **grade)

    assert await h.fake.autocomplete(h.carol, "ag vote", h.game, option="candidate") == [
        {"name": "alice", "value": "alice"}, {"name": "bob (House Harkonnen)", "value": "bob"}]
    assert values(await h.fake.autocomplete(h.alice, "ag vote", h.thread, option="candidate", typed="HARK")) == [
        "bob"]  # in the game's thread too
    assert values(await h.fake.autocomplete(h.mod, "holding remove", h.game, option="name")) == ["Count Jasek",
                                                                                              "Deneb"]
    assert values(await h.fake.autocomplete(h.mod, "holding remove", h.game, option="name", player=h.bob)) == [
        "Count Jasek"]  # narrowed by the player already chosen
    assert await h.fake.autocomplete(h.alice, "holding remove", h.game, option="name") == []  # moderators only
    assert await h.fake.autocomplete(h.alice, "me", None, option="game") == [
        {"name": "#sirius (Landsdraad)", "value": "sirius"}]  # in a DM: her own games
    assert await h.fake.autocomplete(h.carol, "me", None, option="game") == []
    assert await h.fake.autocomplete(h.mod, "holding remove", h.lobby, option="name") == []  # no game here


async def test_mylantium_territories_and_candidates(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="mylantium", name="sirius")
    for name in ("Avalon", "Bristol"):
        await h.run(h.mod, "territory add", h.game, name=name)
    await h.run(h.mod, "faction register", h.game, faction="Prole", user=h.bob, party="Federalist")
    await h.run(h.mod, "candidate add", h.game, name="Burr", faction="Prole", charisma=5)

    assert values(await h.fake.autocomplete(h.mod, "unit add", h.game, option="territory", typed="b",
                                            name="1st Foot")) == ["Bristol"]
    assert await h.fake.autocomplete(h.mod, "election nominee", h.game, option="candidate", party="Federalist") == [
        {"name": "Burr (Prole, Federalist)", "value": "Burr"}]
    assert await h.fake.autocomplete(h.mod, "election nominee", h.game, option="candidate", party="Whig") == []


async def test_convocate_cards_commit_and_factors(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.run(h.mod, "game new", h.game, ruleset="convocate", name="sirius")
    for who, sov, home in ((h.alice, "Union", "Union Prime"), (h.bob, "Kingdom", "Korhal")):
        await h.run(h.mod, "convocate player", h.game, user=who, sovereignty=sov)
        await h.run(who, "card add", h.game, kind="homeworld", name=home)
    await h.run(h.alice, "card add", h.game, kind="character", name="Kista", at="Union Prime")
    await h.run(h.bob, "card add", h.game, kind="character", name="Mirel", at="Korhal", pallarch=True)

    assert values(await h.fake.autocomplete(h.alice, "commit", h.game, option="cards", typed="Kista, ")) == [
        "Kista, Union Prime"]  # her own cards only, none twice
    assert values(await h.fake.autocomplete(h.bob, "card set", h.game, option="name")) == ["Korhal", "Mirel"]
    assert values(await h.fake.autocomplete(h.bob, "repeal", h.game, option="convocant")) == ["Mirel"]
    assert await h.fake.autocomplete(h.bob, "push", h.game, option="factor", typed="go") == [
        {"name": "GOVT (+0)", "value": "GOVT"}]
    assert await h.fake.autocomplete(h.bob, "factor set", h.game, option="name") == []  # moderators only
