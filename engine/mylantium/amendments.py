"""R1-06: a constitutional amendment may not remove or change Charisma or the Independent Vote."""

from __future__ import annotations

import re

from engine.core.errors import RuleError

PROTECTED = {"Charisma": re.compile(r"\bcharisma", re.IGNORECASE),
             "the Independent Vote": re.compile(r"\bindependent(?:\s+vote|\s+voters?|s\b)", re.IGNORECASE)}


def protected_topics(text: str) -> tuple[str, ...]:
    """What of R1-03..R1-05 the amendment's text touches (by name)."""
    return tuple(name for name, pattern in PROTECTED.items() if pattern.search(text))


def check_amendment(text: str) -> None:
    """Raise RuleError when the amendment touches Charisma or the Independent Vote (R1-06)."""
    if not text.strip():
        raise RuleError("Give the amendment's text.")
    touched = protected_topics(text)
    if touched:
        raise RuleError(f"An amendment may not remove or change {' or '.join(touched)}: the Constitution does not "
                        "discuss them, so no amendment can touch them.")
