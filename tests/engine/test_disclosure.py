"""The disclosure check (issue 19): "With public weights, a posted total can reveal how an individual voted (weights
11, 7 and 5 with Aye = 16 means the 11 and the 5 voted Aye)." The dynamic programme is checked against brute force
over every ballot combination."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.disclosure import (
    Check,
    Exposure,
    InconsistentError,
    Leak,
    Voter,
    check,
    check_classes,
    exposures,
    leaks,
    margin_band,
    possible_choices,
)

ANA = ("aye", "nay", "abstain")


def voters(*weights: int, choices: tuple[str, ...] = ANA) -> list[Voter]:
    return [Voter.public_weight(f"p{i}", w, choices) for i, w in enumerate(weights)]


def test_the_issues_example_11_7_5_with_aye_16() -> None:
    vs = [Voter.public_weight(n, w, ANA) for n, w in (("alice", 11), ("bob", 7), ("carol", 5))]
    assert exposures(vs, {"aye": 16, "nay": 7, "abstain": 0}) == (Exposure("alice", "aye"), Exposure("bob", "nay"),
                                                                  Exposure("carol", "aye"))
    # with Nay and Abstain only summed together, bob is still not Aye, but which of the two is open
    assert possible_choices(vs, {"aye": 16, "nay": 0, "abstain": 7})["bob"] == {"abstain"}


def test_equal_weights_hide_each_other() -> None:
    """Two 5s, one Aye and one Nay: either could be either."""
    assert exposures(voters(5, 5), {"aye": 5, "nay": 5}) == ()
    assert possible_choices(voters(5, 5), {"aye": 5, "nay": 5}) == {"p0": {"aye", "nay"}, "p1": {"aye", "nay"}}


def test_a_unanimous_vote_exposes_everyone() -> None:
    assert exposures(voters(3, 4, 9), {"aye": 16, "nay": 0, "abstain": 0}) == tuple(
        Exposure(f"p{i}", "aye") for i in range(3))


def test_weight_zero_is_never_exposed() -> None:
    """A voter with no votes changes no total, so nothing is given away about them."""
    assert exposures(voters(0, 4), {"aye": 4, "nay": 0, "abstain": 0}) == (Exposure("p1", "aye"),)


def test_a_public_choice_narrows_the_others_and_is_not_reported() -> None:
    """A temporary faction's posted roll, or a player known not to have voted: their choice is public."""
    vs = [Voter.public_weight("faction", 6, ("nay",)), *voters(3, 3)]
    assert exposures(vs, {"aye": 3, "nay": 9, "abstain": 0}) == ()
    vs = [Voter.public_weight("faction", 6, ("aye",)), *voters(3, 4)]
    assert exposures(vs, {"aye": 9, "nay": 4, "abstain": 0}) == (Exposure("p0", "aye"), Exposure("p1", "nay"))


def test_a_weight_known_only_as_a_set() -> None:
    """A weight the public knows only lies in {2, 3}: Aye = 5 with a public 2 and 3 beside it no longer says who."""
    vs = [Voter("x", frozenset((2, 3)), frozenset(ANA)), *voters(2, 3)]
    possible = possible_choices(vs, {"aye": 5, "nay": 3, "abstain": 0})
    assert possible["x"] == {"aye", "nay"}


def test_candidates_as_choices() -> None:
    vs = voters(4, 6, 10, choices=("ann", "ben"))
    assert exposures(vs, {"ann": 10, "ben": 10}) == ()
    assert exposures(vs, {"ann": 4, "ben": 16}) == (Exposure("p0", "ann"), Exposure("p1", "ben"),
                                                    Exposure("p2", "ben"))


def test_totals_no_combination_gives_are_refused() -> None:
    with pytest.raises(InconsistentError):
        possible_choices(voters(2, 2), {"aye": 3, "nay": 1})


def test_margin_bands() -> None:
    assert margin_band(0, 10) == "tied"
    assert margin_band(0, 0) == "nobody voted either way"
    assert margin_band(1, 11).startswith("narrow")
    assert margin_band(1, 10).startswith("clear")  # exactly 10% is not under 10%
    assert margin_band(2, 7).startswith("clear")
    assert margin_band(3, 10).startswith("wide")


def brute(vs: list[Voter], totals: dict[str, int]) -> dict[str, frozenset[str]] | None:
    names = sorted(totals)
    seen: dict[str, set[str]] = {v.name: set() for v in vs}
    found = False
    options = [[(c, w) for c in sorted(v.choices) for w in sorted(v.weights)] for v in vs]
    for combo in product(*options):
        sums = dict.fromkeys(names, 0)
        for c, w in combo:
            sums[c] += w
        if sums == totals:
            found = True
            for v, (c, _) in zip(vs, combo, strict=True):
                seen[v.name].add(c)
    return {k: frozenset(s) for k, s in seen.items()} if found else None


voter_st = st.tuples(st.frozensets(st.integers(0, 9), min_size=1, max_size=2),
                     st.frozensets(st.sampled_from(ANA), min_size=1))


