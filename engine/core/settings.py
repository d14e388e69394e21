"""A setting a game's moderators may change (``/game settings``): its default (the ruling), what it is, and how a
value typed for it is read. Each ruleset lists its own; the reminders' lead times (``24h,2h``) are read here."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.durations import parse_duration
from engine.core.errors import ParseError


@dataclass(frozen=True)
class Setting:
    name: str
    default: bool | int | str
    description: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    durations: bool = False
    """A list of durations such as ``24h,2h`` (or ``none``)."""
    ruling: str = ""
    """The rule or ruling it switches, where it has one (``P4-14``)."""
    reader: Callable[[str], str] | None = None
    """Reads a typed value of its own kind (a GOVT range, a duration) as stored, raising ``ParseError``."""

    def parse(self, text: str) -> bool | int | str:
        value = text.strip().lower()
        if self.reader is not None:
            return self.reader(text)
        if isinstance(self.default, bool):
            if value in ("true", "yes", "on", "1"):
                return True
            if value in ("false", "no", "off", "0"):
                return False
            raise ParseError(text, f"`{self.name}` is true or false")
        if isinstance(self.default, int):
            if not re.fullmatch(r"-?\d{1,12}", value):  # not isdigit(): "²" is a digit to it, not to int()
                raise ParseError(text, f"`{self.name}` is a whole number from {self.low} to {self.high}")
            number = int(value)
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                low = self.low is not None and number < self.low
                side = f"less than {self.low}" if low else f"more than {self.high}"
                raise ParseError(text, f"`{self.name}` is a whole number from {self.low} to {self.high}",
                                 problem=f"{number} is {side}")
            return number
        if self.durations:
            return format_offsets(typed_offsets(value))
        if value not in self.choices:
            raise ParseError(text, f"`{self.name}` is one of: {', '.join(self.choices)}")
        return value


def shown(value: bool | int | str | None) -> str:
    """A setting's value as it is typed: ``true``/``false``, not Python's ``True``/``False`` (play-test T5.8)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


_ONE_DURATION = re.compile(r"^\s*+(?:\d++\s*+[wdhms]\s*+)++$", re.IGNORECASE)


def parse_offsets(text: str) -> tuple[int, ...]:
    """``24h,2h`` as seconds before a deadline, longest first; ``none`` for no reminders."""
    value = text.strip().lower()
    if value in ("", "none", "off"):
        return ()
    for part in value.split(","):
        if re.search(r"[wdhms]\s+\d", part, re.IGNORECASE) and _ONE_DURATION.match(part):  # `1h 30m`: one
            # instant or two? (play-test T5.9; the search first: linear on any text the fuzzer sends)
            joined, split = re.sub(r"\s+", "", part), ",".join(part.split())
            raise ParseError(text, "`reminders` is a list of durations before a deadline, separated by commas, e.g. "
                             "`24h,2h`, or `none`", problem=f"“{part.strip()}” has a space inside: write `{split}` for "
                             f"separate reminders or `{joined}` for one")
    try:
        seconds = {int(parse_duration(part.strip()).total_seconds()) for part in value.split(",") if part.strip()}
    except ParseError as why:  # a duration's own reason: "longer than zero", "at most 3660 days"
        wanted = "`reminders` is a list of durations before a deadline, e.g. `24h,2h`, or `none`"
        part = why.text.strip()
        whole = part == text.strip()
        problem = (why.problem if whole else f"“{part}”: {why.problem}") if why.problem else (
            None if whole else f"“{part}” is not a duration")
        raise ParseError(text, wanted, problem=problem) from None
    return tuple(sorted(seconds, reverse=True))


MIN_REMINDER = 60
"""The shortest lead time a moderator may set for a reminder: one sooner leaves the player no time to answer (and a
deadline is kept to the whole minute)."""
MAX_REMINDERS = 6
"""The most reminders a moderator may set before one deadline: each is a DM to every player who has not voted, and
more than a handful is spam that players mute (and Discord's limits pay for)."""


def typed_offsets(text: str) -> tuple[int, ...]:
    """``parse_offsets`` for a value a moderator types: also at least ``MIN_REMINDER`` each and at most
    ``MAX_REMINDERS`` of them (play-test T5.9). A value stored before these limits is still read as it is."""
    offsets = parse_offsets(text)
    wanted = "`reminders` is a list of durations before a deadline, e.g. `24h,2h`, or `none`"
    short = [o for o in offsets if o < MIN_REMINDER]
    if short:
        raise ParseError(text, wanted, problem=f"a reminder {format_offset(short[0])} before the deadline leaves no "
                         "time to vote: each is at least 1m")
    if len(offsets) > MAX_REMINDERS:
        raise ParseError(text, wanted, problem=f"{len(offsets)} reminders would DM each player who has not voted "
                         f"{len(offsets)} times: at most {MAX_REMINDERS}")
    return offsets


def format_offsets(offsets: tuple[int, ...]) -> str:
    return ",".join(format_offset(o) for o in offsets) or "none"


def format_offset(seconds: int) -> str:
    """3600 -> ``1h``, 5400 -> ``1h30m``, 86400 -> ``24h``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return "".join(f"{n}{u}" for n, u in ((hours, "h"), (minutes, "m"), (secs, "s")) if n) or "0s"
