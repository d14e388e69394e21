"""R1-01..R1-07: the three sources of votes in the Election Round.

"Faction votes: Each Faction has a certain number of votes that it exercises when voting for a Candidate (during
the Primary) and for a Party (during the General Election). Charisma: Each Candidate has a certain number of votes
that he or she automatically receives when participating in an Election ... Independent Vote: ... always equal to
one-half of the sum of all the Faction Votes in play during an election ... they only come into play during the
General Election ... the Independent Vote splits according to the Approval Rating of the incumbent party."
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.mylantium.elections import (
    Candidate,
    charisma_cast,
    general,
    independent_split,
    independent_vote,
    primary,
)
from engine.mylantium.model import Building, FactionCode, Party, Territory, VoteBase, default_base
from engine.mylantium.settings import Rules

PL, GR, PR, BH = FactionCode.PL, FactionCode.GR, FactionCode.PR, FactionCode.BH
WHIG, FED = Party.WHIG, Party.FEDERALIST


def test_TV1_S01_plutocrat_faction_votes_from_ports() -> None:
    """TV1-S01 (R1-02): "the Plutocrat gets 2 votes for each port in play" — 3 ports in Avalon and 2 in Bicardia
    give 6 + 4 = 10; another port in Avalon gives 8 and 12."""
    avalon = Territory("Avalon", {Building.PORT: 3})
    bicardia = Territory("Bicardia", {Building.PORT: 2})
    base = default_base(PL)
    assert base.by_territory([avalon, bicardia]) == {"Avalon": 6, "Bicardia": 4}
    assert base.national([avalon, bicardia]) == 10
    avalon = Territory("Avalon", {Building.PORT: 4})
    assert base.by_territory([avalon, bicardia]) == {"Avalon": 8, "Bicardia": 4}
    assert base.national([avalon, bicardia]) == 12


def test_other_factions_votes_are_entered_or_follow_a_rule() -> None:
    """A1-09: the other formulas are not in the document, so the moderator enters them, per territory, or as a
    rule of so many per building."""
    avalon = Territory("Avalon", {Building.PORT: 3, Building.VILLAGE: 5})
    assert default_base(GR).national([avalon]) == 0
    entered = VoteBase(entered={"Avalon": 7, "Bicardia": 3})
    assert entered.by_territory([avalon]) == {"Avalon": 7, "Bicardia": 3}
    both = VoteBase(per={Building.VILLAGE: 1}, entered={"Avalon": 2})
    assert both.by_territory([avalon]) == {"Avalon": 7}


def test_TV1_S02_independent_vote_32_at_60_percent() -> None:
    """TV1-S02 (R1-05): "if the Independent Vote is 32, and the incumbent party (the Federalists) has an approval
    rating of 60%, then the Federalist Party would receive 19 Independent votes while the Whigs would receive 13"."""
    assert independent_split(32, 60) == (19, 13)


def test_TV1_S03_faction_total_that_makes_an_independent_vote_of_32() -> None:
    """TV1-S03 (R1-04): I = F/2, so F = 64, and I/(F + I) = 1/3 only while Charisma is left out (A1-01)."""
    assert independent_vote(64) == 32
    assert Fraction(32, 64 + 32) == Fraction(1, 3)


def test_TV1_I01_independent_vote_from_faction_votes_odd_F() -> None:
    """TV1-I01 (P1-01, P1-02): F 64 -> 32; F 63 -> 31.5 -> 32 (half up); at 60%, 19 and 13."""
    assert independent_vote(64) == 32
    assert independent_vote(63) == 32
    i = independent_vote(63)
    assert (i, *independent_split(i, 60)) == (32, 19, 13)


def test_A1_02_both_halves_do_not_round_up() -> None:
    """A1-02 / P1-02: I = 15 at 50% — the incumbent's 7.5 rounds up to 8, the opposition gets the remaining 7."""
    assert independent_split(15, 50) == (8, 7)


def test_the_rounding_is_a_setting() -> None:
    """RULINGS.md: the independent-vote rounding is a per-game setting (P1-01/P1-02 the default)."""
    down = Rules(rounding="down")
    assert independent_vote(63, down) == 31
    assert independent_split(15, 50, down) == (7, 8)
    assert independent_vote(63, Rules(rounding="up")) == 32


@given(st.integers(0, 10_000), st.integers(0, 100))
def test_the_split_always_adds_up_to_the_independent_vote(f: int, approval: int) -> None:
    """P1-02: whatever F and the approval, the two shares add up to I, and neither is negative."""
    i = independent_vote(f)
    incumbent, opposition = independent_split(i, approval)
    assert incumbent + opposition == i
    assert incumbent >= 0 and opposition >= 0
    assert i == (f + 1) // 2


