"""R0-30 and R0-40/R0-44: thread forms of AG ballots and player-majority votes; DM forms for transfers,
audit quotes and the Pro tempore's elector query."""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import AgVote, Motion, parse_motion
from engine.landsdraad.transfers import (
    AuditQuoteRequest,
    ElectorQuery,
    TransferCommand,
    parse_audit_quote,
    parse_elector_query,
    parse_transfer,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AG Vote: Jenny", AgVote("Jenny")),
        ("ag vote: <@123>", AgVote("<@123>")),
        ("Vote: No Confidence", Motion(Subject.NO_CONFIDENCE)),
        ("vote: end embargo", Motion(Subject.END_EMBARGO)),
        ("Vote: End Embargo on Bob", Motion(Subject.END_EMBARGO, ("Bob",))),
        ("Audit: Bob", Motion(Subject.AUDIT, ("Bob",))),
        ("Vote to Audit: Bob rounds 1-3", Motion(Subject.AUDIT, ("Bob",), (1, 2, 3))),
        ("Vote: Audit: Bob, round 2", Motion(Subject.AUDIT, ("Bob",), (2,))),
        ("Vote: End Kanly between Ann and Bob", Motion(Subject.END_KANLY, ("Ann", "Bob"))),
        ("Vote: End Game\nbecause it has dragged on", Motion(Subject.END_GAME)),
        ("Unvote: No Confidence", Motion(Subject.NO_CONFIDENCE, withdraw=True)),
    ],
)
def test_forms(text: str, expected: object) -> None:
    """R0-40: the first line of the message (Discord's stand-in for a post title) carries the vote."""
    assert parse_motion(text) == expected


@pytest.mark.parametrize("text", ["Unvote: Audit: Bob", "Unvote: Vote to Audit: Bob", "Unvote: vote to audit Bob",
                                  "Unvote: Audit of Bob", "unvote audit of Bob rounds 1-3"])
def test_an_audit_is_withdrawn_as_it_was_supported_or_as_its_card_names_it(text: str) -> None:
    """Play-test D5.3: `Unvote: <subject>` withdraws; support given as `Vote to Audit: Bob` (a documented form) could
    not be withdrawn as `Unvote: Vote to Audit: Bob`, nor as the vote's card names it, `Unvote: Audit of bob` ("No
    player in sirius is called “of bob”")."""
    motion = parse_motion(text)
    assert isinstance(motion, Motion)
    assert (motion.subject, motion.names, motion.withdraw) == (Subject.AUDIT, ("Bob",), True)


@pytest.mark.parametrize("text", ["hello all", "I think we should vote", "Vote: Aye", ""])
def test_chat_is_not_a_vote(text: str) -> None:
    """Ordinary thread chat is not a vote and is left alone."""
    assert parse_motion(text) is None


def test_near_miss_subject_is_suggested() -> None:
    """Unreadable votes are quoted back with the accepted forms and a suggestion."""
    with pytest.raises(ParseError) as caught:
        parse_motion("Vote: End Gmae")
    assert "Vote: End Game" in str(caught.value) and "End Gmae" in str(caught.value)


def test_audit_needs_a_name() -> None:
    with pytest.raises(ParseError, match="names the player"):
        parse_motion("Audit:")


def test_transfers() -> None:
    """R0-51: Transfer and Transfer Funds actions are what an audit publishes."""
    assert parse_transfer("Transfer: 500 MS to Bob") == TransferCommand("Bob", amount=500)
    assert parse_transfer("transfer funds: 1,200 to Bob") == TransferCommand("Bob", amount=1200)
    assert parse_transfer("Transfer: Planet Deneb to Bob") == TransferCommand("Bob", item="Planet Deneb")
    with pytest.raises(ParseError):
        parse_transfer("Transfer: to")


def test_audit_quote_and_elector_query() -> None:
    """R0-53 (quote) and R0-71 (the Pro tempore's elector query)."""
    assert parse_audit_quote("Audit quote: Bob rounds 1-2") == AuditQuoteRequest("Bob", (1, 2))
    assert parse_audit_quote("audit quote: Bob") == AuditQuoteRequest("Bob")
    assert parse_elector_query("Elector: Count Jasek, round 3") == ElectorQuery("Count Jasek", 3)
    with pytest.raises(ParseError):
        parse_elector_query("Elector: Count Jasek")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("vote no confidence", Motion(Subject.NO_CONFIDENCE)),
     ("unvote end game", Motion(Subject.END_GAME, withdraw=True)),
     ("vote to audit bob rounds 1-2", Motion(Subject.AUDIT, ("bob",), (1, 2))),
     ("Vote: No Confidence in alice", Motion(Subject.NO_CONFIDENCE, ("alice",))),
     ("vote no confidence in <@12>", Motion(Subject.NO_CONFIDENCE, ("<@12>",)))],
)
def test_intent_is_clear_without_the_colon_and_with_the_ag_named(text: str, expected: Motion) -> None:
    """R0-40 "valid if intent is clear": the thread forms read what the DM forms read (no colon, any case), and
    ``Vote: No Confidence in <AG>``, the vote's own title (the service checks that the name is the AG's)."""
    assert parse_motion(text) == expected


@pytest.mark.parametrize("text", ["vote for pizza tonight", "vote we all go home", "vote aye", "I vote no"])
def test_a_bare_vote_before_no_subject_stays_chat(text: str) -> None:
    assert parse_motion(text) is None


@pytest.mark.parametrize(("text", "meant"), [("vote no confidance", "Vote: No Confidence"),
                                             ("Vot: No Confidence", "Vote: No Confidence")])
def test_a_near_miss_without_colon_or_of_the_keyword_is_answered(text: str, meant: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_motion(text)
    assert caught.value.suggestion == meant


def test_no_confidence_takes_the_ag_after_in_and_nothing_else() -> None:
    with pytest.raises(ParseError, match="`in <Name>`"):
        parse_motion("Vote: No Confidence alice")


def test_transfer_without_its_colon() -> None:
    assert parse_transfer("Transfer 200 to jenny") == TransferCommand("jenny", amount=200)
    assert parse_transfer("transfer funds 5 to Bob") == TransferCommand("Bob", amount=5)
    with pytest.raises(ParseError):
        parse_transfer("transferred 200 to bob")
