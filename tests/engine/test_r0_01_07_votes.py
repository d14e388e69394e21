"""Rules-spec §1.2.1, R0-01..R0-07: sources of votes and a player's total V(p)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.landsdraad.model import Attributes, Elector, Planet, Quality, Tier
from engine.landsdraad.votes import base_vote, diplomacy_bonus, planet_votes, vote_breakdown


def test_TV0_S01_jenny_base_vote_and_total_votes() -> None:
    """TV0-S01 (R0-01, R0-02, R0-03, R0-04, R0-06, R0-07; R0-03: Count Jasek, an average Elector, adds its printed
    5 votes). "Jenny has a D/C/I score of 3/2/2 and got a 3 on her 1d3,
    she begins play with a Base Vote of DDI+3, or 3+3+2+3, or 11 votes. She raises her diplomacy to 4 [...]
    and now has a DD of 8, or 13 votes total for her Base Vote. She manages to win bids on Count Jasek
    (average), an Elector with 5 votes, and the Planet of Deneb, which is average and grants 3 votes. She now
    has 13+5+3 [...] or 21 votes. But she has a diplomacy of 4, so she gains 2 votes for every Average or
    Strong Elector and 2 for every Average or Rich Planet [...] giving her 25 votes total"."""
    jenny = Attributes.start(diplomacy=3, command=2, intrigue=2, roll=3)
    assert base_vote(jenny) == 11

    jenny = jenny.with_scores(diplomacy=4)
    assert base_vote(jenny) == 13

    jasek = Elector("Count Jasek", Tier.AVERAGE, 5)
    deneb = Planet("Deneb", Quality.AVERAGE)
    votes = vote_breakdown(jenny, [jasek], [deneb])
    assert (votes.base, votes.electors, votes.planets, votes.misc) == (13, 5, 3, 0)
    assert votes.base + votes.electors + votes.planets == 21
    assert votes.bonus == 4
    assert votes.total == 25


@pytest.mark.parametrize(
    ("quality", "homeworld", "expected"),
    [(Quality.POOR, False, 2), (Quality.AVERAGE, False, 3), (Quality.RICH, False, 4), (Quality.RICH, True, 0)],
)
def test_TV0_S06_planet_votes_by_quality_homeworld_gives_none(quality: Quality, homeworld: bool, expected: int) -> None:
    """TV0-S06 (R0-04). "When a player takes control of a planet, other than their Homeworld, they gain an
    additional 2-4 votes depending on the Planet, poor, average, or rich and granting 2, 3, or 4 votes"."""
    assert planet_votes(Planet("P", quality, homeworld)) == expected


ELECTORS_I01 = [Elector("E_w", Tier.WEAK, 3), Elector("E_a", Tier.AVERAGE, 5), Elector("E_s", Tier.STRONG, 7)]
PLANETS_I01 = [
    Planet("P_poor", Quality.POOR),
    Planet("P_avg", Quality.AVERAGE),
    Planet("P_rich", Quality.RICH),
    Planet("HW", Quality.RICH, homeworld=True),
]


@pytest.mark.parametrize(
    ("d", "base", "bonus", "total"), [(2, 7, 0, 31), (3, 9, 4, 37), (4, 11, 8, 43), (5, 13, 12, 49)]
)
def test_TV0_I01_diplomacy_bonus_thresholds_and_homeworld(d: int, base: int, bonus: int, total: int) -> None:
    """TV0-I01 (R0-01, R0-03, R0-04, R0-06, R0-07). R0-03: each Elector adds its printed votes (3 + 5 + 7 = 15)
    and has a tier (weak, average, strong) that the Diplomacy Bonus reads. R0-06: "Player with a 5 in Diplomacy
    add 2 vote for each weak Elector or Poor Planet [...], players with a 4 or higher add 2 votes for each average
    Elector or Planet [...], players with a 3 or higher add 2 votes for every Strong Elector or Rich Planet [...],
    again Homeworlds never count for this"."""
    player = Attributes.start(diplomacy=d, command=0, intrigue=2, roll=1)
    votes = vote_breakdown(player, ELECTORS_I01, PLANETS_I01, misc=0)
    assert (votes.base, votes.electors, votes.planets, votes.bonus, votes.total) == (base, 15, 9, bonus, total)


