"""``/why votes round:N`` (issue 19): a player's votes as round N's close counted them, rebuilt from the ledger's
events up to that close (scores, d3, misc, Electors and planets), whatever changed since; each step names the
events it read; a figure the events cannot rebuild is said to be so, never replaced by today's; another player is
refused and the figure is not in the refusal."""

from __future__ import annotations

from conftest import Table
from ledger_front import MODERATOR, actor, only_here, slash, user

from engine.landsdraad.close_weights import entries_of
from engine.landsdraad.model import Attributes
from engine.service.landsdraad.votes_asof import ledger_then, votes_then

ALICE, BOB, CAROL = actor(10, "alice"), actor(11, "bob"), actor(12, "carol")


async def two_rounds_then_changes(table: Table) -> None:
    """alice 12 (D 3, a strong Elector of 1), bob 7 in round 1; bob given the rich planet Arrakis (+4, D 2 earns no
    bonus) before round 2 closes (11); after round 2's close Arrakis goes to alice and bob's Diplomacy becomes 3."""
    await table.player(ALICE.id, "alice", 3, 2, 2)
    await table.player(BOB.id, "bob", 2, 2, 2)
    await table.elector(ALICE.id, "Count Jasek", "strong", 1)
    await table.open()
    await table.vote(BOB.id, "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MODERATOR.id)
    await table.planet(BOB.id, "Arrakis", "rich")
    await table.open("Spice embargo")
    await table.vote(BOB.id, "Vote: Aye")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MODERATOR.id)
    await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=BOB.id, name="Arrakis",
                                                       actor=MODERATOR.id)
    await table.planet(ALICE.id, "Arrakis", "rich")
    await slash(table.clerk, MODERATOR, "player set", user=user(BOB.id, "bob"), diplomacy=3)


async def counted(table: Table, number: int, user_id: int) -> int:
    closes = [e.payload for e in await table.events() if e.kind == "RoundClosed" and e.payload["round"] == number]
    return next(int(w["votes"]) for w in entries_of(closes[-1]) if w["user_id"] == user_id)


async def test_a_past_round_is_explained_as_its_close_counted_it_after_the_ledger_changed(table: Table) -> None:
    await two_rounds_then_changes(table)
    events = await table.events()
    added = next(e.seq for e in events if e.kind == "HoldingAdded" and e.payload["name"] == "Arrakis")
    bob_joined = next(e.seq for e in events if e.kind == "PlayerAdded" and e.payload["user_id"] == BOB.id)
    assert await counted(table, 2, BOB.id) == 11 and await counted(table, 1, BOB.id) == 7
    r2 = await table.clerk.landsdraad.explain.votes(table.game_id, BOB.id, 2)
    assert r2.value == 11 and r2.parts and r2.parts[0].value == 11
    text = only_here(await slash(table.clerk, MODERATOR, "why", what="votes", round=2, player=user(BOB.id, "bob")))
    assert "bob's votes in round 2 of sirius**: 11 votes" in text
    assert "2 × highest Diplomacy 2 + highest Intrigue 2 + the d3 roll 1 = 7" in text
    assert "Arrakis (rich planet): 4 votes; Diplomacy 2 < 3: no bonus" in text and f"read #{added}]" in text
    assert f"read #{bob_joined}]" in text and "may have changed since" in text
    r1 = await table.clerk.landsdraad.explain.votes(table.game_id, BOB.id, 1)
    assert r1.value == 7 and r1.parts[0].value == 7 and "Arrakis" not in str(r1.parts[0].steps)
    now = await table.clerk.landsdraad.explain.votes(table.game_id, BOB.id)
    assert now.value == 9  # today's: D 3 raised the base, Arrakis gone
    alice2 = await table.clerk.landsdraad.explain.votes(table.game_id, ALICE.id, 2)
    assert alice2.value == 12 == alice2.parts[0].value and "Arrakis" not in str(alice2.parts[0].steps)


async def test_a_player_sees_their_own_past_votes_and_nobody_elses(table: Table) -> None:
    await two_rounds_then_changes(table)
    await table.player(CAROL.id, "carol", 1, 1, 1)
    own = only_here(await slash(table.clerk, BOB, "why", what="votes", round=2))
    assert "bob's votes in round 2 of sirius**: 11 votes" in own and "Arrakis (rich planet): 4 votes" in own
    assert "withheld" not in own and "R0-" not in own  # their own steps; rule ids are for the moderators
    refused = only_here(await slash(table.clerk, ALICE, "why", what="votes", round=2, player=user(BOB.id, "bob")))
    assert "A player's votes are private" in refused
    assert "11" not in refused and "Arrakis" not in refused
    late = only_here(await slash(table.clerk, CAROL, "why", what="votes", round=2))
    assert "carol was not an active player when round 2 closed" in late
    derivation = await table.clerk.landsdraad.explain.votes(table.game_id, BOB.id, 2)
    seen = derivation.seen_by("alice", False)  # had the front not refused: every step is bob's, none shown
    assert not seen.steps and all(not p.steps for p in seen.parts)
    assert derivation.seen_by(None, True).parts[0].steps == derivation.parts[0].steps


def test_the_ledger_as_of_an_event_follows_rejoins_raises_and_transfers() -> None:
    events = [(1, "PlayerAdded", {"user_id": 5, "diplomacy": 2, "command": 1, "intrigue": 3, "roll": 2}),
              (2, "PlayerChanged", {"user_id": 5, "diplomacy": 4, "misc": 2}),
              (3, "PlayerChanged", {"user_id": 5, "diplomacy": 1, "active": False}),
              (4, "HoldingAdded", {"user_id": 6, "kind": "elector", "name": "Ix", "grade": "weak", "votes": 3}),
              (5, "TransferApplied", {"holding": "Ix", "from": 6, "to": 5}),
              (6, "PlayerChanged", {"user_id": 5, "active": True}),
              (7, "PlayerAdded", {"user_id": 5, "diplomacy": 1, "command": 1, "intrigue": 1, "roll": 3,
                                  "rejoined": True})]
    then = ledger_then(events, 5, 5)
    assert then is not None
    assert then.attributes == Attributes(1, 1, 3, 2, 4, 3) and then.misc == 2
    assert [e.name for e in then.electors] == ["Ix"] and then.holding_events == {"Ix": (4, 5)}
    assert then.attribute_events == (1, 2, 3)
    before = ledger_then(events, 5, 4)
    assert before is not None and not before.electors
    rejoined = ledger_then(events, 5, 7)  # new scores, misc and holdings as they were left
    assert rejoined is not None and rejoined.attributes == Attributes.start(1, 1, 1, 3) and rejoined.misc == 2
    assert [e.name for e in rejoined.electors] == ["Ix"]
    assert ledger_then(events, 9, 7) is None


def test_a_figure_the_events_cannot_rebuild_is_said_to_be_so() -> None:
    events = [(1, "PlayerAdded", {"user_id": 5, "diplomacy": 2, "command": 1, "intrigue": 3, "roll": 2})]
    exact = votes_then("x", "jenny", 1, 2, 9, events, 5, [])
    assert exact.parts and exact.parts[0].value == 9 and "cannot" not in exact.note
    drift = votes_then("x", "jenny", 1, 2, 12, events, 5, [4])
    assert drift.value == 12 and not drift.parts
    assert "cannot be rebuilt exactly" in drift.note and "make 9, not the 12" in drift.note and "#4" in drift.note
    missing = votes_then("x", "jenny", 1, 2, 12, [], 5, [])
    assert not missing.parts and "not in the ledger's events before the close (#2)" in missing.note
