"""Charts are drawn off the event loop, one at a time, in a thread of their own: drawing a PNG (and the first
import of matplotlib) takes from a fraction of a second to several on a busy machine, and while the loop is
blocked the Discord adapter can neither defer an interaction within its 3 s nor take other votes. One thread
keeps matplotlib's shared font cache used by one drawing at a time."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clerk-charts")


async def drawn(draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``draw(*args, **kwargs)`` in the chart thread; the caller's coroutine waits without blocking the loop."""
    return await asyncio.get_running_loop().run_in_executor(_DRAWER, functools.partial(draw, *args, **kwargs))
