"""Deadlines as moderators type them: a duration (``2h30m``, ``90m``, ``1d``) or a UTC time
(``2026-03-01 20:00``). Pure: the current time is an argument."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from engine.core.errors import ParseError

_UNIT = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"^\s*(?:(\d+)\s*([wdhms])\s*)+$", re.IGNORECASE)
_PART = re.compile(r"(\d+)\s*([wdhms])", re.IGNORECASE)
_ACCEPTED = "a duration such as `2h30m`, `90m`, `1d` or `1d12h`, or a UTC time such as `2026-03-01 20:00`"
MAX_DAYS = 3660
"""About ten years: a longer duration is refused (it could not be a deadline, and would overflow a datetime)."""
_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d")


def parse_duration(text: str) -> timedelta:
    if not _DURATION.match(text):
        raise ParseError(text, "a duration such as `2h30m`, `90m`, `1d` or `1d12h`")
    parts = _PART.findall(text)
    if any(len(n) > 9 for n, _ in parts):
        raise ParseError(text, "a duration such as `2h30m`", problem=f"a duration is at most {MAX_DAYS} days")
    seconds = sum(int(n) * _UNIT[u.lower()] for n, u in parts)
    if seconds > MAX_DAYS * 86400:
        raise ParseError(text, "a duration such as `2h30m`", problem=f"a duration is at most {MAX_DAYS} days")
    if seconds <= 0:
        raise ParseError(text, "a duration such as `2h30m`", problem="the duration must be longer than zero")
    return timedelta(seconds=seconds)


def parse_utc(text: str) -> datetime:
    cleaned = text.strip().removesuffix("UTC").removesuffix("Z").strip()
    for fmt in _FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ParseError(text, "a UTC time such as `2026-03-01 20:00`")


def parse_deadline(text: str, now: datetime) -> datetime:
    """A deadline from a duration (added to ``now``) or an absolute UTC time, which must be later than ``now``."""
    stripped = text.strip()
    if _DURATION.match(stripped):
        return now + parse_duration(stripped)
    try:
        when = parse_utc(stripped)
    except ParseError:
        raise ParseError(text, _ACCEPTED) from None
    if when <= now:
        raise ParseError(text, _ACCEPTED, problem=f"that time has already passed (it is now {format_utc(now)})")
    return when


def format_utc(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def format_utc_seconds(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def format_remaining(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else "", f"{minutes}m" if minutes else ""]
    text = "".join(parts)
    return text or "under a minute"
