"""Bulk set-up (issue 16, docs/import.md): the Landsdraad file read and applied in one transaction. A bad file names
every bad line and writes nothing; a good one writes what /player add and /holding add would; a redelivery counts
once."""

from __future__ import annotations

import pytest
from conftest import Table

from engine.core.errors import RuleError
from engine.core.importing import ImportRefused
from engine.landsdraad.import_file import parse
from engine.service.landsdraad.imports import import_records
from engine.service.uow import Duplicate

GOOD = b"""record,user,name,diplomacy,command,intrigue,roll,faction,player,kind,tier,quality,votes,homeworld
player,<@11>,alice,3,2,1,2,Atreides,,,,,,
player,<@12>,bob,2,3,2,1,,,,,,,
holding,,Count Jasek,,,,,,<@11>,elector,strong,,4,
holding,,Deneb,,,,,,<@12>,planet,,rich,,
"""
USERS = {"<@11>": (11, "alice"), "<@12>": (12, "bob")}

TOML = b"""
[[player]]
user = "<@11>"
name = "alice"
diplomacy = 3
command = 2
intrigue = 1
roll = 2

[[holding]]
player = "<@11>"
kind = "planet"
name = "Caladan"
quality = "poor"
homeworld = true

[[player]]
user = "<@12>"
diplomacy = "lots"
command = 2
intrigue = 1
"""


def test_a_good_csv_is_read_with_types_and_lines() -> None:
    records = parse("p.csv", GOOD)
    assert [(r.line, r.kind) for r in records] == [(2, "player"), (3, "player"), (4, "holding"), (5, "holding")]
    assert records[0].values == {"user": "<@11>", "name": "alice", "diplomacy": 3, "command": 2, "intrigue": 1,
                                 "roll": 2, "faction": "Atreides"}
    assert records[2].get("votes") == 4 and records[2].get("tier") == "strong"


def test_toml_names_the_line_of_each_table() -> None:
    with pytest.raises(ImportRefused) as refused:
        parse("p.toml", TOML)
    assert refused.value.problems == ("line 17 (player): `diplomacy` must be a whole number from 1 to 5, "
                                      "not “lots”.",)
    ok = parse("p.toml", TOML.replace(b'"lots"', b"2"))
    assert [(r.line, r.kind) for r in ok] == [(2, "player"), (10, "holding"), (17, "player")]
    assert ok[1].get("homeworld") is True


