"""The shared reading of set-up files (``engine/core/importing.py``, docs/import.md): what a CSV line is, and what a
file that cannot be read as records is told (play-test of the import, docs/playtests/import-2026-12-07.md)."""

from __future__ import annotations

import pytest

from engine.core.importing import ImportRefused
from engine.landsdraad.import_file import parse


def refused(data: bytes, name: str = "p.csv") -> tuple[str, ...]:
    with pytest.raises(ImportRefused) as error:
        parse(name, data)
    return error.value.problems


def test_an_unclosed_quote_is_refused_at_its_line_and_swallows_nothing() -> None:
    """Play-test I1.1: a stray opening quote took the rest of the file into one cell; the later players were dropped
    and the first one's faction became the swallowed lines."""
    data = (b'record,user,diplomacy,command,intrigue,roll,faction\n'
            b'player,@alice,3,2,1,2,"Atreides\n'
            b'player,@bob,2,2,2,1,Harkonnen\n'
            b'player,@carol,2,2,2,3,Ordos\n')
    problems = refused(data)
    assert len(problems) == 1
    assert problems[0].startswith('line 2: a quote (") opens in the `faction` cell and is not closed on its line, '
                                  'so it takes in lines 3–4')


def test_a_quote_in_a_middle_column_is_named_there_not_as_a_missing_field() -> None:
    data = (b'record,user,name,diplomacy,command,intrigue,roll\n'
            b'player,@alice,"Al,3,2,1,2\n'
            b'player,@bob,,2,2,2,1\n'
            b'player,@carol,,2,2,2,1\n')
    assert refused(data)[0].startswith('line 2: a quote (") opens in the `name` cell')


def test_a_cell_with_a_line_break_that_closes_later_is_refused_and_the_lines_after_are_read() -> None:
    data = (b'record,user,name,diplomacy,command,intrigue,roll\n'
            b'player,@alice,"Al\n'
            b'the Great",3,2,1,2\n'
            b'player,@bob,,2,2,2,x\n')
    problems = refused(data)
    assert problems[0].startswith('line 2: a quote (") opens in the `name` cell and is not closed on its line, '
                                  'so it takes in line 3')
    assert problems[1].startswith("line 4 (player): `roll`")


def test_quoted_cells_on_one_line_are_read() -> None:
    records = parse("p.csv", b'record,user,name,diplomacy,command,intrigue,roll\n'
                             b'player,@bob,"Bob, Jr.",2,2,2,1\n')
    assert records[0].get("name") == "Bob, Jr."


def test_a_row_whose_first_cell_starts_with_a_hash_is_a_record_not_a_comment() -> None:
    """Play-test I1.2: with `name` as the first column, a player called `#1 Pilot` was skipped as a comment without a
    word."""
    records = parse("p.csv", b"name,record,user,diplomacy,command,intrigue,roll\n"
                             b"#1 Pilot,player,@alice,3,2,1,2\n"
                             b"Bob,player,@bob,2,2,2,1\n")
    assert [(r.line, r.get("name")) for r in records] == [(2, "#1 Pilot"), (3, "Bob")]


def test_comments_are_lines_whose_record_cell_starts_with_a_hash_or_that_have_no_record() -> None:
    records = parse("p.csv", b"name,record,user,diplomacy,command,intrigue,roll\n"
                             b"# the players\n"
                             b"# the players,,,,,,\n"
                             b"x,#player,@carol,2,2,2,1\n"
                             b"Bob,player,@bob,2,2,2,1\n")
    assert [r.line for r in records] == [5]
    records = parse("p.csv", b"record,user,diplomacy,command,intrigue,roll\n#player,@carol,2,2,2,1\n"
                             b"player,@bob,2,2,2,1\n")
    assert [r.line for r in records] == [3]


@pytest.mark.parametrize(("separator", "named"), [(b";", "“;”"), (b"\t", "tabs")])
def test_a_file_separated_by_semicolons_or_tabs_is_told_so(separator: bytes, named: str) -> None:
    """Play-test I4.1: a `;`-separated file (Excel's CSV in much of Europe) was told its header had no `record`
    column, though it plainly starts with `record`."""
    data = separator.join(b"record user diplomacy command intrigue roll".split()) + b"\n" + \
        separator.join(b"player @alice 3 2 1 2".split()) + b"\n"
    assert refused(data) == (f"line 1: the columns are separated by {named}; Clerk reads commas (,). Save the file as "
                             "“CSV UTF-8 (comma delimited)”, or replace the separators with commas.",)


def test_a_header_without_record_is_still_told_it_has_none() -> None:
    assert refused(b"user,diplomacy\n@alice,3\n")[0].startswith("line 1: the header has no `record` column")


