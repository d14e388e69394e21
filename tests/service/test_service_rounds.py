"""Crisis rounds through the service (R0-11..R0-19): open, factions, ballots, deadline, close, the event log.
Runs on a migrated SQLite file, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.core.dice import face
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.close_weights import entries_of
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.service.clock import RandomDice
from engine.service.uow import Duplicate

JENNY, BOB, CAROL, STRANGER = 101, 102, 103, 555
MOD = 1
BOARS = "1-3 nay, 4 abstain, 5-6 aye"
SEED = 20260301  # tests/service/conftest.py


async def _three_players(table: Any) -> None:
    """Jenny 25 (TV0-S01), Bob 7, Carol 9."""
    await table.player(JENNY, "jenny", 4, 2, 2, roll=3)
    await table.elector(JENNY, "Count Jasek", "average", 5)
    await table.planet(JENNY, "Deneb", "average")
    await table.player(BOB, "bob", 2, 2, 2, roll=1)
    await table.player(CAROL, "carol", 3, 1, 1, roll=2)


async def _weighted(table: Any, weights: dict[int, int]) -> None:
    """Players whose V(p) is exactly the given number: base 1 (D0 I0 r1) plus misc votes."""
    for user_id, votes in weights.items():
        await table.player(user_id, f"p{user_id}", 0, 0, 0, roll=1)
        if votes != 1:
            await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=user_id, misc=votes - 1, actor=MOD)


async def _close(table: Any, **kwargs: Any) -> Any:
    return await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD, **kwargs)


async def _round_closed(table: Any) -> Any:
    """The last RoundClosed event (the close also appends ResultPending: its announcement is owed)."""
    return [e for e in await table.events() if e.kind == "RoundClosed"][-1]


async def test_a_round_end_to_end_gives_the_right_tally(table: Any) -> None:
    """R0-16..R0-18: players and temporary factions; "Players who do not cast a vote automatically abstain"."""
    await _three_players(table)
    opened = await table.clerk.landsdraad.rounds.open_round(table.game_id, crisis="Piracy in Sirius Sector",
                                                            deadline=None, actor=MOD)
    assert (opened.number, opened.status, opened.in_play) == (1, "open", 25 + 7 + 9)
    await table.faction("Hawks", 20, "aye")
    await table.faction("Doves", 12, "nay")
    await table.faction("Boars", 12, "d6", BOARS, roll=4)
    status = await table.clerk.landsdraad.rounds.round_status(table.game_id)
    assert status.round.in_play == 41 + 44
    assert [(f.name, f.roll, f.vote) for f in status.round.factions] == [
        ("Hawks", None, None), ("Doves", None, None), ("Boars", None, None)]  # the roll is public only at close

    receipt = await table.vote(JENNY, "Vote: Aye, 14")
    assert (receipt.option, receipt.declared, receipt.votes, receipt.replaced, receipt.round_number) == (
        "aye", 14, 25, None, 1)
    await table.vote(BOB, "vote: no")
    status = await table.clerk.landsdraad.rounds.round_status(table.game_id)
    assert (status.voted, status.waiting) == (("jenny", "bob"), ("carol",))

    result = await _close(table)
    assert table.numbers(result) == {"outcome": "passed", "aye": 25 + 20, "nay": 7 + 12, "abstain": 9 + 12,
                                     "in_play": 85, "needed": 33}
    assert [(f.name, f.votes, f.vote, f.roll) for f in result.factions] == [
        ("Hawks", 20, "aye", None), ("Doves", 12, "nay", None), ("Boars", 12, "abstain", 4)]
    assert not result.already_closed
    assert await table.rolls() == []  # the moderator's roll was used; nothing rolled
    assert (await table.clerk.games.game(table.game_id)).current_round == 1


async def test_TV0_S05_sirius_factions_through_the_service(table: Any) -> None:
    """TV0-S05 with the Boars' roll given by the moderator."""
    for roll, expected in [(1, (20, 24, 0, 23, "failed")), (4, (20, 12, 12, 17, "passed")),
                           (6, (32, 12, 0, 23, "passed"))]:
        await table.open(f"Sirius, roll {roll}")
        await table.faction("Hawks", 20, "aye")
        await table.faction("Doves", 12, "nay")
        await table.faction("Boars", 12, "d6", BOARS, roll=roll)
        r = await _close(table)
        assert (r.aye, r.nay, r.abstain, r.needed, r.outcome, r.in_play) == (*expected[:4], expected[4], 44)


