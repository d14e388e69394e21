"""Audit fees (R0-50..R0-53, P0-10, P0-17)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.core.derivation import Derivation, Step
from engine.core.errors import RuleError
from engine.core.rounding import ceil, floor

BASE_FEE = 1000
PER_PLAYER = 100
PER_ROUND_BACK = 1000


@dataclass(frozen=True)
class AuditQuote:
    fee: int
    share: int
    rounds: tuple[int, ...]
    """The rounds published: the requested earlier rounds and the current one (R0-51)."""


def audit_quote(current: int, active: int, requested: Iterable[int] = (), *, down: bool = False) -> AuditQuote:
    """R0-50: 1000 + 100·N + 1000·Σ(c − r) over the requested earlier rounds; the current round is free.
    R0-52 / P0-10: each of the N active players pays ceil(Fee / N) (floor with ``down``: the game's
    ``audit_share_rounding`` setting)."""
    earlier = sorted(set(requested) - {current})
    for r in earlier:
        if r < 1 or r > current:
            allowed = "only round 1 exists so far" if current == 1 else f"choose rounds 1 to {current}"
            raise RuleError(f"Round {r} cannot be audited in round {current}: {allowed}.")
    if active < 1:
        raise RuleError("An audit needs at least one active player to share the fee.")
    fee = BASE_FEE + PER_PLAYER * active + PER_ROUND_BACK * sum(current - r for r in earlier)
    share = floor(Fraction(fee, active)) if down else ceil(Fraction(fee, active))
    return AuditQuote(fee=fee, share=share, rounds=(*earlier, current))


def audit_quote_explained(subject: str, current: int, active: int, requested: Iterable[int] = (), *,
                          down: bool = False, events: tuple[int, ...] = (), seen_by: frozenset[str] | None = None
                          ) -> tuple[AuditQuote, Derivation]:
    """``audit_quote`` and its steps. ``seen_by``: a quote is its requester's; an audit's fee is public."""
    quote = audit_quote(current, active, requested, down=down)
    earlier = quote.rounds[:-1]
    back = " + ".join(f"({current} − {r})" for r in earlier)
    steps = [Step(f"Rounds published: {', '.join(map(str, quote.rounds))} (the current round {current} is always "
                  "included, free)", "the audit publishes the rounds asked for and the current one", "R0-51",
                  events, seen_by),
             Step(f"Fee: {BASE_FEE} + {PER_PLAYER} × {active} active players"
                  + (f" + {PER_ROUND_BACK} × ({back})" if earlier else "") + f" = {quote.fee} MS",
                  "1000 MS, 100 per active player, and 1000 for each round back of each earlier round", "R0-50",
                  events, seen_by),
             Step(f"Each player's share: {quote.fee} ÷ {active}, rounded {'down' if down else 'up'} = "
                  f"{quote.share} MS",
                  "the fee is split evenly among the active players, rounded up (this game's setting may round "
                  "it down)", "R0-52", events, seen_by)]
    return quote, Derivation(subject, f"fee {quote.fee} MS, {quote.share} MS each", tuple(steps),
                             value=(quote.fee, quote.share))
