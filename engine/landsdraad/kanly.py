"""Ending Kanly (R0-60, P0-11): half the Guild transport fee back, embargoes between the two removed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.core.errors import RuleError


@dataclass(frozen=True)
class InTransit:
    owner: int
    target: int
    guild_fee: int


@dataclass(frozen=True)
class Embargo:
    by: int
    on: int


def kanly_refunds(p: int, q: int, in_transit: Iterable[InTransit]) -> dict[int, int]:
    """Half of each Guild transport fee paid for forces bound against the rival, floor (P0-11)."""
    refunds = {p: 0, q: 0}
    for t in in_transit:
        if {t.owner, t.target} == {p, q}:
            refunds[t.owner] += t.guild_fee // 2
    return refunds


def embargoes_after_kanly(p: int, q: int, embargoes: Iterable[Embargo]) -> list[Embargo]:
    """R0-60: any embargo either player holds against the other is removed."""
    return [e for e in embargoes if {e.by, e.on} != {p, q}]


def end_game_pot(pot: int | Fraction, penalty_pct: int = 20) -> Fraction:
    """R0-61 / R3-04: an enacted End Game multiplies the Pot by (100 − penalty)/100, exactly."""
    if not 0 <= penalty_pct <= 100:
        raise RuleError(f"The End Game penalty is a percentage from 0 to 100, not {penalty_pct}.")
    return Fraction(pot) * (100 - penalty_pct) / 100
