"""Bulk set-up of a Convocate table (issue 16, docs/import.md): the file read (every bad line named) and applied in
one transaction through /convocate player's and /card add's use cases; a bad file writes nothing, a good one
writes the same events as the commands (a player's Homeworld set once its card is on the board), and a redelivery
counts once."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from engine.convocate.import_file import parse
from engine.core.errors import RuleError
from engine.core.importing import ImportRefused, Record
from engine.service import Clerk
from engine.service.convocate.imports import import_records
from engine.service.uow import Duplicate
from engine.service.views import GameView
from engine.store.models import Event

HEADER = b"record,user,name,sovereignty,order,homeworld,kind,controller,owner,vote,pallarch,at,morality,faces,readied\n"
GOOD = HEADER + b"""player,<@11>,Alice,Union,,Union Prime,,,,,,,,,
player,<@12>,,kingdom,,,,,,,,,,,
card,,Union Prime,,,,homeworld,<@11>,,,,,,,
card,,Korhal,,,,homeworld,<@12>,,,,,,,
card,,Union Senate,Union,,,seat,<@11>,,,,,,prime: 0..4,
card,,Lady Mirel,,,,character,<@12>,,,true,Korhal,Ruthless,,
card,,Ironhold,,,,location,<@12>,<@11>,2,,,,,false
"""
USERS = {"<@11>": (11, "alice"), "<@12>": (12, "bob"), "<@13>": (13, "carol")}


def test_a_good_csv_is_read_with_types_and_lines() -> None:
    records = parse("s.csv", GOOD)
    assert [(r.line, r.kind) for r in records] == [(2, "player"), (3, "player")] + [(n, "card") for n in range(4, 9)]
    assert records[0].values == {"user": "<@11>", "name": "Alice", "sovereignty": "Union", "homeworld": "Union Prime"}
    assert records[1].get("sovereignty") == "Kingdom"
    assert records[5].values == {"name": "Lady Mirel", "kind": "character", "controller": "<@12>", "pallarch": True,
                                 "at": "Korhal", "morality": "Ruthless"}
    assert records[6].get("readied") is False and records[6].get("vote") == 2


def test_toml_names_the_line_of_each_table() -> None:
    toml = (b'[[player]]\nuser = "<@11>"\nsovereignty = "Union"\n\n'
            b'[[card]]\nkind = "homeworld"\nname = "HW"\nvote = -1\n')
    with pytest.raises(ImportRefused) as refused:
        parse("s.toml", toml)
    assert refused.value.problems == ("line 5 (card): `vote` must be a whole number, at least 0, not “-1”.",)


@pytest.mark.parametrize(("line", "problem"), [
    (b"player,<@13>,,Empire,,,,,,,,,,,", "line 9 (player): `sovereignty` must be Union, Republic, Kingdom, "
                                         "Hegemony, HLM or Emberates, not “Empire”."),
    (b"player,,,Union,,,,,,,,,,,", "line 9 (player): `user` is missing (a user: @name, <@id> or the user's id)."),
    (b"player,<@11>,,Union,,,,,,,,,,,", "line 9 (player): <@11> is already given on line 2."),
    (b"player,<@13>,alice,Union,,,,,,,,,,,", "line 9 (player): alice is already given on line 2."),
    (b"player,<@13>,,Union,0,,,,,,,,,,", "line 9 (player): `order` must be a whole number, at least 1, not “0”."),
    (b"player,<@13>,,Union,,Ironhold,,,,,,,,,", "line 9 (player): Ironhold is a location card in this file, not a "
                                                "Homeworld."),
    (b"card,,Tribune,,,,planet,<@13>,,,,,,,", "line 9 (card): `kind` must be character, ground-unit, location, "
                                              "homeworld, seat or permanent, not “planet”."),
    (b"card,,korhal,,,,location,<@12>,,,,,,,", "line 9 (card): korhal is already given on line 5."),
    (b"card,,Quill,,,,character,<@12>,,,perhaps,,,,", "line 9 (card): `pallarch` must be true or false, "
                                                      "not “perhaps”."),
    (b"card,,Quill,,,,character,@,,,,,,,", "line 9 (card): `controller` must be a user: @name, <@id> or the user's "
                                           "id, not “@”."),
    (b"card,,,,,,character,<@12>,,,,,,,", "line 9 (card): `name` is missing (text)."),
])
def test_each_kind_of_bad_line_is_named_and_nothing_is_returned(line: bytes, problem: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        parse("s.csv", GOOD + line + b"\n")
    assert refused.value.problems == (problem,)


FACES = ("`faces`: I couldn't read “prime: 0..9”: GOVT runs from -4 to +4. Accepted: faces such as "
         "`prime: 0..4 directive; contested: 0..4`")


def test_a_bad_faces_value_is_a_named_line_with_the_others() -> None:
    """Play-test I4.3: a bad `faces` stopped the check with no line, no "Nothing was imported" and no other
    problems."""
    bad = GOOD + b"card,,Quill,,,,seat,<@12>,,,,,,prime: 0..9,\ncard,,,,,,character,<@12>,,,,,,,\n"
    with pytest.raises(ImportRefused) as refused:
        parse("s.csv", bad)
    assert str(refused.value).startswith("Nothing was imported from s.csv: 2 problems.")
    assert refused.value.problems[0].startswith("line 9 (card): " + FACES)
    assert refused.value.problems[1] == "line 10 (card): `name` is missing (text)."


async def test_a_value_the_use_case_cannot_read_is_named_with_its_line(clerk: Clerk) -> None:
    g = await _game(clerk)
    records = [*parse("s.csv", GOOD), Record(9, "card", {"kind": "seat", "name": "Quill", "faces": "prime: 0..9"})]
    with pytest.raises(ImportRefused) as refused:
        await import_records(clerk.convocate.board, g.id, filename="s.csv", records=records, users=USERS, actor=1,
                             source_id="int:81")
    assert len(refused.value.problems) == 1
    assert refused.value.problems[0].startswith("line 9 (card): I couldn't read “prime: 0..9”: GOVT runs from -4")


async def _game(clerk: Clerk) -> GameView:
    return await clerk.games.create_game(guild_id=900, channel_id=901, name="senate", ruleset="convocate",
                                         moderator_role_id=None, actor=1)


async def _events(clerk: Clerk, game_id: int) -> list[tuple[str, str | None]]:
    async with clerk._sessions() as session:
        found = await session.execute(select(Event.kind, Event.source_id).where(Event.game_id == game_id)
                                      .order_by(Event.seq))
        return [(k, s) for k, s in found.all()]


async def test_a_good_file_writes_the_same_events_as_the_commands(clerk: Clerk) -> None:
    g = await _game(clerk)
    counts = await import_records(clerk.convocate.board, g.id, filename="s.csv", records=parse("s.csv", GOOD),
                                  users=USERS, actor=1, source_id="int:77")
    assert counts == {"player": 2, "card": 5}
    assert (await _events(clerk, g.id))[-9:] == [
        ("ConvocatePlayerAdded", "int:77/1"), ("ConvocatePlayerAdded", "int:77/2"),
        *[("CardAdded", f"int:77/{n}") for n in range(3, 8)],
        ("ConvocatePlayerChanged", "int:77/8"), ("GameImported", "int:77")]
    view = await clerk.convocate.board.board(g.id)
    assert [(s.player, s.sovereignty, s.order, s.homeworld, s.vote.total) for s in view.standings] == [
        ("Alice", "Union", 1, "Union Prime", 1), ("bob", "Kingdom", 2, "Korhal", 3)]  # Ironhold is activated
    ironhold = view.board.card("Ironhold")
    assert (ironhold.controller, ironhold.owner, ironhold.vote, ironhold.readied) == ("bob", "Alice", 2, False)
    mirel = view.board.card("Lady Mirel")
    assert (mirel.pallarch, mirel.vote, mirel.at) == (True, 2, "Korhal")
    with pytest.raises(Duplicate):  # the same interaction delivered again: nothing twice
        await import_records(clerk.convocate.board, g.id, filename="s.csv", records=parse("s.csv", GOOD),
                             users=USERS, actor=1, source_id="int:77")
    assert [k for k, _ in await _events(clerk, g.id)].count("CardAdded") == 5


async def test_a_file_the_game_refuses_writes_nothing_and_names_every_line(clerk: Clerk) -> None:
    g = await _game(clerk)
    await clerk.convocate.board.set_player(g.id, user_id=12, name="bob", sovereignty_name="Kingdom", order=None,
                                           homeworld=None, temp=None, actor=1)
    before = await _events(clerk, g.id)
    bad = GOOD + b"card,,Tribune,,,,homeworld,<@13>,,,,,,,\ncard,,Quill,,,,character,,,,,Nowhere,,,\n"
    with pytest.raises(ImportRefused) as refused:
        await import_records(clerk.convocate.board, g.id, filename="s.csv", records=parse("s.csv", bad),
                             users=USERS, actor=1, source_id="int:78")
    assert refused.value.problems[:2] == (
        "line 3 (player): bob is already at the table; change them with /convocate player.",
        "line 9 (card): its controller carol is not at the table; seat them first (a player line earlier in the "
        "file, or /convocate player).")
    assert len(refused.value.problems) == 3 and refused.value.problems[2].startswith("line 10 (card): ")
    assert await _events(clerk, g.id) == before
    assert [s.player for s in (await clerk.convocate.board.board(g.id)).standings] == ["bob"]


async def test_two_players_at_one_turn_order_and_another_players_homeworld_are_refused(clerk: Clerk) -> None:
    """Play-test I1.6: alice and bob were both "turn order 2", and alice's Homeworld was the card the same file gave
    bob. The import and /convocate player refuse both by the same check."""
    g = await _game(clerk)
    bad = HEADER + b"""player,<@11>,alice,Union,2,,,,,,,,,,