@pytest.mark.parametrize(
    ("roll", "expected"),
    [(2, (50, 51, 10, 51, "failed")), (4, (50, 39, 22, 45, "passed")), (5, (62, 39, 10, 51, "passed"))],
)
async def test_TV0_I08_players_and_factions_through_the_service(table: Any, roll: int, expected: tuple) -> None:
    await _weighted(table, {JENNY: 30, BOB: 27, CAROL: 10})
    await table.open()
    await table.faction("Hawks", 20, "aye")
    await table.faction("Doves", 12, "nay")
    await table.faction("Boars", 12, "d6", BOARS, roll=roll)
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(BOB, "Vote: Nay")
    await table.vote(CAROL, "Vote: Abstain")
    r = await _close(table)
    assert (r.aye, r.nay, r.abstain, r.needed, r.outcome, r.in_play) == (*expected, 111)


async def test_TV0_I06_revotes_before_and_after_the_deadline_through_the_service(table: Any) -> None:
    """TV0-I06 / P0-15: "A message received at the deadline instant or later counts as deadline reached"; the
    refused revote leaves the earlier ballot standing."""
    table.clock.set(datetime(2026, 11, 29, tzinfo=UTC))
    await _weighted(table, {JENNY: 14, BOB: 10, CAROL: 9})
    await table.clerk.landsdraad.rounds.open_round(table.game_id, crisis="Sirius",
                                                   deadline=datetime(2026, 12, 1, tzinfo=UTC), actor=MOD)
    await table.faction("Hawks", 20, "aye")

    def at(text: str) -> datetime:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)

    await table.vote(JENNY, "Vote: Aye, 14", at=at("2026-11-30T10:00:00"))
    assert (await table.vote(JENNY, "Revote: Nay", at=at("2026-11-30T23:59:59"))).replaced == "aye"
    await table.vote(BOB, "Vote: Nay, 10", at=at("2026-11-30T20:00:00"))
    with pytest.raises(RuleError, match=re.escape("Your ballot (Nay) stands.")):
        await table.vote(BOB, "Revote: Aye", at=at("2026-12-01T00:00:00"))
    late = r"at 2026-12-01 00:00:00 UTC.*arrived at 2026-12-01 00:00:01 UTC.*You have no ballot, so you abstain"
    with pytest.raises(RuleError, match=late):
        await table.vote(CAROL, "Vote: Aye", at=at("2026-12-01T00:00:01"))
    table.clock.set(at("2026-12-01T00:00:00"))
    r = await _close(table, expected_round=1)
    assert table.numbers(r) == {"outcome": "failed", "aye": 20, "nay": 24, "abstain": 9, "in_play": 53, "needed": 23}
    assert (await table.kinds()).count("BallotCast") == 3


async def test_R0_15_weights_are_read_at_the_close(table: Any) -> None:
    """R0-15: "Each ballot's weight is V(p) at resolution time, after every Auction, Assassination, Seizure". P0-20:
    the seized Count Jasek and Deneb, no longer controlled by anyone, add nothing to the votes in play (29, not 41)
    and do not vote."""
    await _three_players(table)
    await table.open()
    assert (await table.vote(JENNY, "Vote: Aye, 25")).votes == 25
    await table.vote(BOB, "Vote: Nay")
    await table.vote(CAROL, "Vote: Nay")
    await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="Count Jasek",
                                                       actor=MOD)  # seized
    await table.clerk.landsdraad.ledger.remove_holding(table.game_id, user_id=JENNY, name="Deneb", actor=MOD)
    r = await _close(table)
    assert (r.aye, r.nay, r.outcome, r.in_play) == (13, 16, "failed", 29)
    closed = await _round_closed(table)
    assert {"user_id": JENNY, "name": "jenny", "votes": 13, "ballot": "aye"} in entries_of(closed.payload)


