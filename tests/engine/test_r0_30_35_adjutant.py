"""R0-30..R0-35: the Adjutant General election, its deadline, and the no-AG penalty."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.adjutant import (
    AgBallot,
    ag_winner,
    cast_ag_ballot,
    election_deadline,
    extend_after_no_confidence,
    net_income,
    tally_ag,
)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_most_ballots_wins_unweighted() -> None:
    """R0-31 / P0-06: one ballot per active player, unweighted; the candidate with most ballots wins."""
    ballots = [AgBallot(1, 10, at(0)), AgBallot(2, 10, at(1)), AgBallot(3, 20, at(2))]
    assert ag_winner(ballots) == 10


def test_tie_goes_to_the_candidate_whose_last_ballot_came_first() -> None:
    """R0-31: "whoever has the most votes, or for a tie receives their last vote first, wins"."""
    ballots = [AgBallot(1, 10, at(0)), AgBallot(2, 20, at(1)), AgBallot(3, 20, at(5)), AgBallot(4, 10, at(3))]
    # 10: last ballot at 3; 20: last ballot at 5 -> 10 wins
    assert ag_winner(ballots) == 10
    assert [c for c, _, _ in tally_ag(ballots)] == [10, 20]


def test_a_tie_at_one_instant_goes_to_the_last_ballot_received_first() -> None:
    """R0-31 when the ballots carry the same time: the order they were received in (the order given) decides, not
    the candidates' ids. 20's last ballot is the second received, 10's the fourth, so 20 wins."""
    ballots = [AgBallot(1, 20, at(0)), AgBallot(2, 20, at(0)), AgBallot(3, 10, at(0)), AgBallot(4, 10, at(0))]
    assert ag_winner(ballots) == 20
    assert [c for c, _, _ in tally_ag(ballots)] == [20, 10]
    assert ag_winner(list(reversed(ballots))) == 10


def test_no_ballots_no_ag() -> None:
    """R0-31: with no ballots, no AG is elected."""
    assert ag_winner([]) is None


def test_changed_ballot_is_restamped_same_candidate_is_not() -> None:
    """P0-21: a changed ballot takes the time of the change; re-posting the same name keeps its time."""
    first = cast_ag_ballot(None, 1, 10, at(0))
    again = cast_ag_ballot(first, 1, 10, at(30))
    assert again.cast_at == at(0)
    changed = cast_ag_ballot(again, 1, 20, at(40))
    assert changed == AgBallot(1, 20, at(40))


def test_self_vote_allowed() -> None:
    """P0-06: a player may name themselves."""
    assert ag_winner([AgBallot(7, 7, at(0))]) == 7


def test_election_deadline_default_and_maximum() -> None:
    """R0-32: at most 96 h after it opens; 96 h by default."""
    assert election_deadline(T0, None) == T0 + timedelta(hours=96)
    assert election_deadline(T0, T0 + timedelta(hours=48)) == T0 + timedelta(hours=48)
    with pytest.raises(RuleError, match="96 hours"):
        election_deadline(T0, T0 + timedelta(hours=96, minutes=1))
    with pytest.raises(RuleError):
        election_deadline(T0, T0)


def test_no_confidence_extension_at_most_24h() -> None:
    """R0-35: the new election ends at round end, which may be extended by 24 hours at most."""
    end = T0 + timedelta(hours=10)
    assert extend_after_no_confidence(end, end + timedelta(hours=24)) == end + timedelta(hours=24)
    with pytest.raises(RuleError, match="24 hours"):
        extend_after_no_confidence(end, end + timedelta(hours=24, seconds=1))


def test_TV0_S07_no_ag_docks_every_player_300_ms() -> None:
    """TV0-S07 / R0-34 / P0-22: no AG at round end: each player's income is 300 MS lower, possibly negative."""
    assert net_income({1: 5000, 2: 200}, ag_in_office=False) == {1: 4700, 2: -100}
    assert net_income({1: 5000, 2: 200}, ag_in_office=True) == {1: 5000, 2: 200}
