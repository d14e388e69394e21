"""Temporary Factions (R0-16, P0-04): a fixed stance or a d6 table, as a moderator writes it.

R0-16: "Each Temporary Faction casts all of its votes for a single option: a fixed option, or the option its
d6 table gives for one die roll [...] The document's example table is `1–3 → Nay, 4 → Abstain, 5–6 → Aye`."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import ParseError, RuleError
from engine.landsdraad.factions import (
    TABLE_ACCEPTED,
    DieTable,
    TempFaction,
    faction_option_map,
    make_faction,
    parse_table,
)
from engine.landsdraad.model import Option

AYE, NAY, ABSTAIN = Option.AYE, Option.NAY, Option.ABSTAIN


def test_the_boars_table_from_the_document() -> None:
    """"Note that the Boars will have a die rolled for them, 1-3 Nay, 4 Abstain, 5-6 Aye"."""
    table = parse_table("1-3 nay, 4 abstain, 5-6 aye")
    assert table.faces == (NAY, NAY, NAY, ABSTAIN, AYE, AYE)
    assert [table.option_for(face) for face in range(1, 7)] == [NAY, NAY, NAY, ABSTAIN, AYE, AYE]
    assert table.odds() == {NAY: 3, ABSTAIN: 1, AYE: 2}


@pytest.mark.parametrize(
    "text",
    ["1-3 Nay, 4 Abstain, 5-6 Aye", "1-3 no; 4 abstain; 5-6 yes", "1 - 3 nay / 4 abstain / 5 - 6 aye",
     "1:nay, 2:nay, 3=nay, 4 abstain, 5 aye, 6 aye", "5-6 aye, 4 abstain, 1-3 nay"],
)
def test_table_spellings(text: str) -> None:
    assert parse_table(text).describe() == "1-3 nay, 4 abstain, 5-6 aye"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("1-3 nay, 5-6 aye", "no option for face 4"),
        ("1-2 nay, 5 aye", "no option for face 3, 4, 6"),
        ("1-3 nay, 3-6 aye", "face 3 is given twice"),
        ("1-6 aye, 2 nay", "face 2 is given twice"),
        ("1-3 maybe, 4-6 aye", "“maybe” is not aye, nay or abstain"),
        ("1-7 aye", "not within faces 1 to 6"),
        ("0 nay, 1-6 aye", "not within faces 1 to 6"),
        ("4-1 nay, 5-6 aye", "not within faces 1 to 6"),
        ("Boars roll", "is not `face option` or `from-to option`"),
    ],
)
def test_table_errors_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_table(text)
    message = str(caught.value)
    assert problem in message
    assert f"“{text}”" in message
    assert f"Accepted: {TABLE_ACCEPTED}" in message


@given(st.tuples(*[st.sampled_from([AYE, NAY, ABSTAIN])] * 6))
def test_describe_round_trips(faces: tuple[Option, Option, Option, Option, Option, Option]) -> None:
    """What Clerk shows a moderator (and stores) reads back as the same table."""
    table = DieTable(faces)
    assert parse_table(table.describe()) == table


def test_describe_merges_runs() -> None:
    assert DieTable((AYE,) * 6).describe() == "1-6 aye"
    assert DieTable((AYE, NAY, AYE, NAY, AYE, NAY)).describe() == "1 aye, 2 nay, 3 aye, 4 nay, 5 aye, 6 nay"


def test_make_faction_fixed_and_d6() -> None:
    hawks = make_faction("Hawks", 20, "Aye", None)
    assert (hawks.fixed, hawks.table, hawks.rolls, hawks.vote(None)) == (AYE, None, False, AYE)
    assert make_faction("Doves", 12, "no", None).fixed is NAY
    boars = make_faction("Boars", 12, "D6", "1-3 nay, 4 abstain, 5-6 aye")
    assert boars.rolls and boars.vote(4) is ABSTAIN and boars.vote(6) is AYE
    assert faction_option_map(boars)[1] is NAY
    assert faction_option_map(hawks) == {}


def test_make_faction_errors() -> None:
    with pytest.raises(ParseError, match="a stance of `aye`, `nay`, `abstain` or `d6`"):
        make_faction("Boars", 12, "maybe", None)
    with pytest.raises(RuleError, match="needs a table"):
        make_faction("Boars", 12, "d6", None)
    with pytest.raises(RuleError, match="takes no table"):
        make_faction("Hawks", 20, "aye", "1-6 aye")
    with pytest.raises(RuleError, match="more than 0 votes"):
        make_faction("Hawks", 0, "aye", None)
    with pytest.raises(RuleError, match="either a fixed stance or a d6 table"):
        TempFaction("Odd", 3)
    with pytest.raises(RuleError, match="no roll was given"):
        make_faction("Boars", 12, "d6", "1-6 nay").vote(None)
    with pytest.raises(RuleError, match="1 to 6, not 0"):
        make_faction("Boars", 12, "d6", "1-6 nay").vote(0)
