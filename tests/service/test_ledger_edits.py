"""A moderator's edit of the Landsdraad ledger and what it makes follow, in ONE transaction that owes the messages
made of it all (``clerk.landsdraad.edits``): the player votes judged again (P0-19), the majority check (R3-20), what a
correction changes in the closed results. Before, each of those was a write (or a read) of its own after the edit's
commit, and what they posted was owed after that: a kill in between lost it, and a majority recorded as announced
was never announced. tests/e2e/test_owed_ledger_edits.py kills the bot in that window."""

from __future__ import annotations

from typing import Any

import pytest
from test_service_victory_end import ANN, BO, CY, MOD, crisis, player

from engine.core.errors import RuleError
from engine.landsdraad.majority import Subject
from engine.landsdraad.motions import Motion
from engine.service.landsdraad.edits import Edited
from engine.service.landsdraad.victory import VictoryService
from engine.service.owed import NOTICE, Owed, OwedWith
from engine.service.uow import Duplicate


def owing(text: str) -> OwedWith[Edited[Any]]:
    """One message per notice the edit's result has (the majority's, each vote passed), to the moderators."""
    def make(e: Edited[Any]) -> list[Owed]:
        said = ([f"majority {e.majority.player}"] if e.majority is not None else []) + [
            f"passed {v.id}" for v in e.passed]
        return [Owed("channel:9", 9, NOTICE, f"{text}-{n}", {"text": line}) for n, line in enumerate(said)]

    return OwedWith(make)


DEE = 604


async def five_rounds(table: Any) -> None:
    """ann, bo, cy and dee (4 votes each, bo 12 with misc: 12 of 24) and round 5 complete, nobody's majority checked
    yet."""
    await player(table, ANN, "ann")
    await player(table, BO, "bo", misc=8)
    await player(table, CY, "cy")
    await player(table, DEE, "dee")
    for _ in range(5):
        await crisis(table, {})


async def test_an_edit_owes_the_majority_it_makes_in_its_own_transaction(table: Any) -> None:
    """``/player set ann misc:27``: the change, the majority noticed (``MajorityDetected``) and the message made of
    the notice are one transaction: the message is owed exactly when both are recorded, and took no transaction of
    its own."""
    c = table.clerk
    await five_rounds(table)
    answer = owing("set-1")
    e = await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
        table.game_id, user_id=ANN, misc=27, actor=MOD, source_id="set-1"), actor=MOD, source_id="set-1",
        answer=answer)
    assert e.done.votes == 31 and e.majority is not None and e.majority.gained and e.majority.player == "ann"
    assert (e.majority.votes, e.majority.total) == (31, 51)
    assert [r.owed.body["text"] for r in await c.outbox.owed()] == ["majority ann"] and len(answer.rows) == 1
    assert c.outbox._owe_batcher.batches == 0, "owed in the edit's transaction"
    assert (await table.kinds())[-2:] == ["PlayerChanged", "MajorityDetected"]

    again = owing("set-1-again")
    with pytest.raises(Duplicate):
        await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
            table.game_id, user_id=ANN, misc=27, actor=MOD, source_id="set-1"), actor=MOD, source_id="set-1",
            answer=again)
    assert again.rows == [] and len(await c.outbox.owed()) == 1, "a redelivery owes nothing more"


async def test_what_follows_an_edit_is_undone_with_it(table: Any) -> None:
    """A failure before the commit (here the messages' making) undoes the edit and what followed it together:
    before, the majority check was its own transaction after the edit's, and the player votes judged again too."""
    c = table.clerk
    await five_rounds(table)
    for n, user_id in enumerate((ANN, BO)):  # 2 of the 3 needed of 4 active players
        await c.landsdraad.majority.support(table.game_id, user_id=user_id, motion=Motion(Subject.END_GAME),
                                            thread_id=None, at=table.clock.now(), source_id=f"s-{n}")
    kinds = await table.kinds()

    def broken(e: Edited[Any]) -> list[Owed]:
        assert e.majority is not None and len(e.passed) == 1, "cy inactive: bo holds 12 of 20, the vote passes"
        raise RuntimeError("killed before the commit")

    with pytest.raises(RuntimeError, match="killed before the commit"):
        await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
            table.game_id, user_id=CY, active=False, actor=MOD, source_id="set-2"), actor=MOD, source_id="set-2",
            reevaluate=True, answer=OwedWith(broken))
    assert await table.kinds() == kinds and await c.outbox.owed() == [], "nothing of it was written"

    answer = owing("set-2")
    e = await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
        table.game_id, user_id=CY, active=False, actor=MOD, source_id="set-2"), actor=MOD, source_id="set-2",
        reevaluate=True, answer=answer)
    assert [v.title for v in e.passed] == ["End Game"] and e.majority is not None and e.majority.player == "bo"
    assert [r.owed.body["text"] for r in await c.outbox.owed()] == ["majority bo", f"passed {e.passed[0].id}"]
    assert (await table.kinds())[-3:] == ["PlayerChanged", "PlayerVotesReevaluated", "MajorityDetected"]

    with pytest.raises(RuleError, match="Nothing to change"):
        await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
            table.game_id, user_id=CY, actor=MOD, source_id="set-3"), actor=MOD, source_id="set-3", answer=owing("x"))
    assert len(await c.outbox.owed()) == 2, "a refused edit owes nothing"


async def test_a_failing_majority_check_is_undone_alone_and_the_edit_stands(table: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The majority check ran after the edit's commit, its failure logged; in the edit's transaction it is a
    savepoint: what it wrote before failing is undone, the edit and its answer stand."""
    c = table.clerk
    await five_rounds(table)

    async def failing(self: VictoryService, game_id: int, *, actor: int | None) -> None:
        async with self._write(game_id) as uow:
            await uow.record(game_id, "MajorityDetected", actor, {"user_id": ANN}, None)
            raise RuntimeError("the check failed")

    monkeypatch.setattr(VictoryService, "check_majority", failing)
    e = await c.landsdraad.edits.edit(table.game_id, lambda: c.landsdraad.ledger.set_player(
        table.game_id, user_id=ANN, misc=27, actor=MOD, source_id="set-1"), actor=MOD, source_id="set-1",
        answer=owing("set-1"))
    assert e.done.votes == 31 and e.majority is None
    assert (await table.kinds())[-1] == "PlayerChanged", "the check's write undone alone"
