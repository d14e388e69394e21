"""R0-40's "valid if intent is clear", applied to DM ballots: ``Vote Aye`` without the colon is read."""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.model import Option


@pytest.mark.parametrize(
    ("text", "option", "revote"),
    [("vote nay", Option.NAY, False), ("Vote Aye, 14", Option.AYE, False), ("revote abstain", Option.ABSTAIN, True),
     ("re-vote yes", Option.AYE, True)],
)
def test_colon_may_be_left_out(text: str, option: Option, revote: bool) -> None:
    ballot = parse_ballot(text)
    assert (ballot.option, ballot.revote) == (option, revote)


def test_plain_chat_is_not_a_ballot() -> None:
    with pytest.raises(ParseError, match="it is not a ballot"):
        parse_ballot("hello, what do I do?")


@pytest.mark.parametrize(("text", "declared"), [("Vote: Aye (16)", 16), ("Vote: Aye, 16.", 16),
                                                ("Vote: Nay (16 votes)", 16), ("vote aye(3)", 3)])
def test_a_count_in_brackets_is_read_like_one_after_a_comma(text: str, declared: int) -> None:
    assert parse_ballot(text).declared == declared


@pytest.mark.parametrize(("text", "meant"), [("Yes", "Vote: Yes"), ("nay, 14", "Vote: Nay, 14"),
                                             ("Abstain.", "Vote: Abstain")])
def test_an_option_alone_suggests_the_ballot_it_means(text: str, meant: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_ballot(text)
    assert caught.value.suggestion == meant and f"Did you mean “{meant}”?" in str(caught.value)


def test_words_after_the_option_say_what_was_read_and_what_was_not() -> None:
    with pytest.raises(ParseError) as caught:
        parse_ballot("vote: nay please")
    message = str(caught.value)
    assert message.startswith("I read Nay in “vote: nay please”, but not “please”: only your count may follow")
    assert caught.value.suggestion == "Vote: Nay" and "is not a whole number" not in message


def test_vote_aye_without_a_colon_looks_like_a_ballot_but_vote_for_pizza_does_not() -> None:
    from engine.landsdraad.ballot import looks_like_ballot

    assert looks_like_ballot("vote aye") and looks_like_ballot("Vote: Pizza")
    assert not looks_like_ballot("vote for pizza") and not looks_like_ballot("I vote aye")


def test_a_ballot_below_the_first_line_is_pointed_to_and_not_counted() -> None:
    """Only a message's first line is read: ``Hello`` then ``Vote: Aye`` is refused, quoting the first line alone and
    suggesting the ballot it found below; a first line that is a ballot reads as ever, unless a later line is a ballot
    for another option (play-test P3.1, below)."""
    with pytest.raises(ParseError) as caught:
        parse_ballot("Hello there\nVote: Aye, 14\nthanks")
    assert caught.value.suggestion == "Vote: Aye, 14"
    assert str(caught.value).startswith("I couldn't read “Hello there” (the first of your message's 3 lines): a ballot "
                                        "goes on the first line")
    with pytest.raises(ParseError) as chat:
        parse_ballot("Hello there\nhow are you?")
    assert chat.value.suggestion is None and "it is not a ballot" in str(chat.value)
    assert parse_ballot("Vote: Nay\nVote: No").option is Option.NAY


@pytest.mark.parametrize("text", ["Vote: Aye\nVote: Nay", "Vote: Aye\nno wait\nRevote: Abstain", "vote nay\nvote yes"])
def test_two_ballots_for_different_options_in_one_message_count_neither(text: str) -> None:
    """Play-test P3.1: ``Vote: Aye`` then ``Vote: Nay`` on the next line was counted as Aye, silently."""
    with pytest.raises(ParseError, match="your message holds two ballots") as caught:
        parse_ballot(text)
    assert "send the one you mean" in str(caught.value)


@pytest.mark.parametrize("text", ["Vote: Aye\nVote: Aye", "Vote: Aye\nVote: Yes", "Vote: Nay\nI think it's wrong."])
def test_the_same_ballot_twice_or_a_reason_below_it_is_read(text: str) -> None:
    assert parse_ballot(text).option in (Option.AYE, Option.NAY)


def test_a_long_word_in_place_of_the_option_is_quoted_short() -> None:
    """Play-test P4.3: ``Vote: AAAA…`` (3,990 letters) was answered with the whole word quoted, 4,246 characters on
    one line; Discord takes 2,000, so the accepted forms and "Nothing was recorded" were cut off."""
    with pytest.raises(ParseError) as caught:
        parse_ballot("Vote: " + "A" * 3990)
    assert len(str(caught.value)) < 600 and "is not Aye, Nay or Abstain" in str(caught.value)


def test_a_long_subject_of_a_player_vote_is_quoted_short() -> None:
    """Play-test P4.3, for every form: a quoted piece of the text in a problem is cut to 40 characters."""
    from engine.landsdraad.motions import parse_motion

    with pytest.raises(ParseError) as caught:
        parse_motion("Vote: " + "x" * 3990)
    assert len(str(caught.value)) < 1000


@pytest.mark.parametrize(("text", "option"), [("> Vote: Aye", Option.AYE), (">>> Vote: Nay\nbecause", Option.NAY),
                                              ("“Vote: Nay”", Option.NAY), ('"Vote: Abstain"', Option.ABSTAIN),
                                              ("> “Vote: Aye”", Option.AYE)])
def test_a_quoted_ballot_is_read(text: str, option: Option) -> None:
    """Play-test P4.5: a ballot copied as a quote (Discord's ``> ``, or quotation marks) was "not a ballot"."""
    from engine.core.text import normalise

    assert parse_ballot(normalise(text)).option is option


def test_a_quoted_player_vote_in_a_thread_is_read() -> None:
    """Play-test P4.5: ``> Vote: No Confidence`` in a thread was answered as a crisis ballot posted in public."""
    from engine.core.text import normalise
    from engine.landsdraad.motions import parse_motion

    assert parse_motion(normalise("> Vote: No Confidence")) == parse_motion("Vote: No Confidence")


@pytest.mark.parametrize(("text", "letter"), [("Vote: \u0410ye", "\u0410, Cyrillic"),
                                              ("Vote: N\u0430y", "\u0430, Cyrillic"),
                                              ("Vote: \u0391ye", "\u0391, Greek")])
def test_a_look_alike_letter_is_named(text: str, letter: str) -> None:
    """Play-test P4.4: ``Vote: Аye`` (Cyrillic А) was answered "“Аye” is not Aye", which reads as nonsense."""
    with pytest.raises(ParseError) as caught:
        parse_ballot(text)
    assert f"only looks like a Latin one ({letter})" in str(caught.value)


@pytest.mark.parametrize("word", ["none", "neither", "withdraw"])
def test_a_word_for_abstaining_suggests_abstain_not_nay(word: str) -> None:
    """Play-test P4.6: ``Vote: none`` suggested ``Vote: No``, which is Nay."""
    with pytest.raises(ParseError) as caught:
        parse_ballot(f"Vote: {word}")
    assert caught.value.suggestion == "Vote: Abstain"
