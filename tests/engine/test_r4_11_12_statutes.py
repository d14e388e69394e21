"""R4-11, R4-12: Statutes (P4-04, P4-10).

R4-11: "During the player's own Action Phase, a player may declare a Statute from hand if all of the following
hold: (i) the player has political control, checked before the activation (P4-04); (ii) a readied Character the
player controls occupies an active Convocate Seat the player controls; (iii) the player pays the Statute's printed
cost … A Statute is never declared from a Homeworld. Political control is checked only at declaration."
R4-12: "The controller never changes … Exactly one Section is in force at a time. In their own Admin Phase the
controller may select a different Section, or destroy the Statute. One-time Sections resolve when they come into
force … Keeping the same Section is not a change. The Section's printed cost, if any, is paid each time it
resolves.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import character, f4, location, unit

from engine.convocate.board import Board, Card, Phase
from engine.convocate.rulings import Rulings
from engine.convocate.statutes import change_section, declare, destroy, sections_of
from engine.convocate.turns import next_phase
from engine.convocate.votes import political_control, standing_vote, standing_votes
from engine.core.errors import RuleError

THREE = sections_of(3)


def i07(govt: int = 1, b_extra: int = 0) -> Board:
    """TV4-I07: A as in TV4-I01 without the temporary effect (SV 7), S_U held by readied P_A and K_A; B and C 6."""
    return f4(govt,
              location("L1", "A", 1), location("L2", "A", 1, suppressed=True),
              character("P_A", "A", 2, pallarch=True, at="S_U"), character("K_A", "A", 1, at="S_U"),
              character("M_A", "A", 1, readied=False), unit("G_A", "A", 1), character("Z_A", "A", 0),
              character("K_A2", "A", 1, at="HW_A", readied=True),
              location("LB", "B", 2), location("LB2", "B", 2), character("K_B", "B", 1 + 0),
              *([location("LB3", "B", b_extra)] if b_extra else []),
              location("LC", "C", 2), location("LC2", "C", 2), character("K_C", "C", 1))


def test_TV4_I07_the_fixture() -> None:
    board = i07()
    board = board.with_card(replace(board.card("K_A2"), readied=False))
    assert standing_votes(board) == {"A": 7, "B": 6, "C": 6}


def test_TV4_I07_declaring_a_statute() -> None:
    """TV4-I07 case 1: A activates K_A on S_U to declare X: legal; A controls X; SV A 6 (P_A still holds S_U, so
    the +1 stays); nobody has political control afterwards; X is in force."""
    board = i07()
    board = board.with_card(replace(board.card("K_A2"), readied=False))
    board, done = declare(board, "A", "X", "K_A", 1, THREE, cost="2 Currency")
    assert done.statute.controller == "A" and done.seat == "S_U" and done.votes == {"A": 7, "B": 6, "C": 6}
    assert standing_vote(board, "A").total == 6
    assert political_control(standing_votes(board)) is None
    assert board.statute("X").section == 1 and not board.card("K_A").readied


def test_TV4_I07_then_losing_the_lead_costs_the_controller_nothing() -> None:
    """TV4-I07 then: later B reaches SV 9 > A's; A still controls X and X is in force."""
    board = i07()
    board = board.with_card(replace(board.card("K_A2"), readied=False))
    board, _ = declare(board, "A", "X", "K_A", 1, THREE)
    board = board.with_card(location("LB3", "B", 2)).with_card(location("LB4", "B", 1))
    assert standing_votes(board)["B"] == 9
    assert board.statute("X").controller == "A"


@pytest.mark.parametrize(("case", "reason"), [
    ("tie", r"the most Standing Vote is tied \(A 7 and B 7\), so nobody has it"),
    ("homeworld", "never declared from a Homeworld"),
    ("inactive", "S_U is inactive .*a Statute needs an active Seat"),
    ("not my turn", "only in your own Action Phase; it is B's Action Phase"),
])
def test_TV4_I07_illegal_declarations(case: str, reason: str) -> None:
    """TV4-I07 cases 2–5: no political control (7–7); from HW_A; at GOVT −1 (S_U inactive); during B's turn."""
    board = i07()
    board = board.with_card(replace(board.card("K_A2"), readied=False))
    character_name = "K_A"
    if case == "tie":
        board = board.with_card(location("LB3", "B", 1))
    elif case == "homeworld":
        board = board.with_card(replace(board.card("K_A2"), readied=True))  # A 8, on HW_A
        character_name = "K_A2"
    elif case == "inactive":
        board = board.with_factor("GOVT", -1).with_card(location("L3", "A", 1))
    else:
        board = replace(board, active="B")
    with pytest.raises(RuleError, match=reason):
        declare(board, "A", "X", character_name, 1, THREE)


def test_P4_04_political_control_is_checked_before_the_activation() -> None:
    """P4-04: A leads 7–6 before activating K_A and only ties after; legal by default, illegal if checked after."""
    board = f4(1, character("K_A", "A", 1, at="S_U"), *lands("A", 4), *lands("B", 5))
    assert standing_votes(board)["A"] == 7 and standing_votes(board)["B"] == 6
    declare(board, "A", "X", "K_A", 1, THREE)
    after = replace(board, rulings=Rulings(statute_control_check="after"))
    with pytest.raises(RuleError, match="political control"):
        declare(after, "A", "X", "K_A", 1, THREE)


