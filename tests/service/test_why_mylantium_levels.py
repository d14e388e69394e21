"""``/why fervor-level`` and ``/why approval-level`` through the service (issue 19): Revolutionary Fervor and the
Approval Rating as ``/status`` shows them, rebuilt from every change ``myl_history`` recorded, each citing the event
that recorded it (``event_seq``, stamped by ``engine.service.mylantium.history.record``); a change recorded before
Clerk kept its event is shown without one and said so; a sum that is not the figure the game holds is said so, and
the stored figure is shown."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mylantium_table import MOD, USERS, Republic, republic, seqs
from sqlalchemy import select, update

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place
from bot.actions.front import WhyAsk
from bot.actions.why import explain
from engine.core.errors import RuleError
from engine.mylantium.business import Happening as H
from engine.mylantium.model import FactionCode
from engine.service import Clerk
from engine.service.clerk import RULESETS
from engine.service.clock import ManualClock, RandomDice
from engine.service.game_copy import restore_copy
from engine.store.database import make_engine, make_sessionmaker
from engine.store.models.mylantium import MylGovernment, MylHistory

C = FactionCode


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await republic(clerk, clock)


async def three_causes(rep: Republic) -> None:
    """Fervor 2 set by the moderators; the Business Phase: +1 (an Income Tax, no Faction Tax) +1 (a war): 4, every
    Faction 20 → 16 VP; the Proles set to 0: the Brass Hats' coup with $0 against a CRT of $0 is put down: +3."""
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, fervor=2, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.WAR_DECLARED)
    await rep.happen(H.INCOME_TAX_CREATED, 30)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    await rep.clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, actor=MOD)
    await rep.clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    done = await rep.clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=MOD)
    assert done is not None and done.chain.attempts[0].outcome == "put down"


async def test_fervor_now_every_change_with_its_event(rep: Republic) -> None:
    """R1-30, P1-10: 0, set to 2 (GovernmentSet), +1 +1 at the Business Phase's close (BusinessClosed), +3 for the
    coup put down (RevolutionResolved): 7, what the government page shows."""
    await three_causes(rep)
    page = await rep.clerk.mylantium.government(rep.id)
    why = await rep.clerk.mylantium.explain.level(rep.id, "fervor")
    assert why.value == page.fervor == 7 and why.result == "7" and why.subject == "Revolutionary Fervor now"
    (gov_set,), (closed,) = await seqs(rep, "GovernmentSet"), await seqs(rep, "BusinessClosed")
    resolved = (await seqs(rep, "RevolutionResolved"))[0]
    start, *changes, total = why.steps
    assert start.says.startswith("Start: 0") and start.events == ()
    assert [(s.says, s.events) for s in changes] == [
        ("Turn 1, /government set: +2: set by the moderators (no VP deducted) → 2", (gov_set,)),
        ("Turn 1, the Business Phase's close: +1: an Income Tax and only 0 Faction Taxes (2 or fewer) → 3",
         (closed,)),
        ("Turn 1, the Business Phase's close: +1: a war is being waged → 4", (closed,)),
        ("Turn 1, an attempt's resolution: +3: the coup of the Brass Hats was put down → 7", (resolved,))]
    assert changes[3].rule_id == "P1-10" and total.says == "0 + 2 + 1 + 1 + 3 = **7**"
    assert "/why fervor round:" in why.note and "before Clerk" not in why.note
    async with rep.clerk._sessions() as session:  # the VP lost to both were stamped too
        vp = (await session.execute(select(MylHistory.event_seq).where(
            MylHistory.game_id == rep.id, MylHistory.measure.like("vp:%")))).scalars().all()
    assert vp and None not in vp and closed in vp


async def test_approval_now_every_change_with_its_event(rep: Republic) -> None:
    """P1-20, R1-21: the initial 50% until a change; 60% set by the moderators; +12 (war) −20 (Income Tax) −4 (a war
    still waged) at the close: 48%."""
    first = await rep.clerk.mylantium.explain.level(rep.id, "approval")
    assert (first.value, first.result) == (50, "50%") and "No change recorded" in first.steps[-1].says
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, approval=60, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.WAR_DECLARED)
    await rep.happen(H.INCOME_TAX_CREATED, 30)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    why = await rep.clerk.mylantium.explain.level(rep.id, "approval")
    (gov_set,), (closed,) = await seqs(rep, "GovernmentSet"), await seqs(rep, "BusinessClosed")
    assert why.value == (await rep.clerk.mylantium.government(rep.id)).approval == 48 and why.result == "48%"
    assert [s.events for s in why.steps[1:-1]] == [(gov_set,), (closed,), (closed,), (closed,)]
    assert why.steps[-1].says == "50 + 10 + 12 − 20 − 4 = **48**%"


