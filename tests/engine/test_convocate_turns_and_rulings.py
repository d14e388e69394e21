"""Turns and phases (rules-spec §4.2.8; R4-06, R4-07) and the per-game rulings (rules-spec §6.1, P4-xx).

§4.2.8: "Ready Phase: the player's activated cards ready. Action Phase: GF pushes, Statutes, Motions and Repeals.
Admin Phase: Statute Section changes, or destroying a Statute. The Resource Pool empties at the end of every
Phase.\""""

from __future__ import annotations

from dataclasses import replace

import pytest
from convocate_f4 import character, f4, location, unit

from engine.convocate.board import Board, Phase
from engine.convocate.rulings import SETTINGS, Rulings, rulings_of, setting
from engine.convocate.turns import next_phase, previous_phase
from engine.core.errors import ParseError, RuleError


def test_the_first_phase_next_starts_the_first_players_ready_phase() -> None:
    board = replace(f4(0, character("K_A", "A", readied=False)), active=None, phase=None, turn=0)
    board, changed = next_phase(board)
    assert changed.ended is None and changed.started == ("A", Phase.READY) and changed.turn == 1
    assert changed.readied == ("K_A",)


def test_ready_action_admin_then_the_next_player_in_turn_order() -> None:
    board = replace(f4(0, character("K_B", "B", readied=False), character("K_C", "C", readied=False)),
                    phase=Phase.READY)
    seen = []
    for _ in range(7):
        board, changed = next_phase(board)
        seen.append((changed.started, changed.readied))
    assert seen == [(("A", Phase.ACTION), ()), (("A", Phase.ADMIN), ()), (("B", Phase.READY), ("K_B",)),
                    (("B", Phase.ACTION), ()), (("B", Phase.ADMIN), ()), (("C", Phase.READY), ("K_C",)),
                    (("C", Phase.ACTION), ())]
    assert board.card("K_B").readied and board.turn == 3


def test_every_players_pool_empties_at_the_end_of_every_phase() -> None:
    board = f4(0)
    board = board.with_player(replace(board.player("A"), pool=4)).with_player(replace(board.player("B"), pool=1))
    board, changed = next_phase(board)
    assert changed.lost == (("A", 4), ("B", 1)) and all(p.pool == 0 for p in board.players)


def test_temporary_card_effects_end_with_the_turn() -> None:
    board = replace(f4(0, character("Z_A", "A", 0, bonus=1), location("L1", "A", 1)), phase=Phase.ADMIN)
    board, changed = next_phase(board)
    assert changed.expired == ("Z_A +1 Vote",) and board.card("Z_A").bonus == 0


def test_a_step_taken_back_leaves_the_board_as_before_it() -> None:
    """``/phase back`` (play-test U2.2): ``previous_phase`` of each step of two turns gives back the board before
    it, to the equality of every field: pools R4-07 emptied, cards R4-06 readied, effects the turn ended, the turn."""
    board = replace(f4(0, character("K_B", "B", readied=False, bonus=1), location("L_A", "A", 1), unit("G_C", "C",
                                                                                                     readied=False)),
                    phase=Phase.READY)
    for step in range(7):
        board = board.with_player(replace(board.player(board.active or "A"), pool=step + 1, temp=step % 2))
        after, changed = next_phase(board)
        back, returned = previous_phase(after, changed)
        assert back == board, step
        assert (returned.back, returned.left, returned.turn) == ((board.active, board.phase), changed.started,
                                                                  board.turn)
        board = after
    with pytest.raises(RuleError, match="not as the latest /phase next left it"):
        previous_phase(next_phase(board)[0], changed)  # a step that is not the latest
    first = replace(f4(0), active=None, phase=None, turn=0)
    with pytest.raises(RuleError, match="began the first turn"):
        previous_phase(*next_phase(first))


def test_no_players_no_turns() -> None:
    with pytest.raises(RuleError, match="no players"):
        next_phase(Board())


def test_rulings_from_settings_and_their_defaults() -> None:
    """rules-spec §6 note 3: each proposal a named switch whose default is the proposal."""
    assert rulings_of({}) == Rulings()
    ruled = rulings_of({"seat_range_plus": "1..4", "statute_control_check": "after", "govt_zero_all_seats": False,
                        "end_game_penalty": 20})
    assert ruled.seat_range_plus == (1, 4) and ruled.statute_control_check == "after"
    assert not ruled.govt_zero_all_seats
    assert {s.ruling for s in SETTINGS.values()} >= {"P4-04", "P4-05", "P4-06", "P4-08", "P4-09", "P4-10", "P4-11",
                                                     "P4-12", "P4-13", "P4-14"}


@pytest.mark.parametrize(("name", "text", "stored"), [
    ("seat_range_minus", "-4..-1", "-4..-1"), ("seat range plus", "0 to 4", "0..4"),
    ("govt-zero-all-seats", "off", False), ("repeal_count", "Before", "before"), ("second_timeout", "12h", "12h")])
def test_setting_values(name: str, text: str, stored: object) -> None:
    assert setting(name).parse(text) == stored


@pytest.mark.parametrize(("name", "text"), [("seat_range_plus", "4..0"), ("seat_range_plus", "0..5"),
                                            ("repeal_count", "sometimes"), ("second_timeout", "soon"),
                                            ("temp_vote_convocant", "maybe")])
def test_bad_setting_values(name: str, text: str) -> None:
    with pytest.raises(ParseError):
        setting(name).parse(text)
    with pytest.raises(ParseError, match="a Convocate ruling"):
        setting("ag_weighted")
