"""Suggestions while an option is typed (``bot.actions.suggest``), per kind and ruleset, on a real database: what
each kind lists, the ranking (prefix, then substring), and secrecy (a player gets nothing from a moderator-only
command and only their own games, Cards, Convocants and Statutes)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from ledger_front import MODERATOR, actor, user

from bot.actions.commands import App, find_game
from bot.actions.context import Actor, Ctx, Place
from bot.actions.rulesets import COMMANDS
from bot.actions.suggest import Suggestion, ranked, suggest
from engine.service import Clerk

GUILD, CHANNEL, OTHER = 900, 901, 905
ALICE, BOB, CAROL = actor(21, "alice"), actor(22, "bob"), actor(23, "carol")


async def slash(clerk: Clerk, who: Actor, command: str, /, *, channel: int = CHANNEL, **options: Any) -> None:
    """A slash command in a game channel (options may be called ``name``), run by its handler so that a refusal
    raises instead of becoming a reply: the setup must succeed."""
    ctx = Ctx(who, Place(GUILD, channel), None, clerk.clock.now())
    spec = COMMANDS[command]
    await spec.handler(App(clerk), ctx, await find_game(App(clerk), ctx, spec, options), options)


async def typed(clerk: Clerk, who: Actor, command: str, option: str, text: str = "", /, *,
                channel: int | None = CHANNEL, **options: Any) -> list[Suggestion]:
    place = Place(GUILD, channel) if channel is not None else Place(None, None)
    return await suggest(App(clerk), Ctx(who, place, None, clerk.clock.now()), command, option, text, options)


def values(found: list[Suggestion]) -> list[str]:
    return [s.value for s in found]


def shown(found: list[Suggestion]) -> list[tuple[str, str]]:
    """(what the asker sees, what the option gets)."""
    return [(s.name, s.value) for s in found]


# -- Landsdraad --------------------------------------------------------------------------------------------------


async def landsdraad(clerk: Clerk) -> None:
    await slash(clerk, MODERATOR, "game new", ruleset="landsdraad", name="sirius")
    for who, faction in ((ALICE, "House Atreides"), (BOB, "House Harkonnen"), (CAROL, None)):
        extra = {"faction": faction} if faction else {}
        await slash(clerk, MODERATOR, "player add", user=user(who.id, who.name), diplomacy=2, command=2, intrigue=2,
                    roll=1, **extra)
    await slash(clerk, MODERATOR, "player set", user=user(CAROL.id, "carol"), active=False)
    for who, kind, name in ((ALICE, "elector", "Count Jasek"), (ALICE, "planet", "Deneb"), (BOB, "planet", "Arrakis")):
        extra: dict[str, Any] = {"tier": "average", "votes": 2} if kind == "elector" else {"quality": "rich"}
        await slash(clerk, MODERATOR, "holding add", player=user(who.id, who.name), kind=kind, name=name, **extra)


async def test_players_by_name_or_faction_and_holdings_for_moderators(clerk: Clerk) -> None:
    await landsdraad(clerk)
    everyone = await typed(clerk, BOB, "ag vote", "candidate")
    assert shown(everyone) == [("alice (House Atreides)", "alice"), ("bob (House Harkonnen)", "bob")]
    assert values(await typed(clerk, BOB, "ag vote", "candidate", "ATR")) == ["alice"]  # the faction, any case
    assert values(await typed(clerk, BOB, "ag vote", "candidate", "o")) == ["alice", "bob"]  # House…: substring
    assert await typed(clerk, BOB, "ag vote", "candidate", "carol") == []  # inactive: cannot stand
    found = await typed(clerk, MODERATOR, "holding remove", "name")
    assert shown(found) == [("Arrakis (planet, bob)", "Arrakis"), ("Count Jasek (elector, alice)", "Count Jasek"),
                            ("Deneb (planet, alice)", "Deneb")]
    assert values(await typed(clerk, MODERATOR, "holding remove", "name", player=user(ALICE.id, "alice"))) == [
        "Count Jasek", "Deneb"]
    assert values(await typed(clerk, MODERATOR, "holding remove", "name", "e")) == ["Count Jasek", "Deneb"]
    assert values(await typed(clerk, MODERATOR, "holding remove", "name", "de")) == ["Deneb"]
    assert await typed(clerk, ALICE, "holding remove", "name") == []  # a moderators' command: nothing for a player


async def test_games_are_the_askers_own_and_no_game_free_text_or_failure_suggest_nothing(
        clerk: Clerk, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    await landsdraad(clerk)
    await slash(clerk, MODERATOR, "game new", ruleset="landsdraad", name="vega", channel=OTHER)
    await slash(clerk, MODERATOR, "player add", user=user(ALICE.id, "alice"), diplomacy=1, command=1, intrigue=1,
                roll=1, channel=OTHER)
    assert shown(await typed(clerk, ALICE, "me", "game", channel=None)) == [("#sirius (Landsdraad)", "sirius"),
                                                                             ("#vega (Landsdraad)", "vega")]
    assert values(await typed(clerk, ALICE, "score", "game", "VE", channel=None)) == ["vega"]
    assert values(await typed(clerk, BOB, "me", "game", channel=None)) == ["sirius"]  # never a game bob is not in
    assert await typed(clerk, ALICE, "faction me", "game", channel=None) == []  # a Mylantium command: none of hers
    await slash(clerk, MODERATOR, "game new", ruleset="convocate", name="senate", channel=OTHER + 1)
    await slash(clerk, MODERATOR, "convocate player", user=user(ALICE.id, "alice"), sovereignty="Union",
                channel=OTHER + 1)
    assert values(await typed(clerk, ALICE, "motion decline", "game", channel=None)) == ["senate"]
    assert values(await typed(clerk, ALICE, "me", "game", channel=None)) == ["sirius", "vega"]  # not a Convocate game
    assert await typed(clerk, MODERATOR, "holding remove", "name", channel=OTHER + 2) == []  # a channel with no game
    assert await typed(clerk, BOB, "round open", "crisis") == []  # free text
    assert await typed(clerk, BOB, "no such", "thing") == []
    assert await typed(clerk, MODERATOR, "unit remove", "name") == []  # a Mylantium command in a Landsdraad game

    async def broken(game_id: int) -> list[Any]:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(clerk.landsdraad.ledger, "players", broken)
    with caplog.at_level(logging.ERROR, "clerk.suggest"):
        assert await typed(clerk, BOB, "ag vote", "candidate", "a") == []
    assert "the database went away" in caplog.text and "/ag vote candidate" in caplog.text


def test_at_most_25_prefix_matches_first() -> None:
    names = [Suggestion(f"Planet {n:02d}", f"Planet {n:02d}") for n in range(30, 0, -1)]
    names += [Suggestion("Alpha Planet", "Alpha Planet"), Suggestion("x" * 101, "too long")]
    top = ranked(names, "planet")
    assert len(top) == 25 and top[0].value == "Planet 01" and top[-1].value == "Planet 25"
    assert ranked(names, "pha pl") == [Suggestion("Alpha Planet", "Alpha Planet")]
    assert ranked(names, "lanet 3") == [Suggestion("Planet 30", "Planet 30")]
    assert [s.value for s in ranked(names, "alpha")] == ["Alpha Planet"]
    assert ranked(names, "too") == []  # an over-long name is never offered
    assert ranked(names, "")[0].value == "Alpha Planet"  # nothing typed: the first 25 sorted


# -- Mylantium ---------------------------------------------------------------------------------------------------


async def republic(clerk: Clerk) -> None:
    await slash(clerk, MODERATOR, "game new", ruleset="mylantium", name="republic")
    for who, faction, party in ((ALICE, "Plutocrat", "Whig"), (BOB, "Prole", "Federalist"),
                                (CAROL, "Granger", "Federalist")):
        await slash(clerk, MODERATOR, "faction register", faction=faction, user=user(who.id, who.name), party=party)
    for name in ("Avalon", "Bristol", "New Avalon"):
        await slash(clerk, MODERATOR, "territory add", name=name)
    await slash(clerk, MODERATOR, "building add", territory="Avalon", kind="port", name="Arcadia")
    await slash(clerk, MODERATOR, "unit add", name="1st Foot", territory="Bristol", maintenance=1, cost=2)
    for name, faction, charisma in (("Adams", "Plutocrat", 7), ("Burr", "Prole", 5), ("Clay", "Granger", 3)):
        await slash(clerk, MODERATOR, "candidate add", name=name, faction=faction, charisma=charisma)
    await slash(clerk, MODERATOR, "candidate set", name="Clay", running=False)


async def test_territories_units_buildings_candidates(clerk: Clerk) -> None:
    await republic(clerk)
    assert values(await typed(clerk, MODERATOR, "unit add", "territory", "aval")) == ["Avalon", "New Avalon"]
    assert values(await typed(clerk, MODERATOR, "unit set", "name")) == ["1st Foot"]
    assert values(await typed(clerk, MODERATOR, "building remove", "name", territory="Avalon", kind="port")) == [
        "Arcadia"]
    assert await typed(clerk, MODERATOR, "building remove", "name", territory="Bristol") == []
    assert values(await typed(clerk, MODERATOR, "candidate set", "name")) == ["Adams", "Burr", "Clay"]
    nominees = await typed(clerk, MODERATOR, "election nominee", "candidate", party="Federalist")
    assert shown(nominees) == [("Burr (Prole, Federalist)", "Burr")]  # Clay is not running
    assert await typed(clerk, ALICE, "candidate set", "name") == []  # moderators only


# -- the Convocate -----------------------------------------------------------------------------------------------


async def senate(clerk: Clerk) -> None:
    """alice (Union) with a Seat, political control and two Characters; bob (Kingdom); alice's Action Phase."""
    await slash(clerk, MODERATOR, "game new", ruleset="convocate", name="senate")
    for who, sov in ((ALICE, "Union"), (BOB, "Kingdom")):
        await slash(clerk, MODERATOR, "convocate player", user=user(who.id, who.name), sovereignty=sov)
    for who, home in ((ALICE, "Union Prime"), (BOB, "Korhal")):
        await slash(clerk, who, "card add", kind="homeworld", name=home)
    await slash(clerk, MODERATOR, "card add", kind="seat", name="Union Senate", controller=user(ALICE.id, "alice"),
                sovereignty="Union")
    await slash(clerk, ALICE, "card add", kind="character", name="Kista", at="Union Senate", morality="Loyal")
    await slash(clerk, ALICE, "card add", kind="character", name="Dorn", at="Union Prime")
    await slash(clerk, ALICE, "card add", kind="location", name="Vault", vote=2)
    await slash(clerk, BOB, "card add", kind="character", name="Mirel", pallarch=True, at="Korhal")
    await slash(clerk, MODERATOR, "factor set", name="GOVT", value=1)
    await slash(clerk, MODERATOR, "factor set", name="TRADE", value=0)
    await slash(clerk, MODERATOR, "phase next")
    await slash(clerk, ALICE, "phase next")


