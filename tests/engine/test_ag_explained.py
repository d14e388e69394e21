"""``tally_ag_explained`` against ``tally_ag`` (R0-31, P0-06): the same standings from the same count, unweighted and
weighted, and the explanation's secrecy (a weighted ballot's step shows V(p): its voter's only)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from engine.landsdraad.adjutant import AgBallot, tally_ag, tally_ag_explained

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
NAMES = {n: f"p{n}" for n in range(6)}

ballots_st = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 30)), max_size=6,
                      unique_by=lambda t: t[0]).map(
    lambda rows: [AgBallot(v, c, T0 + timedelta(minutes=m)) for v, c, m in rows])
weights_st = st.one_of(st.none(), st.dictionaries(st.integers(0, 5), st.integers(0, 40)))


@given(ballots_st, weights_st)
def test_explained_tally_is_the_plain_tally(ballots: list[AgBallot], weights: dict[int, int] | None) -> None:
    standings, derivation = tally_ag_explained("AG", ballots, NAMES, weights)
    assert standings == tally_ag(ballots, weights)
    assert derivation.value == tuple((NAMES[c], n) for c, n, _ in standings)
    if standings:
        assert derivation.result.startswith(f"{NAMES[standings[0][0]]} elected with {standings[0][1]}")
    else:
        assert derivation.result == "no AG elected"
    secret = [s for s in derivation.steps if s.seen_by is not None]
    assert len(secret) == (0 if weights is None else len(ballots))


def test_a_tie_is_broken_by_the_earliest_last_ballot_and_says_so() -> None:
    ballots = [AgBallot(0, 1, T0), AgBallot(2, 3, T0 + timedelta(minutes=1)), AgBallot(1, 3, T0 + timedelta(minutes=2)),
               AgBallot(3, 1, T0 + timedelta(minutes=3))]
    standings, derivation = tally_ag_explained("AG", ballots, NAMES, None, {0: (5,)}, (9,))
    assert [c for c, _, _ in standings] == [3, 1]
    says = [s.says for s in derivation.steps]
    assert says[0] == "p0's ballot for p1 (cast 2026-12-01 12:00:00 UTC) counts 1"
    assert derivation.steps[0].events == (5,)
    assert "p3 and p1 tie at 2; p3's last ballot came earliest (2026-12-01 12:02:00 UTC), so p3 wins" in says
    assert derivation.steps[-1].events == (9,) and derivation.result == "p3 elected with 2"


def test_weighted_steps_are_each_voters_own() -> None:
    ballots = [AgBallot(0, 1, T0), AgBallot(2, 1, T0)]
    _, derivation = tally_ag_explained("AG", ballots, NAMES, {0: 12, 2: 4})
    mine = derivation.seen_by("p0", moderator=False)
    assert mine.steps[0].says == "p0's ballot for p1 (cast 2026-12-01 12:00:00 UTC) counts 12, p0's votes"
    assert not any("p2" in s.says and "counts" in s.says for s in mine.steps) and mine.withheld == 1
    assert "Standings: p1 16" in mine.steps[-2].says
    assert derivation.seen_by(None, moderator=True).withheld == 0