def test_P4_10_any_readied_character_may_declare() -> None:
    """P4-10: read literally, a Vote-0 Character on the Seat may declare; a group may require a Convocant."""
    board = f4(1, character("Z_A", "A", 0, at="S_U"), location("L1", "A", 2))
    _, done = declare(board, "A", "X", "Z_A", 2, THREE)
    assert done.character == "Z_A"
    strict = replace(board, rulings=Rulings(statute_character="convocant"))
    with pytest.raises(RuleError, match="lets only a Convocant declare"):
        declare(strict, "A", "X", "Z_A", 2, THREE)


def test_the_seat_must_be_yours_and_the_character_readied() -> None:
    board = f4(-1, character("K_A", "A", 1, at="S_K"), character("K_A3", "A", 1, at="S_U", readied=False),
               *lands("A", 5))
    with pytest.raises(RuleError, match="not your Seat"):
        declare(board, "A", "X", "K_A", 1, THREE)
    with pytest.raises(RuleError, match="activated"):
        declare(board, "A", "X", "K_A3", 1, THREE)
    with pytest.raises(RuleError, match="Sections 1 to 3, not 4"):
        declare(board.with_factor("GOVT", 0).with_card(replace(board.card("K_A3"), readied=True)), "A", "X",
                "K_A3", 4, THREE)


def lands(player: str, total: int) -> list[Card]:
    """Locations worth ``total`` Vote (no card prints 3, so twos and a one)."""
    return [location(f"L{player}{i}", player, min(2, total - 2 * i)) for i in range((total + 1) // 2)]


def admin(board: Board, player: str = "A") -> Board:
    """Advance to ``player``'s next Admin Phase."""
    while True:
        board, changed = next_phase(board)
        if changed.started == (player, Phase.ADMIN):
            return board


def test_TV4_I08_one_time_sections_over_several_admin_phases() -> None:
    """TV4-I08: S1 (one-time, "Destroy target Surface Location"), S2 (one-time, Rank + 1 = 3), S3 (lasting).
    Declared with S1: S1 resolves. Admin 1 keep S1: nothing. Admin 2 → S2 (pays 3). Admin 3 → S1. Admin 4 → S3:
    nothing. Admin 5 → S2 (pays 3). Totals: S1 twice, S2 twice, 6 paid."""
    sections = sections_of(3, (1, 2), {2: "Rank + 1 = 3"})
    board = f4(1, character("K_A", "A", 1, at="S_U"), *lands("A", 3))
    board, done = declare(board, "A", "X", "K_A", 1, sections)
    resolved = [done.resolves]
    assert done.resolves is not None and (done.resolves.section, done.resolves.cost) == (1, None)
    board = admin(board)
    with pytest.raises(RuleError, match="keeping it is not a change, and nothing resolves"):
        change_section(board, "A", "X", 1)
    for number in (2, 1, 3, 2):
        board = admin(board)
        board, changed = change_section(board, "A", "X", number)
        resolved.append(changed.resolves)
    assert [(r.section, r.cost) if r else None for r in resolved] == [
        (1, None), (2, "Rank + 1 = 3"), (1, None), None, (2, "Rank + 1 = 3")]
    paid = sum(3 for r in resolved if r is not None and r.cost)
    assert [r.section for r in resolved if r].count(1) == 2 and [r.section for r in resolved if r].count(2) == 2
    assert paid == 6


def test_one_section_change_per_admin_phase_and_only_the_controllers() -> None:
    """R4-12: a change in the controller's Admin Phase — one a phase, so alternating one-time Sections resolves one
    of them each Admin Phase, not several."""
    board = f4(1, character("K_A", "A", 1, at="S_U"), *lands("A", 3))
    board, _ = declare(board, "A", "X", "K_A", 1, THREE)
    with pytest.raises(RuleError, match="in its controller's Admin Phase; it is A's Action Phase"):
        change_section(board, "A", "X", 2)
    board = admin(board)
    with pytest.raises(RuleError, match="controlled by A"):
        change_section(board, "B", "X", 2)
    board, _ = change_section(board, "A", "X", 2)
    with pytest.raises(RuleError, match="already been selected this turn"):
        change_section(board, "A", "X", 3)


def test_destroying_a_statute_in_its_controllers_admin_phase() -> None:
    """R4-12: the controller destroys it in their Admin Phase; it goes to its owner's Depleted Pile."""
    board = f4(1, character("K_A", "A", 1, at="S_U"), *lands("A", 3))
    board, _ = declare(board, "A", "X", "K_A", 1, THREE, owner="C")
    with pytest.raises(RuleError, match="Admin Phase"):
        destroy(board, "A", "X")
    board = admin(board)
    board, gone = destroy(board, "A", "X")
    assert gone.owner == "C" and board.statutes == ()
