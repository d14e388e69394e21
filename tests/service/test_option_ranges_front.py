"""Values the rules allow, through the front end (``dispatch``, issue 16 "Values outside what the rules allow are
refused with the range"): a Landsdraad Homeworld needs no quality; the other points are in the tests of their
ruleset (test_service_convocate.py, test_mylantium_front.py) and the command-table sweep below."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from conftest import Table
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, only_here, slash, text_of, user
from mylantium_table import CHANNEL as MYL_CHANNEL
from mylantium_table import republic

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.outbox import Outgoing
from bot.actions.rulesets import COMMANDS
from bot.actions.suggest import suggest
from engine.core.errors import RuleError
from engine.core.importing import ImportRefused
from engine.landsdraad.import_file import parse as parse_landsdraad
from engine.mylantium.business import SUBJECTS
from engine.mylantium.import_file import parse as parse_mylantium
from engine.mylantium.model import FactionCode, Party
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.landsdraad.imports import import_records

JENNY = actor(10, "jenny")
_ids = count(1)


async def run(clerk: Clerk, who: Actor, command: str, options: dict[str, Any], channel: int = CHANNEL
              ) -> list[Outgoing]:
    """A slash command in the game channel, its options as a dict (some are called ``name``)."""
    ctx = Ctx(who, Place(GUILD, channel), f"opt-{next(_ids)}", clerk.clock.now())
    return await dispatch(App(clerk), ctx, command, options)


async def test_a_homeworld_needs_no_quality_and_reads_as_a_homeworld(table: Table) -> None:
    await table.player(JENNY.id, "jenny", 3, 2, 1)
    added = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                  name="Caladan", homeworld=True))
    assert only_here(added[:1]) == "Caladan (planet, Homeworld) now belongs to jenny, who has 8 votes."
    me = text_of((await slash(table.clerk, JENNY, "me"))[0])
    assert "• Caladan: planet, Homeworld, 0 votes" in me and "None" not in me
    doc = await table.clerk.exports.export(table.game_id, include_events=True)
    (player,) = doc["players"]
    assert player["holdings"] == [{"kind": "planet", "name": "Caladan", "grade": None, "votes": 0,
                                   "homeworld": True}]
    (event,) = [e for e in doc["events"] if e["kind"] == "HoldingAdded"]
    assert event["payload"]["grade"] is None
    # a player has one Homeworld (R0-04, "their Homeworld"): a second is refused, naming the first
    second = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                   name="Kaitain", quality="rich", homeworld=True))
    assert only_here(second).startswith("Caladan is already jenny's Homeworld; a player has one Homeworld.")
    await run(table.clerk, MODERATOR, "holding remove", dict(player=user(JENNY.id, "jenny"), name="Caladan"))
    # a Homeworld with a quality keeps it; a planet that is not a Homeworld still needs one, and nothing is recorded
    rich = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                 name="Kaitain", quality="rich", homeworld=True))
    assert only_here(rich[:1]).startswith("Kaitain (planet, rich, Homeworld) now belongs to jenny")
    before = await table.kinds()
    bare = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                 name="Deneb"))
    assert only_here(bare) == "Give the planet's quality: poor, average or rich (a Homeworld needs none)."
    votes = await run(table.clerk, MODERATOR, "holding add", dict(player=user(JENNY.id, "jenny"), kind="planet",
                                                                  name="Deneb", homeworld=True, votes=2))
    assert only_here(votes) == "A Homeworld gives no votes; leave votes out."
    assert await table.kinds() == before


async def test_a_homeworld_in_a_set_up_file_needs_no_quality(table: Table) -> None:
    data = (b"record,user,diplomacy,command,intrigue,player,kind,name,quality,homeworld\n"
            b"player,<@10>,3,2,1,,,,,\n"
            b"holding,,,,,<@10>,planet,Caladan,,true\n")
    records = parse_landsdraad("s.csv", data)
    await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="s.csv", records=records,
                         users={"<@10>": (10, "jenny")}, actor=1, source_id="imp-1")
    (jenny,) = await table.clerk.landsdraad.ledger.players(table.game_id)
    assert [(h.name, h.grade, h.votes, h.homeworld) for h in jenny.holdings] == [("Caladan", None, 0, True)]


async def test_a_faction_is_typed_as_the_rules_name_it_in_the_singular_or_by_its_code(clerk: Clerk,
                                                                                     clock: ManualClock) -> None:
    """Issue 16: every Mylantium ``faction`` option (and ``president``) is free text read by ``faction_code``, so
    the rules' plural, any case and the code are taken; a near miss is named, with the eight, and nothing recorded."""
    r = await republic(clerk, clock, tv1_i04=False)

    async def my(command: str, **options: Any) -> list[Outgoing]:
        return await run(clerk, MODERATOR, command, options, channel=MYL_CHANNEL)

    for typed, who in (("Plutocrats", 11), ("PR", 13), ("the Brass Hats", 14)):
        out = await my("faction register", faction=typed, user=user(who, f"u{who}"), party="Whig", vp=20)
        assert only_here(out[:1]).startswith("Registered: **"), (typed, text_of(out[0]))
    again = await my("faction register", faction="plutocrats", user=user(12, "u12"), party="Whig")
    assert only_here(again) == ("The Plutocrats already have a player in mylantium. To give them to another member "
                                "(a correction), use /faction set faction:Plutocrats user:…; /faction set also "
                                "corrects their VP, treasury and party.")
    codes = {f.code for f in (await clerk.mylantium.government(r.id)).factions}
    assert codes == {FactionCode.PL, FactionCode.PR, FactionCode.BH}
    set_vp = await my("faction set", faction="pl", vp=25)
    assert text_of(set_vp[0]).startswith("Changed: **Plutocrats** (u11, Whig)") and "25 VP" in text_of(set_vp[0])
    await my("faction votes", faction="Proles", votes=4, territory="Avalon")
    await my("candidate add", name="Lee", faction="Plutocrats", charisma=7)
    await my("government set", president="Proles", approval=60)
    view = await clerk.mylantium.government(r.id)
    assert view.president is FactionCode.PR and [c.faction for c in view.candidates] == [FactionCode.PL]
    events = len(await _events(clerk, r.id))
    wrong = await my("faction set", faction="Plutocats", vp=1)
    assert only_here(wrong) == ("I couldn't read “Plutocats”.\nDid you mean “Plutocrat”?\nAccepted: a Faction: "
                                "Plutocrat, Robber Baron, Granger, Snake-Handler, Brass Hat, Prole, Bureaucrat, "
                                "Redneck (or PL, RB, GR, SH, BH, PR, BU, RN)")
    assert len(await _events(clerk, r.id)) == events


