"""Ending the tasks the bot started: cancel them and wait until they have ended, without swallowing a cancellation of
the task that waits (``contextlib.suppress(CancelledError)`` around ``await subtask`` does swallow it)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("clerk.tasks")


async def cancel_and_wait(tasks: Iterable[asyncio.Future[Any] | None], timeout: float | None = None) -> None:
    """Cancel each task (None is skipped) and wait until every one has ended (at most ``timeout`` seconds; those still
    running then are logged by name). A task's own cancellation or failure is not raised (a failure is logged), but a
    cancellation of the caller while it waits is: ``asyncio.wait`` raises CancelledError only for its caller's."""
    pending = {task for task in tasks if task is not None and not task.done()}
    for task in pending:
        task.cancel()
    if pending:
        _, left = await asyncio.wait(pending, timeout=timeout)
        if left:
            log.warning("tasks still running %s s after they were cancelled: %s", timeout,
                        sorted(_name(task) for task in left))
    for task in pending:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("task %s failed before it was cancelled", _name(task), exc_info=task.exception())


async def cancel_one(task: asyncio.Future[Any] | None, timeout: float | None = None) -> None:
    """``cancel_and_wait`` for one task."""
    await cancel_and_wait([task], timeout)


def _name(task: asyncio.Future[Any]) -> str:
    return task.get_name() if isinstance(task, asyncio.Task) else repr(task)
