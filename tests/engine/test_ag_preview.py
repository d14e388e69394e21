"""An AG election before it closes (``/ag preview``, engine/landsdraad/ag_preview.py): the close's own standings
(R0-31: most ballots, a tie to the earliest last ballot), and what each other candidate needs, given that a ballot
cast now comes after every other (P0-21)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.landsdraad.adjutant import AgBallot, ag_winner, tally_ag
from engine.landsdraad.ag_preview import ag_preview

T0 = datetime(2026, 3, 1, 18, tzinfo=UTC)
ALICE, BOB, CAROL, DAVE, ERIN = 1, 2, 3, 4, 5


def at(hours: int) -> datetime:
    return T0 + timedelta(hours=hours)


def test_a_tie_goes_to_the_earliest_last_ballot_and_the_chaser_must_lead() -> None:
    """The ag-election transcript: Carol 2 (last at 20:00), Alice 2 (last at 22:00): Carol wins the tie. Alice draws
    level already and loses it; 1 more ballot wins it for her, or 1 moved from Carol. Erin has not voted."""
    ballots = [AgBallot(ALICE, ALICE, at(0)), AgBallot(BOB, CAROL, at(1)), AgBallot(CAROL, CAROL, at(2)),
               AgBallot(DAVE, ALICE, at(4))]
    p = ag_preview(ballots, {pid: 1 for pid in (ALICE, BOB, CAROL, DAVE, ERIN)}, weighted=False)
    assert p.winner == CAROL == ag_winner(ballots)
    assert p.tied == (CAROL, ALICE)
    (alice,) = p.chases
    assert (alice.candidate, alice.to_tie, alice.tie_goes_to, alice.to_win, alice.moved) == (ALICE, 0, CAROL, 1, 1)
    assert (p.newcomer_to_win, p.waiting, p.waiting_votes) == (3, 1, 1)


def test_three_candidates_a_chaser_must_pass_the_best_of_the_others() -> None:
    """Alice 3, Bob 2, Carol 1: Carol needs 2 to draw level with Alice (who keeps the tie), 3 to win; moving
    Alice's ballots: 1 gives 2 against 2 with Bob on 2, 2 gives 3 against 1 and Bob 2: 2 moved."""
    ballots = [AgBallot(v, ALICE, at(v)) for v in (1, 2, 3)] + [AgBallot(v, BOB, at(v)) for v in (4, 5)] + [
        AgBallot(6, CAROL, at(6))]
    p = ag_preview(ballots, {v: 1 for v in range(1, 8)}, weighted=False)
    assert p.winner == ALICE and p.tied == ()
    bob, carol = p.chases
    assert (bob.to_tie, bob.to_win, bob.moved, bob.tie_goes_to) == (1, 2, 1, ALICE)
    assert (carol.to_tie, carol.to_win, carol.moved) == (2, 3, 2)
    assert p.waiting == 1


def test_weighted_counts_votes_and_no_ballots_means_no_winner() -> None:
    weights = {ALICE: 25, BOB: 7, CAROL: 9}
    p = ag_preview([AgBallot(BOB, BOB, at(0)), AgBallot(CAROL, CAROL, at(1))], weights, weighted=True)
    assert (p.winner, p.chases[0].candidate, p.chases[0].to_win, p.chases[0].moved) == (CAROL, BOB, 3, None)
    assert (p.waiting, p.waiting_votes) == (1, 25)
    empty = ag_preview([], weights, weighted=False)
    assert (empty.winner, empty.standings, empty.chases, empty.newcomer_to_win, empty.waiting) == (None, (), (), 1, 3)


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(1, 8), st.integers(1, 4)), max_size=12))
def test_adding_what_a_chaser_needs_wins_it_and_one_fewer_does_not(cast: list[tuple[int, int]]) -> None:
    """Brute force on the close's own ``tally_ag``: ``to_win`` new ballots (stamped after every other) make the
    chaser win; ``to_win - 1`` do not (a tie at ``to_tie`` goes to the other)."""
    ballots = [AgBallot(voter, cand, at(i)) for i, (voter, cand) in enumerate(dict(cast).items())]
    p = ag_preview(ballots, {v: 1 for v in range(1, 9)}, weighted=False)
    assert p.winner == ag_winner(ballots)
    late = at(100)
    for c in p.chases:
        def win_with(n: int, candidate: int = c.candidate) -> bool:
            more = [AgBallot(100 + k, candidate, late + timedelta(minutes=k)) for k in range(n)]
            return tally_ag(ballots + more)[0][0] == candidate
        assert win_with(c.to_win) and not win_with(c.to_win - 1)
        assert c.to_tie == c.to_win - 1
