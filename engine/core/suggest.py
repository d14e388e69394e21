"""Near-miss suggestions for unreadable input ("Ayy" -> "Aye")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from itertools import takewhile

SLACK = 8
"""A word more than this many characters longer than twice the longest choice is like none of them: it is not
compared at all (a similarity against a 4,000-character text costs time in proportion to its square)."""


def _shared_start(a: str, b: str) -> int:
    return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], zip(a, b, strict=False)))


def nearest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice most like ``word`` (case ignored), or None. Equally similar choices are told apart by how
    much of the start they share ("Ayy" -> "Aye", not "Nay"), then by their order in ``choices``. A word far longer
    than every choice gets None at once; each choice is first checked against difflib's cheap upper bounds, so the
    cost is bounded by the choices' lengths, not the word's."""
    options = list(choices)
    lowered = {c.lower(): c for c in reversed(options)}
    target = word.strip().lower()
    longest = max((len(c) for c in lowered), default=0)
    if len(target) > 2 * longest + SLACK:
        return None
    matcher = difflib.SequenceMatcher(None, target)
    scored = []
    for index, candidate in enumerate(dict.fromkeys(c.lower() for c in options)):
        matcher.set_seq2(candidate)
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        scored.append((matcher.ratio(), _shared_start(target, candidate), -index, candidate))
    best = max((s for s in scored if s[0] >= cutoff), default=None)
    return lowered[best[3]] if best else None
