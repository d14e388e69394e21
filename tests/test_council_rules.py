"""The council's pure rules (tests/council/rules.py): the weighted tally, the DM form, the state read back from
its events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from council.rules import BALLOT, CLOSED, OPENED, REMINDED, SEATED, fold, looks_like, parse_ballot, tally

from engine.core.errors import ParseError

ANN, BEN, CY = 1, 2, 3
NAMES = {ANN: "ann", BEN: "ben", CY: "cy"}


def test_yes_carries_only_with_more_weight_than_no() -> None:
    weights = {ANN: 3, BEN: 2, CY: 1}
    assert tally(weights, NAMES, {ANN: True, BEN: False}).carried
    tie = tally(weights, NAMES, {ANN: False, BEN: True, CY: True})
    assert (tie.yes, tie.no, tie.carried) == (3, 3, False)
    assert tally(weights, NAMES, {}).abstained == ("ann", "ben", "cy")
    assert not tally(weights, NAMES, {}).carried


@pytest.mark.parametrize(("text", "read"), [("Council: yes", (True, None)), ("council:NO", (False, None)),
                                            ("Council: aye #hall", (True, "hall")), ("COUNCIL : nay", (False, None))])
def test_the_dm_form(text: str, read: tuple[bool, str | None]) -> None:
    assert looks_like(text)
    assert parse_ballot(text) == read


def test_a_ballot_that_is_neither_yes_nor_no_is_refused() -> None:
    assert looks_like("Council: maybe")
    with pytest.raises(ParseError, match="“maybe” is neither yes nor no"):
        parse_ballot("Council: maybe")
    assert not looks_like("Vote: Aye")


def test_the_state_is_read_back_from_the_events_a_later_ballot_replacing_an_earlier() -> None:
    t = datetime(2026, 3, 1, tzinfo=UTC)
    council = fold([(SEATED, {"user_id": ANN, "name": "ann", "weight": 3}),
                    (SEATED, {"user_id": BEN, "name": "ben", "weight": 2}),
                    (OPENED, {"number": 1, "question": "Q?", "deadline": (t + timedelta(days=1)).isoformat(),
                              "opened": t.isoformat()}),
                    (BALLOT, {"number": 1, "user_id": ANN, "yes": False}),
                    (BALLOT, {"number": 1, "user_id": ANN, "yes": True})])
    vote = council.current
    assert vote is not None and vote.ballots == {ANN: True}
    assert vote.reminder_due(timedelta(hours=1)) == t + timedelta(hours=23)
    council = fold([(SEATED, {"user_id": ANN, "name": "ann", "weight": 3}),
                    (OPENED, {"number": 1, "question": "Q?", "deadline": (t + timedelta(minutes=30)).isoformat(),
                              "opened": t.isoformat()}),
                    (REMINDED, {"number": 1}), (CLOSED, {"number": 1, "yes": 3, "no": 0, "abstained": []})])
    assert council.current is None and council.votes[0].result is not None and council.votes[0].result.carried
    assert council.votes[0].reminder_due(timedelta(hours=1)) is None
