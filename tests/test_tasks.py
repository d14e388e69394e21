"""``bot.tasks.cancel_and_wait``: the tasks end, and a cancellation of the waiter is not swallowed."""

from __future__ import annotations

import asyncio

import pytest

from bot.tasks import cancel_and_wait, cancel_one


async def test_an_outer_cancel_while_waiting_for_a_cancelled_subtask_propagates() -> None:
    release = asyncio.Event()
    cleaning = asyncio.Event()

    async def slow_to_end() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cleaning.set()
            await release.wait()  # its clean-up takes a while
            raise

    sub = asyncio.create_task(slow_to_end())
    await asyncio.sleep(0)
    reached_after = False

    async def closer() -> None:
        nonlocal reached_after
        await cancel_one(sub)
        reached_after = True

    outer = asyncio.create_task(closer())
    await cleaning.wait()
    outer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await outer
    assert outer.cancelled() and not reached_after
    release.set()
    await asyncio.wait({sub})
    assert sub.cancelled()


async def test_every_task_is_cancelled_and_awaited_and_a_failure_is_not_raised(
        caplog: pytest.LogCaptureFixture) -> None:
    async def forever() -> None:
        await asyncio.Event().wait()

    async def fails() -> None:
        raise ValueError("boom")

    failing = asyncio.create_task(fails())
    await asyncio.sleep(0)
    tasks = [asyncio.create_task(forever()) for _ in range(3)]
    await cancel_and_wait([*tasks, failing, None])
    assert all(task.cancelled() for task in tasks)
    assert "failed before it was cancelled" not in caplog.text  # done before the call: not ours to report


async def test_a_task_that_ignores_cancellation_is_named_after_the_timeout(caplog: pytest.LogCaptureFixture) -> None:
    stop = asyncio.Event()

    async def stubborn() -> None:
        while not stop.is_set():
            try:
                await stop.wait()
            except asyncio.CancelledError:
                continue

    task = asyncio.create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    await cancel_and_wait([task], timeout=0.01)
    assert "stubborn" in caplog.text
    stop.set()
    await task
