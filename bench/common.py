"""Shared helpers: timing, statistics and a migrated scratch database."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.database import make_engine
from engine.store.migrate import upgrade

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
"""The PostgreSQL figures run on this server (``postgresql+asyncpg://postgres@127.0.0.1:5432/test``), each in a
schema of its own, dropped at the end; left out when it is not set. Only a server on this machine is used."""


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


def postgres_url() -> str | None:
    """``TEST_POSTGRES_URL`` if it is set and names a server on this machine (127.0.0.1 or localhost), else None."""
    if not POSTGRES_URL:
        return None
    host = POSTGRES_URL.split("@", 1)[-1].split("/", 1)[0].split(":", 1)[0]
    if host not in ("127.0.0.1", "localhost"):
        raise SystemExit(f"TEST_POSTGRES_URL must name a server on this machine (127.0.0.1), not {host}")
    return POSTGRES_URL


@asynccontextmanager
async def migrated(backend: str, migrate: bool = True) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh database at the newest revision (``migrate=False``: empty): a SQLite file, or a
    schema of its own on the local PostgreSQL server (``postgres_url``), dropped afterwards."""
    if backend == "sqlite":
        path = scratch_dir() / "clerk.db"
        engine = make_engine(await migrated_sqlite(path) if migrate else f"sqlite+aiosqlite:///{path}")
        try:
            yield engine
        finally:
            await engine.dispose()
        return
    url = postgres_url()
    assert url is not None, "no TEST_POSTGRES_URL"
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = make_engine(url)
    async with admin.begin() as conn:
        await conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine = make_engine(url, connect_args={"server_settings": {"search_path": schema}})
    try:
        if migrate:
            await upgrade(engine)
        yield engine
    finally:
        await engine.dispose()
        async with admin.begin() as conn:
            await conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        await admin.dispose()


def backends() -> tuple[str, ...]:
    return ("sqlite", "postgresql") if postgres_url() else ("sqlite",)