def test_TV0_I02_base_vote_never_falls_readings_compared() -> None:
    """TV0-I02 (R0-02, P0-02). "can be increased by raising their Diplomacy or Intrigue Scores, but can never be
    reduced": BaseVote = 2·D_max + I_max + r. The Diplomacy Bonus uses the current D."""
    player = Attributes.start(diplomacy=4, command=1, intrigue=3, roll=2)
    average = [Elector("Avg", Tier.AVERAGE, 4)]
    steps = [
        ({}, 13),
        ({"diplomacy": 3}, 13),
        ({"intrigue": 4}, 14),
        ({"diplomacy": 4}, 14),
        ({"diplomacy": 5}, 16),
    ]
    seen = []
    for change, expected in steps:
        player = player.with_scores(**change)
        seen.append(base_vote(player))
        assert base_vote(player) == expected
        if change == {"diplomacy": 3}:
            assert diplomacy_bonus(player.diplomacy, average, []) == 0  # current D 3 < 4: the average +2 is lost
    assert seen == [13, 13, 14, 14, 16]
    assert seen != [13, 13, 13, 14, 16]  # reading (i) max(prev, 2D+I+r)
    assert seen != [13, 13, 14, 16, 18]  # reading (ii) +2 per D raise, +1 per I raise


def test_R0_05_misc_votes_add_their_amount() -> None:
    """R0-05: "Miscellanous: Anything that grants votes and is not one of the other three types"."""
    player = Attributes.start(diplomacy=1, command=1, intrigue=1, roll=1)
    assert vote_breakdown(player, [], [], misc=6).total == 4 + 6


def test_R0_06_bonus_at_d5_counts_every_non_homeworld_holding_once() -> None:
    """R0-06: the bonus is cumulative; at D = 5 every non-Homeworld Elector and planet gives +2, the Homeworld never."""
    assert diplomacy_bonus(5, ELECTORS_I01, PLANETS_I01) == 2 * 6
    assert diplomacy_bonus(9, [], [Planet("HW", Quality.POOR, homeworld=True)]) == 0


def test_R0_01_attribute_and_roll_validation() -> None:
    """R0-01: "Each player begins with their DDI+1d3 votes": the d3 is 1, 2 or 3, and scores are not negative."""
    with pytest.raises(RuleError, match="d3"):
        Attributes.start(diplomacy=3, command=2, intrigue=2, roll=4)
    with pytest.raises(RuleError, match="diplomacy"):
        Attributes.start(diplomacy=-1, command=2, intrigue=2, roll=1)
    with pytest.raises(RuleError, match="intrigue"):
        Attributes.start(diplomacy=1, command=2, intrigue=2, roll=1).with_scores(intrigue=-2)


scores = st.integers(min_value=0, max_value=12)
changes = st.lists(
    st.fixed_dictionaries({}, optional={"diplomacy": scores, "command": scores, "intrigue": scores}), max_size=25
)


@given(start=st.tuples(scores, scores, scores, st.integers(1, 3)), steps=changes)
def test_P0_02_base_vote_never_falls_under_any_sequence_of_changes(
    start: tuple[int, int, int, int], steps: list[dict[str, int]]
) -> None:
    """R0-02 / P0-02: the Base Vote "can never be reduced", whatever happens to D and I, and it always equals
    2·(highest D ever held) + (highest I ever held) + r."""
    d, c, i, r = start
    player = Attributes.start(d, c, i, r)
    highest_d, highest_i = d, i
    previous = base_vote(player)
    for change in steps:
        player = player.with_scores(**change)
        highest_d = max(highest_d, player.diplomacy)
        highest_i = max(highest_i, player.intrigue)
        now = base_vote(player)
        assert now >= previous
        assert now == 2 * highest_d + highest_i + r
        previous = now
