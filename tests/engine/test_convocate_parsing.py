"""Reading Convocate text (DESIGN.md: text -> command, ParseError quoting the input): ``Motion: <name> by
<Convocant>`` with its optional lines, ``Motion of Repeal: <Statute> by <Convocant>``, ``Second: …``, and the card
data moderators type (Seat faces, card lists, one-time Sections)."""

from __future__ import annotations

import pytest

from engine.convocate.board import Face
from engine.convocate.motions import Box
from engine.convocate.parsing import (
    MoveMotion,
    MoveRepeal,
    SecondAnswer,
    looks_like,
    parse,
    parse_faces,
    parse_names,
    parse_one_time,
)
from engine.core.errors import ParseError


def test_a_motion_with_its_lines() -> None:
    parsed = parse("Motion: Emergency Powers by High King Corovan III\nMoved: Draw two cards.\n"
                   "Seconded: Instead, draw three.\nMorality: Ruthless\nTargets: HW_B\nOnly: High King Corovan III")
    assert isinstance(parsed, MoveMotion)
    m = parsed.motion
    assert (parsed.convocant, m.name, m.moved, m.morality, m.targets, m.only) == (
        "High King Corovan III", "Emergency Powers", "Draw two cards.", "Ruthless", "HW_B", "High King Corovan III")
    assert m.box is Box.INSTEAD


def test_a_motion_without_a_seconded_line_has_the_usual_box_and_none_means_none() -> None:
    bare = parse("motion:  Land   Reform by Kista")
    assert isinstance(bare, MoveMotion) and bare.motion.name == "Land Reform" and bare.motion.box is Box.ADDS
    none = parse("Motion: Land Reform by Kista\nSeconded: none")
    assert isinstance(none, MoveMotion) and none.motion.box is Box.NONE


def test_the_last_by_splits_the_name_from_the_convocant() -> None:
    parsed = parse("Motion: Trial by Combat by Kista")
    assert isinstance(parsed, MoveMotion) and (parsed.motion.name, parsed.convocant) == ("Trial by Combat", "Kista")


def test_a_motion_of_repeal() -> None:
    assert parse("Motion of Repeal: Statute 3498C by Kista") == MoveRepeal("Statute 3498C", "Kista")
    with pytest.raises(ParseError, match="has no card"):
        parse("Motion of Repeal: X by Kista\nMorality: Loyal")


@pytest.mark.parametrize(("text", "answer"), [
    ("Second: yes", SecondAnswer(True)), ("Second: no", SecondAnswer(False)), ("second: Pass", SecondAnswer(False)),
    ("Second: Kista", SecondAnswer(True, "Kista")), ("Second: yes, with Kista", SecondAnswer(True, "Kista")),
    ("Second: yes #hegemony", SecondAnswer(True, None, "hegemony")),
    ("Second: High King Corovan III #hegemony", SecondAnswer(True, "High King Corovan III", "hegemony"))])
def test_answers_to_the_offer(text: str, answer: SecondAnswer) -> None:
    assert parse(text) == answer


@pytest.mark.parametrize(("text", "problem"), [
    ("Motion: Land Reform", "name the Convocant who moves it"),
    ("Motion: Land Reform by Kista\nMoral: Loyal", "is not one of the Motion's lines"),
    ("Motion to Repeal: X by Kista", "that is not a Motion form"),
    ("Second:", "say whom you second with"),
])
def test_unreadable_forms_say_what_is_accepted(text: str, problem: str) -> None:
    with pytest.raises(ParseError, match=problem) as caught:
        parse(text)
    assert "Accepted:" in str(caught.value) and "I couldn't read" in str(caught.value)


def test_near_misses_get_a_suggestion() -> None:
    with pytest.raises(ParseError) as caught:
        parse("Motion: Land Reform by Kista\nMorallity: Loyal")
    assert "Did you mean “Morality: ...”?" in str(caught.value)
    with pytest.raises(ParseError) as repeal:
        parse("Motion to Repeal: X by Kista")
    assert "Did you mean “Motion of Repeal: X by Kista”?" in str(repeal.value)


def test_chat_is_not_a_command() -> None:
    assert parse("I move that we adjourn") is None and parse("") is None
    assert looks_like("Motion: X by Y") and looks_like("Second: no") and not looks_like("hello")


def test_seat_faces() -> None:
    assert parse_faces("prime: 0..4 directive; contested: 0..+4") == (
        Face("prime", frozenset(range(0, 5)), True), Face("contested", frozenset(range(0, 5)), False))
    assert parse_faces("-4..-1") == (Face("prime", frozenset({-4, -3, -2, -1})),)
    assert parse_faces("prime: directive") == (Face("prime", None, True),)
    assert parse_faces("prime: −4..−2, +3") == (Face("prime", frozenset({-4, -3, -2, 3})),)
    for bad, problem in (("prime: 3..1", "runs backwards"), ("prime: 0..5", "from -4 to \\+4"),
                         ("prime: lots", "not a GOVT value"), ("a: 1; A: 2", "named twice")):
        with pytest.raises(ParseError, match=problem):
            parse_faces(bad)


def test_card_lists_and_one_time_sections() -> None:
    assert parse_names("P_A, K_A and J_A; M_A") == ["P_A", "K_A", "J_A", "M_A"]
    assert parse_one_time("1, 3") == ((1, 3), {})
    assert parse_one_time("1; 2: Rank + 1 = 3") == ((1, 2), {2: "Rank + 1 = 3"})
    with pytest.raises(ParseError, match="not a Section number"):
        parse_one_time("first")


@pytest.mark.parametrize(("text", "meant"), [("Yes", "Second: yes"), ("No", "Second: no"),
                                             ("Vote: Dorn", "Second: Dorn"), ("second kista #s", "Second: kista #s"),
                                             # no Convocant named: the Motion offered, with the only eligible one
                                             ("Second", "Second: yes"), ("I second it!", "Second: yes"),
                                             ("second that #s", "Second: yes #s"),
                                             ("Seconded: the motion", "Second: yes"),
                                             ("good morning", None), ("second hand", "Second: hand"),
                                             ("I second with Dorn", "Second: Dorn"), ("Second; Dorn", "Second: Dorn"),
                                             ("second with", None)])
def test_the_form_an_unread_dm_meant(text: str, meant: str | None) -> None:
    """Issue 17: what the answer to a DM no form read suggests to a player of the Convocate."""
    from engine.convocate.parsing import meant_form

    assert meant_form(text) == meant


@pytest.mark.parametrize("text", ['Second: "Kista"', "Second: “Kista”", "Second: Kista.", "Second: yes, Kista!"])
def test_quotation_marks_and_a_full_stop_around_a_convocant_are_read_through(text: str) -> None:
    """Play-test Q5.1: `Second: Kista.` was "There is no card called “Kista.” on the board. Did you mean Kista?"."""
    assert parse(text) == SecondAnswer(True, "Kista")
