"""The last line of a ballot's receipt (bot/actions/render.py ``deadline_line``): a ballot sent before a deadline that
has passed since (read back at start after the bot was offline, play-test R3.2) is not invited to change until then."""

from datetime import UTC, datetime, timedelta

from bot.actions.render import deadline_line
from engine.core.stamps import utc_text

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
CHANGE = "Send a new choice to change it until then."


def test_a_deadline_ahead_invites_a_change_until_it() -> None:
    line = utc_text(deadline_line(NOW + timedelta(hours=2), NOW, CHANGE, "election"))
    assert line == "Deadline: 2026-03-01 22:00 UTC (in 2h). Send a new choice to change it until then."


def test_a_deadline_gone_by_says_the_vote_closes_with_the_ballot() -> None:
    line = utc_text(deadline_line(NOW - timedelta(minutes=30), NOW, CHANGE, "election"))
    assert line.startswith("Deadline: 2026-03-01 19:30 UTC")
    assert line.endswith("it has passed since you sent this, and the election closes with this counted as it stands.")
    assert CHANGE not in line


def test_no_deadline_names_the_vote() -> None:
    assert deadline_line(None, NOW, CHANGE, "election") == (
        "Deadline: none (a moderator closes the election). Send a new choice to change it until then.")
