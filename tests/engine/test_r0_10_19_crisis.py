"""Rules-spec §1.2.2, R0-10..R0-19: the Crisis vote — ballots, deadline, temporary factions, tally, threshold."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import ParseError, RuleError
from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.crisis import RoundWindow, accept_ballot, resolve, resolve_counted
from engine.landsdraad.factions import TempFaction, parse_table
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally, tally

AYE, NAY, ABSTAIN = Option.AYE, Option.NAY, Option.ABSTAIN
BOARS_TABLE = parse_table("1-3 nay, 4 abstain, 5-6 aye")
SIRIUS = [
    TempFaction("Hawks", 20, fixed=AYE),
    TempFaction("Doves", 12, fixed=NAY),
    TempFaction("Boars", 12, table=BOARS_TABLE),
]


def _totals(t: Tally) -> dict[str, int | bool]:
    return {"AYE": t.aye, "NAY": t.nay, "ABS": t.abstain, "threshold": t.needed, "passes": t.passed}


@pytest.mark.parametrize(
    ("abstaining", "effective", "needed"), [(0, 150, 76), (20, 130, 66)], ids=["no-abstentions", "20-abstain"]
)
def test_TV0_S02_majority_of_votes_in_play_abstentions_excluded(abstaining: int, effective: int, needed: int) -> None:
    """TV0-S02 (R0-18). "If 150 votes are in play, 76 Ayes would be need, but if 20 votes abstained this would
    drop to 130 votes and only 66 ayes would be needed, essentially ayes must outnumber nays"."""
    for_aye = needed
    blocks = [(for_aye, AYE), (150 - abstaining - for_aye, NAY), (abstaining, ABSTAIN)]
    t = tally(blocks)
    assert (t.in_play, t.effective, t.needed) == (150, effective, needed)
    assert t.passed and t.aye > t.nay  # 76 > 74, 66 > 64
    one_short = tally([(needed - 1, AYE), (150 - abstaining - needed + 1, NAY), (abstaining, ABSTAIN)])
    assert not one_short.passed  # 75 vs 75, 65 vs 65: a tie fails


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (1, {"AYE": 20, "NAY": 24, "ABS": 0, "threshold": 23, "passes": False}),
        (3, {"AYE": 20, "NAY": 24, "ABS": 0, "threshold": 23, "passes": False}),
        (4, {"AYE": 20, "NAY": 12, "ABS": 12, "threshold": 17, "passes": True}),
        (6, {"AYE": 32, "NAY": 12, "ABS": 0, "threshold": 23, "passes": True}),
    ],
)
def test_TV0_S05_sirius_piracy_temporary_factions_only(roll: int, expected: dict[str, int | bool]) -> None:
    """TV0-S05 (R0-16, R0-17, R0-18). "Hawks: 20 votes Aye / Doves: 12 votes Nay / Boars: 12 votes [...] the
    Boars will have a die rolled for them, 1-3 Nay, 4 Abstain, 5-6 Aye then cast all 12 of their votes for
    that option"."""
    result = resolve({}, {}, SIRIUS, {"Boars": roll})
    assert _totals(result.tally) == expected
    assert result.tally.in_play == 44  # VIP contribution of the temporary factions
    boars = result.factions[2]
    assert (boars.name, boars.votes, boars.roll) == ("Boars", 12, roll)
    assert [f.roll for f in result.factions[:2]] == [None, None]


def test_TV0_S05_boars_odds_match_the_stated_chances() -> None:
    """TV0-S05, also_expect: "CHOAM estimates a 3 in 6 chance they will vote Nay, a 1 in 6 to Abstain, and 2 in
    6 to vote Aye" — the same as faces 1-3 / 4 / 5-6."""
    odds = BOARS_TABLE.odds()
    assert {o: Fraction(n, 6) for o, n in odds.items()} == {NAY: Fraction(3, 6), ABSTAIN: Fraction(1, 6),
                                                           AYE: Fraction(2, 6)}


