"""``/why ag`` through the service (``clerk.landsdraad.explain.ag``): an AG election rebuilt from its close, the
player's copy (weighted: only their own ballot's V(p)), and ``/ag status`` after a weighted close showing what the
close counted."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, select

from engine.core.derivation import lines
from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.store.database import make_sessionmaker
from engine.store.models import Event

MOD = 1
ANN, BO, CY = 21, 22, 23


async def weighted_election(table: Any, weighted: bool = True) -> Any:
    await table.player(ANN, "ann", 5, 2, 1)   # 12 votes
    await table.player(BO, "bo", 1, 1, 1)     # 4 votes
    await table.player(CY, "cy", 1, 1, 1)     # 4 votes
    if weighted:
        await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="yes", actor=MOD)
    adjutant = table.clerk.landsdraad.adjutant
    await adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    for voter, candidate in ((ANN, "ann"), (BO, "bo"), (CY, "bo")):
        await adjutant.cast_ag_vote(table.game_id, user_id=voter, candidate=candidate, at=table.clock.now(),
                                    source_id=table.source())
    return await adjutant.close_election(table.game_id, actor=MOD)


async def test_why_ag_rebuilds_the_weighted_close(table: Any) -> None:
    closed = await weighted_election(table)
    whole = await table.clerk.landsdraad.explain.ag(table.game_id, 1)
    assert whole.value == tuple((s.candidate, s.votes) for s in closed.standings) == (("ann", 12), ("bo", 8))
    assert whole.result == "ann elected with 12"
    text = "\n".join(lines(whole, moderator=True))
    assert "ann's ballot for ann" in text and "counts 12" in text and "bo's ballot for bo" in text and "(P0-06)" in text
    assert whole.steps[0].events  # the ballot's event
    assert (await table.clerk.landsdraad.explain.ag(table.game_id)).value == whole.value  # latest closed


async def test_a_player_sees_only_their_own_weight(table: Any) -> None:
    await weighted_election(table)
    whole = await table.clerk.landsdraad.explain.ag(table.game_id, 1)
    bo = whole.seen_by("bo", moderator=False)
    text = "\n".join(lines(bo, moderator=False))
    assert "bo's ballot for bo" in text and "counts 4, bo's votes" in text
    assert "ann's ballot" not in text and "cy's ballot" not in text and "counts 12" not in text
    assert "2 steps withheld" in text and "P0-06" not in text
    outsider = "\n".join(lines(whole.seen_by(None, moderator=False), moderator=False))
    assert "ballot for" not in outsider and "3 steps withheld" in outsider and "Standings: ann 12" in outsider


async def test_unweighted_ballots_are_public(table: Any) -> None:
    await weighted_election(table, weighted=False)
    whole = await table.clerk.landsdraad.explain.ag(table.game_id, 1)
    assert whole.value == (("bo", 2), ("ann", 1))
    seen = whole.seen_by(None, moderator=False)
    assert seen.withheld == 0 and sum("counts 1" in s.says for s in seen.steps) == 3


async def test_status_after_a_weighted_close_shows_what_the_close_counted(table: Any) -> None:
    await weighted_election(table)
    await table.elector(BO, "Count Jasek", "average", 5)  # bo has more votes now; the close counted 4
    view = await table.clerk.landsdraad.adjutant.election(table.game_id)
    assert view is not None and view.status == "closed" and view.weighted
    assert [(s.candidate, s.votes) for s in view.standings] == [("ann", 12), ("bo", 8)]


async def test_why_ag_refuses_what_has_no_result(table: Any) -> None:
    with pytest.raises(RuleError, match=r"No Adjutant General election of .* has closed yet"):
        await table.clerk.landsdraad.explain.ag(table.game_id)
    with pytest.raises(NotFoundError, match="has no AG election 3: none has been held"):
        await table.clerk.landsdraad.explain.ag(table.game_id, 3)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=MOD)
    with pytest.raises(RuleError, match=r"AG election 1 of .* has not closed yet"):
        await table.clerk.landsdraad.explain.ag(table.game_id, 1)


async def test_changing_ag_weighted_tells_which_closed_elections_come_out_differently(table: Any) -> None:
    """The close kept each voter's V(p), so a change of ag_weighted recounts it; nothing recorded changes."""
    await weighted_election(table, weighted=False)  # bo 2, ann 1 one each; weighted: ann 12, bo 8
    adjutant = table.clerk.landsdraad.adjutant
    _, none = await adjutant.recount_for_setting(table.game_id)
    assert none == ()
    await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="yes", actor=MOD)
    _, [recount] = await adjutant.recount_for_setting(table.game_id)
    assert (recount.number, recount.posted, recount.recounted) == (1, (("bo", 2), ("ann", 1)), (("ann", 12), ("bo", 8)))
    assert recount.winner_changed
    view = await adjutant.election(table.game_id)
    assert view is not None and [(s.candidate, s.votes) for s in view.standings] == [("bo", 2), ("ann", 1)]
    assert await adjutant.adjutant(table.game_id) == (BO, "bo")


