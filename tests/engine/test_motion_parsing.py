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
