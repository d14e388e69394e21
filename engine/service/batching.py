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
        """``item``'s result, once its batch has committed. When no batch of ``key`` is being written, the caller
        lets the loop turn once, so that the items of this moment join it, as they would a batch started by
        ``put``; if none did, the caller writes its batch of one itself, in its own task, and has its result at once
        (issue 20: a lone DM ballot spares the task that would write it, and the turn of the loop that would wake
        the caller). Items that come meanwhile wait for the next batch, which a task started here writes. If some
        joined, all of them are one batch, written by a task as ``put``'s are (a cancelled caller never stops the
        batch of the others)."""
        if key in self._running:
            return await self.put(key, item)
        self._running.add(key)
        self._queues[key] = []
        try:
            await asyncio.sleep(0)
        except BaseException:
            self._hand_over(key)
            raise
        joined = self._queues[key]
        if joined:
            future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
            joined.insert(0, (item, future))
            self._start(key)
            return await future
        try:
            self.batches += 1
            [result] = await self.handler(key, [item])
        finally:
            self._hand_over(key)
        if isinstance(result, BaseException):
            raise result
        return result

    def _hand_over(self, key: K) -> None:
        """``submit``'s own batch is done (or was never begun): what queued meanwhile is written by a task."""
        self._running.discard(key)
        if self._queues.get(key):
            self._running.add(key)
            self._start(key)
        else:
            self._queues.pop(key, None)

    def put(self, key: K, item: I) -> asyncio.Future[R]:
        """Queue ``item`` without waiting: the future of its result (of its exception), set once its batch has
        committed. For a caller that has nothing to wait for (the mark of a message sent), it spares the task a
        ``submit`` needs; whoever holds the future retrieves its exception (a done callback)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._queues.setdefault(key, []).append((item, future))
        if key not in self._running:
            self._running.add(key)
            self._start(key)
        return future

    def _start(self, key: K) -> None:
        """A task that writes ``key``'s batches until none is left (``key`` is in ``_running`` already)."""
        task = asyncio.get_running_loop().create_task(self._drain(key), name=f"clerk-batch-{key}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
