"""Bulk set-up of a Mylantium game (issue 16, docs/import.md): the file read (every bad line named) and applied in
one transaction through the one-by-one commands' use cases; a bad file writes nothing, a good one writes the
events /faction register, /territory add, /building add, /unit add, /candidate add and /faction votes would, and a
redelivery counts once."""

from __future__ import annotations

import pytest
from mylantium_table import republic
from sqlalchemy import select

from engine.core.errors import GameClosed
from engine.core.importing import ImportRefused
from engine.mylantium.import_file import parse
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.service.mylantium.imports import import_records
from engine.service.uow import Duplicate
from engine.store.models import Event

HEADER = (b"record,faction,user,party,vp,treasury,name,territory,kind,count,charisma,maintenance,cost,status,votes,"
          b"building\n")
GOOD = HEADER + b"""faction,Plutocrats,<@11>,Whig,3,100,,,,,,,,,,
faction,GR,<@12>,federalist party,,,,,,,,,,,,
territory,,,,,,Cathay,,,,,,,,,
building,,,,,,,Cathay,port,2,,,,,,
building,,,,,,Arcadia,Cathay,city,,,,,,,
unit,,,,,,First Fleet,Cathay,,,,2,10,in-battle,,
candidate,the Plutocrats,,,,,Hamilton,,,,7,,,,,
votes,Granger,,,,,,Cathay,,,,,,,3,
votes,GR,,,,,,,,,,,,,1,temple
"""
USERS = {"<@11>": (11, "pat"), "<@12>": (12, "gus")}

TOML = b"""
[[faction]]
faction = "Brass Hat"
user = "<@14>"
party = "Federalist"
vp = 4

[[territory]]
name = "Cathay"

[[candidate]]
name = "Grant"
faction = "BH"
charisma = 20
"""


def test_a_good_csv_is_read_with_each_faction_as_its_code() -> None:
    records = parse("m.csv", GOOD)
    assert [(r.line, r.kind) for r in records] == [
        (2, "faction"), (3, "faction"), (4, "territory"), (5, "building"), (6, "building"), (7, "unit"),
        (8, "candidate"), (9, "votes"), (10, "votes")]
    assert records[0].values == {"faction": "PL", "user": "<@11>", "party": "whig", "vp": 3, "treasury": 100}
    assert records[1].get("party") == "federalist" and records[6].get("faction") == "PL"
    assert records[3].values == {"territory": "Cathay", "kind": "port", "count": 2}


def test_toml_names_the_line_of_each_table() -> None:
    with pytest.raises(ImportRefused) as refused:
        parse("m.toml", TOML)
    assert refused.value.problems == ("line 11 (candidate): `charisma` must be a whole number from 1 to 13, "
                                      "not “20”.",)
    ok = parse("m.toml", TOML.replace(b"= 20", b"= 9"))
    assert [(r.line, r.kind, r.get("faction")) for r in ok] == [(2, "faction", "BH"), (8, "territory", None),
                                                                (11, "candidate", "BH")]