async def _closed_with_the_round(table: Any) -> Any:
    """Weighted game; ann is elected AG (election 1), No Confidence in her passes and is enacted in round 1, opening
    election 2 that closes with the round (R0-35); bo and cy vote bo, ann votes ann; the round closes."""
    closed = await weighted_election(table)  # election 1: ann 12, bo 8
    assert closed.winner == "ann"
    await table.open()
    adjutant, majority = table.clerk.landsdraad.adjutant, table.clerk.landsdraad.majority
    for user in (BO, CY):
        receipt = await majority.support(table.game_id, user_id=user, motion=Motion(Subject.NO_CONFIDENCE),
                                         thread_id=None, at=table.clock.now(), source_id=table.source())
    await majority.enact(table.game_id, vote_id=receipt.vote.id, actor=MOD)
    for voter, candidate in ((ANN, "ann"), (BO, "bo"), (CY, "bo")):
        await adjutant.cast_ag_vote(table.game_id, user_id=voter, candidate=candidate, at=table.clock.now(),
                                    source_id=table.source())
    return await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)


async def test_an_election_closed_with_its_round_records_its_ballots_and_weights(table: Any) -> None:
    """Item 3 of the agfix brief: the close with the round records ``AgElectionClosed`` as ``/ag close`` does
    (weighted, each ballot and its voter's V(p)), so ``/why ag`` rebuilds it weighted and a change of
    ``ag_weighted`` recounts it."""
    result = await _closed_with_the_round(table)
    assert result.elections_closed == (2,)
    [close] = [e for e in await table.events() if e.kind == "AgElectionClosed" and e.payload["number"] == 2]
    p = close.payload
    assert p["weighted"] is True and p["with_round"] == 1 and p["winner"] == "ann"
    assert p["standings"] == [["ann", 12], ["bo", 8]]
    assert [(c["voter"], c["candidate"], c["weight"]) for c in p["counted"]] == [
        ("ann", "ann", 12), ("bo", "bo", 4), ("cy", "bo", 4)]
    whole = await table.clerk.landsdraad.explain.ag(table.game_id, 2)
    assert whole.value == (("ann", 12), ("bo", 8)) and not whole.note  # read from the close, not rebuilt
    assert "counts 12" in "\n".join(lines(whole, moderator=True))
    await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="no", actor=MOD)
    _, recounts = await table.clerk.landsdraad.adjutant.recount_for_setting(table.game_id)
    assert [(r.number, r.recounted) for r in recounts] == [(1, (("bo", 2), ("ann", 1))), (2, (("bo", 2), ("ann", 1)))]


async def test_an_older_close_with_its_round_without_a_record_still_reads(table: Any) -> None:
    """An election closed with its round before this version has no ``AgElectionClosed``: ``/why ag`` rebuilds it
    from the ballots kept with it, one each, and says so; the setting recount leaves it out."""
    await _closed_with_the_round(table)
    async with make_sessionmaker(table.engine)() as session:  # as an older version left it
        found = (await session.execute(select(Event).where(Event.kind == "AgElectionClosed"))).scalars().all()
        await session.execute(delete(Event).where(Event.id.in_([e.id for e in found if "with_round" in e.payload])))
        await session.commit()
    whole = await table.clerk.landsdraad.explain.ag(table.game_id, 2)
    assert whole.value == (("bo", 2), ("ann", 1))
    assert whole.note is not None and "closed with its round, which recorded no ballots" in whole.note
    await table.clerk.settings.change_setting(table.game_id, name="ag_weighted", value="no", actor=MOD)
    _, recounts = await table.clerk.landsdraad.adjutant.recount_for_setting(table.game_id)
    assert [r.number for r in recounts] == [1]
