"""``/why`` in Mylantium through the service (clerk.mylantium.explain, issue 19): an election's totals rebuilt from
the inputs its close kept, each choice citing the event that counted and seen only by its Faction's player; a
Business Phase's approval change; the refusals."""

from __future__ import annotations

import pytest
from mylantium_table import MOD, NAMES, Republic, republic, seqs
from sqlalchemy import select

from engine.core.derivation import lines
from engine.core.errors import RuleError
from engine.mylantium.business import Happening as H
from engine.mylantium.model import FactionCode
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.store.models.mylantium import MylElection

C = FactionCode


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await republic(clerk, clock)


async def primary_held(rep: Republic) -> None:
    for name, code, charisma in (("Lee", C.PL, 7), ("Ash", C.GR, 3), ("Kim", C.PR, 5), ("Max", C.BH, 4)):
        await rep.clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, approval=60, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    for code, name in ((C.PL, "Ash"), (C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)


async def test_the_primary_is_rebuilt_from_what_its_close_counted(rep: Republic) -> None:
    """TV1-I03: 31, 3, 45, 4. The Plutocrats' replaced choice is not the one cited; a later change of Faction Votes
    does not change the explanation of a closed Primary; one closed before its inputs were kept is refused."""
    with pytest.raises(RuleError, match="no closed election"):
        await rep.clerk.mylantium.explain.election(rep.id)
    await primary_held(rep)
    await rep.clerk.mylantium.set_faction_votes(rep.id, code=C.GR, territory="Avalon", votes=30, actor=MOD)
    why = await rep.clerk.mylantium.explain.election(rep.id, turn=1, stage="primary")
    assert why.value == {"Lee": 31, "Ash": 3, "Kim": 45, "Max": 4}
    chosen = await seqs(rep, "ChoiceMade")
    (closed,) = await seqs(rep, "ElectionClosed")
    pl = next(s for s in why.steps if s.says.startswith("The Plutocrats"))
    assert pl.events == (chosen[1], closed) and "**Lee**" in pl.says and pl.seen_by == {NAMES[C.PL]}
    assert "Lee (Whig): Faction Votes 24 (of the Factions that chose it) + Charisma 7 = **31**" in [
        s.says for s in why.steps]
    # An election closed before Clerk kept its inputs (an older ledger) is refused, not rebuilt from today's.
    async with rep.clerk._sessions() as session, session.begin():
        row = (await session.execute(select(MylElection).where(MylElection.game_id == rep.id))).scalar_one()
        row.result = {k: v for k, v in (row.result or {}).items() if k != "votes"}
    with pytest.raises(RuleError, match="closed before Clerk kept the Faction Votes it counted"):
        await rep.clerk.mylantium.explain.election(rep.id)
    with pytest.raises(RuleError, match="not an election: name `primary` or `general`"):
        await rep.clerk.mylantium.explain.election(rep.id, stage="runoff")


async def test_a_player_sees_only_their_own_choice_and_no_rule_ids(rep: Republic) -> None:
    await primary_held(rep)
    await rep.open("general")
    for code, party in ((C.PL, "whig"), (C.GR, "whig"), (C.PR, "federalist"), (C.BH, "federalist")):
        await rep.choose(code, "general", party)
    await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    whole = await rep.clerk.mylantium.explain.election(rep.id)
    assert whole.value == {"whig": 44, "federalist": 64}
    gus = whole.seen_by(NAMES[C.GR], moderator=False)
    text = "\n".join(lines(gus, moderator=False))
    assert "The Grangers (14 Faction Votes at the close) chose **Whig**" in text
    for other in ("Plutocrats", "Proles", "Brass Hats"):
        assert f"The {other} (" not in text
    assert gus.withheld == 3 and "3 steps withheld" in text
    assert "R1-" not in text and "P1-" not in text
    nobody = "\n".join(lines(whole.seen_by(None, moderator=False), moderator=False))
    assert " chose **" not in nobody and "32 × 60/100 = 19.2 → **19**" in nobody
    moderator = "\n".join(lines(whole.seen_by(None, moderator=True), moderator=True))
    assert moderator.count(" chose **") == 4 and "(R1-05, P1-02)" in moderator


async def test_a_business_phase_approval_and_fervor(rep: Republic) -> None:
    """R1-21, P1-05, P1-07: 50 + 12 − 20 − 4 = 38; Fervor +1 (an Income Tax, no Faction Tax) +1 (a war)."""
    with pytest.raises(RuleError, match="has not closed a Business Phase yet"):
        await rep.clerk.mylantium.explain.business(rep.id, "approval")
    await rep.clerk.mylantium.set_government(rep.id, president=C.PR, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.happen(H.WAR_DECLARED)
    await rep.happen(H.INCOME_TAX_CREATED, 30)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    approval = await rep.clerk.mylantium.explain.business(rep.id, "approval", turn=1)
    assert approval.value == 38 and approval.result == "50% → 38%"
    recorded = await seqs(rep, "HappeningRecorded")
    war = next(s for s in approval.steps if s.says == "+12: war declared")
    assert war.events[0] == recorded[0]
    fervor = await rep.clerk.mylantium.explain.business(rep.id, "fervor")
    assert fervor.value == (2, 2) and fervor.result == "+2: now 2"