async def test_convocate_cards_convocants_and_statutes_as_the_asker_may_use_them(clerk: Clerk) -> None:
    await senate(clerk)
    assert values(await typed(clerk, BOB, "card set", "name")) == ["Korhal", "Mirel"]
    assert values(await typed(clerk, MODERATOR, "card remove", "name", "or")) == ["Dorn", "Korhal"]
    assert len(await typed(clerk, MODERATOR, "card set", "name")) == 7
    assert values(await typed(clerk, BOB, "card add", "at")) == ["Korhal", "Union Prime", "Union Senate", "Vault"]
    assert values(await typed(clerk, MODERATOR, "convocate player", "homeworld")) == ["Korhal", "Union Prime"]
    assert await typed(clerk, BOB, "factor set", "name") == []  # moderators only
    assert shown(await typed(clerk, BOB, "push", "factor")) == [("GOVT (+1)", "GOVT"), ("TRADE (+0)", "TRADE")]
    mine = values(await typed(clerk, ALICE, "commit", "cards"))
    assert mine == ["Dorn", "Kista", "Union Prime", "Union Senate", "Vault"]  # never bob's Mirel or Korhal
    assert values(await typed(clerk, ALICE, "commit", "cards", "Vault, d")) == ["Vault, Dorn"]
    assert values(await typed(clerk, ALICE, "commit", "cards", "vault, kista,")) == [
        "vault, kista, Dorn", "vault, kista, Union Prime", "vault, kista, Union Senate"]  # no card twice
    assert await typed(clerk, ALICE, "commit", "cards", "Mirel") == []
    assert values(await typed(clerk, ALICE, "motion move", "convocant")) == ["Dorn", "Kista"]
    assert values(await typed(clerk, BOB, "repeal", "convocant")) == ["Mirel"]
    assert values(await typed(clerk, BOB, "motion move", "only")) == ["Dorn", "Kista", "Mirel"]  # any Character
    assert values(await typed(clerk, ALICE, "statute declare", "character")) == ["Dorn", "Kista"]
    await slash(clerk, ALICE, "statute declare", statute="Statute 3498C", character="Kista", section=1, sections=3)
    assert values(await typed(clerk, ALICE, "statute declare", "character")) == ["Dorn"]  # Kista is activated
    assert values(await typed(clerk, ALICE, "statute section", "statute")) == ["Statute 3498C"]
    assert await typed(clerk, BOB, "statute destroy", "statute") == []  # not his
    assert values(await typed(clerk, MODERATOR, "statute destroy", "statute")) == ["Statute 3498C"]
    assert values(await typed(clerk, BOB, "repeal", "statute", "3498")) == ["Statute 3498C"]
    assert await typed(clerk, ALICE, "repeal", "statute") == []  # one does not repeal one's own


async def test_settings_are_the_games_own_ruleset_and_the_two_every_game_has(clerk: Clerk) -> None:
    """`/game settings setting:` lists the Landsdraad game's settings, then timezone and moderator_channel: not the
    25 names of three rulesets a fixed list of choices showed in every game (play-test T4.5)."""
    await landsdraad(clerk)
    found = values(await typed(clerk, MODERATOR, "game settings", "setting"))
    assert sorted(found) == sorted(["ag_weighted", "end_game_penalty", "audit_share_rounding", "perk_ties",
                                    "reminders", "disclosure", "timezone", "moderator_channel"])
    assert values(await typed(clerk, MODERATOR, "game settings", "setting", "rem")) == ["reminders"]
    assert "independent_rounding" not in values(await typed(clerk, MODERATOR, "game settings", "setting", "round"))
