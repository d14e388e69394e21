"""Errors whose ``str()`` is safe to show a player.

``ParseError``: the text could not be read. It quotes the input, says what was expected and may
suggest a near miss. ``RuleError``: the text was understood but is not allowed now; it says why.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

_QUOTED = re.compile(r"“([^“”]{41,})”")
"""A piece of the player's text quoted in a problem, longer than 40 characters: cut short, so that a 4,000-character
word does not fill the answer and push its accepted forms past Discord's 2,000 (play-test P4.3)."""


def _short_quotes(problem: str) -> str:
    return _QUOTED.sub(lambda m: f"“{m[1][:37]}...”", problem)


class ClerkError(Exception):
    """Base of every error whose message is meant for the user."""


class ParseError(ClerkError):
    def __init__(self, text: str, expected: str, suggestion: str | None = None, problem: str | None = None,
                 understood: str | None = None) -> None:
        """``understood``: what was read before the part that was not (``Nay``); the answer then says both: "I read
        Nay in “vote: nay please”, but not “please”: <problem>."."""
        self.text = text
        self.expected = expected
        self.suggestion = suggestion
        self.problem = _short_quotes(problem) if problem is not None else None
        self.understood = understood
        super().__init__(self._message())

    def _message(self) -> str:
        rows = [row for row in self.text.strip().splitlines() if row.strip()]
        quoted = rows[0].strip() if rows else ""  # a form is its first line: quoted alone, the others counted
        if len(quoted) > 200:
            quoted = quoted[:197] + "..."
        more = f" (the first of your message's {len(rows)} lines)" if len(rows) > 1 else ""
        if self.understood is not None:
            lines = [f"I read {self.understood} in “{quoted}”{more}, but not {self.problem}."]
        else:
            lines = [f"I couldn't read “{quoted}”{more}" + (f": {self.problem}." if self.problem else ".")]
        if self.suggestion:
            lines.append(f"Did you mean “{self.suggestion}”?")
        lines.append(f"Accepted: {self.expected}")
        return "\n".join(lines)


class RuleError(ClerkError):
    """Well-formed, but the rules or the game's state do not allow it now."""


class NotFoundError(RuleError):
    """A named game, player, round or holding does not exist."""


class GameClosed(RuleError):
    """The game has ended: its ledger is closed to every change until a moderator reopens it (``/game reopen``)."""

    def __init__(self, name: str, ended_at: datetime | None) -> None:
        if ended_at is not None and ended_at.tzinfo is None:  # SQLite gives back naive UTC
            ended_at = ended_at.replace(tzinfo=UTC)
        when = f" on {ended_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC" if ended_at is not None else ""
        super().__init__(f"{name} ended{when}; its ledger is closed. A moderator's /game export has everything.")
        self.name = name
        self.ended_at = ended_at
