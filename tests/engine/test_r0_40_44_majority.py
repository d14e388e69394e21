"""R0-40..R0-44: Player Majority Votes, one active player one supporter, passing at floor(A/2)+1."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.majority import PlayerVote, State, Subject, needed


def vote_with(supporters: int, active: int) -> PlayerVote:
    v = PlayerVote(Subject.NO_CONFIDENCE, None)
    for p in range(supporters):
        v = v.support(p, active)
    return v


@pytest.mark.parametrize(
    ("active", "supporters", "threshold", "state"),
    [(10, 5, 6, State.OPEN), (10, 6, 6, State.PASSED), (7, 4, 4, State.PASSED), (9, 4, 5, State.OPEN),
     (1, 1, 1, State.PASSED)],
)
def test_TV0_I10_majority_of_active_players(active: int, supporters: int, threshold: int, state: State) -> None:
    """TV0-I10 / R0-41 / P0-09: passes when supporters >= floor(A/2)+1; silence counts against."""
    assert needed(active) == threshold
    assert vote_with(supporters, active).state is state


def test_TV0_I10_then_enacted_and_expiry() -> None:
    """TV0-I10: the moderator enacts a passed vote; an open vote expires at round end with no carry-over."""
    assert vote_with(6, 10).enact().state is State.ENACTED
    expired = vote_with(5, 10).expire()
    assert expired.state is State.EXPIRED


def test_withdrawal_after_passing_does_not_reverse() -> None:
    """P0-19: OPEN -> PASSED at the moment the threshold is reached; later withdrawals do not reverse it."""
    v = vote_with(6, 10)
    with pytest.raises(RuleError):
        v.withdraw(0)
    assert v.state is State.PASSED


def test_withdrawal_while_open_lowers_the_count() -> None:
    """R0-40: Unvote withdraws support while the vote is open."""
    v = vote_with(5, 10).withdraw(0)
    assert len(v.supporters) == 4 and v.state is State.OPEN


def test_one_supporter_per_player() -> None:
    """R0-41: each supporting active player counts once."""
    v = PlayerVote(Subject.END_GAME, None).support(1, 10).support(1, 10)
    assert len(v.supporters) == 1


def test_fewer_active_players_can_pass_an_open_vote() -> None:
    """A0-13 / P0-19: when A changes the engine re-evaluates open votes at once."""
    v = vote_with(4, 9)
    assert v.state is State.OPEN
    assert v.reevaluate(7).state is State.PASSED


def test_only_a_passed_vote_can_be_enacted_or_vetoed() -> None:
    """R0-42: PASSED_PENDING -> ENACTED | VETOED by the moderator; nothing takes effect before."""
    with pytest.raises(RuleError):
        vote_with(1, 10).enact()
    with pytest.raises(RuleError):
        vote_with(1, 10).veto()
    assert vote_with(6, 10).veto().state is State.VETOED


def test_a_passed_vote_does_not_expire() -> None:
    """R0-42: only OPEN -> EXPIRED at round end; a passed vote still awaits the moderator."""
    assert vote_with(6, 10).expire().state is State.PASSED
