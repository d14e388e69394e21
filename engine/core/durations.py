"""Deadlines as moderators type them: a duration (``2h30m``, ``90m``, ``1d``), a time (``2026-03-01 20:00``: in
the game's time zone when it has one, else UTC; ``2026-03-01 20:00 UTC``, ``... Europe/Berlin`` or ``... +01:00``
name the zone), or a Discord timestamp pasted from a timestamp picker (``<t:1767268800:F>``, any style or none).
Pure: the current time is an argument.

A local time the clocks skip (``2026-03-29 02:30`` in Europe/Berlin) is refused, saying why; one they pass twice
(``2026-10-25 02:30``) is read as the first of the two, and the note says so (docs/commands.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from engine.core.errors import ParseError
from engine.core.words import plural
from engine.core.zones import parse_zone, zone

_UNIT = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"^\s*(?:(\d+)\s*([wdhms])\s*)+$", re.IGNORECASE)
_PART = re.compile(r"(\d+)\s*([wdhms])", re.IGNORECASE)
_ACCEPTED = ("a duration such as `2h30m`, `90m`, `1d` or `1d12h`; a time such as `2026-03-01 20:00` (in the game's "
             "time zone when it has one, else UTC; `2026-03-01 20:00 Europe/Berlin` or `... UTC` names the zone); or "
             "a Discord timestamp such as `<t:1767268800:F>`")
_STAMP = re.compile(r"^<t:(-?\d{1,12})(?::[a-zA-Z])?>$")
_LOCAL = re.compile(r"^(\d{4}-\d{1,2}-\d{1,2})(?:[ T]++(\d{1,2}:\d{2}(?::\d{2})?))?\s*+(.*+)$")
r"""Possessive (``*+``): a line break after the time (``.`` stops there, and ``$`` then fails) must not make the
match try every split of the blanks before it between ``\s*`` and ``.*`` (quadratic: 12 ms on a 3,900-character
deadline that ``make fuzz`` found, 2026-12-07)."""
_CLOCK_ONLY = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
_WORDS = re.compile(r"^(?:today|tonight|tomorrow|next|this|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
                    r"|mon|tue|wed|thu|fri|sat|sun)\b", re.IGNORECASE)
_SLASHED = re.compile(r"^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b")


_TWELVE = re.compile(r"^(?:(\d{1,2})(?::(\d{2}))?\s?)?([ap])\.?m\.?$", re.IGNORECASE)
"""``6pm``, ``6:00 PM``, ``PM``: a 12-hour time (or its half after a 24-hour-looking one), which is not read."""


def _as_24h(clock: str) -> str | None:
    """``6pm``, ``6:30 PM`` -> ``18:00``, ``18:30``; ``12am`` -> ``00:00``; None for what is not such a time."""
    found = _TWELVE.match(clock)
    if found is None or found.group(1) is None or not 1 <= int(found.group(1)) <= 12 or int(found.group(2) or 0) > 59:
        return None
    hour = int(found.group(1)) % 12 + (12 if found.group(3).lower() == "p" else 0)
    return f"{hour:02d}:{found.group(2) or '00'}"


def _unread(stripped: str) -> str | None:
    """Why a deadline in one of the forms people write but Clerk does not read is not read, and what to write."""
    if _TWELVE.match(stripped):
        return "12-hour times are not read, and a time needs its date: write it as 2026-03-28 18:00"
    if _CLOCK_ONLY.match(stripped):
        return "a time needs its date: write it as 2026-03-28 18:00 (or a duration such as 6h)"
    if _WORDS.match(stripped):
        return ("words such as “tomorrow” or “Saturday” are not read: give the date, as 2026-03-28 18:00, or a "
                "duration such as 1d")
    if _SLASHED.match(stripped):
        return "a date is written year-month-day, as 2026-03-28 (28/03 and 03/28 are read two ways around the world)"
    return None


_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
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


@dataclass(frozen=True)
class Deadline:
    when: datetime
    """The instant, in UTC."""
    note: str = ""
    """How a local time typed without a zone was read ("read as UTC ..."); empty for a duration, a Discord timestamp
    or a time that names its zone (unless the clocks pass it twice)."""
    far: str = ""
    """For a deadline more than ``FAR_DAYS`` away, however typed: a note naming its date, which may be a slip for a
    nearer one (``2029`` for ``2026``); it is accepted all the same (play-test T5.2, docs/rulings.md)."""


def parse_deadline(text: str, now: datetime, game_zone: str | None = None) -> datetime:
    """A deadline later than ``now`` (``read_deadline``), as an instant."""
    return read_deadline(text, now, game_zone).when


def read_deadline(text: str, now: datetime, game_zone: str | None = None) -> Deadline:
    """A deadline from a duration (added to ``now``), a time (in ``game_zone``, an IANA name, when it names none;
    UTC when the game has none) or a Discord timestamp; it must be later than ``now``."""
    stripped = text.strip()
    if _DURATION.match(stripped):
        length = parse_duration(stripped)
        when = now + length
        rest = timedelta(seconds=when.second, microseconds=when.microsecond)
        if rest and not length.seconds % 60:  # `2h` at 17:03:45: up to 19:04, as every deadline is shown to the
            when += timedelta(minutes=1) - rest  # minute (play-test T4.10); a duration in seconds (`45s`) is exact
        return Deadline(when, far=far_note(when, now))
    found = _STAMP.match(stripped)
    if found is not None:
        try:
            deadline = Deadline(datetime.fromtimestamp(int(found.group(1)), UTC))
        except (OverflowError, OSError, ValueError):
            raise ParseError(text, _ACCEPTED, problem="that timestamp is out of range") from None
    else:
        deadline = _local(text, stripped, game_zone)
    if deadline.when <= now:
        raise ParseError(text, _ACCEPTED, problem=f"that time has already passed (it is now {format_utc(now)})")
    if deadline.when - now > timedelta(days=MAX_DAYS):
        raise ParseError(text, _ACCEPTED, problem=f"a deadline is at most {MAX_DAYS} days away")
    return replace(deadline, far=far_note(deadline.when, now))


FAR_DAYS = 28
"""A deadline further away than this (four weeks: longer than a play-by-post round runs) is accepted with a note."""


def far_note(when: datetime, now: datetime) -> str:
    """``Note: this deadline is 1096 days away, more than 3 years, on Wednesday 2029-03-28 16:00 UTC. ...``, or ""
    within ``FAR_DAYS``."""
    if when - now <= timedelta(days=FAR_DAYS):
        return ""
    from engine.core.stamps import stamp  # stamps reads this module's formats

    days = (when - now).days
    far = f"more than {plural(days // 365, 'year')}" if days >= 365 else f"more than {FAR_DAYS // 7} weeks"
    on = stamp(when, "F", f"{when:%A} {format_utc(when)}")  # Discord's F style names the day too, in each reader's zone
    year = f" (in {now:%Y}?)" if when.year != now.year else ""
    return f"Note: this deadline is {days} days away, {far}, on {on}. If you meant a nearer date{year}, move it now."


def _local(text: str, stripped: str, game_zone: str | None) -> Deadline:
    found = _LOCAL.match(stripped)
    if found is None:
        raise ParseError(text, _ACCEPTED, problem=_unread(stripped))
    day, clock, named = found.group(1), found.group(2) or "00:00", found.group(3).strip()
    naive = None
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"):
        try:
            naive = datetime.strptime(f"{day} {clock}", fmt)
            break
        except ValueError:
            continue
    if naive is None:
        raise ParseError(text, _ACCEPTED, problem="that date or time does not exist")
    offset = _OFFSET.match(named)
    where: tzinfo
    if named.upper() in ("UTC", "Z", "GMT"):
        return Deadline(naive.replace(tzinfo=UTC))
    if offset is not None:
        sign = 1 if offset.group(1) == "+" else -1
        hours, minutes = int(offset.group(2)), int(offset.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ParseError(text, _ACCEPTED, problem=f"“{named}” is not a UTC offset (at most ±14:00)")
        where = timezone(sign * timedelta(hours=hours, minutes=minutes))
        return Deadline(naive.replace(tzinfo=where).astimezone(UTC))
    if named and _TWELVE.match(named):  # ``2026-03-28 6pm``: a 12-hour time, not a zone
        meant = _as_24h(f"{found.group(2) or ''} {named}".strip())
        raise ParseError(text, _ACCEPTED, suggestion=f"{day} {meant}" if meant else None,
                         problem="12-hour times are not read: write the time in 24 hours")
    if named:
        try:
            name = parse_zone(named)
        except ParseError as unknown:
            raise ParseError(text, _ACCEPTED, suggestion=f"{day} {clock} {unknown.suggestion}" if unknown.suggestion
                             else None, problem=f"“{named}” is not a time zone I know (an IANA name such as "
                             "`Europe/Berlin`)") from None
        how = ""
    elif game_zone:
        name, how = game_zone, f"read as {game_zone} time (the game's time zone)"
    else:
        return Deadline(naive.replace(tzinfo=UTC), "read as UTC (the game has no time zone; a moderator sets one "
                                                   "with `/game settings timezone:Europe/Berlin`)")
    return _in_zone(text, naive, name, how)


def _in_zone(text: str, naive: datetime, name: str, how: str) -> Deadline:
    """``naive`` on the clocks of the zone ``name``: refused when they skip it, the first when they pass it twice."""
    where = zone(name)
    first, second = naive.replace(tzinfo=where, fold=0), naive.replace(tzinfo=where, fold=1)
    if first.astimezone(UTC).astimezone(where).replace(tzinfo=None) != naive:
        skipped = abs((second.utcoffset() or timedelta(0)) - (first.utcoffset() or timedelta(0)))
        later = first.astimezone(UTC).astimezone(where)
        raise ParseError(text, _ACCEPTED, problem=f"{naive:%H:%M} does not exist in {name} on {naive:%Y-%m-%d} (the "
                                                  f"clocks go forward {format_remaining(skipped)} that night); give "
                                                  f"a time the clocks show, such as {later:%H:%M}")
    when = first.astimezone(UTC)
    if first.utcoffset() != second.utcoffset():
        twice = (f"{naive:%H:%M} comes twice in {name} that night (the clocks go back); this is the first, "
                 f"{format_utc(when)}, the second would be {format_utc(second.astimezone(UTC))}")
        how = f"{how}; {twice}" if how else twice
    elif how:
        from engine.core.stamps import stamp  # stamps reads this module's formats

        how = f"{how}: {stamp(when)}"  # on Discord in the moderator's own zone too
    return Deadline(when, how)


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
