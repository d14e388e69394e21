"""Errors whose ``str()`` is safe to show a player.

``ParseError``: the text could not be read. It quotes the input, says what was expected and may
suggest a near miss. ``RuleError``: the text was understood but is not allowed now; it says why.
"""

from __future__ import annotations


class ClerkError(Exception):
    """Base of every error whose message is meant for the user."""


class ParseError(ClerkError):
    def __init__(self, text: str, expected: str, suggestion: str | None = None, problem: str | None = None) -> None:
        self.text = text
        self.expected = expected
        self.suggestion = suggestion
        self.problem = problem
        super().__init__(self._message())

    def _message(self) -> str:
        quoted = self.text.strip()
        if len(quoted) > 200:
            quoted = quoted[:197] + "..."
        lines = [f"I couldn't read “{quoted}”" + (f": {self.problem}." if self.problem else ".")]
        if self.suggestion:
            lines.append(f"Did you mean “{self.suggestion}”?")
        lines.append(f"Accepted: {self.expected}")
        return "\n".join(lines)


class RuleError(ClerkError):
    """Well-formed, but the rules or the game's state do not allow it now."""


class NotFoundError(RuleError):
    """A named game, player, round or holding does not exist."""
