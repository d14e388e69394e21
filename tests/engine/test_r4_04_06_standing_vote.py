"""R4-04..R4-06: Standing Vote and political control.

R4-04: "SV(p) is the sum … Characters and Ground Units: their Vote, only while readied. Locations, Homeworlds
and other permanents: their Vote while on the Map and not suppressed … Each active Convocate Seat that p controls,
while at least one readied Character that p controls occupies it: +1, counted once per Seat (P4-01). Temporary
effects while they last."
R4-05: "political control iff SV(p) > SV(q) for every other player q … If two or more players tie for the highest
value, nobody has political control."
R4-06: "A Character activated during a player's turn stays activated until that player's next Ready Phase.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import S_U, character, f4, location, only_ab, unit
from hypothesis import given
from hypothesis import strategies as st

from engine.convocate.board import Board, Phase
from engine.convocate.factors import commit
from engine.convocate.seats import seat_active
from engine.convocate.turns import next_phase
from engine.convocate.votes import EMPTY_SEAT_LINE, political_control, standing_vote, standing_votes


def i01(govt: int = 2, temp: int = 1) -> Board:
    board = f4(govt,
               location("L1", "A", 1), location("L2", "A", 1, suppressed=True),
               character("P_A", "A", 2, pallarch=True, at="S_U"), character("K_A", "A", 1, at="S_U"),
               character("M_A", "A", 1, readied=False), unit("G_A", "A", 1), character("Z_A", "A", 0))
    return board.with_player(replace(board.player("A"), temp=temp))


def test_TV4_I01_standing_vote_composition() -> None:
    """TV4-I01: 1 (HW) + 1 (L1) + 0 (L2 suppressed) + 2 (P_A) + 1 (K_A) + 0 (M_A activated) + 1 (G_A) + 0 (Z_A)
    + 1 (S_U, once for two occupants) + 1 (temp) = 8."""
    sv = standing_vote(i01(), "A")
    assert sv.total == 8
    assert [(line.source, line.votes) for line in sv.lines if line.votes] == [
        ("HW_A", 1), ("S_U", 1), ("L1", 1), ("P_A", 2), ("K_A", 1), ("G_A", 1), ("temporary effects", 1)]
    assert ("L2", 0, "Vote suppressed") in [(x.source, x.votes, x.note) for x in sv.lines]
    assert ("M_A", 0, "activated") in [(x.source, x.votes, x.note) for x in sv.lines]


@pytest.mark.parametrize(("govt", "sv", "active"), [(-1, 7, False), (0, 8, True), (2, 8, True)])
def test_TV4_I01_variants_by_govt(govt: int, sv: int, active: bool) -> None:
    """TV4-I01 variants: at GOVT −1 S_U is inactive and its +1 is gone; at GOVT 0 every Seat is active."""
    board = i01(govt)
    assert standing_vote(board, "A").total == sv
    assert seat_active(board, board.card("S_U")).active is active


def test_TV4_I01_variant_the_temporary_effect_expires_at_end_of_turn() -> None:
    """TV4-I01 variant: end of turn (the temporary effect expires), GOVT 2 → 7."""
    board = replace(i01(), phase=Phase.ADMIN)
    board, changed = next_phase(board)
    assert changed.expired == ("A +1 Vote",)
    assert board.player("A").temp == 0
    assert standing_vote(board, "A").total == 7


def test_TV4_I01_variant_an_opponents_character_in_your_seat() -> None:
    """TV4-I01 variant (P4-01): B's readied Character also occupies S_U: A still 8, B gains nothing."""
    before = standing_vote(i01(), "B").total
    board = i01().with_card(character("K_B", "B", 1, at="S_U"))
    assert standing_vote(board, "A").total == 8
    assert standing_vote(board, "B").total == before + 1  # K_B's own Vote only, no Seat bonus


def test_P4_01_an_opponents_character_alone_in_your_seat_gives_nobody_the_bonus() -> None:
    """P4-01: the +1 goes to the Seat's controller only while a readied Character that same player controls
    occupies it; an uncontrolled Seat gives no +1 (the retired "+1 to whoever holds it" does not exist)."""
    board = f4(1, character("K_B", "B", 1, at="S_U"))
    assert [(line.source, line.votes) for line in standing_vote(board, "A").lines] == [("HW_A", 1), ("S_U", 0)]
    assert standing_vote(board, "A").lines[1].note == EMPTY_SEAT_LINE  # shown, adding 0 (play-test C5.6)
    assert "S_U" not in [line.source for line in standing_vote(board, "B").lines]
    free = f4(1, character("K_A", "A", 1, at="S_U"), seats=(replace(S_U, controller=None),))
    assert standing_vote(free, "A").total == 2  # HW_A + K_A


