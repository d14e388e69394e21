"""The crisis close before it happens (``/round preview``, engine/landsdraad/preview.py): the certain tally, the exact
odds over every face of the d6 factions not yet rolled, what one faction's roll decides and how many votes would turn
it. Small cases worked by hand; a property that it matches ``crisis.resolve`` on every face combination."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.odds import odds_text, percent
from engine.landsdraad.crisis import resolve
from engine.landsdraad.factions import DieTable, TempFaction, make_faction
from engine.landsdraad.model import Option
from engine.landsdraad.preview import preview

AYE, NAY, ABSTAIN = Option.AYE, Option.NAY, Option.ABSTAIN
BOARS = make_faction("Boars", 12, "d6", "1-3 nay, 4 abstain, 5-6 aye")


def test_odds_are_written_as_a_fraction_and_a_percent_rounded_half_up() -> None:
    assert odds_text(Fraction(7, 36)) == "7/36 (19.44%)"  # 19.444…
    assert odds_text(Fraction(2, 3)) == "2/3 (66.67%)"  # 66.666… rounds up
    assert odds_text(Fraction(1, 8)) == "1/8 (12.50%)"
    assert odds_text(Fraction(1, 80000)) == "1/80000 (0.00%)"  # 0.00125: below half a hundredth
    assert odds_text(Fraction(1, 16000)) == "1/16000 (0.01%)"  # 0.00625 rounds up
    assert odds_text(Fraction(0)) == "0 (0.00%)"
    assert odds_text(Fraction(1)) == "1 (100.00%)"
    assert percent(Fraction(1, 3), places=0) == "33%"


def test_the_sirius_example_is_certain_whatever_the_boars_roll() -> None:
    """The rules' piracy example: Hawks 20 Aye, Doves 12 Nay, Boars 12 on a d6; Jenny's 25 Aye, Bob's 7 Nay, Carol
    (9) without a ballot. Aye 45 against Nay 19 before the Boars: even their 12 on Nay leaves 45 against 31."""
    factions = [make_faction("Hawks", 20, "aye", None), make_faction("Doves", 12, "nay", None), BOARS]
    p = preview({1: 25, 2: 7, 3: 9}, {1: AYE, 2: NAY}, factions, {})
    assert (p.known.aye, p.known.nay, p.known.abstain, p.known.needed) == (45, 19, 9, 33)
    assert (p.passes, p.combinations, p.lowest, p.highest) == (1, 6, 45 - 31, 45 + 12 - 19)
    assert p.certain and not p.factions[0].decides
    assert p.more_nay_to_fail_at_all() == 14  # Nay 31 + 14 = 45: a tie, which fails, when the Boars vote Nay
    assert p.more_nay_to_fail() == 38  # 57 against 19 + 38 when they vote Aye


def test_one_faction_decides_it() -> None:
    """Aye 10 against Nay 14; the Boars' 12: on 5-6 (Aye) 22 against 14 passes; on 1-3 (Nay) 10 against 26 and on
    4 (Abstain) 10 against 14 fail. 2 faces of 6 pass."""
    p = preview({1: 10, 2: 14}, {1: AYE, 2: NAY}, [BOARS], {})
    assert p.passes == Fraction(1, 3) and odds_text(p.passes) == "1/3 (33.33%)"
    assert odds_text(p.fails) == "2/3 (66.67%)"
    (boars,) = p.factions
    assert boars.decides
    assert [(o.option, o.faces_text, o.passes) for o in boars.options] == [
        (AYE, "5-6", 1), (NAY, "1-3", 0), (ABSTAIN, "4", 0)]
    assert (p.lowest, p.highest) == (-16, 8)
    assert p.more_aye_to_pass() == 17  # 27 against 26 when the Boars vote Nay
    assert p.more_nay_to_fail() == 8  # 22 against 22 when they vote Aye: a tie fails


def test_two_factions_one_decides_the_other_does_not() -> None:
    """Aye 3, Nay 4 (margin -1). A, 5 votes, 1-3 Aye 4-6 Nay; B, 5 votes, 1-2 Aye 3-6 Abstain. Of 36 combinations
    A Aye passes on all 18 (margin 9 or 4), A Nay fails on all 18 (margin -1 or -6): 1/2, and B changes nothing."""
    a = make_faction("A", 5, "d6", "1-3 aye, 4-6 nay")
    b = make_faction("B", 5, "d6", "1-2 aye, 3-6 abstain")
    p = preview({1: 3, 2: 4}, {1: AYE, 2: NAY}, [a, b], {})
    assert (p.combinations, p.passing, p.passes) == (36, 18, Fraction(1, 2))
    fa, fb = p.factions
    assert fa.decides and [o.passes for o in fa.options] == [1, 0]
    assert not fb.decides and [o.passes for o in fb.options] == [Fraction(1, 2), Fraction(1, 2)]


def test_a_faction_already_rolled_is_counted_as_at_the_close_and_no_roll_is_a_tie() -> None:
    """A roll set by the moderator is certain (4: Abstain); with none left to roll, Aye 5 against Nay 5 ties and
    fails, and one Aye vote more would pass it."""
    p = preview({1: 5, 2: 5}, {1: AYE, 2: NAY}, [BOARS], {"Boars": 4})
    assert (p.known.aye, p.known.nay, p.known.abstain) == (5, 5, 12)
    assert (p.factions, p.combinations, p.passes) == ((), 1, 0)
    assert (p.more_aye_to_pass(), p.more_aye_to_pass_at_all(), p.more_nay_to_fail()) == (1, 1, 0)


def test_many_factions_are_counted_exactly_and_fast() -> None:
    """50 unrolled factions (6^50 combinations) with 1..20 votes: the counts stay exact (they sum to 6^50), and
    the chance is symmetric where it must be: Aye and Nay tables mirrored, no players, so P(pass) = P(Nay > Aye)."""
    factions = [make_faction(f"F{i}", 1 + i % 20, "d6", "1-2 aye, 3-4 nay, 5-6 abstain") for i in range(50)]
    p = preview({}, {}, factions, {})
    assert p.combinations == 6 ** 50
    mirrored = preview({1: 1}, {1: NAY}, factions, {})  # one Nay vote: P(Aye > Nay + 1)
    assert 0 < mirrored.passes < p.passes < Fraction(1, 2)
    assert all(len(f.options) == 3 for f in p.factions)
    # each faction's options average back to the whole (its faces weigh 2 of 6 each)
    assert all(sum(o.passes for o in f.options) / 3 == p.passes for f in p.factions[:5])


TABLES = st.lists(st.sampled_from([AYE, NAY, ABSTAIN]), min_size=6, max_size=6).map(
    lambda faces: DieTable((faces[0], faces[1], faces[2], faces[3], faces[4], faces[5])))


@st.composite
def rounds(draw: st.DrawFn) -> tuple[dict[int, int], dict[int, Option], list[TempFaction], dict[str, int]]:
    weights = draw(st.dictionaries(st.integers(1, 9), st.integers(0, 30), max_size=6))
    ballots = draw(st.dictionaries(st.sampled_from(sorted(weights) or [1]), st.sampled_from([AYE, NAY, ABSTAIN])))
    factions: list[TempFaction] = []
    rolls: dict[str, int] = {}
    for n in range(draw(st.integers(0, 5))):
        votes = draw(st.integers(1, 25))
        if draw(st.booleans()):
            factions.append(TempFaction(f"f{n}", votes, fixed=draw(st.sampled_from([AYE, NAY, ABSTAIN]))))
            continue
        factions.append(TempFaction(f"f{n}", votes, table=draw(TABLES)))
        if draw(st.integers(0, 3)) == 0:
            rolls[f"f{n}"] = draw(st.integers(1, 6))
    return weights, ballots, factions, rolls


@settings(max_examples=25)
@given(rounds())
def test_the_odds_are_the_close_over_every_face_combination(
        case: tuple[dict[int, int], dict[int, Option], list[TempFaction], dict[str, int]]) -> None:
    """Brute force: ``crisis.resolve`` (what the close runs) on every face of every unrolled faction. The chance of
    passing, the margins and each faction's per-option chance match, and pass and fail sum to 1."""
    weights, ballots, factions, rolls = case
    unrolled = [f for f in factions if f.rolls and f.name not in rolls]
    results = [resolve(weights, ballots, factions, rolls | {f.name: face for f, face in zip(unrolled, faces,
                                                                                          strict=True)})
               for faces in product(range(1, 7), repeat=len(unrolled))]
    p = preview(weights, ballots, factions, rolls)
    assert p.combinations == len(results)
    assert p.passes == Fraction(sum(r.passed for r in results), len(results))
    assert p.passes + p.fails == 1
    margins = [r.tally.aye - r.tally.nay for r in results]
    assert (p.lowest, p.highest) == (min(margins), max(margins))
    for i, odds in enumerate(p.factions):
        for option in odds.options:
            chosen = [r for r in results if r.factions[factions.index(unrolled[i])].option is option.option]
            assert option.passes == Fraction(sum(r.passed for r in chosen), len(chosen))
    for extra, option in ((7, AYE), (3, NAY)):  # a player with no ballot yet voting
        more = {**weights, 99: extra}, {**ballots, 99: option}
        brute = [resolve(*more, factions, rolls | {f.name: face for f, face in zip(unrolled, faces, strict=True)})
                 for faces in product(range(1, 7), repeat=len(unrolled))]
        shown = p.passes_with_more(aye=extra) if option is AYE else p.passes_with_more(nay=extra)
        assert shown == Fraction(sum(r.passed for r in brute), len(brute))
    if not unrolled:  # certain: the known tally is the close's
        assert p.known == results[0].tally


def test_a_table_with_one_option_on_every_face_is_as_good_as_fixed() -> None:
    """A d6 faction whose six faces all say Abstain (or all Aye) changes nothing by its roll; taking it back out of
    the count (to read what the other faction decides) is exact all the same."""
    same = make_faction("Same", 9, "d6", "1-6 abstain")
    ayes = make_faction("Ayes", 4, "d6", "1-6 aye")
    p = preview({1: 6, 2: 8}, {1: AYE, 2: NAY}, [same, ayes, BOARS], {})
    assert p.combinations == 216
    assert p.passes == Fraction(1, 2)  # 10 against 8 before the Boars: their Aye (2 faces) or Abstain (1) keeps it
    s, a, b = p.factions
    assert not s.decides and not a.decides and b.decides
    assert [o.passes for o in b.options] == [1, 0, 1]  # Aye 22-8, Nay 10-20, Abstain 10-8
