"""`python -m bench.batchcpu [PLAYERS] [ROUNDS] [--profile]`: the SQLite twin's worker-thread CPU per DM ballot in a
burst's batches: PLAYERS players of one game each DM a ballot at once (every ballot with its receipt owed in its
transaction, made as the DM path makes it: ``bot.actions.landsdraad.dm_ballot``, ``bot.discord.delivery``), ROUNDS
times, so the ballot batcher writes them in batches of up to 400. It prints the CPU (``time.thread_time``) of the
twin's transactions (``uow._in_twin``: BEGIN, the duplicate check, ``cast_batch``, the commit) per ballot, the batch
sizes, and with --profile a cProfile of those transactions (the profiler inflates it). The process's other threads
are not counted: this is the part of ``bench.burstcpu``'s worker threads that the ballot batch costs."""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.common import migrated_sqlite, scratch_dir
from bench.storage import START, bench_game, dm_ballot
from engine.service import Clerk, uow
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker

CHOICES = ("Aye", "Nay", "Abstain")


async def main(players: int, rounds: int, profile: bool) -> None:
    where = scratch_dir()
    engine = make_engine(await migrated_sqlite(where / "clerk.db"))
    clock = ManualClock(START)
    clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(1))
    game_id = await bench_game(clerk, players)

    spent: list[tuple[float, int]] = []  # (thread CPU seconds, ballots) per twin transaction of a ballot batch
    profiler = cProfile.Profile() if profile else None
    inner: Callable[..., Any] = uow._in_twin
    counting = False

    def measured(twin: Any, now: Any, source_id: Any, work: Callable[..., Any]) -> Any:
        if not counting:
            return inner(twin, now, source_id, work)
        start = time.thread_time()
        if profiler is not None:
            profiler.enable()
        try:
            result = inner(twin, now, source_id, work)
        finally:
            if profiler is not None:
                profiler.disable()
            spent.append((time.thread_time() - start, len(result) if isinstance(result, list) else 1))
        return result

    uow._in_twin = measured
    message = 10_000_000

    async def ballot(user: int, choice: str) -> None:
        nonlocal message
        message += 1
        at = clock.now() + timedelta(microseconds=message % 1_000_000)  # each DM's own time, as Discord stamps them
        await dm_ballot(clerk, clock, game_id, user, message, choice, at)

    try:
        await asyncio.gather(*(ballot(100 + u, "Aye") for u in range(players)))  # warm-up, not counted
        gc.collect()
        gc.freeze()  # as ``python -m bot`` does once started (bot/__main__.py)
        counting = True
        for r in range(rounds):
            await asyncio.gather(*(ballot(100 + u, CHOICES[(r + u) % 3]) for u in range(players)))
    finally:
        uow._in_twin = inner
        await engine.dispose()
    cpu = sum(s for s, _ in spent)
    n = sum(b for _, b in spent)
    sizes = sorted(b for _, b in spent)
    load = Path("/proc/loadavg").read_text().split()[0]
    per = sorted(s / b * 1e3 for s, b in spent if b >= 50)
    print(f"twin transactions of ballot batches: {len(spent)}, ballots {n}, sizes median {statistics.median(sizes)} "
          f"(min {sizes[0]}, max {sizes[-1]})")
    print(f"worker CPU per ballot: {cpu / n * 1e3:.4f} ms (batches of 50+: median {statistics.median(per):.4f} ms)"
          f"   (load {load})", flush=True)
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        print(out.getvalue())
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(35)
        print(out.getvalue())


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(main(int(args[0]) if args else 400, int(args[1]) if len(args) > 1 else 10, "--profile" in sys.argv))
