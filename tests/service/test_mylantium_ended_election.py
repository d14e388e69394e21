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
    await clerk.games.reopen(rep.id, actor=MOD, reason="check", source_id="reopen")
    assert await clerk.mylantium.elections.pending_elections() == []  # nothing closes it behind the moderators
    election = await clerk.mylantium.elections.election(rep.id)
    assert election is not None and "Deadline: none" in election_status_card(election, clock.now()).as_text()
