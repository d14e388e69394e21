"""A Mylantium moderator's step of the Election Round taken back (play-test U1.2 "closed by mistake", U1.5, U1.7):
``/election reopen`` (an election closed by mistake or too early: its result withdrawn, everything the close did
undone, the choices kept), ``/election cancel`` (an Election Round started too early: the turn as before the start)
and ``/candidate set rename`` (a misspelt candidate), through the service. docs/rulings.md, "Taking back a step of
the Election Round"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mylantium_table import MOD, USERS, Republic, payloads, republic, seqs, with_candidates
from sqlalchemy import select

from engine.core.errors import NotFoundError, RuleError
from engine.mylantium.business import Happening as H
from engine.mylantium.model import FactionCode, Party
from engine.service import Clerk
from engine.service.clock import ManualClock
from engine.store.models.mylantium import MylHistory

C = FactionCode
W, F = Party.WHIG, Party.FEDERALIST


@pytest.fixture
async def rep(clerk: Clerk, clock: ManualClock) -> Republic:
    return await with_candidates(await republic(clerk, clock))


def totals(result: dict) -> dict[str, int]:
    return {line["name"]: line["total"] for line in result["lines"]}


async def test_a_primary_closed_by_mistake_is_reopened_and_counted_afresh(rep: Republic, clock: ManualClock) -> None:
    """Play-test U1.2: `/election primary close` typed too early. The reopened Primary keeps the choices made (the
    Plutocrats' Lee), takes the Grangers' that came late, and its next close counts afresh: Lee 10 + 14 + 7 = 31,
    not 17. Each Faction in play is listed with its own choice (for its DM). The deadline it had still holds."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    with pytest.raises(RuleError, match="No election has been held"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)
    await elections.start_election_round(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="No election of turn 1 has closed"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)
    opened = await rep.open("primary", hours=24)
    with pytest.raises(RuleError, match="The Primary of turn 1 is open: nothing has closed"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)
    await rep.choose(C.PL, "primary", "Lee")
    first = await elections.close_election(rep.id, actor=MOD)
    assert first is not None and first.result is not None and totals(first.result)["Lee"] == 17
    with pytest.raises(RuleError, match=r"Primary of turn 1 .* closed"):
        await rep.choose(C.GR, "primary", "Lee")
    with pytest.raises(RuleError, match="in the future"):
        await takebacks.reopen_election(rep.id, deadline=clock.now(), reason=None, actor=MOD)

    again = await takebacks.reopen_election(rep.id, deadline=None, reason="closed by mistake", actor=MOD)
    e = again.election
    assert (e.stage, e.status, e.result, e.deadline) == ("primary", "open", None, opened.deadline)
    assert again.withdrawn["nominees"] == {"whig": "Lee", "federalist": "Kim"} and again.shown == "full"
    assert again.president is None and again.reason == "closed by mistake"
    assert {(p.faction, p.choice, p.user_id) for p in again.players} == {
        (C.PL, "Lee", USERS[C.PL]), (C.GR, None, USERS[C.GR]), (C.PR, None, USERS[C.PR]), (C.BH, None, USERS[C.BH])}
    assert e.chosen == ("Plutocrats",)
    (reopened,) = await payloads(rep, "ElectionReopened")
    assert (reopened["turn"], reopened["stage"], reopened["reason"]) == (1, "primary", "closed by mistake")

    await rep.choose(C.GR, "primary", "Lee")
    second = await elections.close_election(rep.id, actor=MOD)
    assert second is not None and second.result is not None
    assert totals(second.result)["Lee"] == 31 and second.closing == 2 and first.closing == 1
    why = await rep.clerk.mylantium.explain.election(rep.id, turn=1, stage="primary")  # /why: the choice after
    grangers = next(step for step in why.steps if step.says.startswith("The Grangers"))  # the reopening counts
    assert grangers.events == ((await seqs(rep, "ChoiceMade"))[-1], (await seqs(rep, "ElectionClosed"))[-1])
    pending = [p for p in await payloads(rep, "ResultPending") if p["kind"] == "primary"]
    assert pending == [{"kind": "primary", "number": 1}, {"kind": "primary", "number": 1, "closing": 2}]
    await rep.open("general")
    with pytest.raises(RuleError, match="Primary cannot be reopened under it"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)


async def test_a_general_election_reopened_gives_the_presidency_back(rep: Republic, clock: ManualClock) -> None:
    """The General Election's close gave the Presidency to the winning nominee's Faction; reopening gives it back to
    the Faction that held it before (the Proles, who set the incumbent party), and the next close gives it anew. A
    Presidency changed by a moderator since the close, and a turn whose Business Phase has closed, are refused with
    the reason; a withdrawn General Election is no longer among the closed ones that errata recount."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    await elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    for code, name in ((C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    await elections.close_election(rep.id, actor=MOD)
    await rep.open("general", hours=24)
    for code, party in ((C.PL, "whig"), (C.GR, "whig"), (C.PR, "whig")):  # the Proles' mistake: Federalist meant
        await rep.choose(code, "general", party)
    closed = await elections.close_election(rep.id, actor=MOD)
    assert closed is not None and closed.result is not None and closed.result["president"] == "PL"
    assert (await rep.clerk.mylantium.government(rep.id)).president is C.PL
    await rep.clerk.mylantium.set_government(rep.id, approval=70, since=1, actor=MOD)  # the approval was 10 off
    await rep.clerk.mylantium.errata.post_erratum(rep.id, turn=1, actor=MOD)

    await rep.clerk.mylantium.set_government(rep.id, president=C.GR, actor=MOD)
    with pytest.raises(RuleError, match=r"the Grangers hold it, and the close gave it to the Plutocrats.*"
                                        r"/government set president:Plutocrats"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, president=C.PL, actor=MOD)

    again = await takebacks.reopen_election(rep.id, deadline=None, reason="closed too early", actor=MOD)
    assert again.president == (C.PL, C.PR) and again.election.stage == "general"
    assert (await rep.clerk.mylantium.government(rep.id)).president is C.PR
    with pytest.raises(NotFoundError, match="has not closed"):
        await rep.clerk.mylantium.errata.post_erratum(rep.id, turn=1, actor=MOD)
    receipt = await rep.choose(C.PR, "general", "federalist")
    assert receipt.replaced == "whig"
    await rep.choose(C.BH, "general", "federalist")
    closed = await elections.close_election(rep.id, actor=MOD)
    assert closed is not None and closed.result is not None
    assert (closed.result["winner"], closed.result["president"], closed.result["incumbent"]) == (
        "federalist", "PR", "federalist")  # counted with the incumbent party as before the first close
    assert (await rep.clerk.mylantium.government(rep.id)).president is C.PR
    with pytest.raises(RuleError, match="there is nothing to correct"):  # the erratum went with the withdrawn result
        await rep.clerk.mylantium.errata.post_erratum(rep.id, turn=1, actor=MOD)

    await rep.happen(H.SCANDAL)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    with pytest.raises(RuleError, match="Business Phase has closed, so its elections stand"):
        await takebacks.reopen_election(rep.id, deadline=None, reason=None, actor=MOD)


async def test_a_reopened_election_closes_again_at_its_new_deadline(rep: Republic, clock: ManualClock) -> None:
    """The deadline's close has a source id of its own for each close: a Primary its deadline closed, reopened with a
    new deadline, is closed by that one too (the first close's id would make the second a redelivery, a no-op)."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    await elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=1)
    clock.advance(timedelta(hours=1))
    source = await elections.deadline_source(rep.id, 1, "primary")
    assert await elections.close_election(rep.id, actor=None, expected=(1, "primary"), source_id=source)
    later = clock.now() + timedelta(hours=2)
    again = await takebacks.reopen_election(rep.id, deadline=later, reason=None, actor=MOD)
    assert again.election.deadline == later and again.deadline_was is not None and again.deadline_was < later
    assert [d for g, *_, d in await elections.pending_elections() if g == rep.id] == [later]
    await rep.choose(C.PL, "primary", "Lee")
    clock.advance(timedelta(hours=2))
    source = await elections.deadline_source(rep.id, 1, "primary")
    closed = await elections.close_election(rep.id, actor=None, expected=(1, "primary"), source_id=source)
    assert closed is not None and closed.status == "closed" and closed.result is not None
    assert totals(closed.result)["Lee"] == 17


async def test_an_election_round_started_too_early_is_called_off(rep: Republic, clock: ManualClock) -> None:
    """Play-test U1.5 (P1-03, P1-04): the locks are taken once, from the snapshot at the start. Started before the
    Plutocrats' Faction Votes were entered, the Round is called off and started again, and the locks are taken from
    the Factions as they stand then. During set-up the game is being set up again; refused once a Faction realigned
    or the Primary opened."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    with pytest.raises(RuleError, match="No Election Round has started"):
        await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    _, locks = await elections.start_election_round(rep.id, actor=MOD)
    assert "Plutocrats" not in locks and "Grangers" in locks
    called = await takebacks.cancel_election_round(rep.id, reason="votes not entered", actor=MOD)
    assert (called.turn, called.turn_now, called.relabelled) == (1, 1, 0) and "Grangers" in called.locks
    assert (await rep.clerk.mylantium.government(rep.id)).setting_up
    with pytest.raises(RuleError, match="no Election Round has started"):
        await elections.realign(rep.id, user_id=USERS[C.PL], party=F, source_id="r-0")
    await rep.clerk.mylantium.set_faction_votes(rep.id, code=C.PL, territory="Avalon", votes=20, actor=MOD)
    _, locks = await elections.start_election_round(rep.id, actor=MOD)  # PL 26 is now the Whigs' largest
    assert "Plutocrats" in locks and "Grangers" not in locks
    await elections.realign(rep.id, user_id=USERS[C.GR], party=F, source_id="r-1")
    with pytest.raises(RuleError, match="The Grangers realigned in turn 1's Election Round"):
        await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    await rep.open("primary")
    with pytest.raises(RuleError, match="Primary has opened"):
        await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    assert [p["turn"] for p in await payloads(rep, "ElectionRoundCancelled")] == [1]


async def test_a_new_turn_started_too_early_goes_back_to_the_turn_before(rep: Republic, clock: ManualClock) -> None:
    """After turn 1's Business Phase, `/election start` began turn 2 too early. Called off, the game is back in turn
    1 after its Business Phase: the locks it had (turn 1's) hold again, a VP award made since counts in turn 1 (as it
    would have without the start) and the chart reads it there; a happening recorded in turn 2 must be taken back
    first. Started again, turn 2 takes its locks afresh."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    _, first = await elections.start_election_round(rep.id, actor=MOD)
    await rep.clerk.mylantium.business.close_business(rep.id, actor=MOD)
    turn, _ = await elections.start_election_round(rep.id, actor=MOD)
    assert turn == 2
    await rep.clerk.mylantium.set_faction(rep.id, code=C.GR, vp=25, reason="a turn-1 award", actor=MOD)
    await rep.happen(H.SCANDAL)
    with pytest.raises(RuleError, match=r"1 happening was recorded in turn 2 since its start.*/event undo"):
        await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    await rep.clerk.mylantium.business.undo_happening(rep.id, actor=MOD)
    called = await takebacks.cancel_election_round(rep.id, reason="too early", actor=MOD)
    assert (called.turn, called.turn_now, called.relabelled) == (2, 1, 1)
    page = await rep.clerk.mylantium.government(rep.id)
    assert page.turn == 1 and "Business Phase is closed" in page.stage
    async with rep.clerk._sessions() as session:
        award = (await session.execute(select(MylHistory.turn).where(MylHistory.game_id == rep.id,
                                                                     MylHistory.cause == "a turn-1 award"))).scalar()
    assert award == 1
    with pytest.raises(RuleError, match="Business Phase has closed and no Election Round has started since"):
        await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    with pytest.raises(RuleError, match="Business Phase"):
        await rep.happen(H.SCANDAL)
    turn, again = await elections.start_election_round(rep.id, actor=MOD)
    assert turn == 2 and set(again) == set(first)
    (p,) = await payloads(rep, "ElectionRoundCancelled")
    assert (p["turn"], p["turn_now"], p["reason"], p["relabelled"]) == (2, 1, "too early", 1)


async def test_the_history_chart_starts_at_the_approval_set_before_a_start_that_stands(rep: Republic) -> None:
    """A start called off is as if never made: an approval set after it, before the Round starts again, is the
    chart's start point (set during set-up), not a change in play (play-test M4.4's rule)."""
    elections, takebacks = rep.clerk.mylantium.elections, rep.clerk.mylantium.takebacks
    await elections.start_election_round(rep.id, actor=MOD)
    await takebacks.cancel_election_round(rep.id, reason=None, actor=MOD)
    await rep.clerk.mylantium.set_government(rep.id, approval=70, actor=MOD)
    await elections.start_election_round(rep.id, actor=MOD)
    history = await rep.clerk.mylantium.history(rep.id)
    assert history.approval[0] == (0, 70)


async def test_a_misspelt_candidate_is_renamed_and_choices_follow(rep: Republic) -> None:
    """Play-test U1.7: `/candidate set` could not correct a name. The candidate keeps Faction, party and Charisma;
    a choice made for them in the open Primary follows the name, and so does the nominee the General Election reads:
    the Whigs run Lee Adams with Charisma 7. A name another candidate has, one that reads as nobody, and the same
    name are refused."""
    myl = rep.clerk.mylantium
    await myl.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary")
    await rep.choose(C.PL, "primary", "Lee")
    renamed = await myl.set_candidate(rep.id, name="Lee", rename=" Lee  Adms ", actor=MOD)
    assert (renamed.name, renamed.renamed_from, renamed.charisma, renamed.faction) == ("Lee Adms", "Lee", 7, C.PL)
    await myl.elections.close_election(rep.id, actor=MOD)
    renamed = await myl.set_candidate(rep.id, name="Lee Adms", rename="Lee Adams", actor=MOD)
    assert renamed.renamed_from == "Lee Adms"
    with pytest.raises(RuleError, match="already has a candidate called Kim"):
        await myl.set_candidate(rep.id, name="Lee Adams", rename="kim", actor=MOD)
    with pytest.raises(RuleError, match="reads as choosing nobody"):
        await myl.set_candidate(rep.id, name="Lee Adams", rename="None", actor=MOD)
    with pytest.raises(RuleError, match="called Lee Adams already"):
        await myl.set_candidate(rep.id, name="Lee Adams", rename="Lee Adams", actor=MOD)
    await rep.open("general")
    await rep.choose(C.PL, "general", "whig")
    general = await myl.elections.close_election(rep.id, actor=MOD)
    assert general is not None and general.result is not None
    assert general.result["nominees"]["whig"] == "Lee Adams"
    assert general.result["lines"]["whig"]["charisma"] == 7
    assert [(p["name"], p["renamed"]) for p in await payloads(rep, "CandidateChanged")] == [
        ("Lee", "Lee Adms"), ("Lee Adms", "Lee Adams")]
    derivation = await myl.explain.election(rep.id, turn=1, stage="primary")  # the result keeps the name it had
    assert derivation.value == {"Lee Adms": 17, "Ash": 3, "Kim": 5, "Max": 4}
