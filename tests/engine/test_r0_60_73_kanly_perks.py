"""R0-60 (End Kanly), R0-61 (End Game) and R0-70..R0-73 (perks)."""

from __future__ import annotations

from fractions import Fraction

from engine.landsdraad.kanly import Embargo, InTransit, embargoes_after_kanly, end_game_pot, kanly_refunds
from engine.landsdraad.perks import Perk, award_perks, competition_ranks, militia_location

P, Q, R = 1, 2, 3


def test_TV0_I16_end_kanly_refund_and_embargo_removal() -> None:
    """TV0-I16 / P0-11: half the Guild transport fee back, floor; embargoes between the two removed."""
    moving = [InTransit(P, Q, 750), InTransit(Q, P, 125)]
    assert kanly_refunds(P, Q, moving) == {P: 375, Q: 62}
    assert embargoes_after_kanly(P, Q, [Embargo(P, Q), Embargo(R, Q)]) == [Embargo(R, Q)]


def test_TV0_S09_end_game_penalty() -> None:
    """TV0-S09 / R3-04 / R3-22 (the End Game vote as an end of the game): 10 players, Pot 1000 + 200·10 = 3000; an
    enacted End Game at 20% leaves 2400."""
    pot = 1000 + 200 * 10
    assert pot == 3000
    assert end_game_pot(pot) == Fraction(2400)
    assert end_game_pot(pot, 25) == Fraction(2250)


def test_perks_go_to_the_top_three() -> None:
    """R0-71: most votes Pro tempore, second CHOAM Directorship, third Master at Arms."""
    assert award_perks({1: 40, 2: 30, 3: 20, 4: 10}) == {Perk.PRO_TEMPORE: 1, Perk.CHOAM: 2, Perk.MASTER_AT_ARMS: 3}


def test_perk_ties_are_not_awarded() -> None:
    """P0-12: competition ranking (1, 2, 2, 4); a tied position, and the one it spills over, is not awarded."""
    votes = {1: 40, 2: 30, 3: 30, 4: 10}
    assert competition_ranks(votes) == {1: 1, 2: 2, 3: 2, 4: 4}
    assert award_perks(votes) == {Perk.PRO_TEMPORE: 1}
    assert award_perks({1: 40, 2: 40, 3: 20}) == {Perk.MASTER_AT_ARMS: 3}


def test_TV0_I13_master_at_arms_with_only_a_homeworld() -> None:
    """TV0-I13 / P0-13: the militia unit needs a controlled location other than the Homeworld."""
    assert militia_location([("C_Homeworld", True)]) == []
    assert militia_location([("C_Homeworld", True), ("Deneb", False)]) == ["Deneb"]
