"""The garbage collector paused while a large read's rows are made and counted (the round close's voters,
``round_close.voters``): docs/performance.md, "The close of 100,000 voters".

A read of N rows allocates N container objects that the collector tracks (asyncpg's records, SQLite's tuples), all
alive until the read is counted and none in a reference cycle: they are freed by their reference counts. With the
collector on, those allocations set off its passes, young ones in proportion to N and, as the survivors pass a
quarter of the long-lived objects, full ones over the whole heap with every row made so far; at 100,000 voters on
PostgreSQL those passes were a third of the close (about 60 ms of the driver's read of 160, none of it at 10,000),
which made the step from 10,000 to 100,000 voters superlinear. Paused, the rows are freed before the collector runs
again, so it finds nothing of theirs to do: what the pause defers is only what other code allocated meanwhile.

Process-wide (``gc.disable`` is): the pauses of concurrent reads (another game's close on the event loop's thread,
the SQLite twin's worker thread) are counted, and the collector is on again when the last ends, and only if it was
on when the first began (``python -m bot`` keeps it off during its imports)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_paused = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside (unless it already was), on again at the end of the last pause."""
    global _paused, _was_enabled
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
