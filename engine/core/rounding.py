"""Exact rounding helpers (rules-spec §0.3). Python's ``round()`` is never used for a rule."""

from __future__ import annotations

import math
from fractions import Fraction

Number = int | Fraction


def floor(x: Number) -> int:
    return math.floor(x)


def ceil(x: Number) -> int:
    return math.ceil(x)


def round_half_up(x: Number) -> int:
    return math.floor(Fraction(x) + Fraction(1, 2))