@settings(max_examples=150, deadline=None)
@given(st.lists(voter_st, min_size=1, max_size=6), st.data())
def test_the_programme_agrees_with_brute_force(specs: list[tuple[frozenset[int], frozenset[str]]],
                                               data: st.DataObject) -> None:
    vs = [Voter(f"p{i}", w, c) for i, (w, c) in enumerate(specs)]
    # totals from a real combination most of the time, so that exposures are met, else any totals
    if data.draw(st.booleans()):
        totals = dict.fromkeys(ANA, 0)
        for v in vs:
            totals[data.draw(st.sampled_from(sorted(v.choices)))] += data.draw(st.sampled_from(sorted(v.weights)))
    else:
        totals = {c: data.draw(st.integers(0, 20)) for c in ANA}
    expected = brute(vs, totals)
    if expected is None:
        with pytest.raises(InconsistentError):
            possible_choices(vs, totals)
        return
    assert possible_choices(vs, totals) == expected
    assert exposures(vs, totals) == tuple(Exposure(v.name, next(iter(expected[v.name]))) for v in vs
                                          if len(v.choices) > 1 and len(expected[v.name]) == 1)
    # the partial information too: every voter some choice is ruled out for, with more than one left, and no other
    found = check(vs, totals)
    assert leaks(vs, found) == tuple(Leak(v.name, v.choices - expected[v.name], expected[v.name]) for v in vs
                                     if 1 < len(expected[v.name]) < len(v.choices))
    for leak in leaks(vs, found):  # what is reported ruled out is truly never the voter's choice in any combination
        assert not leak.ruled_out & expected[leak.name] and leak.ruled_out


def test_a_partial_leak_is_reported_apart_from_full_exposure() -> None:
    # Nay 7 is ann's alone and Aye 15 needs bob's 11; cy and dee (4 each) share Aye and Abstain between them, so
    # which of them voted Aye is secret, but the totals show neither voted Nay
    vs = [Voter.public_weight(n, w, ANA) for n, w in (("ann", 7), ("bob", 11), ("cy", 4), ("dee", 4))]
    totals = {"aye": 15, "nay": 7, "abstain": 4}
    found = check(vs, totals)
    assert exposures(vs, totals) == (Exposure("ann", "nay"), Exposure("bob", "aye"))
    assert leaks(vs, found) == (Leak("cy", frozenset({"nay"}), frozenset({"aye", "abstain"})),
                                Leak("dee", frozenset({"nay"}), frozenset({"aye", "abstain"})))


def test_equal_weights_leak_nothing_when_every_choice_stays_open() -> None:
    found = check(voters(5, 5, 5), {"aye": 5, "nay": 5, "abstain": 5})
    assert leaks(voters(5, 5, 5), found) == ()


def test_the_quick_check_reports_only_what_is_truly_ruled_out() -> None:
    vs = [Voter.public_weight(f"p{i}", 3, ANA) for i in range(3)]
    quick = Check({v.name: frozenset({"aye", "abstain"}) for v in vs}, complete=False)
    assert {leak.ruled_out for leak in leaks(vs, quick)} == {frozenset({"nay"})}


def test_many_voters_stay_fast() -> None:
    """60 players with weights up to 40 (totals in the thousands): the programme, not 3^60 combinations."""
    weights = [(7 * i) % 37 + 3 for i in range(60)]
    vs = voters(*weights)
    aye = sum(weights[::3])
    nay = sum(weights[1::3])
    possible = possible_choices(vs, {"aye": aye, "nay": nay, "abstain": sum(weights) - aye - nay})
    assert len(possible) == 60


def test_an_electorate_too_big_for_the_full_check_gets_the_quick_one() -> None:
    """Totals in the tens of thousands: a unanimous vote is cheap to check in full (one total, the others 0); a
    three-way split gets only the quick check, which says it was partial, and still rules out what cannot fit."""
    vs = voters(*([1000] * 99 + [40_000]))
    found = check(vs, {"aye": 139_000, "nay": 0, "abstain": 0})
    assert found.complete and all(p == {"aye"} for p in found.possible.values())
    found = check(vs, {"aye": 33_000, "nay": 33_000, "abstain": 73_000})
    assert not found.complete and found.possible["p99"] == {"abstain"} and found.possible["p0"] == set(ANA)


def test_nobody_in_play() -> None:
    """A round with no players and no factions: nothing to check, nothing exposed."""
    assert exposures([], {"aye": 0, "nay": 0, "abstain": 0}) == ()
    assert exposures([], {}) == ()  # an election nobody chose in


