"""Issue 19 for weighted AG elections and ``/transfer correct``: a corrected transfer that had moved an Elector or
planet changes the V(p) a closed weighted election counted when, under the corrected entry, the holding should have
been with someone else at the close. The moderators are told privately (the same notice and button as for a
``since:`` correction); V(p) as of the close is rebuilt from the ledger's events (``votes_asof``), with the holding
moved to where it should have been just before the close. Runs on SQLite, and on PostgreSQL when TEST_POSTGRES_URL
is set."""

from __future__ import annotations

from typing import Any

from ag_election import ANN, BO, CY, MOD, ann_against_bo
from ledger_front import MODERATOR, slash, text_of

from bot.actions.outbox import ToChannel, ToThread
from engine.landsdraad.transfers import parse_transfer


async def _players(table: Any, weighted: bool = True) -> None:
    """ann V 10 (D 4), bo V 4, cy V 4; bo holds Lankiveil (rich: 4 to bo or cy, 6 to ann, whose D 4 earns a bonus)."""
    await table.player(ANN, "ann", 4, 2, 1)
    await table.player(BO, "bo", 1, 1, 1)
    await table.player(CY, "cy", 1, 1, 1)
    await table.planet(BO, "Lankiveil", "rich")
    if weighted:
        await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="yes", actor=MOD)


async def _transfer(table: Any, sender: int, text: str, apply: bool = True) -> int:
    entry = await table.clerk.landsdraad.audits.record_transfer(
        table.game_id, user_id=sender, command=parse_transfer(text), at=table.clock.now(), source_id=table.source())
    if apply:
        await table.clerk.landsdraad.transfer_moves.apply_transfer(table.game_id, entry_id=entry.id, actor=MOD)
    return int(entry.id)


