"""Near-miss suggestions for unreadable input ("Ayy" -> "Aye")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from itertools import takewhile


def _shared_start(a: str, b: str) -> int:
    return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], zip(a, b, strict=False)))


def nearest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice most like ``word`` (case ignored), or None. Equally similar choices are told apart by how
    much of the start they share ("Ayy" -> "Aye", not "Nay"), then by their order in ``choices``."""
    options = list(choices)
    lowered = {c.lower(): c for c in reversed(options)}
    target = word.strip().lower()
    scored = [
        (difflib.SequenceMatcher(None, target, candidate).ratio(), _shared_start(target, candidate), -index, candidate)
        for index, candidate in enumerate(dict.fromkeys(c.lower() for c in options))
    ]
    best = max((s for s in scored if s[0] >= cutoff), default=None)
    return lowered[best[3]] if best else None
