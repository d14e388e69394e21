"""Reading a crisis ballot from a player's text (R0-10..R0-12, P0-01, P0-03; RULINGS.md "Where each thing is said").

R0-11: "A player votes by private message to the moderator (bot: DM) with the form
`Vote: <Aye|Nay|Abstain|Yes|No>[, <n>]`". Unreadable text raises ParseError, which quotes the input, shows the
accepted forms, and suggests the near miss.
"""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.landsdraad.ballot import ACCEPTED, BallotCommand, looks_like_ballot, parse_ballot
from engine.landsdraad.model import Option


@pytest.mark.parametrize(
    ("text", "option", "declared", "revote"),
    [
        ("vote: yes", Option.AYE, None, False),
        ("Vote: No, 9", Option.NAY, 9, False),
        ("VOTE: abstain", Option.ABSTAIN, None, False),
        ("Revote: Aye", Option.AYE, None, True),
    ],
)
def test_TV0_I15_ballot_parsing(text: str, option: Option, declared: int | None, revote: bool) -> None:
    """TV0-I15 (R0-10, R0-11, R0-12, P0-03). "players must vote Aye or Nay or Abstain (Yes and No are also
    acceptable" [...] "Revote: Aye" with no prior ballot is read as a ballot; the service treats it as a Vote."""
    assert parse_ballot(text) == BallotCommand(option=option, declared=declared, revote=revote)


def test_TV0_I15_unknown_option_is_an_error() -> None:
    """TV0-I15: `Vote: Maybe` is rejected as an unknown option (the earlier ballot stands: nothing was read)."""
    with pytest.raises(ParseError) as caught:
        parse_ballot("Vote: Maybe")
    assert "“Maybe” is not Aye, Nay or Abstain" in str(caught.value)
    assert "“Vote: Maybe”" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "option", "declared"),
    [
        ("Vote: Aye, 14", Option.AYE, 14),
        ("Vote: Nay, 14", Option.NAY, 14),
        ("Vote: Abstain, 14", Option.ABSTAIN, 14),
        ("vote:aye,14", Option.AYE, 14),
        ("  Vote :  NAY  ", Option.NAY, None),
        ("Vote: Aye 14", Option.AYE, 14),
        ("Vote: Aye, 14 votes", Option.AYE, 14),
        ("Vote: yEs.", Option.AYE, None),
        ("Vote: Abstain\nthanks, see you next round", Option.ABSTAIN, None),
    ],
)
def test_R0_11_the_document_forms_and_case(text: str, option: Option, declared: int | None) -> None:
    """R0-11: “Vote: Aye, 14” or “Vote: Nay, 14” or “Vote: Abstain, 14” where the player controls 14 votes;
    R0-10: "Option matching ignores case"."""
    command = parse_ballot(text)
    assert (command.option, command.declared, command.revote, command.game) == (option, declared, False, None)


@pytest.mark.parametrize("text", ["Revote: Nay", "revote: no, 3", "Re-vote: Nay", "re vote: nay", "REVOTE: NO"])
def test_R0_12_revote_forms(text: str) -> None:
    """R0-12: "players may change their vote by simply using “Revote: Aye” or similar"."""
    command = parse_ballot(text)
    assert command.revote and command.option is Option.NAY


def test_game_tag_names_the_game() -> None:
    """RULINGS.md: "Someone in several games names it (`Vote: Aye #sirius`)"."""
    assert parse_ballot("Vote: Aye #sirius") == BallotCommand(Option.AYE, None, False, game="sirius")
    assert parse_ballot("Revote: Nay, 12 #deneb-2") == BallotCommand(Option.NAY, 12, True, game="deneb-2")


def _error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse_ballot(text)
    return caught.value


@pytest.mark.parametrize("text", ["hello there", "Vote:", "Vote: Aye, 14, and more", "", "Aye"])
def test_unreadable_text_quotes_the_input_and_shows_the_accepted_forms(text: str) -> None:
    """RULINGS.md: "Text the bot cannot read gets a reply that quotes it and shows the accepted forms"."""
    error = _error(text)
    message = str(error)
    assert f"“{text.strip()}”" in message
    assert f"Accepted: {ACCEPTED}" in message
    assert "`Vote: Aye`" in message and "`Revote: Nay`" in message
    assert error.text == text


def test_near_miss_option_suggests_aye() -> None:
    """RULINGS.md: "near misses ("Vote: Ayy") get a suggestion"."""
    error = _error("Vote: Ayy")
    assert error.suggestion == "Vote: Aye"
    assert "Did you mean “Vote: Aye”?" in str(error)


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [("Vtoe: Aye", "Vote: Aye"), ("Voet: Nay, 3", "Vote: Nay, 3"), ("Revoet: Nay", "Revote: Nay"),
     ("Revote: Nya", "Revote: Nay"), ("Vote: Abstian", "Vote: Abstain"), ("Vote: yse", "Vote: Yes")],
)
def test_near_miss_keyword_and_option_suggestions(text: str, suggestion: str) -> None:
    assert _error(text).suggestion == suggestion


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [("Vote; Nay", "Vote: Nay"), ("vote, aye", "Vote: Aye"), ("I vote yes!", "Vote: Aye"),
     ("Revote; abstain #sirius", "Revote: Abstain #sirius"), ("AG vote Lady Jessica", "AG Vote: Lady Jessica"),
     ("ag vote - jenny", "AG Vote: jenny"), ("AGvote; <@42> #sirius", "AG Vote: <@42> #sirius"),
     ("audit bob rounds 1-2", "Audit quote: bob rounds 1-2"), ("Audit quote bob", "Audit quote: bob"),
     ("Vote; maybe", None), ("I vote for alice", None), ("ag vote", None), ("audit", None)],
)
def test_a_slipped_form_is_refused_with_the_form_meant(text: str, suggestion: str | None) -> None:
    """A semicolon for the colon, ``I vote aye``, ``AG vote Jenny`` without its colon: not a form Clerk reads as a
    ballot (nothing is counted), but the answer names the form meant (docs/input.md)."""
    error = _error(text)
    assert error.suggestion == suggestion
    assert ("Did you mean" in str(error)) is (suggestion is not None)