@pytest.mark.parametrize(("line", "problem"), [
    (b"player,<@13>,carol,3,2,1,4,,,,,,,", "line 6 (player): `roll` must be a whole number from 1 to 3, not “4”."),
    (b"player,<@13>,carol,3,,1,,,,,,,,", "line 6 (player): `command` is missing (a whole number from 1 to 5)."),
    (b"player,<@13>,carol,6,2,1,,,,,,,,", "line 6 (player): `diplomacy` must be a whole number from 1 to 5, not “6”."),
    (b"player,@,carol,3,2,1,,,,,,,,", "line 6 (player): `user` must be a user: @name, <@id> or the user's id, "
                                      "not “@”."),
    (b"player,<@11>,alice,3,2,1,,,,,,,,", "line 6 (player): <@11> is already added on line 2."),
    (b"holding,,Deneb,,,,,,<@11>,planet,,poor,,", "line 6 (holding): Deneb is already given on line 5."),
    (b"holding,,Arrakis,,,,,,<@11>,moon,,poor,,", "line 6 (holding): `kind` must be elector or planet, not “moon”."),
    (b"holding,,Arrakis,,,,,,<@11>,planet,,poor,3,",
     "line 6 (holding): a planet's votes come from its quality (poor 2, average 3, rich 4); leave `votes` out."),
    (b"holding,,Count Fenring,,,,,,<@11>,elector,,,3,", "line 6 (holding): an Elector needs its `tier` "
                                                       "(weak, average or strong)."),
    (b"holding,,Arrakis,,,,,,<@11>,planet,,poor,,maybe", "line 6 (holding): `homeworld` must be true or false, "
                                                         "not “maybe”."),
    (b"wizard,<@13>", "line 6: the record is “wizard”; a record is player or holding."),
    (b"player,<@13>,carol,3,2,1,,,,,,,,,extra", "line 6: 15 cells, but the header names 14 columns; cell 15 (“extra”) "
                                                "is past the last column. Name the column in the header, or move or "
                                                "remove what is in it."),
])
def test_each_kind_of_bad_line_is_named_and_nothing_is_returned(line: bytes, problem: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        parse("p.csv", GOOD + line + b"\n")
    assert refused.value.problems == (problem,)
    assert "Nothing was imported from p.csv" in str(refused.value)


def test_files_that_cannot_be_read_are_refused_whole() -> None:
    with pytest.raises(RuleError, match=r"a \.csv or a \.toml file"):
        parse("p.xlsx", GOOD)
    with pytest.raises(RuleError, match="at most 256 KB"):
        parse("p.csv", GOOD + b"#" * 300_000)
    with pytest.raises(RuleError, match="not UTF-8"):
        parse("p.csv", b"record,user\nplayer,\xff\xfe")
    with pytest.raises(ImportRefused, match="no `record` column"):
        parse("p.csv", b"user,diplomacy\n@a,1\n")


async def test_a_good_file_writes_the_same_events_as_the_commands(table: Table) -> None:
    counts = await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="p.csv",
                                  records=parse("p.csv", GOOD), users=USERS, actor=1, source_id="int:77")
    assert counts == {"player": 2, "holding": 2}
    events = [(e.kind, e.source_id) for e in await table.events()]
    assert events[-5:] == [("PlayerAdded", "int:77/1"), ("PlayerAdded", "int:77/2"), ("HoldingAdded", "int:77/3"),
                           ("HoldingAdded", "int:77/4"), ("GameImported", "int:77")]
    players = {p.name: p for p in await table.clerk.landsdraad.ledger.players(table.game_id)}
    assert players["alice"].breakdown.electors == 4
    assert [h.name for h in players["bob"].holdings] == ["Deneb"]
    with pytest.raises(Duplicate):  # the same interaction delivered again: nothing twice
        await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="p.csv",
                             records=parse("p.csv", GOOD), users=USERS, actor=1, source_id="int:77")
    assert [e.kind for e in await table.events()].count("PlayerAdded") == 2


async def test_a_file_the_game_refuses_writes_nothing_and_names_every_line(table: Table) -> None:
    await table.player(12, "bob", 2, 2, 2)
    before = await table.kinds()
    with pytest.raises(ImportRefused) as refused:
        await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="p.csv",
                             records=parse("p.csv", GOOD), users=USERS, actor=1, source_id="int:78")
    assert refused.value.problems == (
        "line 3 (player): bob is already a player in sirius. /player set changes their name, faction, Diplomacy, "
        "Command, Intrigue, d3 roll, misc votes and whether they are active (add `since:` to correct votes in rounds "
        "already closed). Added as the wrong member? /player remove them, then /player add the right one (during "
        "set-up the channel is not told and a player removed before the first round opens does not count for the "
        "Pot).",)
    assert await table.kinds() == before
    assert [p.name for p in await table.clerk.landsdraad.ledger.players(table.game_id)] == ["bob"]


async def test_a_holding_of_no_player_names_the_cell_and_the_real_cause(table: Table) -> None:
    """Play-test I4.4: "That user is not a player in l5." for a holding before its player's line, and for `@bob`
    meaning the player named bob (a member called bob who is not the player)."""
    data = (b"record,user,name,diplomacy,command,intrigue,player,kind,quality\n"
            b"holding,,Deneb,,,,<@11>,planet,poor\n"
            b"player,<@11>,alice,3,2,1,,,\n"
            b"player,<@12>,bob,2,2,2,,,\n"
            b"holding,,Caladan,,,,@bob,planet,rich\n"
            b"holding,,Ix,,,,<@13>,planet,rich\n")
    users = {**USERS, "@bob": (99, "bob"), "<@13>": (13, "carol")}
    with pytest.raises(ImportRefused) as refused:
        await import_records(table.clerk.landsdraad.ledger, table.game_id, filename="p.csv",
                             records=parse("p.csv", data), users=users, actor=1, source_id="int:79")
    assert refused.value.problems == (
        "line 2 (holding): <@11> is not a player yet: they are added on line 3. Put players before their holdings.",
        "line 5 (holding): @bob is the member bob, who is not a player; the player named “bob” (line 4) is <@12>: "
        "write that.",
        "line 6 (holding): <@13> (carol) is not a player; add them with a player line before their holdings, or "
        "/player add.")