async def _given_before_the_close(table: Any, weighted: bool = True) -> int:
    """Round 1: bo gives ann Lankiveil (applied), then the election closes: posted ann 16, bo 8 (ann wins); round 2
    opens. Returns the transfer's entry number."""
    await _players(table, weighted)
    await table.open()
    entry = await _transfer(table, BO, "Transfer: Planet Lankiveil to ann")
    await ann_against_bo(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open("Spice tithe")
    return entry


async def _correct(table: Any, entry: int, **fix: Any) -> Any:
    audits, errata = table.clerk.landsdraad.audits, table.clerk.landsdraad.errata
    fixed = await audits.correct_transfer(table.game_id, entry_id=entry, note="a correction", actor=MOD, **fix)
    return await errata.after_correction(table.game_id, entry_id=fixed.id)


POSTED = (("ann", 16), ("bo", 8))
WITH_BO = (("bo", 12), ("ann", 10))
"""Lankiveil with bo at the close: bo's ballots weigh 8 + 4, ann's 10; the winner would be bo."""


async def test_a_transfer_moved_to_a_later_round_is_taken_out_of_the_election(table: Any) -> None:
    entry = await _given_before_the_close(table)
    c = await _correct(table, entry, round_number=2)
    [r] = c.ag_recounts
    assert (r.number, r.posted, r.recounted) == (1, POSTED, WITH_BO)
    assert r.winner_changed and dict(r.weights) == {"ann": (16, 10), "bo": (4, 8)}
    assert await table.clerk.landsdraad.adjutant.adjutant(table.game_id) == (ANN, "ann")  # the office stays
    assert "ErratumPosted" not in await table.kinds()


async def test_a_transfer_sent_to_another_player(table: Any) -> None:
    entry = await _given_before_the_close(table)
    c = await _correct(table, entry, to_user=CY)
    [r] = c.ag_recounts
    assert r.recounted == WITH_BO and dict(r.weights) == {"ann": (16, 10), "cy": (4, 8)}


async def test_a_transfer_of_something_else_or_cancelled_leaves_the_holding_with_the_sender(table: Any) -> None:
    entry = await _given_before_the_close(table)
    c = await _correct(table, entry, what="500 MS")
    [r] = c.ag_recounts
    assert r.recounted == WITH_BO and dict(r.weights) == {"ann": (16, 10), "bo": (4, 8)}


async def test_a_cancelled_transfer_and_a_correction_of_the_correction(table: Any) -> None:
    entry = await _given_before_the_close(table)
    c = await _correct(table, entry, cancel=True)
    [r] = c.ag_recounts
    assert r.recounted == WITH_BO
    # corrected again (it did happen after all): the latest correction replaces the cancellation, and the election
    # comes out as posted
    c = await _correct(table, entry, what="Planet Lankiveil")
    assert c.ag_recounts == ()
    # and again: it went to cy
    c = await _correct(table, entry, to_user=CY)
    [r] = c.ag_recounts
    assert dict(r.weights) == {"ann": (16, 10), "cy": (4, 8)}


async def test_a_transfer_moved_to_an_earlier_round_counts_in_its_elections(table: Any) -> None:
    """The election closes in round 1 (bo holds Lankiveil: bo 12, ann 10); in round 2 bo gives it to ann. Corrected to
    round 1, it counts in that round's election (no time within the round is known: from its opening)."""
    await _players(table)
    await table.open()
    await ann_against_bo(table)
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    await table.open("Spice tithe")
    entry = await _transfer(table, BO, "Transfer: Planet Lankiveil to ann")
    c = await _correct(table, entry, round_number=1)
    [r] = c.ag_recounts
    assert (r.posted, r.recounted) == (WITH_BO, (("ann", 16), ("bo", 8))) and r.winner_changed


async def test_a_transfer_made_after_the_close_in_the_same_round_does_not_reach_it(table: Any) -> None:
    """Round 1: the election closes (bo 12, ann 10), then bo gives cy Lankiveil; corrected to ann, it still came after
    the close, so the election stands (the crisis round, closed at the round's end, is recounted)."""
    await _players(table)
    await table.open()
    await ann_against_bo(table)
    entry = await _transfer(table, BO, "Transfer: Planet Lankiveil to cy")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    c = await _correct(table, entry, to_user=ANN)
    assert c.ag_recounts == ()
    assert [r.round for r in c.recounts] == [1]


async def test_a_transfer_never_applied_moves_nothing(table: Any) -> None:
    await _players(table)
    await table.open()
    entry = await _transfer(table, BO, "Transfer: Planet Lankiveil to ann", apply=False)
    await ann_against_bo(table)
    c = await _correct(table, entry, to_user=CY)
    assert c.ag_recounts == () and c.never_applied


async def test_a_later_move_of_the_holding_ends_the_corrections_reach(table: Any) -> None:
    """bo gives cy Lankiveil, then cy gives it to ann (both applied) before the close; cancelling the first transfer
    changes nothing the close read (it read Lankiveil where the second put it: with bo it would flip the winner)."""
    await _players(table)
    await table.open()
    entry = await _transfer(table, BO, "Transfer: Planet Lankiveil to cy")
    await _transfer(table, CY, "Transfer: Planet Lankiveil to ann")
    await ann_against_bo(table)
    c = await _correct(table, entry, cancel=True)
    assert c.ag_recounts == ()


async def test_unweighted_elections_are_not_recounted(table: Any) -> None:
    entry = await _given_before_the_close(table, weighted=False)
    c = await _correct(table, entry, round_number=2)
    assert c.ag_recounts == ()


async def test_the_notice_and_the_erratum_after_transfer_correct(table: Any) -> None:
    entry = await _given_before_the_close(table)
    c = table.clerk
    await c.announcements.remember_post(f"ag:{table.game_id}:1", 901, 777)
    out = await slash(c, MODERATOR, "transfer correct", id=entry, note="it was round 2", round=2)
    assert not any(isinstance(o.to, ToChannel) for o in out)
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.to.private
    assert ("AG election 1: posted ann 16, bo 8; under the corrected ledger bo 12, ann 10: **the winner would be bo, "
            "not ann**") in notice.text
    assert "ann 16 → 10, bo 4 → 8" in notice.text
    assert f"clerk:ag-erratum:{table.game_id}:1" in [b.custom_id for b in notice.buttons]
    out = await slash(c, MODERATOR, "ag erratum")
    [card] = [o for o in out if isinstance(o.to, ToChannel)]
    text = text_of(card)
    assert "Adjutant General election #1: erratum" in text and "would have been bo, not ann" in text
    assert "https://discord.com/channels/900/901/777" in text
    payload = (await table.events())[-1].payload
    assert payload["election"] == 1 and payload["corrected"] == [["bo", 12], ["ann", 10]]


async def test_the_crisis_recount_and_the_ag_recount_value_the_holding_as_the_close_did(table: Any) -> None:
    """ann's Diplomacy falls from 4 to 1 after the closes (Lankiveil would now earn her no bonus: 4, not 6). Both
    recounts of round 1 take the holding out at what it was worth to her at the close: 6."""
    entry = await _given_before_the_close(table)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=ANN, diplomacy=1, actor=MOD)
    c = await _correct(table, entry, round_number=2)
    [r] = c.ag_recounts
    assert dict(r.weights)["ann"] == (16, 10)
    [crisis] = c.recounts
    assert crisis.round == 1 and {c.names[ch.user_id]: ch.votes for ch in crisis.changes} == {"ann": -6, "bo": 4}


async def test_a_since_correction_after_a_transfer_correction_counts_both(table: Any) -> None:
    """The transfer cancelled (bo 12, ann 10), then ann's misc corrected to 3 from round 1: the notice of the second
    counts the election under both corrections (ann 13, bo 12: ann wins after all), and so does ``/ag erratum``."""
    entry = await _given_before_the_close(table)
    await _correct(table, entry, cancel=True)
    await table.clerk.landsdraad.ledger.set_player(table.game_id, user_id=ANN, misc=3, since=1, actor=MOD,
                                                   source_id="set-1")
    c = await table.clerk.landsdraad.errata.after_edit(table.game_id, source_id="set-1")
    assert c is not None
    [r] = c.ag_recounts
    assert r.recounted == (("ann", 13), ("bo", 12)) and not r.winner_changed
    e = await table.clerk.landsdraad.errata.post_ag_erratum(table.game_id, number=None, actor=MOD)
    assert e.correction.recounted == (("ann", 13), ("bo", 12))