async def test_the_close_weighs_every_player_as_the_ledger_does(table: Any) -> None:
    """The close reads V(p) with the database adding up 2·D_max + I_max + r + misc (ledger.PLAIN_VOTES) and the
    holdings added per holder (votes.holding_votes): every voter's weight in the RoundClosed event is the V(p) of
    the player's own breakdown (R0-01..R0-07), through a fallen Diplomacy, misc votes, every tier and a Homeworld;
    an inactive player's ballot and holdings count nowhere (R0-17)."""
    await table.player(JENNY, "jenny", 5, 2, 3, roll=2)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=JENNY, diplomacy=3, misc=2,
                                                   actor=MOD)  # D 3, D_max 5
    await table.elector(JENNY, "Count Jasek", "strong", 4)
    await table.elector(JENNY, "Baroness Ulm", "weak", 2)
    await table.planet(JENNY, "Deneb", "rich")
    await table.planet(JENNY, "Home", "poor", homeworld=True)
    await table.player(BOB, "bob", 4, 1, 0, roll=3)
    await table.planet(BOB, "Vega", "average")
    await table.player(CAROL, "carol", 1, 1, 4, roll=1)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CAROL, misc=7, actor=MOD)
    await table.player(STRANGER, "gone", 2, 2, 2, roll=2)
    await table.elector(STRANGER, "Duke Orm", "strong", 3)  # inactive at the close: neither counted nor in play
    await table.open()
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(STRANGER, "Vote: Nay")
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=STRANGER, active=False, actor=MOD)
    ledger = {p.user_id: p.votes for p in await table.clerk.landsdraad.ledger.players(table.game_id) if p.active}
    assert len(set(ledger.values())) == 3  # three different weights, so a swap would show
    assert (await table.clerk.landsdraad.rounds.round_of(table.game_id)).in_play == sum(ledger.values())
    r = await _close(table)
    closed = await _round_closed(table)
    assert [(w["user_id"], w["votes"], w["ballot"]) for w in entries_of(closed.payload)] == [
        (JENNY, ledger[JENNY], "aye"), (BOB, ledger[BOB], None), (CAROL, ledger[CAROL], None)]
    assert (r.aye, r.nay, r.abstain, r.in_play) == (ledger[JENNY], 0, ledger[BOB] + ledger[CAROL], sum(ledger.values()))


async def test_R0_20_a_round_runs_in_the_documents_order(table: Any) -> None:
    """R0-20: round start (Crisis and VIP announced) → Auction Phases → perks assigned → other actions → Crisis vote
    resolution → Income (the 300 MS AG penalty) → round end (player votes expire). Jenny 13 (TV0-S01 before her
    holdings), Bob 7, Carol 9: 29 in play at the start. Bob wins a strong Elector of 10 votes in the Auctions (D 2:
    no bonus), so 39 are in play and the perks, ranked when the Auction Phases close, make Bob the Pro tempore, not
    Jenny. Jenny backs an End Game vote, then ballots: Jenny Aye 13, Bob Nay 17, Carol silent (9 abstain): failed.
    No AG at the end of the round docks 300 MS, and the End Game vote, short of its majority, expires with it;
    perks can no longer be assigned for the round."""
    await table.player(JENNY, "jenny", 4, 2, 2, roll=3)
    await table.player(BOB, "bob", 2, 2, 2, roll=1)
    await table.player(CAROL, "carol", 3, 1, 1, roll=2)
    rounds = table.clerk.landsdraad.rounds
    opened = await rounds.open_round(table.game_id, crisis="Piracy in Sirius Sector", deadline=None, actor=MOD)
    assert (opened.crisis, opened.in_play) == ("Piracy in Sirius Sector", 13 + 7 + 9)
    await table.elector(BOB, "Duke Orm", "strong", 10)  # won at auction
    assert (await rounds.round_of(table.game_id)).in_play == 39
    perks = await table.clerk.landsdraad.perks.auctions_closed(table.game_id, actor=MOD, source_id=table.source())
    assert {g.key: g.player for g in perks.grants}["pro_tempore"] == "bob"
    await table.clerk.landsdraad.majority.support(table.game_id, user_id=JENNY, motion=Motion(Subject.END_GAME),
                                                  thread_id=None, at=table.clock.now(), source_id=table.source())
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(BOB, "Vote: Nay")
    r = await _close(table)
    assert table.numbers(r) == {"outcome": "failed", "aye": 13, "nay": 17, "abstain": 9, "in_play": 39, "needed": 16}
    assert (r.adjutant, r.income_penalty, r.expired) == (None, 300, ("End Game",))
    with pytest.raises(RuleError, match="No round is open"):
        await table.clerk.landsdraad.perks.auctions_closed(table.game_id, actor=MOD, source_id=table.source())
    steps = ("RoundOpened", "HoldingAdded", "AuctionsClosed", "PlayerVoteSupported", "BallotCast", "RoundClosed")
    kinds = [k for k in await table.kinds() if k in steps]
    assert [k for n, k in enumerate(kinds) if k not in kinds[:n]] == list(steps)


