"""Deadlines as moderators type them (issue 2: "a deadline is a duration such as `2h30m` or a UTC time such as
`2026-03-01 20:00`"; rules-spec §0.3: "Timestamps are UTC")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.core.durations import format_remaining, format_utc, parse_deadline, parse_duration, parse_utc, read_deadline
from engine.core.errors import ParseError
from engine.core.stamps import discord_text, utc_text
from engine.core.zones import parse_zone, zone

NOW = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("2h30m", timedelta(hours=2, minutes=30)),
        ("90m", timedelta(minutes=90)),
        ("1d", timedelta(days=1)),
        ("1d12h", timedelta(days=1, hours=12)),
        ("1w", timedelta(weeks=1)),
        ("45s", timedelta(seconds=45)),
        (" 2H ", timedelta(hours=2)),
    ],
)
def test_durations_count_from_now(text: str, delta: timedelta) -> None:
    assert parse_deadline(text, NOW) == NOW + delta
    assert parse_duration(text) == delta


@pytest.mark.parametrize(
    "text", ["2026-03-01 20:00", "2026-03-01T20:00", "2026-03-01 20:00:00", "2026-03-01T20:00Z", "2026-03-01 20:00 UTC"]
)
def test_utc_times(text: str) -> None:
    when = parse_deadline(text, NOW)
    assert when == datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    assert when.tzinfo is not None and when.utcoffset() == timedelta(0)


@pytest.mark.parametrize("text", ["2026-03-01 17:59", "2026-03-01 18:00", "2025-12-31"])
def test_past_times_are_rejected(text: str) -> None:
    """A deadline at the current instant is already reached (P0-15), so it is refused too."""
    with pytest.raises(ParseError, match="that time has already passed") as caught:
        parse_deadline(text, NOW)
    assert "2026-03-01 18:00 UTC" in str(caught.value)


@pytest.mark.parametrize("text", ["soon", "tomorrow evening", "2h30", "-5m", "1.5h", "2026-02-30 10:00", "h", ""])
def test_garbage_is_rejected_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_deadline(text, NOW)
    message = str(caught.value)
    assert f"“{text.strip()}”" in message
    assert "`2h30m`" in message and "`2026-03-01 20:00`" in message


def test_zero_duration_is_rejected() -> None:
    with pytest.raises(ParseError, match="longer than zero"):
        parse_deadline("0m", NOW)


def test_parse_utc_alone_and_formatting() -> None:
    with pytest.raises(ParseError, match="a UTC time such as"):
        parse_utc("2h")
    assert format_utc(datetime(2026, 3, 1, 21, 30, tzinfo=UTC)) == "2026-03-01 21:30 UTC"
    assert format_remaining(timedelta(days=1, hours=2, minutes=5)) == "1d2h5m"
    assert format_remaining(timedelta(seconds=30)) == "under a minute"
    assert format_remaining(timedelta(0)) == "now"


# -- the game's time zone and Discord timestamps (issue 17) ---------------------------------------------------------

def test_a_local_time_is_in_the_games_zone_when_it_has_one_and_utc_otherwise() -> None:
    unset = read_deadline("2026-03-01 22:00", NOW)
    assert unset.when == datetime(2026, 3, 1, 22, 0, tzinfo=UTC)
    assert unset.note.startswith("read as UTC (the game has no time zone;")
    berlin = read_deadline("2026-03-01 22:00", NOW, "Europe/Berlin")  # CET, UTC+1
    assert berlin.when == datetime(2026, 3, 1, 21, 0, tzinfo=UTC)
    assert utc_text(berlin.note) == "read as Europe/Berlin time (the game's time zone): 2026-03-01 21:00 UTC"
    assert discord_text(berlin.note).endswith(": <t:1772398800:F>")  # on Discord in the moderator's own zone
    summer = read_deadline("2026-07-01 22:00", NOW, "Europe/Berlin")  # CEST, UTC+2
    assert summer.when == datetime(2026, 7, 1, 20, 0, tzinfo=UTC)
    assert parse_deadline("2h", NOW, "Europe/Berlin") == NOW + timedelta(hours=2)  # durations know no zone


@pytest.mark.parametrize(("text", "when"), [
    ("2026-03-01 22:00 UTC", datetime(2026, 3, 1, 22, 0, tzinfo=UTC)),
    ("2026-03-01T22:00Z", datetime(2026, 3, 1, 22, 0, tzinfo=UTC)),
    ("2026-03-02 22:00 Asia/Tokyo", datetime(2026, 3, 2, 13, 0, tzinfo=UTC)),
    ("2026-03-01 22:00 america/new_york", datetime(2026, 3, 2, 3, 0, tzinfo=UTC)),
    ("2026-03-01 22:00 +01:00", datetime(2026, 3, 1, 21, 0, tzinfo=UTC)),
    ("2026-03-01 22:00 -0530", datetime(2026, 3, 2, 3, 30, tzinfo=UTC)),
])
def test_a_time_that_names_its_zone_ignores_the_games(text: str, when: datetime) -> None:
    read = read_deadline(text, NOW, "Europe/Berlin")
    assert (read.when, read.note) == (when, "")


@pytest.mark.parametrize("text", ["<t:1772395200:F>", "<t:1772395200:R>", "<t:1772395200:t>", "<t:1772395200>",
                                  " <t:1772395200:f> "])
def test_a_discord_timestamp_from_a_picker_is_its_instant_in_any_style(text: str) -> None:
    read = read_deadline(text, NOW, "Europe/Berlin")
    assert (read.when, read.note) == (datetime(2026, 3, 1, 20, 0, tzinfo=UTC), "")


@pytest.mark.parametrize(("text", "problem"), [
    ("<t:1772380800:F>", "that time has already passed"),  # 16:00 UTC, before NOW
    ("<t:99999999999:F>", "a deadline is at most 3660 days away"),
    ("<t:1772395200:FF>", None),
    ("<t:abc:F>", None),
    ("2026-03-01 22:00 Europe/Berln", "“Europe/Berln” is not a time zone I know"),
    ("2026-03-01 22:00 +15:00", "is not a UTC offset"),
])
def test_a_bad_timestamp_or_zone_is_refused_saying_what_is_accepted(text: str, problem: str | None) -> None:
    with pytest.raises(ParseError) as caught:
        read_deadline(text, NOW)
    message = str(caught.value)
    assert "a Discord timestamp such as `<t:1767268800:F>`" in message and "Europe/Berlin" in message
    if problem is not None:
        assert problem in message
    if "Berln" in text:
        assert "Did you mean “2026-03-01 22:00 Europe/Berlin”?" in message


def test_a_local_time_the_clocks_skip_is_refused_and_one_they_pass_twice_is_the_first() -> None:
    with pytest.raises(ParseError) as caught:  # 2026-03-29: 02:00 CET -> 03:00 CEST
        read_deadline("2026-03-29 02:30", NOW, "Europe/Berlin")
    assert ("02:30 does not exist in Europe/Berlin on 2026-03-29 (the clocks go forward 1h that night); give a time "
            "the clocks show, such as 03:30") in str(caught.value)
    assert read_deadline("2026-03-29 03:30", NOW, "Europe/Berlin").when == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    twice = read_deadline("2026-10-25 02:30", NOW, "Europe/Berlin")  # 03:00 CEST -> 02:00 CET
    assert twice.when == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert twice.note == ("read as Europe/Berlin time (the game's time zone); 02:30 comes twice in Europe/Berlin that "
                          "night (the clocks go back); this is the first, 2026-10-25 00:30 UTC, the second would be "
                          "2026-10-25 01:30 UTC")
    named = read_deadline("2026-10-25 02:30 Europe/Berlin", NOW)
    assert named.when == twice.when and named.note.startswith("02:30 comes twice in Europe/Berlin")


def test_a_zone_name_is_read_in_any_case_and_an_unknown_one_is_refused_with_an_example() -> None:
    assert parse_zone("europe/berlin") == "Europe/Berlin"
    assert parse_zone(" America/New York ") == "America/New_York"
    assert parse_zone("utc") == "UTC"
    assert zone("Europe/Berlin").key == "Europe/Berlin"  # the tz database is there (tzdata where the system has none)
    for bad in ("Europe/Berln", "Mars/Olympus", "../../etc/passwd", "", "x" * 500):
        with pytest.raises(ParseError) as caught:
            parse_zone(bad)
        assert "`Europe/Berlin`" in str(caught.value) and "not a time zone I know" in str(caught.value)
    with pytest.raises(ParseError, match="Did you mean “Europe/Berlin”"):
        parse_zone("Europe/Berln")


@pytest.mark.parametrize(("text", "problem", "suggestion"), [
    ("2026-03-28 6pm", "12-hour times are not read: write the time in 24 hours", "2026-03-28 18:00"),
    ("2026-03-28 6:30 PM", "12-hour times are not read", "2026-03-28 18:30"),
    ("2026-03-28 12am", "12-hour times are not read", "2026-03-28 00:00"),
    ("6pm", "12-hour times are not read, and a time needs its date", None),
    ("18:00", "a time needs its date", None),
    ("tomorrow 18:00", "words such as “tomorrow” or “Saturday” are not read", None),
    ("Saturday 18:00", "words such as “tomorrow” or “Saturday” are not read", None),
    ("28/03/2026 18:00", "a date is written year-month-day", None),
])
def test_forms_people_write_are_refused_with_why_and_what_to_write(text: str, problem: str,
                                                                     suggestion: str | None) -> None:
    """A deadline a moderator writes as people do (a 12-hour time, a clock time alone, `tomorrow`, a day/month date)
    is refused saying why, and with the 24-hour time when one was typed (play-test T4.2): not "6pm is not a time
    zone I know", not a bare "I couldn't read"."""
    with pytest.raises(ParseError) as caught:
        parse_deadline(text, datetime(2026, 3, 27, 12, tzinfo=UTC), "Europe/Berlin")
    assert caught.value.problem is not None and caught.value.problem.startswith(problem)
    assert caught.value.suggestion == suggestion