@pytest.mark.parametrize(
    ("sv", "expected"),
    [({"A": 8, "B": 8, "C": 5}, None), ({"A": 8, "B": 7, "C": 7}, "A"), ({"A": 0, "B": 0, "C": 0}, None),
     ({"A": 3, "B": 2}, "A"), ({"A": 1, "B": 9, "C": 9, "D": 8, "E": 2}, None)],
)
def test_TV4_I02_political_control(sv: dict[str, int], expected: str | None) -> None:
    """TV4-I02: plurality, not majority; a tie for the most gives nobody political control."""
    assert political_control(sv) == expected


def test_TV4_I18_a_tie_for_the_most_gives_nobody_political_control() -> None:
    """TV4-I18: SV A 6, B 6, C 4 → nobody."""
    assert political_control({"A": 6, "B": 6, "C": 4}) is None


def test_TV4_I16_the_seat_bonus_never_lifts_a_characters_vote() -> None:
    """TV4-I16: Z_A (Vote 0, readied) alone in S_U at GOVT 1: A gets the +1, Z_A stays at 0 and no Convocant."""
    from engine.convocate.access import access
    from engine.convocate.votes import is_convocant, vote_of
    from engine.core.errors import RuleError

    board = f4(1, character("Z_A", "A", 0, at="S_U"))
    z = board.card("Z_A")
    assert vote_of(z) == 0 and not is_convocant(z)
    assert [(line.source, line.votes) for line in standing_vote(board, "A").lines] == [("HW_A", 1), ("S_U", 1)]
    with pytest.raises(RuleError, match="0 Vote"):
        access(board, "A", "Z_A")


def test_TV4_I17_activated_characters_stay_out_through_the_opponents_turns() -> None:
    """TV4-I17: A (SV 7, political control) commits P_A and K_A: SV 4 and B (5) has control, through B's turn;
    at A's next Ready Phase A is back to 7 with control."""
    board = only_ab(f4(0, character("P_A", "A", 2, pallarch=True, at="HW_A"), character("K_A", "A", 1),
                       location("L1", "A", 2), location("L2", "A", 1),
                       location("LB", "B", 2), location("LB2", "B", 2), seats=()))
    assert standing_votes(board) == {"A": 7, "B": 5}  # B: HW_B 1 + 2 + 2; no Seats in this vector
    assert political_control(standing_votes(board)) == "A"
    board, _ = commit(board, "A", ["P_A", "K_A"])
    assert standing_votes(board) == {"A": 4, "B": 5}
    assert political_control(standing_votes(board)) == "B"
    board, _ = next_phase(board)  # A's Admin Phase
    board, changed = next_phase(board)  # B's Ready Phase
    assert changed.started == ("B", Phase.READY) and changed.readied == ()
    for _ in range(2):
        board, _ = next_phase(board)  # B's Action, Admin
        assert standing_votes(board)["A"] == 4 and political_control(standing_votes(board)) == "B"
    board, changed = next_phase(board)  # A's next Ready Phase
    assert changed.started == ("A", Phase.READY) and set(changed.readied) == {"P_A", "K_A"}
    assert standing_votes(board) == {"A": 7, "B": 5}
    assert political_control(standing_votes(board)) == "A"


def test_P4_08_a_location_activated_to_commit_votes_leaves_standing_vote() -> None:
    """P4-08: §6.2 governs for every card activated to commit Votes; the alternative counts Locations anyway."""
    from engine.convocate.rulings import Rulings

    board = f4(0, location("L1", "A", 2))
    board, done = commit(board, "A", ["L1"])
    assert done.pool == 2 and standing_vote(board, "A").total == 1
    other = replace(board, rulings=Rulings(committed_cards="locations-count"))
    assert standing_vote(other, "A").total == 3


@given(st.dictionaries(st.sampled_from("ABCDE"), st.integers(0, 20), min_size=1))
def test_political_control_is_the_unique_strict_maximum(votes: dict[str, int]) -> None:
    holder = political_control(votes)
    if holder is None:
        assert sum(1 for v in votes.values() if v == max(votes.values())) > 1
    else:
        assert all(votes[holder] > v for p, v in votes.items() if p != holder)


@given(st.integers(-4, 4), st.lists(st.sampled_from(["S_U", "HW_A", None]), max_size=4),
       st.lists(st.booleans(), min_size=4, max_size=4))
def test_a_seat_adds_at_most_one_however_many_occupy_it(govt: int, places: list[str | None],
                                                        readied: list[bool]) -> None:
    cards = [character(f"X{i}", "A", 1, at=p, readied=r) for i, (p, r) in enumerate(zip(places, readied, strict=False))]
    board = f4(govt, *cards)
    seat_lines = [line for line in standing_vote(board, "A").lines if line.source == "S_U"]
    assert len(seat_lines) <= 1 and all(line.votes == (line.note != EMPTY_SEAT_LINE) for line in seat_lines)
    assert standing_vote(board, "A").total >= 0
