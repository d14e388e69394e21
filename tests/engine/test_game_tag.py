"""A ``#game`` tag at the end of a DM form's line, for a player in several games (docs/input.md)."""

from __future__ import annotations

import pytest

from engine.core.text import split_game_tag
from engine.landsdraad.ballot import parse_ballot
from engine.mylantium.forms import PrimaryChoice, parse_form


@pytest.mark.parametrize(("line", "expected"), [
    ("Vote: Aye #sirius", ("Vote: Aye", "sirius")),
    ("Primary: Lee Adams #rep.", ("Primary: Lee Adams", "rep")),
    ("Primary: Lee Adams #rep!", ("Primary: Lee Adams", "rep")),
    ("Primary: Lee Adams (#rep)", ("Primary: Lee Adams", "rep")),
    ("Primary: Lee Adams (#rep).", ("Primary: Lee Adams", "rep")),
    ("Vote: Aye.", ("Vote: Aye.", None)),  # no tag: the line as it was, its stop for the form to read
    ("Vote: Aye (#)", ("Vote: Aye (#)", None)),
    ("AG Vote: C# Guild", ("AG Vote: C# Guild", None)),
])
def test_a_tag_with_a_stop_or_brackets_is_read_as_the_tag(line: str, expected: tuple[str, str | None]) -> None:
    """Play-test Q5.4: `Primary: Lee Adams #rep.` and `(#rep)` name the game; before, the tag was read as part of
    the name and the menu's example repeated it (`Primary: Lee Adams #rep. #rep`)."""
    assert split_game_tag(line) == expected


def test_the_forms_take_the_tag_so_written() -> None:
    assert parse_form("Primary: Lee Adams (#rep)") == PrimaryChoice("Lee Adams", game="rep")
    assert parse_ballot("Vote: Nay #sirius.").game == "sirius"


@pytest.mark.parametrize(("text", "declared"), [("Vote: Aye (#sirius)", None), ("Vote: Aye (#sirius).", None),
                                                ("Vote: Aye (#sirius), 14", 14), ("Vote: Aye, 14 (#sirius)", 14)])
def test_a_crisis_ballot_reads_its_tag_in_brackets_as_the_other_forms_do(text: str, declared: int | None) -> None:
    """Play-test D4.2: docs/commands.md says brackets around a DM form's `#game` are read through (`(#rep)`); the
    Mylantium, Convocate and transfer forms read them, but `Vote: Aye (#sirius)` was refused ("I read Aye …, but not
    “#sirius”")."""
    ballot = parse_ballot(text)
    assert (ballot.option.value, ballot.declared, ballot.game) == ("aye", declared, "sirius")
