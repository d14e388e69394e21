"""The crisis tally (R0-13..R0-19): votes in play, AYE/NAY/ABS, threshold, passed or failed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.landsdraad.model import Option


@dataclass(frozen=True)
class Tally:
    aye: int
    nay: int
    abstain: int

    @property
    def in_play(self) -> int:
        """VIP: every active player's V(p) plus every temporary faction's votes (R0-17)."""
        return self.aye + self.nay + self.abstain

    @property
    def effective(self) -> int:
        """E = AYE + NAY: abstentions excluded (R0-18)."""
        return self.aye + self.nay

    @property
    def needed(self) -> int:
        """T = floor(E/2) + 1 (R0-18)."""
        return self.effective // 2 + 1

    @property
    def passed(self) -> bool:
        """AYE >= T, the same as AYE > NAY; a tie or E = 0 fails (R0-18)."""
        return self.aye >= self.needed


def tally(blocks: Iterable[tuple[int, Option | None]]) -> Tally:
    """Sum weighted blocks. Each block (a player or a faction) votes all its weight one way (R0-14);
    ``None`` (no ballot) abstains (R0-13)."""
    sums = {Option.AYE: 0, Option.NAY: 0, Option.ABSTAIN: 0}
    for weight, option in blocks:
        if weight < 0:
            raise ValueError(f"a block's weight cannot be negative: {weight}")
        sums[option or Option.ABSTAIN] += weight
    return Tally(aye=sums[Option.AYE], nay=sums[Option.NAY], abstain=sums[Option.ABSTAIN])
