"""``engine.mylantium.levels``: Fervor or approval now from the recorded changes (``/why fervor-level``), pure."""

from __future__ import annotations

from engine.core.derivation import lines
from engine.mylantium.levels import SPELLED, Level, Logged, level_explained

FERVOR = Level("Revolutionary Fervor", "", 0, "a Republic's Fervor when the game begins", "starts at 0",
               rule_id="R1-30", more="more: `/why fervor round:<turn>`")


def test_each_change_a_step_with_its_event_and_the_rule_named_once() -> None:
    changes = [Logged(1, "3 Tariffs in effect (3 or more)", 1, "the Business Phase's close", 26, "a condition adds",
                      "R1-31"),
               Logged(1, "a war is being waged", 1, "the Business Phase's close", 26, "a condition adds", "R1-31"),
               Logged(1, "the coup of the Brass Hats was put down", 3, "an attempt's resolution", 31, "put down: +3",
                      "P1-10")]
    why = level_explained(FERVOR, changes, 5)
    assert (why.subject, why.result, why.value) == ("Revolutionary Fervor now", "5", 5)
    assert [s.events for s in why.steps] == [(), (26,), (26,), (31,), ()]
    assert [s.rule for s in why.steps[1:4]] == ["a condition adds", "", "put down: +3"]  # named at its first
    assert why.steps[-1].says == "0 + 1 + 1 + 3 = **5**" and why.note == "more: `/why fervor round:<turn>`"
    shown = lines(why, moderator=False)
    assert shown[3] == "3. Turn 1, the Business Phase's close: +1: a war is being waged → 2 [read #26]"


def test_a_long_game_sums_in_one_line_and_a_sum_that_is_not_the_stored_figure() -> None:
    changes = [Logged(n, "a war is being waged", 1, "", n, "a condition adds") for n in range(500)]
    why = level_explained(FERVOR, changes, 500)
    assert why.steps[-1].says == "0 + 500 (the 500 changes above) = **500**"  # one line fits a Discord message
    spelled = level_explained(FERVOR, changes[:SPELLED], SPELLED).steps[-1].says
    assert spelled == "0 " + " ".join(["+ 1"] * SPELLED) + f" = **{SPELLED}**" and SPELLED < 80
    short = level_explained(FERVOR, changes[:2], 9)
    assert (short.value, short.result) == (9, "9 as stored")
    assert "add up to 2, not the 9 the game holds" in short.note and "the stored 9 stands" in short.note
    old = level_explained(FERVOR, [Logged(1, "set by the moderators (no VP deducted)", 4)], 4)
    assert old.steps[1].events == () and old.steps[1].says.endswith("(recorded before Clerk kept its event)")
    assert "1 of the changes was recorded before" in old.note
