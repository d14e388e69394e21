"""The JSON columns' writer (``engine.store.database.JSON_SERIALIZER``): orjson, with ``json``'s answer wherever the
two would differ in what is stored or refused (issue 20: the close's event in a sixth of the time)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from engine.store.database import JSON_SERIALIZER


@pytest.mark.parametrize("value", [
    {"round": 3, "weights": {"user_id": [2**62, 7], "name": ["Zoë \"z\"", "\u00e9\U0001F600\n\t\\"],
                             "votes": [12, 0], "ballot": ["aye", None]}, "by_deadline": True},
    {"text": "Vote: Aye, \ud800 14"},  # a lone surrogate (a DM's text may hold one): orjson refuses, json writes
    {"big": 2**64 + 1, "small": -(2**63) - 1},  # beyond 64 bits: orjson refuses, json writes
    {1: "one", 2: ["two"]},  # keys that are not text, as json writes them ("1", "2")
    [], {}, "", 0, None, [[[]]],
])
def test_what_it_writes_reads_back_as_json_would_read_it(value: Any) -> None:
    assert json.loads(JSON_SERIALIZER(value)) == json.loads(json.dumps(value))


def test_text_beyond_ascii_is_written_as_utf8_and_reads_back() -> None:
    text = JSON_SERIALIZER({"name": "Zoë"})
    assert text == '{"name":"Zoë"}'  # orjson's, not json.dumps' '{"name": "Zo\\u00eb"}'
    assert json.loads(text) == {"name": "Zoë"}


@dataclass
class _Point:
    x: int


@pytest.mark.parametrize("value", [{"at": datetime(2026, 12, 4, tzinfo=UTC)}, {"p": _Point(1)}, {"s": {1, 2}}])
def test_what_json_refuses_is_refused(value: Any) -> None:
    """A datetime or a dataclass in a payload is a bug to see (as with ``json``), not a value orjson would store."""
    with pytest.raises(TypeError):
        json.dumps(value)
    with pytest.raises(TypeError):
        JSON_SERIALIZER(value)