async def test_changes_recorded_before_the_event_numbers_and_a_sum_that_differs(rep: Republic) -> None:
    """Rows from before migration 0013 (event_seq NULL) are explained without an event, and the answer says so; if
    the changes do not add up to the stored Fervor, the stored figure is shown, never the sum."""
    await three_causes(rep)
    async with rep.clerk._sessions() as session, session.begin():
        await session.execute(update(MylHistory).where(MylHistory.game_id == rep.id, MylHistory.measure == "fervor",
                                                       MylHistory.delta == 1).values(event_seq=None))
    why = await rep.clerk.mylantium.explain.level(rep.id, "fervor")
    old = [s for s in why.steps if "(recorded before Clerk kept its event)" in s.says]
    assert len(old) == 2 and all(s.events == () for s in old) and why.value == 7
    assert "2 of the changes were recorded before Clerk kept the event" in why.note
    async with rep.clerk._sessions() as session, session.begin():
        await session.execute(update(MylGovernment).where(MylGovernment.game_id == rep.id).values(fervor=11))
    why = await rep.clerk.mylantium.explain.level(rep.id, "fervor")
    assert why.value == 11 and why.result == "11 as stored"
    assert "add up to 7, not the 11 the game holds" in why.note and "the stored 11 stands" in why.note


async def test_the_subjects_through_why_and_a_round_refused(rep: Republic) -> None:
    await rep.clerk.mylantium.set_government(rep.id, fervor=4, actor=MOD)
    app = App(rep.clerk)
    game = await rep.clerk.games.game(rep.id)
    ctx = Ctx(Actor(USERS[C.GR], "gus"), Place(game.guild_id, game.channel_id), None, datetime.now(UTC))
    seen = await explain(app, ctx, game, WhyAsk("fervor-level"))
    assert seen.value == 4 and seen.withheld == 0  # public (rules-spec: Fervor is PUBLIC)
    assert (await explain(app, ctx, game, WhyAsk("approval-level"))).value == 50
    with pytest.raises(RuleError, match=r"takes no round; a Business Phase's change is `/why fervor round:2`"):
        await explain(app, ctx, game, WhyAsk("fervor-level", round=2))


async def test_an_export_from_before_0013_is_migrated_and_explained_without_events(rep: Republic,
                                                                                   tmp_path: Path) -> None:
    """A copy of an export written at revision 0012 (no ``myl_history.event_seq``) is restored there and migrated:
    its changes have no event, and ``/why fervor-level`` still adds them up to the stored Fervor, saying so. The
    export's histories name each change's event (null for those)."""
    await three_causes(rep)
    doc = json.loads(json.dumps(await rep.clerk.exports.export(rep.id)))
    (closed,) = await seqs(rep, "BusinessClosed")
    assert [h["event"] for h in doc["mylantium"]["fervor_history"]][1:3] == [closed, closed]
    old = json.loads(json.dumps(doc))
    old["state"]["revision"] = "0012"
    for row in old["state"]["tables"]["myl_history"]:
        del row["event_seq"]
    for row in old["state"]["tables"].get("myl_chains", []):
        del row["offered_at"]  # 0015
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}")  # empty: the copy migrates it
    try:
        copied = await restore_copy(engine, old, RULESETS, guild_id=900)
        clerk = Clerk(make_sessionmaker(engine), ManualClock(copied.exported_at), RandomDice(0))
        why = await clerk.mylantium.explain.level(copied.game_id, "fervor")
        again = json.loads(json.dumps(await clerk.exports.export(copied.game_id)))
    finally:
        await engine.dispose()
    assert why.value == 7 and why.result == "7"
    assert all(s.events == () for s in why.steps) and "4 of the changes were recorded before Clerk" in why.note
    assert {h["event"] for h in again["mylantium"]["fervor_history"]} == {None}