async def test_the_faction_options_suggest_the_eight_by_the_rules_plural(clerk: Clerk, clock: ManualClock) -> None:
    await republic(clerk, clock, tv1_i04=False)
    ctx = Ctx(MODERATOR, Place(GUILD, MYL_CHANNEL), None, clerk.clock.now())

    async def typed(command: str, option: str, text: str) -> list[str]:
        return [s.value for s in await suggest(App(clerk), ctx, command, option, text)]

    assert await typed("faction register", "faction", "") == sorted(c.plural for c in FactionCode)
    assert await typed("faction set", "faction", "plu") == ["Plutocrats"]
    assert await typed("candidate add", "faction", "bh") == ["Brass Hats"]  # the code finds it
    assert await typed("government set", "president", "Prole") == ["Proles"]
    found = await suggest(App(clerk), ctx, "faction votes", "faction", "snake")
    assert [(s.name, s.value) for s in found] == [("Snake-Handlers (SH)", "Snake-Handlers")]
    for spec in COMMANDS.values():  # no faction option is held to a fixed list any more
        for option in spec.options:
            if spec.ruleset == "mylantium" and option.name in ("faction", "president"):
                assert not option.choices and option.autocomplete == "faction", (spec.name, option.name)


async def _events(clerk: Clerk, game_id: int) -> list[str]:
    doc = await clerk.exports.export(game_id, include_events=True)
    return [e["kind"] for e in doc["events"]]


async def test_an_event_subject_with_one_change_needs_no_change_option(clerk: Clerk, clock: ManualClock) -> None:
    """Issue 16: ``/event cover-up`` records a cover-up exposed without ``change:exposed`` (its only change), and
    still takes it; every subject with several changes still demands one."""
    r = await republic(clerk, clock)
    bare = await run(clerk, MODERATOR, "event cover-up", {}, channel=MYL_CHANNEL)
    assert only_here(bare).startswith("Recorded for turn 1: cover-up exposed.")
    typed = await run(clerk, MODERATOR, "event cover-up", {"change": "exposed", "count": 2}, channel=MYL_CHANNEL)
    assert only_here(typed).startswith("Recorded for turn 1: cover-up exposed ×2.")
    _, views, _ = await clerk.mylantium.business.happenings(r.id)
    assert [v.text for v in views] == ["cover-up exposed", "cover-up exposed ×2"]
    for subject, kinds in SUBJECTS.items():
        change = COMMANDS[f"event {subject}"].option("change")
        several = len([k for k in kinds if k.change]) > 1
        assert (change is not None and change.required) == several, subject


