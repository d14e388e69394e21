"""The disclosure check in Mylantium (docs/rulings.md): Faction Votes are public and what a Faction chose is secret,
so the Faction Votes posted for each candidate or party can give a choice away; and a Revolution's contribution
totals give a contribution away when one Faction alone contributed, or the total is $0 (P1-19: totals only)."""

from __future__ import annotations

from engine.core.disclosure import Exposure
from engine.mylantium.disclosure import contribution_exposures, election_check, general_options, primary_options
from engine.mylantium.elections import Candidate
from engine.mylantium.model import FactionCode as C
from engine.mylantium.model import Party
from engine.mylantium.revolution import Attempt, Contribution

W, F = Party.WHIG, Party.FEDERALIST
VOTES = {C.PL: 10, C.GR: 14, C.PR: 20, C.BH: 20}  # TV1-I04's Republic


def test_two_whig_candidates_the_faction_votes_give_both_whig_choices_away() -> None:
    candidates = [Candidate("Lee", C.PL, W, 7), Candidate("Ann", C.GR, W, 3), Candidate("Kim", C.PR, F, 5)]
    options = primary_options({C.PL: W, C.GR: W, C.PR: F, C.BH: F}, candidates, any_party=False)
    assert options[C.PR] == {"Kim"}  # one Federalist running: nothing secret to give away
    _, found, _ = election_check(VOTES, options, {"Lee": 24, "Ann": 0, "Kim": 40})
    assert found == (Exposure("PL", "Lee"), Exposure("GR", "Lee"))
    _, found, _ = election_check(VOTES, options, {"Lee": 10, "Ann": 14, "Kim": 40})
    assert found == (Exposure("PL", "Lee"), Exposure("GR", "Ann"))


def test_equal_faction_votes_hide_each_other_in_the_general_election() -> None:
    options = general_options({C.PR: F, C.BH: F})
    _, found, _ = election_check(VOTES, options, {"whig": 20, "federalist": 20})
    assert found == ()
    _, found, _ = election_check(VOTES, general_options({C.PL: W, C.PR: F}), {"whig": 20, "federalist": 10})
    assert found == (Exposure("PL", "federalist"), Exposure("PR", "whig"))


def attempt(contributions: dict[C, Contribution], outcome: str = "put down") -> Attempt:
    return Attempt(number=1, vanguard=C.PR, contributions=contributions, outcome=outcome)


def test_one_contributor_alone_is_given_away_by_the_totals() -> None:
    """The resolved attempt lists every Faction asked, those that sent nothing at $0 (public: who sent is public)."""
    paid = {C.GR: Contribution(30, 5), C.SH: Contribution(), C.BU: Contribution()}
    assert contribution_exposures(attempt(paid), {C.GR}) == ((C.GR, "crt", 30), (C.GR, "vanguard", 5))
    paid[C.GR] = Contribution(30, 0)
    assert contribution_exposures(attempt(paid), {C.GR}) == ((C.GR, "crt", 30),)  # no pro-Vanguard money posted


def test_several_contributors_are_hidden_unless_the_total_is_zero() -> None:
    paid = {C.GR: Contribution(30), C.SH: Contribution(10), C.BU: Contribution()}
    assert contribution_exposures(attempt(paid), {C.GR, C.SH}) == ()
    paid = {C.GR: Contribution(0), C.SH: Contribution(0), C.BU: Contribution()}
    assert contribution_exposures(attempt(paid), {C.GR, C.SH}) == ((C.GR, "crt", 0), (C.SH, "crt", 0))
    assert contribution_exposures(attempt(paid), set()) == ()  # nobody sent one: nothing secret to give away


def test_nothing_is_posted_before_the_result() -> None:
    assert contribution_exposures(attempt({C.GR: Contribution(30)}, outcome="crushed"), {C.GR}) == ()
    assert contribution_exposures(Attempt(number=1, vanguard=C.PR, contributions={C.GR: Contribution(30)}),
                                  {C.GR}) == ()
