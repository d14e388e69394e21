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
