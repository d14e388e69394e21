"""What Landsdraad's posts with a chart are made of is read in their write's transaction, so they are owed with it
(``owe_in``; the chart is drawn after the commit and added to the card's row: ``bot/actions/owed_files.py``): the
Forecast at a round's start, the final scores of an enacted End Game vote (scored in the enactment's transaction)
and `/game end`'s final table. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

import pytest
from test_service_victory_end import ANN, BO, MOD, end_game_vote, player

from engine.core.errors import GameClosed, RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.service.landsdraad.victory_views import FinalView
from engine.service.owed import NOTICE, Owed, OwedWith


def owed_as(text: Any) -> OwedWith[Any]:
    """An answer that owes one message made of the write's result by ``text``, in the write's transaction."""
    return OwedWith(lambda result: [Owed("channel:7", 7, NOTICE, f"n-{id(result)}", {"text": text(result)})])


async def test_a_rounds_opening_reads_its_forecast_in_its_transaction(table: Any) -> None:
    """`/round open`'s Forecast (R3-08) is read in the opening's transaction and owed with it: the same as a read
    after the commit finds. A failure to read it is undone alone and logged: the round opens all the same, without
    it (as when it was read after the commit)."""
    for user_id, name in ((ANN, "ann"), (BO, "bo")):
        await player(table, user_id, name)
    answer = owed_as(lambda opened: f"Pot {opened.forecast.forecast.pot}, round {opened.forecast.round}")
    opened = await table.clerk.landsdraad.rounds.open_round_announced(table.game_id, crisis="Levy?", deadline=None,
                                                                      actor=MOD, answer=answer)
    assert opened.forecast == await table.clerk.landsdraad.victory.forecast(table.game_id)
    [row] = answer.rows
    assert row.owed.body == {"text": "Pot 1400, round 1"}
    assert [r.id for r in await table.clerk.outbox.owed()] == [row.id], "owed with the opening"
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)

    with patch("engine.service.landsdraad.rounds.forecast_of", side_effect=RuntimeError("a bug")):
        again = await table.clerk.landsdraad.rounds.open_round_announced(table.game_id, crisis="Tithe?",
                                                                         deadline=None, actor=MOD)
    assert again.forecast is None and again.round.number == 2
    assert [e.kind for e in await table.events()].count("RoundOpened") == 2


async def test_an_enacted_end_game_vote_is_scored_in_its_transaction(table: Any) -> None:
    """R0-61, R3-04: the final scores of an enacted End Game vote are part of the enactment's transaction
    (``GameScored`` after ``PlayerVoteEnacted``), and owed with it; scoring it again finds it scored."""
    for user_id, name in ((ANN, "ann"), (BO, "bo")):
        await player(table, user_id, name)
    await table.open()
    answer = owed_as(lambda en: f"{en.final.pot} VP after {en.final.penalty}%")
    for user_id in (ANN, BO):
        receipt = await table.clerk.landsdraad.majority.support(table.game_id, user_id=user_id,
                                                                motion=Motion(Subject.END_GAME), thread_id=None,
                                                                at=table.clock.now(), source_id=table.source())
    enacted = await table.clerk.landsdraad.majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD,
                                                          answer=answer)
    assert isinstance(enacted.final, FinalView) and (enacted.final.pot, enacted.final.penalty) == (1120, 20)
    assert [row.owed.body for row in answer.rows] == [{"text": "1120 VP after 20%"}]
    kinds = [e.kind for e in await table.events()]
    assert kinds[-2:] == ["PlayerVoteEnacted", "GameScored"]
    again = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(again, FinalView) and again.already


@pytest.mark.parametrize("failure", [RuleError("the Pot is not ready"), RuntimeError("a bug")])
async def test_a_failed_scoring_after_an_end_game_vote_is_undone_alone(table: Any, failure: Exception) -> None:
    """The scoring fails after it wrote the final rows: its savepoint is undone alone, the enactment standing (the
    game ended, unscored): a refusal is said to the moderators in its words, anything else logged; `/game end`
    scores the game after."""
    for user_id, name in ((ANN, "ann"), (BO, "bo")):
        await player(table, user_id, name)
    await table.open()
    with patch("engine.service.landsdraad.victory_scoring.summary", side_effect=failure):
        enacted = await end_game_vote(table, [ANN, BO])
    assert enacted.game_ended and enacted.final is None
    assert enacted.unscored == ("the Pot is not ready" if isinstance(failure, RuleError) else None)
    assert (await table.clerk.games.game(table.game_id)).ended
    assert await table.clerk.landsdraad.victory.final(table.game_id) is None, "the final rows undone with it"
    assert "GameScored" not in [e.kind for e in await table.events()]
    scored = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    assert isinstance(scored, FinalView) and scored.penalty == 20


async def test_game_end_owes_its_final_table_and_an_ended_ledger_takes_no_prestige(table: Any) -> None:
    """`/game end`'s final table is owed in its transaction. Once the game has ended its ledger is closed: a prestige
    award or a goal's change is refused, so none posts the final table again (``refresh_final`` finds a table only
    in an ended game); a reopened game's next `/game end` posts the correction."""
    for user_id, name in ((ANN, "ann"), (BO, "bo")):
        await player(table, user_id, name)
    await table.clerk.landsdraad.victory.add_goal(table.game_id, user_id=ANN, description="Hold Kaitain", vp=30,
                                                  actor=MOD)
    answer = owed_as(lambda final: f"{final.pot} VP, ended by the {final.ended_by}")
    final = await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD, answer=answer)
    assert isinstance(final, FinalView)
    assert [row.owed.body for row in answer.rows] == [{"text": "1400 VP, ended by the moderator"}]
    with pytest.raises(GameClosed):
        await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=ANN, vp=5, reason="Host", actor=MOD)
    with pytest.raises(GameClosed):
        await table.clerk.landsdraad.victory.set_goal_achieved(table.game_id, user_id=ANN, number=1, actor=MOD)