async def test_TV0_I03_nobody_votes_everyone_abstains(table: Any) -> None:
    """R0-13: "A player with no accepted ballot at the deadline abstains"; E = 0 gives T = 1 and a failure."""
    await _weighted(table, {JENNY: 20, BOB: 15})
    await table.open()
    await table.vote(JENNY, "Vote: Abstain")
    r = await _close(table)
    assert table.numbers(r) == {"outcome": "failed", "aye": 0, "nay": 0, "abstain": 35, "in_play": 35, "needed": 1}


async def test_inactive_players_are_not_in_play(table: Any) -> None:
    """R0-17: "VIP = Σ_{active p} V(p) + Σ_f f.votes"."""
    await _three_players(table)
    await table.open()
    await table.vote(CAROL, "Vote: Nay")  # cast while active, then marked inactive: does not count
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CAROL, active=False, actor=MOD)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=BOB, active=False, actor=MOD)
    with pytest.raises(RuleError, match="You are marked inactive in sirius"):
        await table.vote(BOB, "Vote: Nay")
    assert (await table.clerk.landsdraad.rounds.round_of(table.game_id)).in_play == 25
    assert (await table.clerk.landsdraad.rounds.round_status(table.game_id)).waiting == ("jenny",)
    r = await _close(table)
    assert (r.aye, r.nay, r.abstain, r.in_play) == (0, 0, 25, 25)


async def test_P0_03_revote_replaces_and_a_second_vote_acts_as_revote(table: Any) -> None:
    """R0-12: "The latest accepted ballot counts. [...] A second `Vote:` is treated as a Revote, and a `Revote:`
    with no earlier ballot is treated as a Vote" (P0-03)."""
    await _three_players(table)
    await table.open()
    first = await table.vote(BOB, "Revote: Aye")
    assert first.replaced is None
    assert (await table.vote(JENNY, "Vote: Aye")).replaced is None
    assert (await table.vote(JENNY, "Vote: Nay")).replaced == "aye"
    assert (await table.vote(JENNY, "Revote: Abstain")).replaced == "nay"
    assert (await table.vote(JENNY, "Revote: No, 25")).replaced == "abstain"
    r = await _close(table)
    assert (r.aye, r.nay, r.abstain) == (7, 25, 9)
    ballots = [e.payload for e in await table.events() if e.kind == "BallotCast"]
    assert [(b["user_id"], b["option"], b["replaced"]) for b in ballots] == [
        (BOB, "aye", None), (JENNY, "aye", None), (JENNY, "nay", "aye"), (JENNY, "abstain", "nay"),
        (JENNY, "nay", "abstain")]


async def test_P0_15_a_ballot_at_exactly_the_deadline_is_refused_and_the_earlier_one_stands(table: Any) -> None:
    await _three_players(table)
    await table.open(deadline=timedelta(hours=2))
    deadline = table.clock.now() + timedelta(hours=2)
    receipt = await table.vote(JENNY, "Vote: Aye", at=deadline - timedelta(seconds=1))
    assert receipt.deadline == deadline
    with pytest.raises(RuleError, match=r"Your ballot \(Aye\) stands"):
        await table.vote(JENNY, "Revote: Nay", at=deadline)
    table.clock.set(deadline)
    r = await _close(table, expected_round=1)
    assert (r.aye, r.nay) == (25, 0)
    assert (await table.kinds()).count("BallotCast") == 1


async def test_a_redelivered_message_is_not_counted_twice(table: Any) -> None:
    """DESIGN.md: "The Discord message or interaction id is stored with it, so a redelivered event is recognised
    and not counted twice"."""
    await _three_players(table)
    await table.open()
    first = await table.vote(JENNY, "Vote: Aye", source_id="m-1")
    again = await table.vote(JENNY, "Vote: Aye", source_id="m-1")
    assert (first.duplicate, again.duplicate) == (False, True)
    assert (again.option, again.votes, again.round_number) == ("aye", 25, 1)
    await table.vote(JENNY, "Revote: Nay", source_id="m-2")
    late_copy = await table.vote(JENNY, "Vote: Aye", source_id="m-1")  # an old message redelivered after a revote
    assert late_copy.duplicate
    r = await _close(table)
    assert (r.aye, r.nay) == (0, 25)
    ballots = [e for e in await table.events() if e.kind == "BallotCast"]
    assert [(e.source_id, e.payload["option"]) for e in ballots] == [("m-1", "aye"), ("m-2", "nay")]


