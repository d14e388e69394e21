"""An election the chain held when a coup or Revolution ended the game (play-test X4.4, docs/rulings.md "An
election's deadline is held during a chain"): it stops with the game. `/election status` says so rather than "open,
due now"; reopened (to correct a mistake), it is not closed at once at its stale deadline with a note that "the bot
was offline": it has no deadline until a moderator gives it one."""

from __future__ import annotations

from datetime import timedelta

from mylantium_table import MOD, USERS, republic, with_candidates

from bot.actions.mylantium.render import election_status_card
from engine.mylantium.model import FactionCode
from engine.service import Clerk
from engine.service.clock import ManualClock

C = FactionCode


async def test_an_election_held_when_a_coup_ends_the_game_stops_with_it(clerk: Clerk, clock: ManualClock) -> None:
    rep = await with_candidates(await republic(clerk, clock), president=C.BH, approval=50)
    await clerk.mylantium.set_faction(rep.id, code=C.BH, treasury=20, actor=MOD)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    await rep.choose(C.PL, "primary", "Lee")
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, reason="scandal", actor=MOD)
    await clerk.mylantium.revolutions.answer_coup(rep.id, accept=True, user_id=USERS[C.BH], actor=USERS[C.BH])
    clock.advance(timedelta(hours=49))
    done = await clerk.mylantium.revolutions.resolve_revolution(rep.id, actor=MOD)
    assert done is not None and done.chain.ended == "won"
    election = await clerk.mylantium.elections.election(rep.id)
    assert election is not None and election.status == "open" and election.deadline is None
    card = election_status_card(election, clock.now()).as_text()
    assert "(stopped when the game ended)" in card and "due now" not in card, card
    assert await clerk.mylantium.elections.pending_elections() == []
    done = await clerk.games.reopen(rep.id, actor=MOD, reason="check", source_id="reopen")
    assert await clerk.mylantium.elections.pending_elections() == []  # nothing closes it behind the moderators
    assert done.deadlines == ()  # and the reopening names no deadline that moved
    election = await clerk.mylantium.elections.election(rep.id)
    assert election is not None and "Deadline: none" in election_status_card(election, clock.now()).as_text()


async def test_a_game_closed_by_mistake_during_a_primary_gives_it_its_time_back_when_reopened(
        clerk: Clerk, clock: ManualClock) -> None:
    """Play-test X4.5: `/game close` typed by mistake with 20h of the Primary left, reopened 25h later: while the
    ledger was closed every choice was refused, so the Primary does not close at once "at its deadline (the bot was
    offline)"; it runs on from the reopening with its 20h."""
    rep = await with_candidates(await republic(clerk, clock), president=C.BH, approval=50)
    await clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    clock.advance(timedelta(hours=4))
    await clerk.games.close(rep.id, actor=MOD, reason="by mistake")
    clock.advance(timedelta(hours=25))
    done = await clerk.games.reopen(rep.id, actor=MOD, reason="closed by mistake")
    ((game, turn, stage, deadline),) = await clerk.mylantium.elections.pending_elections()
    assert (game, turn, stage, deadline) == (rep.id, 1, "primary", clock.now() + timedelta(hours=20))
    # play-test X5.6: the reopening's announcement says which deadline moved, and to when
    assert done.deadlines == (("the Primary of turn 1", clock.now() + timedelta(hours=20)),)


async def test_a_revolutions_contributions_run_on_after_a_reopening(clerk: Clerk, clock: ManualClock) -> None:
    """Play-test X4.5: the same for a Revolution's contributions (38h of their 48h left at a close by mistake)."""
    rep = await with_candidates(await republic(clerk, clock), president=C.BH, approval=50)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, treasury=100, actor=MOD)
    await clerk.mylantium.set_faction(rep.id, code=C.PR, vp=0, reason="scandal", actor=MOD)
    view = await clerk.mylantium.revolutions.answer_coup(rep.id, accept=False, user_id=None, actor=MOD)
    assert view.chain.current is not None and view.chain.current.begun
    clock.advance(timedelta(hours=10))
    await clerk.games.close(rep.id, actor=MOD, reason="by mistake")
    clock.advance(timedelta(hours=100))
    done = await clerk.games.reopen(rep.id, actor=MOD, reason="closed by mistake")
    (due,) = await clerk.mylantium.revolutions.pending_contributions()
    assert due[3] == clock.now() + timedelta(hours=38)
    assert done.deadlines == (("the contributions to Revolution chain #1", clock.now() + timedelta(hours=38)),)