def test_a_duration_in_minutes_ends_on_a_whole_minute() -> None:
    """A deadline is shown to the minute, so `2h` typed at 17:03:45 ends at 19:04, never at a second the
    announcements do not show (a ballot at 19:03:30 would count while "19:03" had passed; play-test T4.10); a
    duration in seconds is exact."""
    at = datetime(2026, 3, 27, 17, 3, 45, tzinfo=UTC)
    assert parse_deadline("2h", at) == datetime(2026, 3, 27, 19, 4, tzinfo=UTC)
    assert parse_deadline("2h", at.replace(second=0)) == datetime(2026, 3, 27, 19, 3, tzinfo=UTC)
    assert parse_deadline("45s", at) == at + timedelta(seconds=45)


def test_a_deadline_that_has_come_reads_due_now_not_in_now() -> None:
    """`(in now)` was not English (play-test T5.4): a deadline at or before now is "due now"."""
    from engine.core.stamps import due_text

    at = datetime(2026, 3, 28, 18, tzinfo=UTC)
    assert utc_text(due_text(at, at)) == "2026-03-28 18:00 UTC (due now)"
    assert utc_text(due_text(at, at - timedelta(hours=2))) == "2026-03-28 18:00 UTC (in 2h)"


def test_a_deadline_weeks_away_is_accepted_with_a_note_naming_its_date() -> None:
    """A deadline years away is most likely a slip for this year (`2029-03-28` for `2026-03-28`): it is accepted, and
    the moderator's answer names the day and how far it is; within four weeks there is no note (play-test T5.2,
    docs/rulings.md)."""
    now = datetime(2026, 3, 27, 18, tzinfo=UTC)
    far = read_deadline("2029-03-28 18:00 UTC", now)
    assert far.when == datetime(2029, 3, 28, 18, tzinfo=UTC)
    assert utc_text(far.far) == ("Note: this deadline is 1097 days away, more than 3 years, on Wednesday 2029-03-28 "
                                 "18:00 UTC. If you meant a nearer date (in 2026?), move it now.")
    assert utc_text(read_deadline("5w", now).far).startswith("Note: this deadline is 35 days away, more than 4 weeks")
    assert read_deadline("4w", now).far == ""
    assert read_deadline("2026-04-24 18:00", now).far == ""
