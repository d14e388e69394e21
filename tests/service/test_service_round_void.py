"""``/round void`` through the service (play-test Y6, Y7; docs/rulings.md, "A round voided by the moderators"): a
round voided after its close counts for nothing (Weathervane, R3-13; the five rounds of a Majority Victory, R3-20);
one voided while open is never tallied, its seed is revealed, and what was open in it (an AG election closing with
it, a player vote) goes on into the next round. Runs on a migrated SQLite file, and on PostgreSQL when
TEST_POSTGRES_URL is set."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion

MOD = 1
ANN, BO, CY = 601, 602, 603


async def player(table: Any, user_id: int, name: str, misc: int = 0) -> None:
    """D 1, I 1, d3 1: a base vote of 4; ``misc`` adds votes."""
    await table.player(user_id, name, 1, 1, 1, roll=1)
    if misc:
        await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=user_id, misc=misc, actor=MOD)


async def crisis(table: Any, ballots: dict[int, str]) -> str:
    await table.open()
    for user_id, text in ballots.items():
        await table.vote(user_id, text)
    return str((await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)).outcome)


async def void(table: Any, reason: str | None = None, number: int | None = None) -> Any:
    return await table.clerk.landsdraad.rounds.void_round(table.game_id, reason=reason, number=number, actor=MOD,
                                                         source_id=table.source())


async def test_a_round_voided_after_its_close_counts_for_nothing(table: Any) -> None:
    """ann 10, bo 8, cy 4. Round 1 (ann Aye, bo Nay) passed and is voided: its result withdrawn, out of Weathervane;
    round 2 (ann Nay, bo Nay) failed: Weathervane ann 1, bo 1 (with round 1 counted, ann would have 2). The voided
    round takes no ballot and cannot be closed; an older round cannot be voided once a later one opened."""
    await player(table, ANN, "ann", misc=6)
    await player(table, BO, "bo", misc=4)
    await player(table, CY, "cy")
    assert await crisis(table, {ANN: "Vote: Aye", BO: "Vote: Nay"}) == "passed"
    voided = await void(table, "closed too early")
    assert (voided.was, voided.round.status, voided.round.void_was) == ("closed", "void", "closed")
    assert voided.result is not None and (voided.result.outcome, voided.result.income_penalty) == ("passed", 300)
    assert sorted(voided.voters) == [ANN, BO]  # cy had no ballot: nobody tells cy anything
    with pytest.raises(RuleError, match=r"Round 1 of .* is void: the moderators voided it, so it takes no ballots"):
        await table.vote(CY, "Vote: Nay")
    with pytest.raises(RuleError, match="is void, so it has nothing to close"):
        await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    with pytest.raises(RuleError, match="already void"):
        await void(table)
    status = await table.clerk.landsdraad.rounds.round_status(table.game_id)
    assert status.round.status == "void" and status.result is None
    assert await crisis(table, {ANN: "Vote: Nay", BO: "Vote: Nay"}) == "failed"
    tracked = {t.name: t.weathervane for t in await table.clerk.landsdraad.victory.tracked(table.game_id)}
    assert tracked == {"ann": 1, "bo": 1, "cy": 0}
    await table.open()
    with pytest.raises(RuleError, match=r"Round 2 of .* cannot be voided: round 3 has opened since.*"
                                        r"`/round erratum round:2`"):
        await void(table, number=2)
    [event] = [e for e in await table.events() if e.kind == "RoundVoided"]
    assert event.payload["withdrawn"]["outcome"] == "passed" and event.payload["reason"] == "closed too early"


async def test_a_majority_victory_waits_for_five_rounds_played(table: Any) -> None:
    """R3-20: "after Round 5 is complete". ann holds a majority throughout; with round 3 voided, round 5 is only the
    fourth round played, so the Majority Victory waits for round 6."""
    await player(table, ANN, "ann", misc=27)
    await player(table, BO, "bo", misc=8)
    await player(table, CY, "cy", misc=4)
    for number in range(1, 6):
        await crisis(table, {})
        if number == 3:
            await void(table)
    with pytest.raises(RuleError, match="once round 5 is complete"):
        await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD, majority=True)
    await crisis(table, {})
    result = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD, majority=True)
    assert result.ended_by == "majority"


async def test_what_was_open_in_a_round_voided_while_open_goes_on(table: Any) -> None:
    """ann is AG; No Confidence passes and is enacted in round 1: election #2 is to close with round 1. Round 1 is
    voided while open: no tally, its seed revealed, election #2 and an open Audit vote go on into round 2 and close
    and expire with it (without the carry, they would wait for a round 1 that never ends)."""
    await player(table, ANN, "ann", misc=6)
    await player(table, BO, "bo", misc=4)
    await player(table, CY, "cy")
    c = table.clerk.landsdraad
    await c.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    await c.adjutant.cast_ag_vote(table.game_id, user_id=BO, candidate="ann", at=table.clock.now(),
                                  source_id=table.source())
    await c.adjutant.close_election(table.game_id, actor=MOD)
    await table.open(deadline=timedelta(hours=48))
    for user in (BO, CY):
        receipt = await c.majority.support(table.game_id, user_id=user, motion=Motion(Subject.NO_CONFIDENCE),
                                           thread_id=None, at=table.clock.now(), source_id=table.source())
    await c.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    await c.majority.support(table.game_id, user_id=BO, motion=Motion(Subject.AUDIT, ("cy",)), thread_id=None,
                             at=table.clock.now(), source_id=table.source())
    await table.vote(ANN, "Vote: Aye")
    voided = await void(table, "wrong game")
    assert (voided.was, voided.voters, voided.carried_votes, voided.carried_elections) == ("open", (ANN,), 1, (2,))
    assert voided.result is None
    report = await table.clerk.seals.verify(table.game_id, 1)
    assert report.seal is not None and report.seal.revealed and report.note is not None and "void" in report.note
    [event] = [e for e in await table.events() if e.kind == "RoundVoided"]
    assert event.payload["dice"]["seed"] == report.seal.seed
    await table.open()
    election = await c.adjutant.election(table.game_id)
    assert election is not None and (election.number, election.closes_with_round) == (2, 2)
    assert [(v.subject, v.status) for v in await c.majority.votes(table.game_id)] == [(Subject.AUDIT, "open")]
    result = await c.rounds.close_round(table.game_id, actor=MOD)
    assert result.elections_closed == (2,) and result.expired == ("Audit of cy",)