async def test_a_redelivered_moderator_command_is_not_applied_twice(table: Any) -> None:
    await _three_players(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=BOB, misc=3, actor=MOD, source_id="i-9")
    with pytest.raises(Duplicate, match="already done"):
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=BOB, misc=3, actor=MOD, source_id="i-9")
    with pytest.raises(RuleError, match="already"):
        await table.vote(BOB, "Vote: Aye", source_id="i-9")  # the same id as a ballot: not a ballot, not counted
    assert (await table.kinds()).count("PlayerChanged") == 1


async def test_P0_04_unrolled_d6_faction_is_rolled_once_at_close_and_recorded(table: Any) -> None:
    """P0-04: "roll once at resolution, after ballots lock, and publish the roll with the result"; the roll
    comes from the service's seeded dice and is written to the RoundClosed event."""
    await _three_players(table)
    await table.open()
    await table.faction("Boars", 12, "d6", BOARS)
    await table.faction("Hawks", 20, "aye")
    assert await table.rolls() == []
    r = await _close(table)
    assert len(await table.rolls()) == 1
    sides, roll = (await table.rolls())[0]
    seed = RandomDice(SEED).secret(f"game {table.game_id} scope 1 seed")
    assert sides == 6 and roll == face(seed, "d6 for faction Boars", 0, 6)  # the seeded dice: the same every run
    boars = r.factions[0]
    assert boars.roll == roll
    assert boars.vote == {1: "nay", 2: "nay", 3: "nay", 4: "abstain", 5: "aye", 6: "aye"}[roll]
    closed = await _round_closed(table)
    assert closed.kind == "RoundClosed"
    assert closed.payload["rolls"] == {"Boars": roll}
    tally_keys = ("outcome", "aye", "nay", "abstain", "in_play", "needed")
    assert {k: closed.payload["result"][k] for k in tally_keys} == table.numbers(r)
    again = await _close(table, expected_round=1)
    assert again.already_closed and again.factions[0].roll == roll
    assert len(await table.rolls()) == 1  # never re-rolled


async def test_close_by_deadline_twice_closes_once(table: Any) -> None:
    """issue 2: a round "closes itself on time [...] and never twice": the second close (a repeated timer) returns
    the stored result marked already_closed, and appends nothing."""
    await _three_players(table)
    await table.open(deadline=timedelta(hours=1))
    await table.vote(JENNY, "Vote: Aye")
    table.clock.advance(timedelta(hours=1))
    first = await _close(table, expected_round=1)
    events = await table.kinds()
    second = await _close(table, expected_round=1)
    assert (first.already_closed, second.already_closed) == (False, True)
    assert table.numbers(first) == table.numbers(second)
    assert await table.kinds() == events
    assert events.count("RoundClosed") == 1
    assert (await _round_closed(table)).payload["by_deadline"] is True
    with pytest.raises(RuleError, match="Round 1 of sirius is already closed"):
        await _close(table)
    with pytest.raises(NotFoundError, match="sirius has no round 7"):
        await _close(table, expected_round=7)


async def test_a_stale_timer_for_an_earlier_round_does_not_close_the_current_one(table: Any) -> None:
    await _three_players(table)
    await table.open()
    await _close(table)
    await table.open("Second crisis")
    stale = await _close(table, expected_round=1)
    assert stale.already_closed and stale.round.number == 1
    assert (await table.clerk.landsdraad.rounds.round_of(table.game_id)).status == "open"