def test_P0_05_a_crisis_is_its_cards_option_against_the_status_quo() -> None:
    """P0-05 (R0-19, A0-06; docs/rulings.md "A crisis is its card's option against the status quo"): every Crisis is
    Aye (the option the card states) against Nay (the status quo), with Abstain; there is no third option to vote
    for (a Severe Crisis's "Option B" is refused like any unknown option), and a measure that does not pass, by a
    tie as much as by more Nays, takes its Nay outcome."""
    assert {o.value for o in Option} == {"aye", "nay", "abstain"}
    with pytest.raises(ParseError, match="is not Aye, Nay or Abstain"):
        parse_ballot("Vote: Option B")
    tie = resolve({1: 20, 2: 20}, {1: AYE, 2: NAY}, [], {})
    assert (tie.tally.aye, tie.tally.nay, tie.passed) == (20, 20, False)
    by_factions = resolve({}, {}, SIRIUS, {"Boars": 2})  # TV0-S05, roll 2: Aye 20, Nay 24
    assert not by_factions.passed


def test_TV0_I03_everyone_abstains_or_stays_silent() -> None:
    """TV0-I03 (R0-13, R0-18). "Players who do not cast a vote automatically abstain"; with E = 0, T = 1 and
    the measure fails."""
    result = resolve({1: 20, 2: 15}, {1: ABSTAIN}, [], {})
    t = result.tally
    assert (t.in_play, t.aye, t.nay, t.abstain, t.effective, t.needed, t.passed) == (35, 0, 0, 35, 0, 1, False)


@pytest.mark.parametrize(
    ("aye", "nay", "passes"), [(66, 65, True), (65, 66, False)], ids=["one-vote-margin", "one-vote-short"]
)
def test_TV0_I05_odd_effective_total_and_one_vote_margin(aye: int, nay: int, passes: bool) -> None:
    """TV0-I05 (R0-18). "For a measure to pass it must receive a majority of votes in play not including
    abstentions"."""
    t = tally([(aye, AYE), (nay, NAY), (19, ABSTAIN)])
    assert (t.in_play, t.effective, t.needed, t.passed) == (150, 131, 66, passes)


def test_TV0_I06_revotes_before_and_after_the_deadline() -> None:
    """TV0-I06 (R0-12, R0-13, R0-18, P0-03, P0-15). "players may change their vote by simply using “Revote:
    Aye” or similar, assuming the Deadline has not been reached"; a message at the deadline instant is late."""
    deadline = datetime(2026, 12, 1, tzinfo=UTC)
    window = RoundWindow(number=1, open=True, deadline=deadline)
    messages = [
        ("A", "2026-11-30T10:00:00", "Vote: Aye, 14"),
        ("A", "2026-11-30T23:59:59", "Revote: Nay"),
        ("B", "2026-11-30T20:00:00", "Vote: Nay, 10"),
        ("B", "2026-12-01T00:00:00", "Revote: Aye"),
        ("C", "2026-12-01T00:00:01", "Vote: Aye"),
    ]
    ballots: dict[str, Option] = {}
    rejected: list[str] = []
    for who, at, text in messages:
        command = parse_ballot(text)
        try:
            accepted = accept_ballot(window, ballots.get(who), command.option, command.declared,
                                     datetime.fromisoformat(at).replace(tzinfo=UTC))
        except RuleError as error:
            rejected.append(f"{who} {at}")
            assert "too late" in str(error)
            continue
        ballots[who] = accepted.option
    assert ballots == {"A": NAY, "B": NAY}  # C never got a ballot in: abstains
    assert rejected == ["B 2026-12-01T00:00:00", "C 2026-12-01T00:00:01"]
    weights = {"A": 14, "B": 10, "C": 9}
    result = resolve(weights, ballots, [TempFaction("Hawks", 20, fixed=AYE)], {})
    assert _totals(result.tally) == {"AYE": 20, "NAY": 24, "ABS": 9, "threshold": 23, "passes": False}
    counterfactual = resolve(weights, {**ballots, "B": AYE}, [TempFaction("Hawks", 20, fixed=AYE)], {})
    assert (counterfactual.tally.aye, counterfactual.tally.nay, counterfactual.passed) == (30, 14, True)


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (2, {"AYE": 50, "NAY": 51, "ABS": 10, "E": 101, "threshold": 51, "passes": False}),
        (4, {"AYE": 50, "NAY": 39, "ABS": 22, "E": 89, "threshold": 45, "passes": True}),
        (5, {"AYE": 62, "NAY": 39, "ABS": 10, "E": 101, "threshold": 51, "passes": True}),
    ],
)
def test_TV0_I08_players_plus_temporary_factions_d6_given(roll: int, expected: dict[str, int | bool]) -> None:
    """TV0-I08 (R0-16, R0-17, R0-18). "Temporary Factions [...] add to the Votes in Play, but not the total
    votes players have"."""
    result = resolve({1: 30, 2: 27, 3: 10}, {1: AYE, 2: NAY, 3: ABSTAIN}, SIRIUS, {"Boars": roll})
    t = result.tally
    assert t.in_play == 111
    assert {**_totals(t), "E": t.effective} == expected