@pytest.mark.parametrize(("line", "problem"), [
    (b"faction,Wizards,<@13>,Whig,,,,,,,,,,,,", "line 11 (faction): `faction` must be a Faction: Plutocrat, Robber "
     "Baron, Granger, Snake-Handler, Brass Hat, Prole, Bureaucrat, Redneck (or PL, RB, GR, SH, BH, PR, BU, RN), not "
     "“Wizards”."),
    (b"faction,Proles,<@13>,Tory,,,,,,,,,,,,", "line 11 (faction): `party` must be Whig or Federalist, not “Tory”."),
    (b"faction,Plutocrat,<@13>,Whig,,,,,,,,,,,,", "line 11 (faction): the Plutocrats are already given on line 2."),
    (b"faction,Proles,<@11>,Whig,,,,,,,,,,,,", "line 11 (faction): <@11> is already given on line 2."),
    (b"faction,Proles,<@13>,Whig,-1,,,,,,,,,,,", "line 11 (faction): `vp` must be a whole number, at least 0, "
                                                 "not “-1”."),
    (b"faction,Proles,,Whig,,,,,,,,,,,,", "line 11 (faction): `user` is missing (a user: @name, <@id> or the "
                                          "user's id)."),
    (b"territory,,,,,,cathay,,,,,,,,,", "line 11 (territory): cathay is already given on line 4."),
    (b"building,,,,,,,Cathay,castle,,,,,,,", "line 11 (building): `kind` must be port, city, temple or village, "
                                             "not “castle”."),
    (b"building,,,,,,Troy,Cathay,city,2,,,,,,", "line 11 (building): a named building is one building; leave "
                                                "`count` out."),
    (b"building,,,,,,,Cathay,port,0,,,,,,", "line 11 (building): `count` must be a whole number, at least 1, "
                                            "not “0”."),
    (b"unit,,,,,,First Fleet,Cathay,,,,1,1,,,", "line 11 (unit): First Fleet is already given on line 7."),
    (b"unit,,,,,,Second Fleet,Cathay,,,,1,1,asleep,,", "line 11 (unit): `status` must be on-station, in-battle or "
                                                       "elsewhere, not “asleep”."),
    (b"candidate,GR,,,,,Lincoln,,,,0,,,,,", "line 11 (candidate): `charisma` must be a whole number from 1 to 13, "
                                            "not “0”."),
    (b"candidate,PL,,,,,Lincoln,,,,5,,,,,", "line 11 (candidate): a Candidate of the Plutocrats is already given "
                                            "on line 8."),
    (b"votes,GR,,,,,,Cathay,,,,,,,2,port", "line 11 (votes): give either `territory` (the Faction's votes there) or "
     "`building` (votes per building of that kind in play, like the Plutocrats' 2 per port), not both or neither."),
    (b"vote,GR,,,,,,Cathay,,,,,,,2,", "line 11: the record is “vote” (did you mean `votes`?); a record is faction, "
                                      "territory, building, unit, candidate or votes."),
])
def test_each_kind_of_bad_line_is_named_and_nothing_is_returned(line: bytes, problem: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        parse("m.csv", GOOD + line + b"\n")
    assert refused.value.problems == (problem,)


async def _kinds(clerk: Clerk, game_id: int) -> list[tuple[str, str | None]]:
    async with clerk._sessions() as session:
        found = await session.execute(select(Event.kind, Event.source_id).where(Event.game_id == game_id)
                                      .order_by(Event.seq))
        return [(k, s) for k, s in found.all()]


def test_a_repeated_votes_line_and_a_repeated_building_line_are_refused_like_every_other_repeat() -> None:
    """Play-test I1.3 and I3.1: a second `votes` line for the same Faction and territory was taken (the last won),
    and a copied `building` line doubled the ports, both without a word."""
    data = HEADER + b"""faction,GR,<@12>,Federalist,,,,,,,,,,,,
territory,,,,,,Avalon,,,,,,,,,
building,,,,,,,Avalon,port,2,,,,,,
building,,,,,,,avalon,port,2,,,,,,
building,,,,,,,Avalon,city,1,,,,,,
votes,GR,,,,,,Avalon,,,,,,,3,
votes,Grangers,,,,,,Avalon,,,,,,,5,
votes,GR,,,,,,,,,,,,,1,temple
votes,GR,,,,,,,,,,,,,2,temple
"""
    with pytest.raises(ImportRefused) as refused:
        parse("m.csv", data)
    assert refused.value.problems == (
        "line 5 (building): the ports of avalon are already given on line 4 (2); give them on one line, with their "
        "`count` (2 + 2 if both lines are meant).",
        "line 8 (votes): the Grangers' votes in Avalon are already given on line 7 (3); give them once.",
        "line 10 (votes): the Grangers' votes per temple are already given on line 9 (1); give them once.")


async def test_a_good_file_writes_the_same_events_as_the_commands(clerk: Clerk, clock: ManualClock) -> None:
    r = await republic(clerk, clock, tv1_i04=False)
    counts = await import_records(clerk.mylantium, r.id, filename="m.csv", records=parse("m.csv", GOOD),
                                  users=USERS, actor=1, source_id="int:77")
    assert counts == {"faction": 2, "territory": 1, "building": 2, "unit": 1, "candidate": 1, "votes": 2}
    assert (await _kinds(clerk, r.id))[-10:] == [
        ("FactionRegistered", "int:77/1"), ("FactionRegistered", "int:77/2"), ("TerritoryAdded", "int:77/3"),
        ("BuildingsAdded", "int:77/4"), ("BuildingsAdded", "int:77/5"), ("UnitAdded", "int:77/6"),
        ("CandidateAdded", "int:77/7"), ("FactionVotesSet", "int:77/8"), ("FactionVotesSet", "int:77/9"),
        ("GameImported", "int:77")]
    v = await clerk.mylantium.government(r.id)
    factions = {f.code.name: f for f in v.factions}
    assert (factions["PL"].player, factions["PL"].party.value, factions["PL"].vp, factions["PL"].treasury) == (
        "pat", "whig", 3, 100)
    assert factions["PL"].national == 2 * 7  # 2 per port (R1-02): Avalon 3, Bicardia 2, Cathay 2
    assert factions["GR"].party.value == "federalist" and factions["GR"].national == 3
    cathay = next(t for t in v.territories if t.name == "Cathay")
    assert (cathay.buildings["ports"], cathay.buildings["cities"], cathay.names) == (2, 1, {"city": ("Arcadia",)})
    assert [(u.name, u.status) for u in v.units] == [("First Fleet", "in-battle")]
    assert [(c.name, c.charisma) for c in v.candidates] == [("Hamilton", 7)]
    with pytest.raises(Duplicate):  # the same interaction delivered again: nothing twice
        await import_records(clerk.mylantium, r.id, filename="m.csv", records=parse("m.csv", GOOD), users=USERS,
                             actor=1, source_id="int:77")
    assert [k for k, _ in await _kinds(clerk, r.id)].count("FactionRegistered") == 2


async def test_a_file_the_game_refuses_writes_nothing_and_names_every_line(clerk: Clerk, clock: ManualClock) -> None:
    r = await republic(clerk, clock, tv1_i04=False)
    before = await _kinds(clerk, r.id)
    bad = GOOD.replace(b",Cathay,port,", b",Narnia,port,").replace(b"territory,,,,,,Cathay", b"territory,,,,,,Avalon")
    with pytest.raises(ImportRefused) as refused:
        await import_records(clerk.mylantium, r.id, filename="m.csv", records=parse("m.csv", bad), users=USERS,
                             actor=1, source_id="int:78")
    assert refused.value.problems[:2] == (
        "line 4 (territory): mylantium already has a territory called Avalon.",
        "line 5 (building): mylantium has no territory called “Narnia”. Territories: Avalon, Bicardia.")
    assert await _kinds(clerk, r.id) == before
    assert (await clerk.mylantium.government(r.id)).factions == ()


async def test_a_closed_game_refuses_the_file_in_one_line(clerk: Clerk, clock: ManualClock) -> None:
    r = await republic(clerk, clock, tv1_i04=False)
    await clerk.games.close(r.id, actor=1)
    before = await _kinds(clerk, r.id)
    with pytest.raises(GameClosed) as closed:
        await import_records(clerk.mylantium, r.id, filename="m.csv", records=parse("m.csv", GOOD), users=USERS,
                             actor=1, source_id="int:79")
    assert "its ledger is closed" in str(closed.value) and "line" not in str(closed.value)
    assert await _kinds(clerk, r.id) == before
