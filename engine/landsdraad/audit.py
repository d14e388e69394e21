"""Audit fees (R0-50..R0-53, P0-10, P0-17)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.core.errors import RuleError
from engine.core.rounding import ceil

BASE_FEE = 1000
PER_PLAYER = 100
PER_ROUND_BACK = 1000


@dataclass(frozen=True)
class AuditQuote:
    fee: int
    share: int
    rounds: tuple[int, ...]
    """The rounds published: the requested earlier rounds and the current one (R0-51)."""


def audit_quote(current: int, active: int, requested: Iterable[int] = ()) -> AuditQuote:
    """R0-50: 1000 + 100·N + 1000·Σ(c − r) over the requested earlier rounds; the current round is free.
    R0-52 / P0-10: each of the N active players pays ceil(Fee / N)."""
    earlier = sorted(set(requested) - {current})
    for r in earlier:
        if r < 1 or r > current:
            allowed = "only round 1 exists so far" if current == 1 else f"choose rounds 1 to {current}"
            raise RuleError(f"Round {r} cannot be audited in round {current}: {allowed}.")
    if active < 1:
        raise RuleError("An audit needs at least one active player to share the fee.")
    fee = BASE_FEE + PER_PLAYER * active + PER_ROUND_BACK * sum(current - r for r in earlier)
    return AuditQuote(fee=fee, share=ceil(Fraction(fee, active)), rounds=(*earlier, current))