async def test_pending_deadlines(table: Any) -> None:
    """The scheduler reads pending deadlines from the database at start: open rounds with a deadline, soonest first."""
    clerk = table.clerk
    assert await clerk.landsdraad.rounds.pending_deadlines() == []
    await table.open(deadline=timedelta(hours=5))
    other = await clerk.games.create_game(guild_id=900, channel_id=902, name="deneb", ruleset="landsdraad",
                                          moderator_role_id=None, actor=MOD)
    await clerk.landsdraad.rounds.open_round(other.id, crisis="Spice",
                                             deadline=table.clock.now() + timedelta(hours=2), actor=MOD)
    third = await clerk.games.create_game(guild_id=900, channel_id=903, name="arrakis", ruleset="landsdraad",
                                          moderator_role_id=None, actor=MOD)
    await clerk.landsdraad.rounds.open_round(third.id, crisis="No deadline", deadline=None, actor=MOD)
    now = table.clock.now()
    assert await clerk.landsdraad.rounds.pending_deadlines() == [(other.id, 1, now + timedelta(hours=2)),
                                               (table.game_id, 1, now + timedelta(hours=5))]
    assert all(d.tzinfo is not None for _, _, d in await clerk.landsdraad.rounds.pending_deadlines())
    await clerk.landsdraad.rounds.close_round(other.id, actor=MOD, expected_round=1)
    assert await clerk.landsdraad.rounds.pending_deadlines() == [(table.game_id, 1, now + timedelta(hours=5))]


# --- errors ----------------------------------------------------------------------------------------------------


async def test_no_round_open(table: Any) -> None:
    await _three_players(table)
    with pytest.raises(RuleError, match="No round is open in sirius, so there is nothing to vote on yet"):
        await table.vote(JENNY, "Vote: Aye")
    with pytest.raises(RuleError, match="No round is open in sirius"):
        await _close(table)
    with pytest.raises(RuleError, match="No round is open in sirius"):
        await table.faction("Hawks", 20, "aye")
    with pytest.raises(NotFoundError, match="has not opened a round yet"):
        await table.clerk.landsdraad.rounds.round_status(table.game_id)
    await table.open()
    await _close(table)
    with pytest.raises(RuleError, match=r"Round 1 of \w+ is closed.*; ballots are no longer accepted"):
        await table.vote(JENNY, "Vote: Aye")
    with pytest.raises(RuleError, match="No round is open in sirius"):
        await table.faction("Hawks", 20, "aye")


async def test_round_already_open_and_bad_deadline(table: Any) -> None:
    await table.open()
    with pytest.raises(RuleError, match="Round 1 is still open; close it first"):
        await table.open("Another crisis")
    await _close(table)
    with pytest.raises(RuleError, match="The deadline must be in the future"):
        await table.clerk.landsdraad.rounds.open_round(table.game_id, crisis="x", deadline=table.clock.now(), actor=MOD)
    with pytest.raises(RuleError, match="needs the crisis text"):
        await table.clerk.landsdraad.rounds.open_round(table.game_id, crisis="  ", deadline=None, actor=MOD)
    assert (await table.clerk.landsdraad.rounds.open_round(table.game_id, crisis="Round two", deadline=None,
                                                           actor=MOD)).number == 2


async def test_not_a_player_cannot_vote(table: Any) -> None:
    await _three_players(table)
    await table.open()
    with pytest.raises(NotFoundError) as caught:
        await table.vote(STRANGER, "Vote: Aye")
    assert str(caught.value) == "You are not a player in sirius."


async def test_faction_errors(table: Any) -> None:
    await table.open()
    await table.faction("Hawks", 20, "aye")
    with pytest.raises(RuleError, match="Round 1 already has a faction called Hawks"):
        await table.faction("Hawks", 10, "nay")
    with pytest.raises(RuleError, match="only a d6 faction takes a roll"):
        await table.faction("Doves", 12, "nay", roll=3)
    with pytest.raises(RuleError, match="a d6 roll must be 1 to 6, not 7"):
        await table.faction("Boars", 12, "d6", BOARS, roll=7)
    with pytest.raises(RuleError, match="more than 0 votes"):
        await table.faction("Empty", 0, "aye")
    assert [f.name for f in (await table.clerk.landsdraad.rounds.round_of(table.game_id)).factions] == ["Hawks"]


