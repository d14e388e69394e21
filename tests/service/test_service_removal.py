"""``/player remove`` through the service (issue 16): the removed player's open-round ballot is not counted at the
close, the votes in play are recomputed, their AG ballot (and ballots for them) and their support of an open
player-majority vote stop counting, later ballots are refused with "no longer in", the history stays in the events
and the export, and ``/player add`` brings them back on the same row."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion

ANN, BO, CY = 21, 22, 23
MOD = 1


async def seat(table: Any) -> dict[int, int]:
    votes = {}
    for user, name, d in ((ANN, "ann", 4), (BO, "bo", 2), (CY, "cy", 3)):
        votes[user] = (await table.player(user, name, d, 2, 1, roll=2)).votes
    await table.open(deadline=timedelta(hours=24))
    return votes


async def remove(table: Any, user: int) -> Any:
    return await table.clerk.landsdraad.removal.remove_player(table.game_id, user_id=user, actor=MOD,
                                                              source_id=table.source())


async def test_a_removed_players_ballot_is_not_counted_and_the_votes_in_play_drop(table: Any) -> None:
    votes = await seat(table)
    await table.vote(ANN, "Vote: Aye")
    await table.vote(BO, "Vote: Nay")
    await table.vote(CY, "Vote: Nay")
    removal = await remove(table, BO)
    assert (removal.name, removal.in_play, removal.round_ballot) == ("bo", votes[ANN] + votes[CY], True)
    with pytest.raises(RuleError, match="You are no longer in sirius: a moderator removed you"):
        await table.vote(BO, "Vote: Aye")
    with pytest.raises(RuleError, match="bo was already removed from sirius; nothing changed"):
        await remove(table, BO)

    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    numbers = table.numbers(result)
    assert (numbers["aye"], numbers["nay"], numbers["in_play"]) == (votes[ANN], votes[CY], votes[ANN] + votes[CY])

    kinds = await table.kinds()
    assert kinds.count("BallotCast") == 3 and "PlayerRemoved" in kinds  # the history stays
    doc = await table.clerk.exports.export(table.game_id)
    assert "bo" in str(doc)
    [event] = [e for e in await table.events() if e.kind == "PlayerRemoved"]
    assert event.actor == MOD and event.payload["user_id"] == BO and event.payload["round_ballot"] is True


async def test_ag_ballots_by_and_for_the_removed_player_are_dropped_and_the_office_falls_vacant(table: Any) -> None:
    await seat(table)
    adjutant = table.clerk.landsdraad.adjutant
    await adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    for user, name in ((ANN, "cy"), (BO, "bo"), (CY, "bo")):
        await adjutant.cast_ag_vote(table.game_id, user_id=user, candidate=name, at=table.clock.now(),
                                    source_id=table.source())
    removal = await remove(table, BO)
    assert removal.ag_ballots == 2
    closed = await adjutant.close_election(table.game_id, actor=MOD)
    assert closed is not None and closed.winner == "cy"
    assert [(s.candidate, s.votes) for s in closed.standings] == [("cy", 1)]
    removed = await remove(table, CY)
    assert removed.was_ag and await adjutant.adjutant(table.game_id) is None


async def test_support_of_an_open_player_majority_vote_is_withdrawn(table: Any) -> None:
    await seat(table)
    majority = table.clerk.landsdraad.majority
    receipt = await majority.support(table.game_id, user_id=BO, motion=Motion(Subject.END_GAME), thread_id=None,
                                     at=table.clock.now(), source_id=table.source())
    assert receipt.vote.supporters == ("bo",)
    removal = await remove(table, BO)
    assert removal.supports == 1
    assert (await majority.vote(table.game_id, receipt.vote.id)).supporters == ()


async def test_player_add_brings_a_removed_player_back(table: Any) -> None:
    await seat(table)
    await remove(table, BO)
    back = await table.player(BO, "bo", 3, 2, 1, roll=2)
    assert back.active and back.diplomacy == 3
    assert (await table.clerk.landsdraad.ledger.player(table.game_id, BO)).active
    [added] = [e for e in await table.events() if e.kind == "PlayerAdded" and e.payload.get("rejoined")]
    assert added.payload["user_id"] == BO
    with pytest.raises(RuleError, match="already a player"):
        await table.player(BO, "bo", 3, 2, 1, roll=2)


async def test_a_removed_player_still_counts_for_the_pot_and_rosters_say_removed(table: Any) -> None:
    """P3-01 (docs/rulings.md, "A removed player and the Pot"): every player who joined counts in N for the Pot,
    removed or not, and /vp show says how many of them were removed since; rosters and the tracked measures mark a
    removed player "(removed)", not "(inactive)"; an inactive player is still "(inactive)"."""
    from bot.actions.landsdraad.render import setup_card
    from bot.actions.landsdraad.victory_render import score_card, settings_card, track_text

    await seat(table)
    victory = table.clerk.landsdraad.victory
    before = settings_card(await victory.vp_settings(table.game_id))
    assert before.footer == "Pot now: 1600 VP (3 players joined)."
    await remove(table, BO)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=CY, active=False, actor=MOD)
    view = await victory.vp_settings(table.game_id)
    assert (view.joined, view.removed, view.pot) == (3, 1, 1600)
    assert settings_card(view).footer == ("Pot now: 1600 VP (3 players joined, 1 of them since removed: every "
                                          "player who joined counts toward the Pot).")
    players = await table.clerk.landsdraad.ledger.players(table.game_id)
    roster = setup_card(table.game, players).fields[0][1]
    assert roster.splitlines() == ["ann", "cy (inactive)"], roster  # a summary of set-up leaves a removed one out (Y1)
    tracks = {t.name: track_text(t) for t in await victory.tracked(table.game_id)}
    assert tracks["bo"].startswith("**bo** (removed: not in play)") and tracks["cy"].startswith(
        "**cy** (inactive: not in play)") and tracks["ann"].startswith("**ann**:")
    mine = score_card(await victory.projected_score(table.game_id, BO))
    assert mine.description == "A moderator removed you from the game, so you take no share of the Pot."
    theirs = score_card(await victory.projected_score(table.game_id, CY))
    assert theirs.description == "You are marked inactive, so you take no share of the Pot."
