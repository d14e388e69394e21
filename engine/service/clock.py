"""Time and dice come into the rules from here, so tests and replays can fix them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to (console, replay, tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when

    def advance(self, delta: timedelta) -> datetime:
        self._now += delta
        return self._now


class Dice(Protocol):
    def roll(self, sides: int) -> int: ...


class RandomDice:
    """Dice from a seedable random source; every roll is recorded in the event log by the caller."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._random.randint(1, sides)


def utc(when: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time in Clerk is UTC."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
