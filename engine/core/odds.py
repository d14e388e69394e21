"""Exact odds as people read them: ``7/36 (19.44%)``. The percent is formatted from the ``Fraction`` with explicit
half-up rounding (``engine.core.rounding``), never with ``round()`` or a float."""

from __future__ import annotations

from fractions import Fraction

from engine.core.rounding import round_half_up


def percent(p: Fraction, places: int = 2) -> str:
    """``19.44%`` for 7/36: p·100 rounded half up to ``places`` decimals."""
    if p < 0:
        raise ValueError(f"a probability cannot be negative: {p}")
    scale = 10 ** places
    hundredths = round_half_up(p * 100 * scale)
    whole, part = divmod(hundredths, scale)
    return f"{whole}.{part:0{places}d}%" if places else f"{whole}%"


def fraction_text(p: Fraction) -> str:
    """``7/36``; ``0`` and ``1`` for the impossible and the certain."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def odds_text(p: Fraction) -> str:
    """``7/36 (19.44%)``."""
    return f"{fraction_text(p)} ({percent(p)})"
