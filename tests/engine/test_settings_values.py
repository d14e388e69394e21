"""How a setting's typed value is refused: saying what was wrong, not only what is accepted (play-test T4.6)."""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.core.settings import Setting, parse_offsets


@pytest.mark.parametrize(("text", "problem"), [
    ("0h", "the duration must be longer than zero"),
    ("5000d", "a duration is at most 3660 days"),
    ("24h, soon", "“soon” is not a duration"),
    ("24h, 0m", "“0m”: the duration must be longer than zero"),
])
def test_a_reminder_list_says_which_part_is_wrong_and_why(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_offsets(text)
    assert caught.value.problem == problem
    assert "`reminders` is a list of durations" in str(caught.value)


def test_a_reminder_list_with_a_space_inside_an_instant_is_refused_with_both_readings() -> None:
    """`1h 30m` could be one instant or two: it is refused, with both ways to write it (play-test T5.9); a space
    after a comma is fine."""
    with pytest.raises(ParseError) as caught:
        parse_offsets("1h 30m")
    assert caught.value.problem == ("“1h 30m” has a space inside: write `1h,30m` for separate reminders or `1h30m` "
                                    "for one")
    assert parse_offsets("24h, 2h") == (86400, 7200)
    assert parse_offsets("1h30m") == (5400,)


def test_a_number_out_of_range_says_it_was_read_and_which_bound_it_passed() -> None:
    penalty = Setting("end_game_penalty", 20, "the End Game penalty", low=0, high=100)
    with pytest.raises(ParseError, match="150 is more than 100"):
        penalty.parse("150")
    with pytest.raises(ParseError, match="-1 is less than 0"):
        penalty.parse("-1")
    assert penalty.parse("25") == 25


@pytest.mark.parametrize(("text", "problem"), [
    ("24h,30s", "a reminder 30s before the deadline leaves no time to vote: each is at least 1m"),
    (",".join(f"{h}h" for h in range(1, 24)),
     "23 reminders would DM each player who has not voted 23 times: at most 6"),
])
def test_a_typed_reminder_list_keeps_to_a_minute_ahead_and_a_handful(text: str, problem: str) -> None:
    """A moderator's `reminders`: none less than a minute before the deadline, and not a DM an hour for a day
    (play-test T5.9); a list stored before these limits is still read as it is."""
    reminders = Setting("reminders", "24h,2h", "when to remind", durations=True)
    with pytest.raises(ParseError) as caught:
        reminders.parse(text)
    assert caught.value.problem == problem
    assert parse_offsets(text)  # what the scheduler reads from a stored value
    assert reminders.parse("1m,6h,5h,4h,3h,2h") == "6h,5h,4h,3h,2h,1m"