def test_a_misspelt_column_is_named_once_at_the_header_with_the_column_meant() -> None:
    """Import play-test ("two-pass checking", typos): `comand` in the header was named on every line as a field a
    player does not have, and again as `command` missing; it is named once, at line 1, with the column meant, and
    the other lines' own problems are named with it."""
    data = (b"record,user,diplomacy,comand,intrigue,roll\n"
            b"player,@alice,3,2,1,2\n"
            b"player,@bob,2,2,2,x\n")
    assert refused(data) == (
        "line 1: no record has a `comand` column (did you mean `command`?); the columns are record, user, name, "
        "diplomacy, command, intrigue, roll, faction, player, kind, tier, quality, votes, homeworld.",
        "line 3 (player): `roll` must be a whole number from 1 to 3, not “x”.")


def test_a_column_like_none_is_named_without_a_guess_and_a_missing_column_on_each_line() -> None:
    data = (b"record,user,diplomacy,intrigue,colour\n"
            b"player,@alice,3,1,red\n")
    problems = refused(data)
    assert problems[0].startswith("line 1: no record has a `colour` column; the columns are record, user,")
    assert problems[1:] == ("line 2 (player): `command` is missing (a whole number from 1 to 5).",)


def test_a_misspelt_choice_and_record_are_suggested() -> None:
    data = (b"record,user,diplomacy,command,intrigue,player,kind,name,quality\n"
            b"player,@alice,3,2,1,,,,\n"
            b"holding,,,,,@alice,planet,Deneb,ritch\n"
            b"holdng,,,,,@alice,planet,Caladan,rich\n")
    assert refused(data) == (
        "line 3 (holding): `quality` must be poor, average or rich, not “ritch”. Did you mean rich?",
        "line 4: the record is “holdng” (did you mean `holding`?); a record is player or holding.")


def test_a_misspelt_key_of_a_toml_table_is_suggested_and_not_also_missing() -> None:
    data = (b'[[player]]\nuser = "@alice"\ndiplomacy = 3\ncomand = 2\nintrigue = 1\n'
            b'[[player]]\nuser = "@bob"\ndiplomacy = 2\ncommand = 2\nintrigue = 2\ncolour = "red"\n')
    assert refused(data, "p.toml") == (
        "line 1 (player): a player has no `comand` (did you mean `command`?); it takes user, name, diplomacy, "
        "command, intrigue, roll, faction.",
        "line 6 (player): a player has no `colour`; it takes user, name, diplomacy, command, intrigue, roll, "
        "faction.")


def test_the_format_of_the_whole_file_is_checked_before_its_records_against_each_other() -> None:
    """Import play-test ("two-pass checking"): a file's format problems and its records' problems with each other
    (a player given twice) were named mixed in one list. Every format problem comes first, alone; once the format is
    sound, the records against each other."""
    data = (b"record,user,diplomacy,command,intrigue,roll\n"
            b"player,@alice,3,2,1,2\n"
            b"player,@alice,2,2,2,1\n"
            b"player,@bob,2,2,2,7\n")
    assert refused(data) == ("line 4 (player): `roll` must be a whole number from 1 to 3, not “7”.",)
    assert refused(data.replace(b",7\n", b",3\n")) == ("line 3 (player): @alice is already added on line 2.",)


def test_mylantium_and_convocate_name_the_format_before_things_given_twice() -> None:
    from engine.convocate.import_file import parse as convocate
    from engine.mylantium.import_file import parse as mylantium
    myl = (b"record,name,faction,user,party\n"
           b"territory,Avalon,,,\n"
           b"territory,Avalon,,,\n"
           b"faction,,PL,@alice,Federalists\n"
           b"faction,,GR,@bob,Tory\n")
    with pytest.raises(ImportRefused) as error:
        mylantium("m.csv", myl)
    assert error.value.problems == ("line 5 (faction): `party` must be Whig or Federalist, not “Tory”.",)
    with pytest.raises(ImportRefused) as error:
        mylantium("m.csv", myl.replace(b"Tory", b"Whig"))
    assert error.value.problems == ("line 3 (territory): Avalon is already given on line 2.",)
    con = (b"record,user,sovereignty,kind,name\n"
           b"player,@alice,Union,,\n"
           b"player,@bob,Kingdon,,\n"
           b"card,,,location,Ironhold\n"
           b"card,,,location,Ironhold\n")
    with pytest.raises(ImportRefused) as error:
        convocate("c.csv", con)
    assert error.value.problems == ("line 3 (player): `sovereignty` must be Union, Republic, Kingdom, Hegemony, HLM or "
                                    "Emberates, not “Kingdon”. Did you mean Kingdom?",)
    with pytest.raises(ImportRefused) as error:
        convocate("c.csv", con.replace(b"Kingdon", b"Kingdom"))
    assert error.value.problems == ("line 5 (card): Ironhold is already given on line 4.",)
