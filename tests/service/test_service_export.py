"""The game export (issue 2, docs/export.md): the fields a moderator and the replay tests rely on."""

from __future__ import annotations

import json
import re
from typing import Any
from unittest.mock import ANY

JENNY, BOB = 101, 102
MOD = 1


async def test_export_has_the_required_fields(table: Any) -> None:
    await table.player(JENNY, "jenny", 4, 2, 2, roll=3, faction="House Atreides")
    await table.elector(JENNY, "Count Jasek", "average", 5)
    await table.planet(JENNY, "Deneb", "average")
    await table.player(BOB, "bob", 2, 2, 2, roll=1)
    await table.open("Piracy in Sirius Sector")
    await table.faction("Hawks", 20, "aye")
    await table.faction("Boars", 12, "d6", "1-3 nay, 4 abstain, 5-6 aye", roll=5)
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(BOB, "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open("Spice tariffs")
    await table.faction("Doves", 12, "d6", "1-6 nay", roll=2)

    doc = await table.clerk.exports.export(table.game_id)
    json.dumps(doc)  # plain JSON, nothing exotic

    assert {k: doc["game"][k] for k in ("name", "ruleset", "round", "status")} == {
        "name": "sirius", "ruleset": "landsdraad", "round": 2, "status": "active"}
    players = [{k: p[k] for k in ("name", "faction", "votes", "base_vote")} for p in doc["players"]]
    assert players == [
        {"name": "jenny", "faction": "House Atreides", "votes": 25, "base_vote": 13},
        {"name": "bob", "faction": None, "votes": 7, "base_vote": 7},
    ]
    first, second = doc["rounds"]
    assert {k: first[k] for k in ("number", "crisis", "status")} == {
        "number": 1, "crisis": "Piracy in Sirius Sector", "status": "closed"}
    assert first["result"] == {"outcome": "passed", "aye": 25 + 20 + 12, "nay": 7, "abstain": 0, "in_play": 64,
                               "needed": 33, "adjutant_general": None, "income_penalty": 300,
                               "expired_votes": [], "elections_closed": [],
                               # 57 Aye with the factions' 32 leaves jenny's 25, and Nay 7 is bob's: both given away
                               "disclosure": {"mode": "post", "setting": "post",
                                              "exposed": [["jenny", "aye"], ["bob", "nay"]], "ruled_out": [],
                                              "partial": False, "held": False},
                               "post_token": ANY}  # the close's own, random: its card's nonce carries it
    assert re.fullmatch("[0-9a-z]{5}", first["result"]["post_token"])
    assert [{k: f[k] for k in ("name", "votes", "vote", "roll")} for f in first["factions"]] == [
        {"name": "Hawks", "votes": 20, "vote": "aye", "roll": None},
        {"name": "Boars", "votes": 12, "vote": "aye", "roll": 5},
    ]
    # an open round: no result yet, and the moderator's roll stays unpublished until the close (P0-04)
    assert (second["number"], second["status"], second["result"]) == (2, "open", None)
    assert [{k: f[k] for k in ("name", "votes", "vote", "roll")} for f in second["factions"]] == [
        {"name": "Doves", "votes": 12, "vote": None, "roll": None}]

    events = doc["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["kind"] == "FactionAdded"
    ballots = [e for e in events if e["kind"] == "BallotCast"]
    assert [b["payload"]["option"] for b in ballots] == ["aye", "nay"]
    assert "events" not in await table.clerk.exports.export(table.game_id, include_events=False)
