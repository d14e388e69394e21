"""Near-miss suggestions for unreadable input ("Ayy" -> "Aye")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    options = list(choices)
    lowered = {c.lower(): c for c in options}
    match = difflib.get_close_matches(word.strip().lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[match[0]] if match else None
