"""Issue 19 in the Convocate: ``/card set ... since:T`` corrects a card from turn T on after a Motion of Repeal was
resolved; the moderators are told privately whether the Repeal would have come out differently (counted again by
the resolution's own rule, P4-05: a tie goes to the controller); an erratum posts the corrected count."""

from __future__ import annotations

import pytest
from ledger_front import MODERATOR
from test_service_convocate import A, B, Convocate, cv  # noqa: F401  (cv: the fixture_F4 table)

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.convocate.errata import erratum_card
from bot.actions.outbox import Here, ToThread
from engine.convocate.board import Phase
from engine.core.errors import RuleError


async def test_a_corrected_card_flips_a_tied_repeal(cv: Convocate) -> None:  # noqa: F811
    await cv.card("character", "K_A", A, at="S_U")
    await cv.card("location", "LA", A, vote=2)
    await cv.card("character", "K_B", B, at="HW_B")
    await cv.card("character", "J_B", B, at="HW_B")
    await cv.card("location", "LB", B, vote=1)
    await cv.phase(("alice", Phase.ACTION))
    await cv.clerk.convocate.turns.declare(cv.gid, user_id=A, statute="X", character="K_A", section=1, sections=2)
    await cv.phase(("bob", Phase.ACTION))
    tie = await cv.clerk.convocate.motions.repeal(cv.gid, user_id=B, statute="X", convocant="K_B", source_id="r1")
    assert tie.outcome is not None and (tie.outcome["mover_votes"], tie.outcome["controller_votes"],
                                        tie.outcome["destroyed"]) == (3, 3, False)  # a tie: kept
    board, errata = cv.clerk.convocate.board, cv.clerk.convocate.errata
    await board.set_card(cv.gid, actor=1, moderator=True, name="LA", changes={"on_map": True}, source_id="plain")
    assert await errata.after_card_set(cv.gid, source_id="plain") is None  # no since: the board as it is now

    ctx = Ctx(MODERATOR, Place(900, 901), "slash-fix", cv.clock.now())
    out = await dispatch(App(cv.clerk), ctx, "card set", {"name": "LB", "vote": 2, "since": 1})
    assert all(isinstance(o.to, (Here, ToThread)) for o in out)  # the moderators only
    notice = out[-1]
    assert isinstance(notice.to, ToThread) and notice.text.startswith(
        "The correction of LB from turn 1 (Standing Vote bob +1) changes resolved Repeals of senate")
    assert (f"Motion #{tie.number} (Repeal of X, turn 2): announced bob 3 against alice 3 (kept); corrected 4 "
            "against 3 (destroyed): **the outcome changes**") in notice.text
    with pytest.raises(RuleError, match="Only a moderator corrects"):
        await board.set_card(cv.gid, actor=B, moderator=False, name="LB", changes={"vote": 1}, since=1)

    e = await errata.post_erratum(cv.gid, number=tie.number, actor=1, source_id="e1")
    assert e.recount.destroyed
    with pytest.raises(RuleError, match="posted already"):
        await errata.post_erratum(cv.gid, number=tie.number, actor=1)
    text = erratum_card(e).as_text()
    assert "X would have been destroyed, not kept as announced" in text and "4 (announced 3)" in text
