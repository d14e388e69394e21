"""Per-game settings for rulings a group may play differently (shared/RULINGS.md). Each default is the ruling;
a moderator may change it, and the change is recorded in the event log."""

from __future__ import annotations

import re
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

    def parse(self, text: str) -> bool | int | str:
        value = text.strip().lower()
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
                raise ParseError(text, f"`{self.name}` is a whole number from {self.low} to {self.high}")
            return number
        if self.durations:
            return format_offsets(parse_offsets(value))
        if value not in self.choices:
            raise ParseError(text, f"`{self.name}` is one of: {', '.join(self.choices)}")
        return value


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("ag_weighted", False, "AG election weighted by each voter's Landsdraad votes instead of one ballot "
                                  "per player (P0-06: not weighted)."),
    Setting("end_game_penalty", 20, "Percent taken off the Victory Pot when an End Game vote is enacted (R0-61).",
            low=0, high=100),
    Setting("audit_share_rounding", "up", "How each player's share of an audit fee is rounded when the fee does "
                                          "not divide evenly (P0-10: up).", choices=("up", "down")),
    Setting("perk_ties", "none", "Perks when players tie in votes: none (P0-12: a tied position is not awarded) or "
                                 "base-vote (the higher Base Vote wins the tie).", choices=("none", "base-vote")),
    Setting("reminders", "24h,2h", "When to DM the players who have not voted yet, before a round's or an AG "
                                   "election's deadline: durations such as `24h,2h`, or `none`.", durations=True),
)}


def parse_offsets(text: str) -> tuple[int, ...]:
    """``24h,2h`` as seconds before a deadline, longest first; ``none`` for no reminders."""
    value = text.strip().lower()
    if value in ("", "none", "off"):
        return ()
    try:
        seconds = {int(parse_duration(part.strip()).total_seconds()) for part in value.split(",") if part.strip()}
    except ParseError:
        wanted = "`reminders` is a list of durations before a deadline, e.g. `24h,2h`, or `none`"
        raise ParseError(text, wanted) from None
    return tuple(sorted(seconds, reverse=True))


def format_offsets(offsets: tuple[int, ...]) -> str:
    return ",".join(format_offset(o) for o in offsets) or "none"


def format_offset(seconds: int) -> str:
    """3600 -> ``1h``, 5400 -> ``1h30m``, 86400 -> ``24h``."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return "".join(f"{n}{u}" for n, u in ((hours, "h"), (minutes, "m"), (secs, "s")) if n) or "0s"


def setting(name: str) -> Setting:
    found = SETTINGS.get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None:
        raise ParseError(name, "a setting: " + ", ".join(SETTINGS))
    return found
