"""R0-40..R0-44 and R0-61 through the service: support, passing, enactment, veto, expiry, End Game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion

PLAYERS = {21: "ann", 22: "bo", 23: "cy", 24: "di", 25: "ed"}
MOD = 1


async def seat(table: Any) -> None:
    for user, name in PLAYERS.items():
        await table.player(user, name, 2, 2, 1)
    await table.open(deadline=timedelta(hours=24))


async def support(table: Any, user: int, motion: Motion, thread: int | None = 777) -> Any:
    return await table.clerk.landsdraad.majority.support(table.game_id, user_id=user, motion=motion, thread_id=thread,
                                                         at=table.clock.now(), source_id=table.source())


async def test_passes_at_a_majority_of_all_active_players(table: Any) -> None:
    """R0-41 / P0-09 (TV0-I10): 5 active players need 3; the third supporter passes it at once (P0-19)."""
    await seat(table)
    end_game = Motion(Subject.END_GAME)
    first = await support(table, 21, end_game)
    assert (len(first.vote.supporters), first.vote.needed, first.vote.status) == (1, 3, "open")
    again = await support(table, 21, end_game)
    assert again.already and len(again.vote.supporters) == 1, "one supporter per player"
    await support(table, 22, end_game)
    third = await support(table, 23, end_game)
    assert third.just_passed and third.vote.status == "passed" and third.vote.thread_id == 777
    late = await support(table, 24, end_game)
    assert late.already and late.vote.status == "passed"
    with pytest.raises(RuleError, match="already passed"):
        await support(table, 21, Motion(Subject.END_GAME, withdraw=True))


async def test_withdraw_while_open(table: Any) -> None:
    await seat(table)
    await support(table, 21, Motion(Subject.END_GAME))
    await support(table, 22, Motion(Subject.END_GAME))
    withdrawn = await support(table, 22, Motion(Subject.END_GAME, withdraw=True))
    assert withdrawn.withdrawn and withdrawn.vote.supporters == ("ann",)
    with pytest.raises(RuleError, match="not supporting"):
        await support(table, 23, Motion(Subject.END_GAME, withdraw=True))


async def test_inactive_players_do_not_count(table: Any) -> None:
    """R0-41: each supporting *active* player counts; the threshold uses the active players."""
    await seat(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=25, active=False, actor=MOD)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=24, active=False, actor=MOD)
    with pytest.raises(RuleError, match="inactive"):
        await support(table, 25, Motion(Subject.END_GAME))
    await support(table, 21, Motion(Subject.END_GAME))
    second = await support(table, 22, Motion(Subject.END_GAME))
    assert second.vote.needed == 2 and second.just_passed


async def test_nothing_happens_before_enactment_and_veto_does_nothing(table: Any) -> None:
    """R0-42: PASSED -> ENACTED | VETOED by the moderator only."""
    await seat(table)
    for user in (21, 22, 23):
        receipt = await support(table, user, Motion(Subject.END_GAME))
    vote_id = receipt.vote.id
    vetoed = await table.clerk.landsdraad.majority.veto(table.game_id, vote_id=vote_id, actor=MOD)
    assert vetoed.status == "vetoed"
    with pytest.raises(RuleError, match="only a vote that has passed"):
        await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=vote_id, actor=MOD)
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert doc["game"]["status"] == "active"


async def test_support_expires_at_round_end(table: Any) -> None:
    """R0-43: an open vote expires at round end and its support does not carry over."""
    await seat(table)
    await support(table, 21, Motion(Subject.END_GAME))
    table.clock.advance(timedelta(hours=24))
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    assert result.expired == ("End Game",)
    await table.open()
    fresh = await support(table, 22, Motion(Subject.END_GAME))
    assert fresh.vote.supporters == ("bo",) and fresh.vote.round == 2
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert [(v["round"], v["status"], v["supporters"]) for v in doc["player_votes"]] == [
        (1, "expired", ["ann"]), (2, "open", ["bo"])]


async def test_end_game_ends_the_game_before_the_crisis(table: Any) -> None:
    """R0-61 / R3-04 / R3-22: the game ends before the round's crisis is resolved; the pot penalty is recorded."""
    await seat(table)
    for user in (21, 22, 23):
        receipt = await support(table, user, Motion(Subject.END_GAME))
    with pytest.raises(RuleError, match="no player vote #999"):
        await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=999, actor=MOD)
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD, penalty=25)
    assert enacted.game_ended and enacted.extra == {"penalty": 25}
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert (doc["game"]["status"], doc["game"]["end_game_penalty"]) == ("ended", 25)
    assert doc["rounds"][0]["status"] == "void" and doc["rounds"][0]["result"] is None
    with pytest.raises(RuleError, match="its ledger is closed"):
        await support(table, 24, Motion(Subject.NO_CONFIDENCE))
    number = doc["rounds"][0]["number"]
    with pytest.raises(RuleError, match=f"Round {number} of .* was made void: the game ended while it was open"):
        await table.clerk.landsdraad.explain.result(table.game_id, number)  # /why: not "has not closed yet"


