"""``Batcher.submit`` (engine/service/batching.py): a caller with no batch of its key being written lets the loop turn
once, and if nothing joined it writes its batch of one in its own task (issue 20: no task started, no turn of the
loop to wake it); what comes meanwhile is the next batch, written by a task; what comes in the same moment is one
batch with it, as with ``put``, and a cancelled caller of it does not stop the others'."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from engine.service.batching import Batcher


async def test_a_lone_item_is_written_in_its_callers_task_and_what_comes_meanwhile_next() -> None:
    seen: list[tuple[list[int], bool]] = []
    caller: list[asyncio.Task[int] | None] = []
    gate = asyncio.Event()

    async def write(key: str, items: Sequence[int]) -> list[int]:
        seen.append((list(items), asyncio.current_task() is caller[0]))
        if items[0] == 1:
            await gate.wait()  # the first batch is still being written when 2 and 3 come
        return [i * 10 for i in items]

    batcher: Batcher[str, int, int] = Batcher(write)
    first = asyncio.ensure_future(batcher.submit("k", 1))
    caller.append(first)
    while not seen:
        await asyncio.sleep(0)
    later = [asyncio.ensure_future(batcher.submit("k", n)) for n in (2, 3)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert seen == [([1], True)], "2 and 3 wait for the batch being written"
    gate.set()
    assert await first == 10
    assert await asyncio.gather(*later) == [20, 30]
    assert seen == [([1], True), ([2, 3], False)] and batcher.batches == 2
    assert not batcher._running and not batcher._queues


async def test_items_of_one_moment_are_one_batch_and_a_cancelled_caller_stops_no_one() -> None:
    seen: list[list[int]] = []
    gate = asyncio.Event()

    async def write(key: str, items: Sequence[int]) -> list[int | BaseException]:
        seen.append(list(items))
        await gate.wait()
        return [ValueError("refused") if i == 3 else i * 10 for i in items]

    batcher: Batcher[str, int, int] = Batcher(write)
    calls = [asyncio.ensure_future(batcher.submit("k", n)) for n in (1, 2, 3)]
    while not seen:
        await asyncio.sleep(0)
    assert seen == [[1, 2, 3]], "the first caller waited a turn for the others of the same moment"
    calls[0].cancel()
    await asyncio.sleep(0)
    gate.set()
    assert await calls[1] == 20
    with pytest.raises(ValueError, match="refused"):
        await calls[2]
    assert calls[0].cancelled() and seen == [[1, 2, 3]] and batcher.batches == 1


async def test_a_lone_batch_that_fails_fails_its_caller_and_the_next_batch_still_runs() -> None:
    seen: list[list[int]] = []
    gate = asyncio.Event()

    async def write(key: str, items: Sequence[int]) -> list[int]:
        seen.append(list(items))
        if items == [1]:
            await gate.wait()
            raise OSError("disk full")
        return [i * 10 for i in items]

    batcher: Batcher[str, int, int] = Batcher(write)
    first = asyncio.ensure_future(batcher.submit("k", 1))
    while not seen:
        await asyncio.sleep(0)
    second = asyncio.ensure_future(batcher.submit("k", 2))
    await asyncio.sleep(0)
    gate.set()
    with pytest.raises(OSError, match="disk full"):
        await first
    assert await second == 20 and seen == [[1], [2]]
