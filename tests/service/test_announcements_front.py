"""A closed Mylantium election is owed to the game channel until its card is marked posted: after a kill between
the close and the post, the bot's first pass at start posts it again (bot/actions/recovery.py), with the same nonce
as the first time. (Rounds and AG elections: tests/e2e/test_crash.py.)"""

from __future__ import annotations

from datetime import timedelta

from mylantium_table import MOD, Republic, republic

from bot.actions.commands import App
from bot.actions.outbox import POSTED, ToChannel
from bot.actions.recovery import unannounced_results
from engine.mylantium.model import FactionCode as C
from engine.service import Clerk
from engine.service.clock import ManualClock


async def primary_closed(rep: Republic) -> None:
    for name, code, charisma in (("Lee", C.PL, 7), ("Kim", C.PR, 5)):
        await rep.clerk.mylantium.add_candidate(rep.id, name=name, code=code, charisma=charisma, actor=MOD)
    await rep.clerk.mylantium.elections.start_election_round(rep.id, actor=MOD)
    await rep.open("primary", hours=24)
    for code, name in ((C.PL, "Lee"), (C.GR, "Lee"), (C.PR, "Kim"), (C.BH, "Kim")):
        await rep.choose(code, "primary", name)
    assert await rep.clerk.mylantium.elections.close_election(rep.id, actor=MOD) is not None


async def test_a_closed_mylantium_election_is_announced_at_start_until_it_is_marked_posted(
        clerk: Clerk, clock: ManualClock) -> None:
    rep = await republic(clerk, clock)
    await primary_closed(rep)
    since = clock.now() - timedelta(hours=1)
    assert await clerk.announcements.unposted(since) == [("primary", rep.id, 1)]

    out = await unannounced_results(App(clerk), clock.now())
    [card] = [o for o in out if POSTED in o.extra]
    assert card.extra[POSTED] == f"primary:{rep.id}:1"
    assert isinstance(card.to, ToChannel) and card.card is not None and "Primary" in card.card.title

    await clerk.announcements.mark_posted(card.extra[POSTED])
    assert await clerk.announcements.unposted(since) == []
    assert await unannounced_results(App(clerk), clock.now()) == []