async def test_a_faction_added_wrong_is_removed_and_added_again(table: Any) -> None:
    """A moderator's typo (30 votes for 3) is corrected before the close: /faction remove (any case) takes it out of
    the round, recorded with what it was, and the close counts the faction as added again. A second faction whose
    name differs only in case is refused as the same faction."""
    await _three_players(table)
    await table.open()
    await table.faction("Merchants", 30, "aye")
    with pytest.raises(RuleError, match=re.escape("called Merchants. To change it, /faction remove")):
        await table.faction("merchants", 3, "aye")
    rounds = table.clerk.landsdraad.rounds
    with pytest.raises(NotFoundError, match=re.escape("called “Merchant”. Its factions: Merchants")):
        await rounds.remove_faction(table.game_id, name="Merchant", actor=MOD)
    before = (await rounds.round_of(table.game_id)).in_play
    view, gone = await rounds.remove_faction(table.game_id, name="MERCHANTS", actor=MOD)
    assert (gone.name, gone.votes, gone.stance) == ("Merchants", 30, "aye")
    assert view.factions == () and view.in_play == before - 30
    await table.faction("Merchants", 3, "aye")
    result = await _close(table)
    assert [(f.name, f.votes) for f in result.round.factions] == [("Merchants", 3)]
    assert result.aye == 3
    removed = [e for e in await table.events() if e.kind == "FactionRemoved"]
    assert [e.payload for e in removed] == [{"round": 1, "name": "Merchants", "votes": 30, "stance": "aye",
                                             "table": None}]
    with pytest.raises(RuleError, match="No round is open"):
        await rounds.remove_faction(table.game_id, name="Merchants", actor=MOD)


async def test_every_accepted_command_appends_its_events_in_sequence(table: Any) -> None:
    await _three_players(table)
    await table.open(deadline=timedelta(hours=1))
    await table.faction("Boars", 12, "d6", BOARS)
    await table.vote(JENNY, "Vote: Aye", source_id="a")
    await table.vote(JENNY, "Vote: Aye", source_id="a")  # duplicate: nothing appended
    for refused in (table.vote(STRANGER, "Vote: Aye"), table.open(), table.faction("Boars", 1, "aye")):
        with pytest.raises(RuleError):
            await refused
    await table.vote(BOB, "Revote: Nay")
    await _close(table)
    events = await table.events()
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.kind for e in events] == ["GameCreated", "PlayerAdded", "HoldingAdded", "HoldingAdded", "PlayerAdded",
                                        "PlayerAdded", "RoundOpened", "FactionAdded", "BallotCast", "BallotCast",
                                        "RoundClosed", "ResultPending"]  # the result is owed to the channel
    assert all(e.at.replace(tzinfo=UTC) == table.clock.now() for e in events)
    assert {e.actor for e in events if e.kind not in ("BallotCast", "ResultPending")} == {MOD}
    assert [e.actor for e in events if e.kind == "BallotCast"] == [JENNY, BOB]
    other = await table.clerk.games.create_game(guild_id=900, channel_id=902, name="deneb", ruleset="landsdraad",
                                                moderator_role_id=None, actor=MOD)
    await table.clerk.landsdraad.ledger.add_player(other.id, user_id=JENNY, name="jenny", diplomacy=1, command=1,
                                                   intrigue=1, roll=1, faction=None, actor=MOD)
    seqs = [e.seq for e in await table.events()]
    assert seqs == list(range(1, 13))  # the other game's log counts from 1 on its own


async def test_ballots_arriving_together_are_all_counted_in_order(table: Any) -> None:
    """The per-game lock and one transaction per command: simultaneous ballots in two games all land, and each
    game's event log stays gap-free."""
    clerk = table.clerk
    other = await clerk.games.create_game(guild_id=900, channel_id=902, name="deneb", ruleset="landsdraad",
                                          moderator_role_id=None, actor=MOD)
    users = range(200, 212)
    for game_id in (table.game_id, other.id):
        for user_id in users:
            await clerk.landsdraad.ledger.add_player(game_id, user_id=user_id, name=f"p{user_id}", diplomacy=1,
                                                     command=1, intrigue=1, roll=1, faction=None, actor=MOD)
        await clerk.landsdraad.rounds.open_round(game_id, crisis="Together", deadline=None, actor=MOD)
    now = table.clock.now()
    receipts = await asyncio.gather(*[
        clerk.landsdraad.ballots.cast_ballot(game_id, user_id=user_id,
                                             command=parse_ballot("Vote: Aye" if user_id % 3 else "Vote: Nay"),
                                             received_at=now, source_id=f"{game_id}-{user_id}")
        for user_id in users for game_id in (table.game_id, other.id)])
    assert not any(r.duplicate for r in receipts)
    for game_id in (table.game_id, other.id):
        result = await clerk.landsdraad.rounds.close_round(game_id, actor=MOD)
        assert (result.aye, result.nay) == (8 * 4, 4 * 4)
        events = (await clerk.exports.export(game_id))["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["kind"] == "BallotCast" for e in events) == len(users)