# --- R0-11/R0-12 casting and changing a ballot ---------------------------------------------------------------

NOW = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


def test_R0_12_accept_ballot_replaces_and_reports_what_it_replaced() -> None:
    """R0-12: "The latest accepted ballot counts"; a second Vote acts as a Revote and a Revote with no earlier
    ballot acts as a Vote (P0-03) — the engine only sees the previous option."""
    window = RoundWindow(1, True, NOW + timedelta(hours=1))
    first = accept_ballot(window, None, AYE, 14, NOW)
    assert (first.option, first.declared, first.replaced, first.is_revote) == (AYE, 14, None, False)
    second = accept_ballot(window, AYE, NAY, None, NOW + timedelta(minutes=5))
    assert (second.option, second.replaced, second.is_revote) == (NAY, AYE, True)


def test_P0_15_deadline_is_exclusive_and_the_previous_ballot_stands() -> None:
    """A0-05 / P0-15: "a ballot counts if received_at < deadline. A message stamped exactly at the deadline is
    late"; the refusal says which ballot stands."""
    deadline = NOW + timedelta(hours=1)
    window = RoundWindow(4, True, deadline)
    assert accept_ballot(window, None, AYE, None, deadline - timedelta(microseconds=1)).option is AYE
    with pytest.raises(RuleError, match=r"too late.*Your ballot \(Aye\) stands"):
        accept_ballot(window, AYE, NAY, None, deadline)
    with pytest.raises(RuleError, match="You have no ballot, so you abstain"):
        accept_ballot(window, None, NAY, None, deadline + timedelta(seconds=1))


def test_R0_11_no_deadline_means_open_until_closed_and_a_closed_round_refuses() -> None:
    """R0-11: "Ballots are accepted at any time from the start of the round until the deadline"."""
    assert accept_ballot(RoundWindow(2, True, None), None, AYE, None, NOW + timedelta(days=400)).option is AYE
    with pytest.raises(RuleError, match="Round 2 is closed"):
        accept_ballot(RoundWindow(2, False, None), None, AYE, None, NOW)


def test_P0_01_declared_count_is_never_the_weight() -> None:
    """A0-01 / P0-01: "the weight is always the engine's V(p) at resolution. The stated count is optional"."""
    window = RoundWindow(1, True, None)
    accepted = accept_ballot(window, None, AYE, 99, NOW)
    assert accepted.declared == 99
    assert resolve({1: 14, 2: 20}, {1: accepted.option, 2: NAY}, [], {}).tally.aye == 14
    with pytest.raises(RuleError, match="negative"):
        accept_ballot(window, None, AYE, -1, NOW)


def test_R0_14_block_voting_and_R0_17_inactive_ballots_do_not_count() -> None:
    """R0-14: "they all either go aye, nay, or abstain"; R0-17: VIP counts active players only, so a ballot
    from a player not among the weights (no longer active) is not counted."""
    result = resolve({1: 14}, {1: AYE, 2: NAY}, [], {})
    assert (result.tally.aye, result.tally.nay, result.tally.in_play) == (14, 0, 14)


def test_R0_16_d6_faction_needs_its_roll() -> None:
    """R0-16 / P0-04: a d6 faction uses the option its table gives for one roll, made at resolution."""
    with pytest.raises(RuleError, match="no roll was given"):
        resolve({}, {}, SIRIUS, {})
    with pytest.raises(RuleError, match="1 to 6"):
        resolve({}, {}, SIRIUS, {"Boars": 7})


# --- Properties of the tally (R0-17, R0-18) ----------------------------------------------------------------------

blocks = st.lists(st.tuples(st.integers(0, 500), st.sampled_from([AYE, NAY, ABSTAIN, None])), max_size=30)


