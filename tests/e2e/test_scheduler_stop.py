"""A bot that closes while its deadline scheduler is in the middle of a pass lets that pass end, then stops it and
gives up the deadline lease (bot/discord/scheduler.py ``DeadlineScheduler.stop``). A pass cancelled while it waited on
the database once left SQLite's write lock held: the lease's release then waited out the busy timeout (30 s) and
failed, and the next process waited for the lease to expire (the cause, a connection hard-closed mid-statement, is
fixed on its own: tests/test_sqlite_connection.py)."""

from __future__ import annotations

import asyncio

from .clerkbot import Harness


async def test_a_close_during_a_pass_lets_the_pass_end_then_gives_up_the_lease(clerk_bot: Harness) -> None:
    h = clerk_bot
    await h.new_game(deadline="3h")
    scheduler = h.bot.scheduler
    real_tick = scheduler.tick
    entered, go_on = asyncio.Event(), asyncio.Event()
    ended: list[str] = []

    async def slow_tick() -> float:
        entered.set()
        await go_on.wait()  # the pass is under way when the bot is told to close
        delay = await real_tick()
        ended.append("ended")
        return delay

    scheduler.tick = slow_tick  # type: ignore[method-assign]
    h.app.deadlines_changed()
    await asyncio.wait_for(entered.wait(), 60)
    closing = asyncio.create_task(scheduler.stop(h.bot._scheduler_task))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    assert not closing.done()  # it waits for the pass
    go_on.set()
    await asyncio.wait_for(closing, 60)
    assert ended == ["ended"]  # the pass was finished, not cancelled
    assert h.bot._scheduler_task is not None and h.bot._scheduler_task.done()
    assert not h.bot._scheduler_task.cancelled()  # it returned after its pass
    if scheduler.lease is not None and scheduler.leading:
        await asyncio.wait_for(scheduler.release(), 10)  # at once: no write lock left held by a cancelled pass
        assert not scheduler.leading


async def test_a_close_between_passes_stops_the_scheduler_at_once(clerk_bot: Harness) -> None:
    h = clerk_bot
    scheduler = h.bot.scheduler
    await h.fake.wait_for(lambda: scheduler.passes >= 1, "the first pass")
    task = h.bot._scheduler_task
    assert task is not None
    await asyncio.wait_for(scheduler.stop(task, wait=60), 10)  # asleep between passes: not waited for
    assert task.done()
