"""R0-50..R0-53: the audit fee, the rounds published, and each player's share."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.audit import audit_quote


def test_TV0_S03_round_two_in_round_four() -> None:
    """TV0-S03: 1000 + 100·10 + 1000·(4−2) = 4000; 400 each; rounds 2 and 4 published."""
    q = audit_quote(current=4, active=10, requested=[2])
    assert (q.fee, q.share, q.rounds) == (4000, 400, (2, 4))


def test_TV0_S04_whole_history_in_round_four() -> None:
    """TV0-S04 / P0-17: the (c − r) term is summed over every earlier round asked for: 8000, 800 each."""
    q = audit_quote(current=4, active=10, requested=[1, 2, 3])
    assert (q.fee, q.share, q.rounds) == (8000, 800, (1, 2, 3, 4))


def test_current_round_is_default_and_free() -> None:
    """R0-50: auditing only the current round is the default and the cheapest."""
    assert audit_quote(current=4, active=10).fee == 2000
    assert audit_quote(current=4, active=10, requested=[4]).fee == 2000


def test_non_contiguous_rounds() -> None:
    """A0-10: R = {1, 3} in round 5 costs 1000·(4 + 2) on top of the base."""
    assert audit_quote(current=5, active=10, requested=[1, 3]).fee == 1000 + 1000 + 6000


def test_share_rounds_up() -> None:
    """P0-10: when Fee/N is not whole, every player pays ceil(Fee/N)."""
    q = audit_quote(current=1, active=7)
    assert q.fee == 1700 and q.share == 243  # 1700/7 = 242.86


@pytest.mark.parametrize("bad", [0, 5])
def test_rounds_outside_the_game_are_rejected(bad: int) -> None:
    """R0-50: a round r > c or r < 1 is rejected."""
    with pytest.raises(RuleError):
        audit_quote(current=4, active=10, requested=[bad])