async def test_each_subject_and_target_is_its_own_tally(table: Any) -> None:
    """R0-44: an audit of one player is not an audit of another; a penalty applies only to End Game."""
    await seat(table)
    first = await support(table, 21, Motion(Subject.AUDIT, ("ann",)))
    other = await support(table, 22, Motion(Subject.AUDIT, ("bo",)))
    same = await support(table, 23, Motion(Subject.AUDIT, ("ANN",)))
    assert first.vote.id == same.vote.id != other.vote.id
    assert same.vote.title == "Audit of ann" and same.vote.form == "Audit: ann"
    passed = await support(table, 24, Motion(Subject.AUDIT, ("ann",)))
    assert passed.just_passed
    with pytest.raises(RuleError, match="only applies to an End Game"):
        await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=passed.vote.id, actor=MOD, penalty=5)


async def test_no_confidence_needs_an_ag(table: Any) -> None:
    await seat(table)
    with pytest.raises(RuleError, match="no Adjutant General to remove"):
        await support(table, 21, Motion(Subject.NO_CONFIDENCE))


async def test_fewer_active_players_pass_an_open_vote_at_once(table: Any) -> None:
    """P0-19 / A0-13: when A changes, open votes are evaluated again at once; inactive supporters do not count."""
    await seat(table)
    await support(table, 21, Motion(Subject.END_GAME))
    await support(table, 22, Motion(Subject.END_GAME))
    assert await table.clerk.landsdraad.majority.reevaluate_votes(table.game_id, actor=MOD) == []
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=25, active=False, actor=MOD)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=24, active=False, actor=MOD)
    (passed,) = await table.clerk.landsdraad.majority.reevaluate_votes(table.game_id, actor=MOD)
    assert (passed.status, passed.needed, passed.active) == ("passed", 2, 3)


async def test_an_inactive_supporter_stops_counting(table: Any) -> None:
    await seat(table)
    await support(table, 21, Motion(Subject.END_GAME))
    await support(table, 22, Motion(Subject.END_GAME))
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=22, active=False, actor=MOD)
    third = await support(table, 23, Motion(Subject.END_GAME))
    assert third.vote.supporters == ("ann", "cy") and third.vote.needed == 3 and third.vote.status == "open"


async def test_a_redelivered_unvote_does_not_withdraw_again(table: Any) -> None:
    """Nothing counted twice: Vote, Unvote, Vote, then the Unvote delivered again leaves the support in place."""
    await seat(table)
    await support(table, 21, Motion(Subject.END_GAME))
    await table.clerk.landsdraad.majority.support(table.game_id, user_id=21,
                                                  motion=Motion(Subject.END_GAME, withdraw=True), thread_id=None,
                                                  at=table.clock.now(), source_id="unvote-1")
    again = await support(table, 21, Motion(Subject.END_GAME))
    assert again.vote.supporters == ("ann",)
    with pytest.raises(RuleError, match="reached me twice"):
        await table.clerk.landsdraad.majority.support(table.game_id, user_id=21,
                                                      motion=Motion(Subject.END_GAME, withdraw=True), thread_id=None,
                                                      at=table.clock.now(), source_id="unvote-1")
    assert (await table.clerk.landsdraad.majority.vote(table.game_id, again.vote.id)).supporters == ("ann",)


async def test_after_end_game_ballots_and_rounds_are_refused(table: Any) -> None:
    await seat(table)
    for user in (21, 22, 23):
        receipt = await support(table, user, Motion(Subject.END_GAME))
    await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    with pytest.raises(RuleError, match="its ledger is closed"):
        await table.vote(21, "Vote: Aye")
    with pytest.raises(RuleError, match="its ledger is closed"):
        await table.open()


async def test_a_decided_vote_lists_who_carried_it_a_player_removed_since_included(table: Any) -> None:
    """Play-test W2: an audit enacted with 3 of 3 supporters was exported (``player_votes[].supporters``) and shown
    by ``/pv list`` with 2 once one of the three was removed: the record said it was enacted without a majority.
    A vote that has passed lists those who carried it; a supporter who was inactive when it passed is not one."""
    await seat(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=25, active=True, actor=MOD)
    await support(table, 25, Motion(Subject.END_GAME))
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=25, active=False, actor=MOD)
    for user in (21, 22, 23):
        receipt = await support(table, user, Motion(Subject.END_GAME))
    assert receipt.just_passed and receipt.vote.supporters == ("ann", "bo", "cy")
    await table.clerk.landsdraad.removal.remove_player(table.game_id, user_id=22, actor=MOD, source_id="rm")
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=25, active=True, actor=MOD)
    view = (await table.clerk.landsdraad.majority.votes(table.game_id))[0]
    assert (view.status, view.supporters, view.needed) == ("passed", ("ann", "bo", "cy"), 3)
    doc = await table.clerk.exports.export(table.game_id, include_events=False)
    assert [(v["supporters"], v["needed"]) for v in doc["player_votes"]] == [(["ann", "bo", "cy"], 3)]
