"""Issue 19, corrections with their consequences: a closed crisis round counted again with a correction's weight
changes, by the close's own resolution (R0-15..R0-18: "T = floor(E/2) + 1"; a tie fails)."""

from __future__ import annotations

from engine.landsdraad.errata import (
    ClosedRound,
    Voter,
    WeightChange,
    consequences,
    holder_in,
    holding_worth,
    recount,
)
from engine.landsdraad.factions import make_faction
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally

AYE, NAY = Option.AYE, Option.NAY


def _round(number: int, *voters: tuple[int, int, Option | None]) -> ClosedRound:
    vs = tuple(Voter(u, f"p{u}", v, b) for u, v, b in voters)
    aye = sum(v.votes for v in vs if v.ballot is AYE)
    nay = sum(v.votes for v in vs if v.ballot is NAY)
    return ClosedRound(number, vs, (), {}, Tally(aye, nay, sum(v.votes for v in vs) - aye - nay))


def test_a_holding_worth_is_its_votes_and_the_bonus_the_holder_earns() -> None:
    assert holding_worth(2, "planet", "rich", 0, False) == 4
    assert holding_worth(3, "planet", "rich", 0, False) == 6  # R0-06: D 3 reaches a rich planet's bonus
    assert holding_worth(5, "planet", None, 0, True) == 0  # a Homeworld gives nothing
    assert holding_worth(3, "elector", "strong", 4, False) == 6
    assert holding_worth(2, "elector", "strong", 4, False) == 4


def test_who_holds_it_in_a_round() -> None:
    assert [holder_in(n, 1, 2, 3) for n in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert holder_in(5, 1, None, 3) == 1  # cancelled: with the sender throughout


def test_a_flip_a_kept_outcome_and_an_unaffected_round() -> None:
    flips = _round(2, (1, 15, AYE), (2, 7, NAY), (3, 7, NAY))  # posted Aye 15, Nay 14: passed
    kept = _round(3, (1, 15, AYE), (2, 7, AYE), (3, 7, NAY))
    alone = _round(4, (1, 9, AYE), (2, 11, NAY), (3, 7, NAY))
    moved = [WeightChange(n, 1, -6, "x") for n in (2, 3)] + [WeightChange(2, 2, 4, "x"), WeightChange(3, 3, 4, "x")]
    found = consequences([alone, kept, flips], moved, touched=(2, 3, 4))
    assert [r.round for r in found] == [2, 3]
    first, second = found
    assert first.corrected == Tally(9, 18, 0) and first.outcome_changed and not first.corrected.passed
    assert second.posted == Tally(22, 7, 0) and second.corrected == Tally(16, 11, 0) and not second.outcome_changed
    assert first.ballots == {1: AYE, 2: NAY}


def test_factions_and_rolls_count_as_at_the_close_and_a_weight_stays_at_least_zero() -> None:
    hawks = make_faction("Hawks", 5, "d6", "1-3 nay, 4-6 aye")
    closed = ClosedRound(1, (Voter(1, "a", 4, AYE), Voter(2, "b", 3, NAY)), (hawks,), {"Hawks": 2}, Tally(4, 8, 0))
    r = recount(closed, [WeightChange(1, 1, 3, "x"), WeightChange(1, 2, -10, "x"), WeightChange(2, 1, 50, "x")])
    assert r.corrected == Tally(7, 5, 0)  # the Hawks rolled 2: Nay, as at the close; b cannot fall below 0
    assert r.differs and r.outcome_changed
    assert recount(closed, [WeightChange(1, 9, 5, "x")]).changes == ()  # not a voter that round: dropped


def test_a_round_with_an_erratum_is_asked_about_untouched_and_told_when_it_comes_out_as_posted_again() -> None:
    """docs/rulings.md (errata withdrawn): what the players last read of a round is its latest erratum. A correction
    that undoes the one the erratum was posted for changes no weight in that round, yet the round is asked about:
    it now comes out as first posted, which the erratum contradicts (``restores``)."""
    flips = _round(2, (1, 15, AYE), (2, 7, NAY), (3, 7, NAY))  # posted Aye 15, Nay 14
    erratum = Tally(9, 18, 0)
    [told] = consequences([flips], [], touched=(), stated={2: erratum})
    assert told.round == 2 and told.stated == erratum and told.corrected == flips.posted
    assert told.restores and told.stale and not told.differs
    moved = [WeightChange(2, 1, -6, "x"), WeightChange(2, 2, 4, "x")]  # the erratum's correction still stands
    assert consequences([flips], moved, touched=(), stated={2: erratum}) == []  # as the erratum said: nothing owed
    assert [r.round for r in consequences([flips], moved, touched=(2,))] == [2]  # no erratum yet: owed