@given(st.integers(0, 10_000), st.integers(0, 99))
def test_more_approval_never_gives_the_incumbent_less(i: int, approval: int) -> None:
    assert independent_split(i, approval)[0] <= independent_split(i, approval + 1)[0]


def test_approval_out_of_range_is_refused() -> None:
    with pytest.raises(RuleError):
        independent_split(10, 101)


def test_TV1_I03_charisma_only_while_participating_and_no_independent_vote_in_the_primary() -> None:
    """TV1-I03 (R1-01, R1-03): W1 (Charisma 7, running) and W2 (Charisma 9, not running) in a Primary: 7 and 0
    Charisma votes cast; no Independent votes."""
    w1 = Candidate("W1", PL, WHIG, 7, running=True)
    w2 = Candidate("W2", GR, WHIG, 9, running=False)
    assert charisma_cast([w1, w2]) == {"W1": 7, "W2": 0}
    result = primary([w1, w2], {}, {PL: 10, GR: 14})
    assert [(line.name, line.charisma, line.independent) for line in result.lines] == [("W1", 7, 0)]
    assert sum(line.independent for line in result.lines) == 0


def test_a_primary_is_won_by_the_most_votes_in_each_party() -> None:
    """R1-01: Faction Votes and Charisma; P1-16: the document gives no rule, so the most votes wins."""
    cands = [Candidate("Lee", PL, WHIG, 7), Candidate("Ash", GR, WHIG, 3), Candidate("Kim", PR, FED, 5)]
    result = primary(cands, {PL: "Ash", GR: "Ash", PR: "Kim"}, {PL: 10, GR: 14, PR: 20})
    totals = {line.name: line.total for line in result.lines}
    assert totals == {"Ash": 27, "Lee": 7, "Kim": 25}
    assert result.nominees == {WHIG: "Ash", FED: "Kim"}
    assert result.ties == {}


def test_a_primary_tie_is_left_to_the_moderator() -> None:
    cands = [Candidate("Lee", PL, WHIG, 7), Candidate("Ash", GR, WHIG, 3)]
    result = primary(cands, {GR: "Ash"}, {GR: 4})
    assert result.nominees[WHIG] is None and result.ties[WHIG] == ("Lee", "Ash")
    assert result.nominees[FED] is None and FED not in result.ties


def test_TV1_I04_general_election_totals() -> None:
    """TV1-I04 (P1-01, P1-02, P1-16): F = 64, I = 32, 19 Federalist and 13 Whig Independents; Whig 24+7+13 = 44,
    Federalist 40+5+19 = 64; the Federalists win; the Independents are 8/27 of the votes cast (A1-01)."""
    votes = {PL: 10, GR: 14, PR: 20, BH: 20}
    choices = {PL: WHIG, GR: WHIG, PR: FED, BH: FED}
    nominees = {WHIG: Candidate("W", PL, WHIG, 7), FED: Candidate("F", PR, FED, 5)}
    result = general(nominees, choices, votes, incumbent=FED, approval=60)
    assert (result.faction_votes_in_play, result.independent) == (64, 32)
    assert {p: line.independent for p, line in result.lines.items()} == {FED: 19, WHIG: 13}
    assert {p: line.total for p, line in result.lines.items()} == {WHIG: 44, FED: 64}
    assert result.winner is FED and not result.tie
    assert result.independent_share == Fraction(8, 27)


def test_F_counts_every_faction_in_play_chosen_or_not() -> None:
    """R1-04: "one-half of the sum of all the Faction Votes in play" — a Faction that sends no choice still counts
    in F, though its own votes are not cast."""
    result = general({}, {PL: WHIG}, {PL: 10, GR: 14}, incumbent=WHIG, approval=50)
    assert result.independent == 12
    assert result.lines[WHIG].faction_votes == 10 and result.lines[FED].faction_votes == 0


def test_a_general_election_tie_keeps_the_incumbent() -> None:
    """P1-16: a tie keeps the incumbent party in power."""
    result = general({}, {PL: WHIG, GR: FED}, {PL: 10, GR: 10}, incumbent=FED, approval=50)
    assert result.lines[WHIG].total == result.lines[FED].total == 15
    assert result.winner is FED and result.tie
    result = general({}, {PL: WHIG, GR: FED}, {PL: 10, GR: 10}, incumbent=WHIG, approval=50)
    assert result.winner is WHIG


def test_a_nominee_not_running_casts_no_charisma() -> None:
    result = general({WHIG: Candidate("W", PL, WHIG, 9, running=False)}, {}, {}, incumbent=WHIG, approval=50)
    assert result.lines[WHIG].charisma == 0


@pytest.mark.parametrize("charisma", [0, 14])
def test_charisma_is_1_to_13(charisma: int) -> None:
    with pytest.raises(RuleError, match="1 to 13"):
        Candidate("X", PL, WHIG, charisma)