def test_count_that_is_not_a_whole_number() -> None:
    """P0-01: the stated count is optional and informational, but when given it must be a whole number."""
    error = _error("Vote: Aye, fourteen")
    assert str(error).startswith("I read Aye in “Vote: Aye, fourteen”, but not “fourteen”: only your count may "
                                 "follow the option, in digits")
    assert error.suggestion == "Vote: Aye"
    assert "not a whole number of votes of at most" in str(_error("Vote: Aye, " + "9" * 40))


def test_negative_count_is_named_as_negative() -> None:
    """A count below zero is refused as negative (it is a whole number, so "not a whole number" would puzzle), and
    the ballot without it is suggested."""
    error = _error("Vote: Abstain, -3")
    assert "the count “-3” is below zero; a count is 0 or more" in str(error)
    assert error.suggestion == "Vote: Abstain"


def test_far_miss_gets_no_suggestion() -> None:
    error = _error("Vote: Pineapple")
    assert error.suggestion is None
    assert "Did you mean" not in str(error)


def test_long_input_is_quoted_shortened() -> None:
    text = "Vote: " + "x" * 400
    message = str(_error(text))
    assert message.startswith(f"I couldn't read “{text[:197]}...”")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Vote: Aye", True), ("Vtoe: Aye", True), ("revote: nay", True), ("Hello, clerk", False), ("", False),
     ("What time is it?", False)],
)
def test_looks_like_ballot(text: str, expected: bool) -> None:
    assert looks_like_ballot(text) is expected


def test_nearest_prefers_the_candidate_sharing_the_start_and_is_case_insensitive() -> None:
    """Tie between Aye and Nay for "Ayy" (same similarity) goes to the one that starts the same way."""
    assert nearest("Ayy", ["Aye", "Nay", "Abstain"]) == "Aye"
    assert nearest("NAYY", ["Aye", "Nay"]) == "Nay"
    assert nearest("zzz", ["Aye", "Nay"]) is None


@pytest.mark.parametrize(("text", "declared"), [("Vote: Aye #sirius, 11", 11), ("Vote: Aye #sirius 11", 11),
                                                ("Vote: Aye, 11 #sirius", 11), ("Vote: Aye #sirius", None),
                                                ("Vote: Aye #sirius #sirius", None)])
def test_a_game_tag_before_the_count_names_the_game(text: str, declared: int | None) -> None:
    """Play-test P5.3: ``Vote: Aye #sirius, 11`` was refused and the suggestion dropped the tag."""
    assert parse_ballot(text) == BallotCommand(option=Option.AYE, declared=declared, revote=False, game="sirius")


def test_two_game_tags_are_refused_without_picking_one() -> None:
    """Play-test P5.3: ``Vote: Aye #sirius #orion`` suggested ``Vote: Aye #orion``, one of the two."""
    with pytest.raises(ParseError) as two:
        parse_ballot("Vote: Aye #sirius #orion")
    assert two.value.suggestion is None
    assert "it names 2 games (#sirius, #orion); a ballot is for one game" in str(two.value)


@pytest.mark.parametrize("text", ["Vote: Nay?", "Vote: Nay ?", "Vote: Nay, 9?", "Nay?"])
def test_a_question_mark_after_the_option_reads_as_a_full_stop_does(text: str) -> None:
    """Play-test P5.5: ``Vote: Nay?`` was refused (“Nay?” is not Aye, Nay or Abstain) while ``Vote: Aye!`` was read.
    (``Nay?`` without its keyword is still refused, suggesting ``Vote: Nay?`` as typed.)"""
    if not text.startswith("Vote"):
        with pytest.raises(ParseError, match="a ballot starts with `Vote:`"):
            parse_ballot(text)
        return
    assert parse_ballot(text).option is Option.NAY


@pytest.mark.parametrize(("text", "suggestion"), [("Unvote", "Vote: Abstain"), ("Withdraw", "Vote: Abstain"),
                                                  ("withdraw my vote", "Vote: Abstain"),
                                                  ("Unvote: Aye #sirius", "Vote: Abstain #sirius"),
                                                  ("Vote: withdraw", "Vote: Abstain")])
def test_taking_a_ballot_back_is_answered_with_abstain(text: str, suggestion: str) -> None:
    """Play-test P5.2: a crisis ballot cannot be withdrawn; the answer says so, and that Abstain counts for neither
    side."""
    with pytest.raises(ParseError) as back:
        parse_ballot(text)
    assert back.value.suggestion == suggestion
    assert "a crisis ballot cannot be taken back, but `Vote: Abstain` makes yours count for neither side" in str(
        back.value)