def test_a_voter_without_a_weight_is_named() -> None:
    """The check works once per class of voters (same weights, same choices); a bad class is reported by the first
    voter in it."""
    ok = voters(3, 4)
    bad = [Voter("carol", frozenset(), frozenset(ANA)), Voter("dave", frozenset(), frozenset(ANA))]
    with pytest.raises(ValueError, match=r"^carol: a voter needs at least one weight"):
        check(ok + bad, {"aye": 7, "nay": 0, "abstain": 0})
    with pytest.raises(ValueError, match=r"^erin: "):
        check([*ok, Voter("erin", frozenset((-1,)), frozenset(ANA))], {"aye": 7, "nay": 0, "abstain": 0})
    with pytest.raises(ValueError, match=r"^fay: "):
        check([*ok, Voter("fay", frozenset((2,)), frozenset())], {"aye": 7, "nay": 0, "abstain": 0})


def test_voters_of_one_class_add_up_each() -> None:
    """Ten voters share one weight and one set of choices: the check counts each of them (a unanimous Aye of 10 x 5
    exposes all ten), and totals that only nine of them could make are refused."""
    vs = voters(*([5] * 10))
    assert len(exposures(vs, {"aye": 50, "nay": 0, "abstain": 0})) == 10
    with pytest.raises(InconsistentError):
        check(vs, {"aye": 45, "nay": 0, "abstain": 0})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(voter_st, st.integers(1, 3)), min_size=1, max_size=4), st.data())
def test_the_check_by_class_is_the_check_of_the_voters_in_any_order(
        specs: list[tuple[tuple[frozenset[int], frozenset[str]], int]], data: st.DataObject) -> None:
    """``check_classes`` (the close counts its players by class instead of listing them) gives each class what
    ``check`` gives each of its voters, listed in any order, and raises as it does."""
    classes: dict[tuple[frozenset[int], frozenset[str]], int] = {}
    for key, count in specs:
        classes[key] = classes.get(key, 0) + count
    members = [key for key, count in classes.items() for _ in range(count)]
    members = data.draw(st.permutations(members))
    vs = [Voter(f"p{i}", w, c) for i, (w, c) in enumerate(members)]
    totals = dict.fromkeys(ANA, 0)
    for v in vs:
        totals[data.draw(st.sampled_from(sorted(v.choices)))] += data.draw(st.sampled_from(sorted(v.weights)))
    if data.draw(st.booleans()):
        totals["nay"] += data.draw(st.integers(-2, 2))
        totals["nay"] = max(totals["nay"], 0)
    try:
        expected = check(vs, totals)
    except InconsistentError:
        with pytest.raises(InconsistentError):
            check_classes(classes, totals)
        return
    found = check_classes(classes, totals)
    assert found.complete == expected.complete
    assert {v.name: found.possible[v.weights, v.choices] for v in vs} == expected.possible
    assert set(found.possible) == set(classes)


def test_the_quick_check_by_class() -> None:
    """An electorate too big for the full check, by class: the quick check's answers, per class, in one step each."""
    found = check_classes({(frozenset((1000,)), frozenset(ANA)): 99, (frozenset((40_000,)), frozenset(ANA)): 1},
                          {"aye": 33_000, "nay": 33_000, "abstain": 73_000})
    assert not found.complete
    assert found.possible == {(frozenset((1000,)), frozenset(ANA)): frozenset(ANA),
                              (frozenset((40_000,)), frozenset(ANA)): frozenset({"abstain"})}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.sampled_from(["aye", "nay", "abstain", None])), max_size=7),
       st.lists(st.tuples(st.integers(0, 9), st.sampled_from(["aye", "nay", "abstain"])), max_size=2))
def test_the_crisis_check_by_class_names_whom_the_crisis_check_names(
        players: list[tuple[int, str | None]], factions: list[tuple[int, str]]) -> None:
    """The close's check (``crisis_check_counted``, players counted by V(p) and whether they cast a ballot) gives
    away exactly what ``crisis_check`` of the named players does: the exposed their one choice, the partial leaks
    the choices left."""
    from engine.landsdraad.disclosure import crisis_check, crisis_check_counted
    from engine.landsdraad.model import Option
    from engine.landsdraad.tally import Tally

    sums = dict.fromkeys(ANA, 0)
    for w, o in [*players, *factions]:
        sums[o or "abstain"] += w
    totals = Tally(sums["aye"], sums["nay"], sums["abstain"])
    named = [(f"f{i}", w, Option(o)) for i, (w, o) in enumerate(factions)]
    weights = {f"p{i}": w for i, (w, _) in enumerate(players)}
    found, exposed_, leaks_ = crisis_check(weights, frozenset(f"p{i}" for i, (_, o) in enumerate(players) if o),
                                           named, totals)
    counted: dict[tuple[int, bool], int] = {}
    for w, o in players:
        counted[w, o is not None] = counted.get((w, o is not None), 0) + 1
    complete, given_away = crisis_check_counted(counted, named, totals)
    assert complete == found.complete
    by_name = {f"p{i}": given_away.get((w, o is not None)) for i, (w, o) in enumerate(players)}
    assert {e.name: frozenset((e.choice,)) for e in exposed_} | {leak.name: leak.left for leak in leaks_} == {
        n: left for n, left in by_name.items() if left is not None}
