"""Bursts: 2,000 players DM their ballots in the same instant (the rush before a deadline). Every one is
acknowledged, every one counted once, and all are in the tally at close. See docs/reliability.md."""

from __future__ import annotations

import os
import time

import pytest
from sqlalchemy import distinct, func, select

from engine.store.models import Event

from .clerkbot import Harness
from .crowd import choice, crowd_game, expected_tally

PLAYERS = int(os.environ.get("CLERK_BURST_PLAYERS", "2000"))  # another count only when profiling


@pytest.mark.long  # 12 s of the suite: `make test-long` (CI runs it); the crash test's burst stays in `make test`
async def test_2000_ballots_dmed_at_once_are_each_acknowledged_and_counted_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    users = h.fake.add_users("p", PLAYERS)
    game_id = await crowd_game(h.clerk, h.fake, h.game, users)
    sent_before = len(h.fake.sent)

    started, cpu = time.monotonic(), time.process_time()
    ids = await h.fake.dm_burst([(u, f"Vote: {choice(n)}") for n, u in enumerate(users)])
    await h.fake.wait_for(lambda: len(h.fake.sent) >= sent_before + PLAYERS, f"{PLAYERS} receipts")
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
    await h.idle()
    print(f"\n{PLAYERS} DM ballots acknowledged in {elapsed:.2f} s ({cpu:.2f} s of CPU, bot and fake together)")

    replies = h.fake.replied(ids)
    assert all(len(r) == 1 for r in replies.values()), "every ballot gets exactly one answer"
    for n, mid in enumerate(ids):
        assert f"Ballot recorded for round 1 of sirius: **{choice(n)}**" in replies[mid][0].content
    status = await h.clerk.landsdraad.rounds.round_status(game_id)
    assert len(status.voted) == PLAYERS and status.waiting == ()

    result = await h.clerk.landsdraad.rounds.close_round(game_id, actor=h.mod.id)
    voted = {u.id: choice(n) for n, u in enumerate(users)}
    assert (result.aye, result.nay, result.abstain) == await expected_tally(h.clerk, game_id, voted)
    async with h.engine.connect() as db:  # the events table directly: an export of 4,000 events costs seconds
        cast = (await db.execute(select(func.count(), func.count(distinct(Event.source_id)))
                                 .where(Event.game_id == game_id, Event.kind == "BallotCast"))).one()
    assert tuple(cast) == (PLAYERS, PLAYERS), "one BallotCast per message, no message twice"
