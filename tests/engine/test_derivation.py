"""The shared shape of an explanation (engine/core/derivation.py): what a player may see of it."""

from engine.core.derivation import Derivation, Step, events_text, lines


def derivation() -> Derivation:
    return Derivation("Round 3: the result", "passed, Aye 16 against Nay 7", (
        Step("alice voted Aye with 11", "a ballot counts its votes", "R1-05", (41,), frozenset({"alice"})),
        Step("bob voted Nay with 7", "a ballot counts its votes", "R1-05", (42,), frozenset({"bob"})),
        Step("Aye 16 > Nay 7: passed", "more Aye than Nay passes", "R1-06", (41, 42, 43)),
    ), value=(16, 7))


def test_a_player_sees_the_public_steps_and_their_own_and_is_told_how_many_were_withheld() -> None:
    seen = derivation().seen_by("alice", moderator=False)
    assert [s.says for s in seen.steps] == ["alice voted Aye with 11", "Aye 16 > Nay 7: passed"]
    assert seen.withheld == 1
    text = "\n".join(lines(seen, moderator=False))
    assert "bob" not in text and "R1-0" not in text
    assert "1 step withheld" in text


def test_a_moderator_sees_every_step_with_the_rule_ids_and_events() -> None:
    seen = derivation().seen_by(None, moderator=True)
    text = "\n".join(lines(seen, moderator=True))
    assert "bob voted Nay with 7" in text and "(R1-06)" in text and "read #41, #42, #43" in text
    assert "withheld" not in text
    assert seen.events() == (41, 42, 43)


def test_someone_who_plays_none_of_it_sees_only_the_public_steps() -> None:
    assert derivation().seen_by(None, moderator=False).withheld == 2
    assert events_text(range(1, 13)) == "#1, #2, #3, #4, #5, #6, #7, #8, #9, #10 and 2 more"


def test_a_public_stand_in_is_shown_to_those_who_may_not_see_the_named_step_and_not_twice_to_a_moderator() -> None:
    why = Derivation("Round 3: the result", "passed", (
        Step("Aye: alice 10 = 10", "each option's total", "R0-18", (43,), frozenset()),
        Step("Aye: the players 10 = 10", "each option's total", "R0-18", (43,), stand_in=True),
    ))
    assert [s.says for s in why.seen_by(None, moderator=True).steps] == ["Aye: alice 10 = 10"]
    player = why.seen_by("alice", moderator=False)
    assert [s.says for s in player.steps] == ["Aye: the players 10 = 10"] and player.withheld == 1
