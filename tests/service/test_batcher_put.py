"""``Batcher.put`` (engine/service/batching.py): an item queued without a task waiting on it, for the marks of the
messages sent (bot/discord/outbox_worker.py); its future is set once its batch has been written, with the batch's
result for it or its error, and items put together share a batch as those submitted together do."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from engine.service.batching import Batcher


async def test_items_put_together_share_a_batch_and_each_future_gets_its_result() -> None:
    seen: list[list[int]] = []

    async def write(key: str, items: Sequence[int]) -> list[int]:
        seen.append(list(items))
        await asyncio.sleep(0)
        return [i * 10 for i in items]

    batcher: Batcher[str, int, int] = Batcher(write)
    first = batcher.put("k", 1)
    futures = [first, batcher.put("k", 2), batcher.put("k", 3)]
    assert not first.done(), "nothing is written before the loop runs the batch"
    assert await asyncio.gather(*futures) == [10, 20, 30]
    assert seen == [[1, 2, 3]] and batcher.batches == 1
    assert await batcher.submit("k", 4) == 40, "submit is put, awaited"


async def test_a_failed_batch_is_each_futures_error() -> None:
    async def write(key: str, items: Sequence[int]) -> list[int]:
        raise OSError("disk full")

    batcher: Batcher[str, int, int] = Batcher(write)
    futures = [batcher.put("k", 1), batcher.put("k", 2)]
    await asyncio.wait(futures)
    for future in futures:
        with pytest.raises(OSError, match="disk full"):
            future.result()