player,<@12>,bob,Kingdom,2,,,,,,,,,,
"""
    with pytest.raises(ImportRefused) as refused:
        await import_records(clerk.convocate.board, g.id, filename="s.csv", records=parse("s.csv", bad),
                             users=USERS, actor=1, source_id="int:79")
    assert refused.value.problems == (
        "line 3 (player): Turn order 2 is alice's; each player has their own place (free 2 first by moving alice, "
        "or give bob another number).",)
    bad = HEADER + b"""player,<@11>,alice,Union,1,Korhal,,,,,,,,,
player,<@12>,bob,Kingdom,2,,,,,,,,,,
card,,Korhal,,,,homeworld,<@12>,,,,,,,
card,,Union Prime,,,,homeworld,<@11>,,,,,,,
"""
    with pytest.raises(ImportRefused) as refused:
        await import_records(clerk.convocate.board, g.id, filename="s.csv", records=parse("s.csv", bad),
                             users=USERS, actor=1, source_id="int:79")
    assert refused.value.problems == ("line 2 (homeworld): Korhal is bob's Homeworld (its owner), not alice's.",)
    assert [s.player for s in (await clerk.convocate.board.board(g.id)).standings] == []
    board = clerk.convocate.board
    await import_records(board, g.id, filename="s.csv", records=parse("s.csv", GOOD), users=USERS, actor=1,
                         source_id="int:80")
    with pytest.raises(RuleError, match="Turn order 1 is Alice's"):
        await board.set_player(g.id, user_id=12, name="bob", sovereignty_name=None, order=1, homeworld=None,
                               temp=None, actor=1)
    with pytest.raises(RuleError, match="Korhal is bob's Homeworld"):
        await board.set_player(g.id, user_id=11, name="Alice", sovereignty_name=None, order=None,
                               homeworld="Korhal", temp=None, actor=1)
    await board.set_player(g.id, user_id=12, name="bob", sovereignty_name=None, order=3, homeworld="korhal",
                           temp=None, actor=1)  # a free place, and their own Homeworld
    assert [(s.player, s.order) for s in (await board.board(g.id)).standings] == [("Alice", 1), ("bob", 3)]


@pytest.mark.parametrize(("line", "problem"), [
    (b"card,,Corovan,,,,character,<@12>,,3,,,,,", "line 9 (card): No card prints Vote 3 (rules §6.1): a Character "
                                                  "prints 1, or 0 if its card prints 0, and a Pallarch (one of the "
                                                  "Ten) 2."),
    # the rule for the card's own kind (play-test I4.7)
    (b"card,,Watchtower,,,,location,<@12>,,3,,,,,", "line 9 (card): No card prints Vote 3 (rules §6.1): a Location "
                                                    "keeps the Vote it prints, 0, 1 or 2."),
    (b"card,,Tribune,,,,homeworld,<@12>,,3,,,,,", "line 9 (card): No card prints Vote 3 (rules §6.1): every "
                                                  "Homeworld prints 1."),
    (b"card,,Quill,,,,character,<@12>,,2,,,,,", "line 9 (card): Only a Pallarch (one of the Ten) prints Vote 2; every "
                                                "other Character prints 1, or 0 if its card prints 0 (rules §6.1). "
                                                "Give `pallarch:true` if it is one of the Ten."),
    (b"card,,Tribune,,,,homeworld,<@12>,,2,,,,,", "line 9 (card): Every Homeworld prints Vote 1, not 2 (rules §6.1); "
                                                  "leave `vote` out."),
])
def test_a_vote_the_card_cannot_print_is_a_bad_line(line: bytes, problem: str) -> None:
    """Issue 16: the file is checked like /card add; a typed Vote 3 is refused with the rule, not stored as 1."""
    with pytest.raises(ImportRefused) as refused:
        parse("s.csv", GOOD + line + b"\n")
    assert refused.value.problems == (problem,)