UNBOUNDED = {
    ("card set", "bonus"): "a temporary effect on a card; a card's Vote never falls below 0 (votes.vote_of)",
    ("convocate player", "temp"): "a temporary effect on the player, + or − as the card says",
    ("economy set", "income"): "income may go negative (rules-spec: the deficit); it counts as 0 (P3-02)",
    ("economy set", "wealth"): "negative counts as 0 at the end of play (P3-02)",
    ("event war-table", "result"): "the table's movement, ± as rolled; the approval is held to 0-100",
    ("prestige award", "vp"): "negative takes VP back; the service refuses 0 and going below 0",
    ("record", "amount"): "negative corrects a mistake; the service refuses a count going below 0",
}
"""Whole-number options with no lower bound, and why (issue 16's sweep, docs/commands.md). Every other one has one."""


def test_every_whole_number_option_has_the_range_the_rules_give() -> None:
    """Issue 16: a count, amount, Vote, turn order or percentage typed out of range is refused before any service
    runs (Discord, the console and ``dispatch`` check ``min_value``/``max_value``); the few without a lower bound
    are listed with their reason, so a new option cannot slip through unbounded."""
    unbounded = {(spec.name, o.name) for spec in COMMANDS.values() for o in spec.options
                 if o.kind is int and o.min_value is None}
    assert unbounded == set(UNBOUNDED)
    ranges = {(spec.name, o.name): (o.min_value, o.max_value) for spec in COMMANDS.values() for o in spec.options
              if o.kind is int}
    assert ranges[("faction register", "treasury")] == ranges[("faction set", "treasury")] == (0, None)
    assert ranges[("event income-tax", "points")] == (0, 100) and ranges[("event fiat-money", "dollars")] == (1, None)
    for name in ("diplomacy", "command", "intrigue"):
        assert ranges[("player add", name)] == ranges[("player set", name)] == (1, 5)
    assert ranges[("government set", "approval")] == ranges[("government set", "income_tax")] == (0, 100)
    assert ranges[("factor set", "value")] == (-4, 4) and ranges[("candidate add", "charisma")] == (1, 13)


async def test_out_of_range_values_are_refused_with_the_range_and_nothing_recorded(clerk: Clerk,
                                                                                    clock: ManualClock) -> None:
    r = await republic(clerk, clock, tv1_i04=False)
    before = await _events(clerk, r.id)

    async def my(command: str, **options: Any) -> str:
        return only_here(await run(clerk, MODERATOR, command, options, channel=MYL_CHANNEL))

    assert await my("faction register", faction="PL", user=user(11, "pat"), party="Whig", treasury=-5) == (
        "`treasury` of /faction register must be at least 0 (its treasury in $ (default 0)), not -5. "
        "Nothing was changed.")
    assert await my("event fiat-money", dollars=0) == (
        "`dollars` of /event fiat-money must be at least 1 (the dollars created by fiat), not 0. Nothing was changed.")
    assert (await my("event income-tax", change="created", points=101)).startswith(
        "`points` of /event income-tax must be between 0 and 100 (")
    assert await _events(clerk, r.id) == before
    with pytest.raises(RuleError) as refused:  # the service holds any other front end to it too
        await clerk.mylantium.register_faction(r.id, code=FactionCode.PL, user_id=11, user_name="pat",
                                               party=Party.WHIG, vp=0, treasury=-1, actor=1)
    assert str(refused.value) == "A treasury is $0 or more, not $-1: the rules know money in a treasury, not debt."
    await clerk.mylantium.register_faction(r.id, code=FactionCode.PL, user_id=11, user_name="pat", party=Party.WHIG,
                                           vp=20, treasury=0, actor=1)
    with pytest.raises(RuleError, match="A treasury is \\$0 or more, not \\$-3"):
        await clerk.mylantium.set_faction(r.id, code=FactionCode.PL, treasury=-3, actor=1)
    with pytest.raises(ImportRefused) as bad_file:
        parse_mylantium("s.csv", b"record,faction,user,party,treasury\nfaction,GR,<@12>,Whig,-2\n")
    assert bad_file.value.problems == ("line 2 (faction): `treasury` must be a whole number, at least 0, not “-2”.",)
