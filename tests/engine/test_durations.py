"""Deadlines as moderators type them (issue 2: "a deadline is a duration such as `2h30m` or a UTC time such as
`2026-03-01 20:00`"; rules-spec §0.3: "Timestamps are UTC")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.core.durations import format_remaining, format_utc, parse_deadline, parse_duration, parse_utc
from engine.core.errors import ParseError

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