@given(blocks)
def test_R0_18_passes_iff_aye_outnumbers_nay(entries: list[tuple[int, Option | None]]) -> None:
    """R0-18: "The measure passes if and only if AYE ≥ T, which is the same as AYE > NAY"."""
    t = tally(entries)
    assert t.passed == (t.aye > t.nay)


@given(blocks)
def test_R0_17_in_play_is_the_sum_of_the_weights(entries: list[tuple[int, Option | None]]) -> None:
    """R0-17: VIP = Σ V(p) + Σ f.votes — every block counts toward the votes in play, abstaining or not."""
    t = tally(entries)
    assert t.in_play == sum(w for w, _ in entries)
    assert t.abstain == sum(w for w, o in entries if o in (ABSTAIN, None))


@given(blocks)
def test_R0_18_threshold_is_floor_half_the_effective_votes_plus_one(entries: list[tuple[int, Option | None]]) -> None:
    """R0-18: "E = AYE + NAY = VIP − ABS (abstentions are excluded). T = floor(E/2) + 1"."""
    t = tally(entries)
    assert t.effective == t.in_play - t.abstain == t.aye + t.nay
    assert t.needed == math.floor(Fraction(t.effective, 2)) + 1


@given(
    weights=st.dictionaries(st.integers(1, 50), st.integers(0, 60), max_size=12),
    choices=st.dictionaries(st.integers(1, 60), st.sampled_from([AYE, NAY, ABSTAIN]), max_size=12),
    boars=st.integers(1, 6),
)
def test_R0_17_resolution_in_play_counts_active_players_and_factions(
    weights: dict[int, int], choices: dict[int, Option], boars: int
) -> None:
    """R0-17: "VIP = Σ_{active p} V(p) + Σ_f f.votes"; R0-13: players without a ballot abstain."""
    result = resolve(weights, choices, SIRIUS, {"Boars": boars})
    assert result.tally.in_play == sum(weights.values()) + 44
    silent = sum(w for p, w in weights.items() if p not in choices)
    assert result.tally.abstain >= silent


@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from([AYE, NAY, ABSTAIN, None])), max_size=30),
       st.integers(1, 6))
def test_the_players_counted_by_kind_resolve_as_the_players(players: list[tuple[int, Option | None]],
                                                             roll: int) -> None:
    """The close counts its players by (V(p), ballot) (bench/tally.py: 10,000 players, a few dozen kinds):
    ``resolve_counted`` of the counts is ``resolve`` of the players, factions and rolls alike."""
    weights = {n: w for n, (w, _) in enumerate(players)}
    ballots = {n: o for n, (_, o) in enumerate(players) if o is not None}
    counted: dict[tuple[int, Option | None], int] = {}
    for key in players:
        counted[key] = counted.get(key, 0) + 1
    assert resolve_counted(counted, SIRIUS, {"Boars": roll}) == resolve(weights, ballots, SIRIUS, {"Boars": roll})


def test_a_negative_weight_is_refused_when_counted_too() -> None:
    with pytest.raises(ValueError, match="negative"):
        resolve_counted({(-1, AYE): 1}, [], {})


def test_P0_15_a_ballot_after_the_close_names_the_game_its_deadline_and_what_stands() -> None:
    """P0-15: "A ballot that arrives at or after the deadline is refused with the deadline in the reply, and the
    earlier ballot stands", once the round is closed too (play-test P5.4: it said only "Round 1 is closed")."""
    deadline = NOW + timedelta(hours=1)
    with pytest.raises(RuleError) as closed:
        accept_ballot(RoundWindow(1, False, deadline), NAY, AYE, None, deadline + timedelta(hours=1), "sirius")
    assert str(closed.value) == (
        "Round 1 of sirius is closed (its deadline was 2026-03-01 19:00:00 UTC); ballots are no longer accepted, and "
        "your message arrived at 2026-03-01 20:00:00 UTC. Your ballot (Nay) stands.")
    with pytest.raises(RuleError, match=r"^Round 1 of orion is closed; .* You cast no ballot in it\.$"):
        accept_ballot(RoundWindow(1, False, None), None, AYE, None, NOW, "orion")
    with pytest.raises(RuleError, match="too late: round 1 of sirius closed for ballots"):
        accept_ballot(RoundWindow(1, True, deadline), None, AYE, None, deadline, "sirius")
