"""A Faction that withdraws from the game has no Candidate in its elections (play-test X1.1, docs/rulings.md "A
withdrawn Faction's Candidate stops running"): a Vanguard crushed, a Revolution put down or a failed coup take the
Faction "out of the game entirely" (R1-43, R1-44.5, R1-46.5), so its Candidate can neither take Charisma votes in a
Primary nor be nominated and take the Presidency for a Faction no longer in play."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mylantium_table import MOD, USERS, Republic, republic, with_candidates

from bot.actions.mylantium.render import chain_texts
from engine.core.errors import RuleError
from engine.mylantium.model import FactionCode
from engine.service import Clerk
from engine.service.clock import ManualClock

C = FactionCode


async def crushed_proles(r: Republic) -> None:
    """The Proles at 0 VP with $0 (≤ S): the Brass Hats decline the coup and the Proles are crushed (R1-43)."""
    await r.clerk.mylantium.set_faction(r.id, code=C.PR, vp=0, reason="Fervor", actor=MOD)
    view = await r.clerk.mylantium.revolutions.answer_coup(r.id, accept=False, user_id=None, actor=MOD)
    assert view.chain.attempts[-1].outcome == "crushed"


async def test_a_crushed_vanguards_candidate_runs_no_more_and_cannot_take_the_presidency(
        clerk: Clerk, clock: ManualClock) -> None:
    """The Proles' Kim (Charisma 5) would out-poll Max (4) in the Federalist Primary on Charisma alone and take the
    Presidency for a Faction withdrawn from the game (play-test X1.1). Kim no longer runs: the Brass Hats cannot
    choose Kim, Max is the nominee, and the Presidency goes to the Brass Hats."""
    rep = await with_candidates(await republic(clerk, clock), president=C.BH, approval=50)
    await crushed_proles(rep)
    page = await clerk.mylantium.government(rep.id)
    assert {c.name: c.running for c in page.candidates}["Kim"] is False
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    with pytest.raises(RuleError, match="Kim is not running in this Primary: the Proles have withdrawn"):
        await rep.choose(C.BH, "primary", "Kim")
    await rep.choose(C.PL, "primary", "Lee")
    primary = await clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert [line["name"] for line in primary.result["lines"]] == ["Lee", "Ash", "Max"]
    assert primary.result["nominees"] == {"whig": "Lee", "federalist": "Max"}
    await rep.open("general")
    await rep.choose(C.BH, "general", "federalist")
    general = await clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert general is not None and general.result is not None
    assert general.result["winner"] == "federalist" and general.result["president"] == "BH"


async def test_a_withdrawal_during_an_open_primary_drops_the_choices_made_for_its_candidate(
        clerk: Clerk, clock: ManualClock) -> None:
    """A VP set to 0 while the Primary is open (a chain suspends it) and the Proles crushed: the Brass Hats' choice
    of Kim is dropped (they choose again), the Plutocrats' choice of Lee stands, and the close counts no Kim. The
    channel is told, when play resumes, that the Proles' Candidate no longer runs (naming nobody's choice)."""
    rep = await with_candidates(await republic(clerk, clock), president=C.BH, approval=50)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    await rep.choose(C.BH, "primary", "Kim")
    await rep.choose(C.PL, "primary", "Lee")
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, reason="Fervor", actor=MOD)
    clock.advance(timedelta(hours=1))
    view = await clerk.mylantium.revolutions.answer_coup(rep.id, accept=False, user_id=None, actor=MOD)
    said = chain_texts(view, clock.now())[-1]
    assert "the Candidate of the Proles no longer runs" in said and "Brass Hats" not in said
    status = await clerk.mylantium.elections.election(rep.id)
    assert status is not None and "Brass Hats" in status.waiting and "Plutocrats" in status.chosen
    primary = await clerk.mylantium.elections.close_election(rep.id, actor=MOD)
    assert primary is not None and primary.result is not None
    assert {line["name"]: line["total"] for line in primary.result["lines"]} == {"Lee": 17, "Ash": 3, "Max": 4}
    assert primary.result["choices"] == {"PL": "Lee"}


async def test_a_faction_a_moderator_takes_out_of_play_loses_its_running_candidate(rep: Republic) -> None:
    """``/faction set in_play:false`` takes a Faction out as a withdrawal does: its Candidate stops running; brought
    back, it runs again only when a moderator says so (``/candidate set running:true``), as after a removal."""
    await with_candidates(rep)
    await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, in_play=False, reason="left the table", actor=MOD)
    running = {c.name: c.running for c in (await rep.clerk.mylantium.government(rep.id)).candidates}
    assert running == {"Lee": True, "Ash": False, "Kim": True, "Max": True}
    back = await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, in_play=True, actor=MOD)
    assert back.idle_candidate == "Ash"  # the answer says how to put them back (as after a removal, M4.11)
    running = {c.name: c.running for c in (await rep.clerk.mylantium.government(rep.id)).candidates}
    assert running["Ash"] is False


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await republic(clerk, clock)


__all__ = ["USERS"]
