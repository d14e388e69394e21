"""A ``#game`` tag at the end of a DM form's line, for a player in several games (docs/input.md)."""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.core.text import game_tags, split_game_tag
from engine.landsdraad.ballot import BallotCommand, parse_ballot
from engine.landsdraad.model import Option
from engine.mylantium.forms import CoupAnswer, GeneralChoice, Pledge, PrimaryChoice, parse_form
from engine.mylantium.model import Party


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


@pytest.mark.parametrize(("line", "anywhere", "expected"), [
    ("Aye #sirius, 11", True, ("Aye, 11", ("sirius",))),
    ("Aye (#sirius), 11", True, ("Aye, 11", ("sirius",))),
    ("Aye #sirius #Sirius", True, ("Aye", ("sirius",))),
    ("Aye #sirius #orion", True, ("Aye", ("sirius", "orion"))),
    ("Aye #sirius, 11", False, ("Aye #sirius, 11", ())),  # after a name, only a tag at the end is one
    ("Budget #2 by Dorn #rep", False, ("Budget #2 by Dorn", ("rep",))),
    ("C# Guild", True, ("C# Guild", ())),  # no space before the `#`: part of a name, in either reading
    ("C# Guild", False, ("C# Guild", ())),
    ("Aye #sirius)", True, ("Aye #sirius)", ())),
])
def test_one_reading_of_a_tag_at_the_end_or_anywhere(line: str, anywhere: bool,
                                                     expected: tuple[str, tuple[str, ...]]) -> None:
    """One mechanism for every ruleset's `#game` (docs/input.md "A #game tag"): Landsdraad's crisis ballot had its own
    pattern; a tag in brackets is now read there too."""
    assert game_tags(line, anywhere=anywhere) == expected


def test_a_tag_anywhere_in_a_form_without_a_name_and_at_the_end_after_one() -> None:
    assert parse_ballot("Vote: Aye (#sirius), 11") == BallotCommand(Option.AYE, 11, False, game="sirius")
    assert parse_form("General: #rep Whig") == GeneralChoice(Party.WHIG, game="rep")
    assert parse_form("Contribute: 20 #rep to the Vanguard") == Pledge(20, True, game="rep")
    assert parse_form("Coup: yes #rep, please") == CoupAnswer(True, game="rep")
    assert parse_form("Primary: Ann #2 Oakes #rep") == PrimaryChoice("Ann #2 Oakes", game="rep")
    with pytest.raises(ParseError) as two:
        parse_form("Realign: Whig #rep #other")
    assert "it names 2 games (#rep, #other); a choice is for one game" in str(two.value)


@pytest.mark.parametrize(("text", "declared"), [("Vote: Aye (#sirius)", None), ("Vote: Aye (#sirius).", None),
                                                ("Vote: Aye (#sirius), 14", 14), ("Vote: Aye, 14 (#sirius)", 14)])
def test_a_crisis_ballot_reads_its_tag_in_brackets_as_the_other_forms_do(text: str, declared: int | None) -> None:
    """Play-test D4.2: docs/commands.md says brackets around a DM form's `#game` are read through (`(#rep)`); the
    Mylantium, Convocate and transfer forms read them, but `Vote: Aye (#sirius)` was refused ("I read Aye …, but not
    “#sirius”")."""
    ballot = parse_ballot(text)
    assert (ballot.option.value, ballot.declared, ballot.game) == ("aye", declared, "sirius")
