"""Rules-spec §0.3: "All quantities are integers or exact rationals [...] round_half_up(x) = floor(x + 1/2).
Python's built-in round() rounds halves to even ("banker's rounding") and must not be used."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine.core.rounding import ceil, floor, round_half_up


def test_halves_round_up_not_to_even() -> None:
    assert [round_half_up(Fraction(n, 2)) for n in (1, 3, 5, -1, -3)] == [1, 2, 3, 0, -1]
    assert round_half_up(Fraction(44, 3)) == 15 and round_half_up(Fraction(43, 3)) == 14
    assert (floor(Fraction(131, 2)), ceil(Fraction(131, 2)), floor(7), ceil(7)) == (65, 66, 7, 7)


@given(st.fractions())
def test_round_half_up_is_floor_of_x_plus_a_half(x: Fraction) -> None:
    assert round_half_up(x) == math.floor(x + Fraction(1, 2))
    assert isinstance(round_half_up(x), int)
