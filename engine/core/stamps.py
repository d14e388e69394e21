"""Times that each reader sees in their own zone. A renderer writes an instant with ``stamp`` (or ``due_text``, the
usual "2026-03-01 20:00 UTC (in 2h)"): a marker that carries both the instant and its UTC text. The Discord adapter
turns a marker into Discord's timestamp markup (``<t:1772395200:F>``, ``<t:1772395200:R>``, as discord.py's
``format_dt`` makes), which every reader's client shows in their own time zone and language ("Sunday, 1 March 2026
21:00", "in 2 hours"); the console, the golden transcripts and anything else that is not Discord show the UTC text
(``utc_text``). So the renderers stay shared, and a raw text still contains each UTC time verbatim.

Where Discord does not render the markup (an embed's title, field names and footer, a button's label, a thread's
name) the adapter writes the UTC text too (``bot/discord/delivery.py``).

A marker: ``\\ue000`` UTC text ``\\ue001`` unix seconds ``:`` style ``\\ue002`` (private-use characters, which no
keyboard types). It is never shorter than either of its renderings, so a text measured with its markers fits
Discord's limits once rendered."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

from engine.core.durations import format_remaining, format_utc

OPEN, MID, CLOSE = "\ue000", "\ue001", "\ue002"
STYLES = "tTdDfFR"
"""Discord's styles: short/long time, short/long date, short/long date and time, relative ("in 2 hours")."""
_MARK = re.compile(f"{OPEN}([^{OPEN}{MID}{CLOSE}]*){MID}(-?\\d+):([{STYLES}]){CLOSE}")


def stamp(when: datetime, style: str = "F", text: str | None = None) -> str:
    """``when`` as a marker: on Discord ``<t:unix:style>``, elsewhere ``text`` (default its UTC time)."""
    if style not in STYLES:
        raise ValueError(f"unknown timestamp style {style!r}")
    if when.tzinfo is UTC:  # every time in Clerk (``engine.service.clock.utc``)
        return _kept_marker(when, style, text)
    return _marker(when, style, text)


def _marker(when: datetime, style: str, text: str | None) -> str:
    shown = format_utc(when) if text is None else text
    return f"{OPEN}{_clean(shown)}{MID}{int(when.timestamp())}:{style}{CLOSE}"


_kept_marker = lru_cache(maxsize=1024)(_marker)
"""``_marker`` of a UTC time, kept for the same arguments: a pure function of them (two UTC datetimes are equal only
if they are the same instant; a time of another zone is not kept: two of its times can be equal and an hour apart,
across a change of its clocks). A round's deadline is stamped the same way in every receipt of its ballots, about
2.4 us each time (issue 20, branch burst4: a burst renders thousands of receipts, in the ballot batch's thread)."""


def relative(when: datetime, now: datetime) -> str:
    """"in 2h30m" (elsewhere), "in 3 hours" / "2 minutes ago" on Discord, which keeps it up to date."""
    return stamp(when, "R", f"in {format_remaining(when - now)}" if when > now else "due now")  # not "in now"


def due_text(when: datetime, now: datetime) -> str:
    """"2026-03-01 20:00 UTC (in 2h30m)"; on Discord the reader's own date and time and "(in 3 hours)"."""
    return f"{stamp(when)} ({relative(when, now)})"


def utc_text(text: str) -> str:
    """``text`` with every marker as its UTC text: for the console, transcripts and files."""
    return _MARK.sub(lambda m: m.group(1), text) if OPEN in text else text


def discord_text(text: str) -> str:
    """``text`` with every marker as Discord's timestamp markup."""
    return _MARK.sub(lambda m: f"<t:{m.group(2)}:{m.group(3)}>", text) if OPEN in text else text


def has_stamp(text: str) -> bool:
    return OPEN in text


def _clean(text: str) -> str:
    return text.replace(OPEN, "").replace(MID, "").replace(CLOSE, "")
