"""Group commit: requests that arrive while one batch is being written wait and are written together in the next.

With SQLite every statement is a round trip to the connection's thread, and under load each trip costs the wait for
a time slice; 2,000 ballots DMed in the same second would cost 2,000 transactions one after another. Here the first
request of a burst is written at once, alone; the ones that arrive meanwhile queue, and the next batch takes them
all (at most ``limit``) in one transaction. Each caller still gets its own result (or its own error), and only after
its batch has committed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
I = TypeVar("I")  # noqa: E741
R = TypeVar("R")

Handler = Callable[[K, Sequence[I]], Awaitable[Sequence["R | BaseException"]]]


class Batcher(Generic[K, I, R]):
    """``await submit(key, item)`` runs ``handler(key, items)`` for a batch of items of one key (one batch per key at
    a time) and returns this item's result, or raises this item's exception. A failure of the whole batch is every
    item's failure."""

    def __init__(self, handler: Handler[K, I, R], limit: int = 400) -> None:
        self.handler = handler
        self.limit = limit
        self._queues: dict[K, list[tuple[I, asyncio.Future[R]]]] = {}
        self._running: set[K] = set()
        self._tasks: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps only weak references)
        self.batches = 0
        """How many batches were written (tests and measurements read it)."""

    async def submit(self, key: K, item: I) -> R:
        return await self.put(key, item)

    def put(self, key: K, item: I) -> asyncio.Future[R]:
        """Queue ``item`` without waiting: the future of its result (of its exception), set once its batch has
        committed. For a caller that has nothing to wait for (the mark of a message sent), it spares the task a
        ``submit`` needs; whoever holds the future retrieves its exception (a done callback)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._queues.setdefault(key, []).append((item, future))
        if key not in self._running:
            self._running.add(key)
            task = loop.create_task(self._drain(key), name=f"clerk-batch-{key}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return future

    async def _drain(self, key: K) -> None:
        try:
            while queue := self._queues.get(key):
                batch, self._queues[key] = queue[: self.limit], queue[self.limit:]
                self.batches += 1
                try:
                    results = await self.handler(key, [item for item, _ in batch])
                except BaseException as error:  # the whole batch failed: every caller hears it
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._running.discard(key)
            if not self._queues.get(key):
                self._queues.pop(key, None)
            elif key not in self._running:  # cancelled with callers still waiting: let them fail, not hang
                for _, future in self._queues.pop(key):
                    if not future.done():
                        future.cancel()
