"""Shared helpers: timing, statistics and a migrated scratch database."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from engine.store.database import make_engine
from engine.store.migrate import upgrade


@dataclass(frozen=True)
class Timing:
    name: str
    samples: list[float]
    """Seconds per operation."""

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def pct(self, p: float) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))]

    def row(self, floor: Timing | None = None) -> str:
        ratio = f"{self.median / floor.median:6.2f}x" if floor is not None else "      -"
        return (f"  {self.name:<44} median {self.median * 1e3:8.3f} ms   p90 {self.pct(0.9) * 1e3:8.3f} ms   "
                f"{ratio}")


async def timed(name: str, op: Callable[[int], Awaitable[object]], n: int, warmup: int = 50) -> Timing:
    """Run ``op(i)`` ``warmup`` then ``n`` times, one at a time, and keep the time of each of the ``n``."""
    for i in range(warmup):
        await op(-1 - i)
    samples = []
    for i in range(n):
        start = time.perf_counter()
        await op(i)
        samples.append(time.perf_counter() - start)
    return Timing(name, samples)


async def interleaved(ops: dict[str, Callable[[int], Awaitable[object]]], n: int, warmup: int = 50
                      ) -> dict[str, Timing]:
    """Like ``timed`` for several operations taking turns (a, b, c, a, b, c, ...), so that a machine busy with
    something else slows them alike and their ratios stay meaningful."""
    for i in range(warmup):
        for op in ops.values():
            await op(-1 - i)
    samples: dict[str, list[float]] = {name: [] for name in ops}
    for i in range(n):
        for name, op in ops.items():
            start = time.perf_counter()
            await op(i)
            samples[name].append(time.perf_counter() - start)
    return {name: Timing(name, s) for name, s in samples.items()}


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="clerk-bench-"))


async def migrated_sqlite(path: Path) -> str:
    url = f"sqlite+aiosqlite:///{path}"
    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()
    return url
