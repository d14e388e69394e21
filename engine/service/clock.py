"""Time and dice come into the rules from here, so tests and replays can fix them."""

from __future__ import annotations

import hashlib
import secrets
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
    """Where the secret seeds and salts of the dice come from (docs/dice.md); every face is then a documented function
    of its seed (``engine.core.dice``), never of this source."""

    def secret(self, label: str) -> str: ...


class RandomDice:
    """Unpredictable secrets (``secrets``) in production; with a configured ``seed`` (console, replay, tests) each
    secret is derived from the seed and the ``label`` (which game, which round), so a replay rolls the same faces."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed

    def secret(self, label: str) -> str:
        if self._seed is None:
            return secrets.token_hex(32)
        return hashlib.sha256(f"clerk dice {self._seed}|{label}".encode()).hexdigest()


def utc(when: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time in Clerk is UTC."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
