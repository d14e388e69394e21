"""The transcript line format and the slash-command reader (docs/transcripts.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.actions.context import UserRef
from bot.console.slash import OptionError, parse_slash, split
from bot.console.transcript import Directive, Said, TranscriptError, parse_line, parse_transcript, strip_comment
from bot.console.world import World, stable_id


@pytest.mark.parametrize(("line", "kept"), [
    ("# a comment", ""),
    ("   # indented comment", ""),
    ("#", ""),
    ("alice dm: Vote: Aye  # her ballot", "alice dm: Vote: Aye"),
    ("alice dm: Vote: Aye #sirius", "alice dm: Vote: Aye #sirius"),
    ("mod #game: /round close", "mod #game: /round close"),
    ("mod #game/ag-election: /round status # in the thread", "mod #game/ag-election: /round status"),
    ('mod #game: /round open crisis:"Issue # 5"', 'mod #game: /round open crisis:"Issue # 5"'),
])
def test_a_hash_followed_by_a_space_starts_a_comment_but_a_place_does_not(line: str, kept: str) -> None:
    assert strip_comment(line) == kept


def test_lines_become_events() -> None:
    assert parse_line("alice dm: Vote: Aye, 14", 3) == Said(3, "alice", None, None, "Vote: Aye, 14")
    assert parse_line("Mod #Game/AG-Election: /round status", 4) == Said(4, "Mod", "Game", "AG-Election",
                                                                          "/round status")
    assert parse_line("! time 2026-12-01 00:00:01", 5) == Directive(5, "time",
                                                                     when=datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC))
    assert parse_line("! wait 2h30m", 6) == Directive(6, "wait", delta=timedelta(hours=2, minutes=30))
    assert parse_line("! moderator @gina", 7) == Directive(7, "moderator", name="gina")
    assert parse_line("! role gina gm", 8) == Directive(8, "role", name="gina", role="gm")
    assert parse_line("! redeliver 12", 9) == Directive(9, "redeliver", target=12)
    assert parse_line("  ", 10) is None


@pytest.mark.parametrize(("line", "says"), [
    ("alice: Vote: Aye", "say where: `alice dm: ...`"),
    ("alice game: /round close", "a channel is written with #"),
    ("! wait soon", "`! wait 2h30m`"),
    ("! time tomorrow", "`! time 2026-03-01 18:00`"),
    ("! teleport alice", "unknown directive"),
    ("! hold now", "`! hold`"),
    ("! moderator", "`! moderator NAME`"),
    ("just some text", "expected `NAME dm: TEXT`"),
])
def test_a_malformed_line_says_what_was_expected(line: str, says: str) -> None:
    with pytest.raises(TranscriptError) as caught:
        parse_line(line, 7)
    assert str(caught.value).startswith("line 7: ")
    assert says in str(caught.value)


def test_every_malformed_line_is_reported_with_its_number() -> None:
    events, errors = parse_transcript(["! redeliver", "# fine", "alice dm: hi", "oops", "! redeliver 2", "! wait x"])
    assert [e.line for e in events] == [3]
    assert [e.line for e in errors] == [1, 4, 5, 6]
    assert "needs an earlier message" in errors[0].message
    assert "line 2 is not a message" in errors[2].message


def test_indented_bar_lines_continue_the_message_above() -> None:
    lines = ["bob #sirius/votes: Vote: No Confidence", "  | The AG slept through two crises.  # a comment",
             "  |", "  | Signed, Bob", "alice dm: hi", "", "  | orphan", "! wait 1h", "  | after a directive"]
    events, errors = parse_transcript(lines)
    assert events[0] == Said(1, "bob", "sirius", "votes",
                             "Vote: No Confidence\nThe AG slept through two crises.\n\nSigned, Bob", more=3)
    assert events[1] == Said(5, "alice", None, None, "hi")
    assert [e.line for e in errors] == [7, 9]
    assert "continues the message on the line just before it" in errors[0].message
    with pytest.raises(TranscriptError):
        parse_line("  | alone", 1)
    assert parse_line("alice dm: a | b", 1) == Said(1, "alice", None, None, "a | b")


def test_option_values_run_to_the_next_option_and_quotes_group() -> None:
    words, options = split('round open crisis:Piracy in Sirius  deadline:"2026-03-01 20:00"')
    assert words == ["round", "open"]
    assert options == [("crisis", "Piracy in Sirius"), ("deadline", "2026-03-01 20:00")]
    assert split("faction add name: Boars table:1-3 nay, 4 abstain, 5-6 aye")[1] == [
        ("name", "Boars"), ("table", "1-3 nay, 4 abstain, 5-6 aye")]
    assert split("round open crisis:'Jenny\"s bill'")[1] == [("crisis", 'Jenny"s bill')]


def _reader() -> tuple[World, dict[str, object]]:
    world = World()
    return world, {"user": world.user, "role": world.role}


def test_options_are_converted_by_their_kind() -> None:
    world, kw = _reader()
    cmd = parse_slash("/player set user:@Jenny diplomacy:4 active:no", **kw)  # type: ignore[arg-type]
    assert cmd.name == "player set"
    assert cmd.options == {"user": UserRef(stable_id("user", "jenny"), "Jenny"), "diplomacy": 4, "active": False}
    assert parse_slash("/faction add name:Boars votes:12 stance:D6", **kw).options["stance"] == "d6"  # type: ignore[arg-type]
    assert parse_slash("/round close", **kw).options == {}  # type: ignore[arg-type]
    game = parse_slash("/game new ruleset:landsdraad name:x moderator_role:@gm", **kw)  # type: ignore[arg-type]
    assert game.options["moderator_role"] == world.role("gm")


@pytest.mark.parametrize(("text", "says"), [
    ("/player add user:@bob diplomacy:four command:2 intrigue:2", "`diplomacy` must be a whole number, not “four”."),
    ("/player add user:@bob diplomacy:3 command:2 intrigue:2 roll:0", "`roll` must be between 1 and 3, not 0."),
    ("/player add user:@bob diplomacy:-1 command:2 intrigue:2", "`diplomacy` must be between 1 and 5, not -1."),
    ("/player add user:@bob diplomacy:6 command:2 intrigue:2", "`diplomacy` must be between 1 and 5, not 6."),
    ("/player add user:@bob diplomacy:0 command:2 intrigue:2", "`diplomacy` must be between 1 and 5, not 0."),
    ("/player add user:@bob", "/player add needs `diplomacy` (Diplomacy (D), 1 to 5); `command` (Command (C), 1 to "
                              "5); `intrigue` (Intrigue (I), 1 to 5)."),
    ("/player add user:@bob diplomacy:1 command:1 intrigue:1 luck:3", "/player add has no option `luck`."),
    ("/player set user:@bob active:maybe", "`active` must be true or false, not “maybe”."),
    ("/player set user:bob smith", "`user` must be a user, written @name"),
    ("/player set user:@bob diplomacy:1 diplomacy:2", "`diplomacy` is given twice."),
    ("/vote choice:maybe", "“maybe” is not a choice for `choice`; choose aye, nay or abstain."),
    ("/vote choice:", "`choice` needs a value"),
    ("/vote aye", "/vote does not take “aye”; write options as name:value ([choice] [game]). Did you mean "
                  "`choice:aye`?"),
    ("/why votes player:@bob", "/why does not take “votes”; write options as name:value ([what] [round] [player] "),
    ("/why votes player:@bob", "Did you mean `what:votes`?"),
    ("/round close now", "/round close takes no options"),
    ('/round open crisis:"oops', "never closed"),
    ('/round open crisis:"a"b', "Put a space after the closing quote"),
    ('/round open crisis:"a" b', "I don't know what to do with “b”"),
    ("/round clos", "There is no command /round clos. Did you mean /round close?"),
    # a command of a group that has none of that name: the group's own, not another group's near spelling
    # (/round deadline once read "Did you mean /revolution deadline?", a command of Mylantium)
    ("/round deadline deadline:2h", "There is no command /round deadline. /round has: "),
    ("/round deadline deadline:2h", ", extend, "),
    ("/rond close", "There is no command /rond close. Did you mean /round close?"),
])
def test_what_the_discord_client_would_refuse_is_an_option_error(text: str, says: str) -> None:
    _, kw = _reader()
    with pytest.raises(OptionError) as caught:
        parse_slash(text, **kw)  # type: ignore[arg-type]
    assert says in str(caught.value)


def test_a_bare_word_is_suggested_as_the_first_text_option_only_when_that_is_free() -> None:
    """``/why votes`` (the subject written as one says it) is answered with ``what:votes``; with ``what`` given, the
    refusal suggests nothing (the word belongs to no option)."""
    _, kw = _reader()
    with pytest.raises(OptionError) as caught:
        parse_slash("/why votes round:2 what:result", **kw)  # type: ignore[arg-type]
    assert "does not take “votes”" in str(caught.value) and "Did you mean" not in str(caught.value)


def test_an_unknown_command_goes_to_the_dispatcher() -> None:
    _, kw = _reader()
    assert parse_slash("/frobnicate all:yes", **kw).name == "frobnicate"  # type: ignore[arg-type]


def test_names_are_stable_and_mod_moderates() -> None:
    world = World()
    assert world.user("Alice").id == world.user("alice").id == stable_id("user", "ALICE")
    assert world.user("alice").name == "Alice"
    assert stable_id("user", "general") != stable_id("channel", "general")
    assert world.actor("mod").manages_server
    assert not world.actor("alice").manages_server
    world.make_moderator("alice")
    assert world.actor("alice").manages_server
    thread = world.place("Game", "AG-Election")
    assert world.where(thread) == "#game/ag-election"
    assert thread.channel_id == world.place("game", None).channel_id
    assert world.where(world.place(None, None)) == "DM"
