"""What Clerk's process holds after 20,000 DMs (issue 20): ``python -m bench.memtrace [GAMES] [FRAMES]``.

The bench's world (``bench/many.py``: GAMES games of 20 players, round 1 open), Clerk started as ``python -m bot run``
under this file's ``child`` (tracemalloc on from the first import, a snapshot written at each SIGUSR1), one snapshot
idle and one after every player's DM is answered; prints the resident memory at each and the allocations that grew
most between them, by line (FRAMES deep; tracemalloc slows the bot several times over, so no timing here).
Diagnosis only: not part of ``python -m bench``."""

from __future__ import annotations

import asyncio
import os
import runpy
import signal
import sys
import tracemalloc
from pathlib import Path

from bench.procs import UNPACED, World, clerk_first_pass, ready, spawn, start_fake

HERE = Path(__file__).resolve()


def child() -> None:
    """In the bot's process: ``python bench/memtrace.py -m bot run``."""
    tracemalloc.start(int(os.environ.get("BENCH_MEMTRACE_FRAMES", "1")))
    out = Path(os.environ["BENCH_MEMTRACE_DIR"])
    taken = [0]

    def dump(*_: object) -> None:
        taken[0] += 1
        tracemalloc.take_snapshot().dump(str(out / f"snap-{taken[0]}"))
        (out / f"done-{taken[0]}").touch()

    signal.signal(signal.SIGUSR1, dump)
    sys.argv = ["bot", *sys.argv[3:]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


async def main(games: int, frames: int) -> None:
    fake = await start_fake()
    try:
        world = World(fake, games, 20)
        await world.setup()
        os.environ.update(BENCH_MEMTRACE_DIR=str(world.workdir), BENCH_MEMTRACE_FRAMES=str(frames))
        proc = await spawn(fake, "clerk", world.workdir, world.url, UNPACED, python=(str(HERE),))
        try:
            await ready(fake, proc, world.users[0][-1], "Vote: Abstain")
            await clerk_first_pass(fake, proc)
            await proc.settled()

            async def snap(n: int) -> float:
                await proc.settled()
                rss = proc.rss_mb()
                proc.proc.send_signal(signal.SIGUSR1)
                await fake.wait_for(lambda: (world.workdir / f"done-{n}").exists(), f"snapshot {n}", timeout=300)
                return rss

            idle = await snap(1)
            before = len(fake.sent)
            ids = await fake.dm_burst([(u, "Vote: Aye") for u in world.everyone])
            await fake.wait_for(lambda: len(fake.sent) - before >= len(ids), "the receipts", timeout=1800)
            after = await snap(2)
        finally:
            await proc.stop()
    finally:
        await fake.stop()
    print(f"resident memory (tracemalloc on): idle {idle:.0f} MB, after {len(ids):,} DMs {after:.0f} MB")
    one = tracemalloc.Snapshot.load(str(world.workdir / "snap-1"))
    two = tracemalloc.Snapshot.load(str(world.workdir / "snap-2"))
    print(f"traced: idle {sum(s.size for s in one.statistics('filename')) / 2**20:.1f} MB, "
          f"after {sum(s.size for s in two.statistics('filename')) / 2**20:.1f} MB")
    for stat in two.compare_to(one, "traceback" if frames > 1 else "lineno")[:30]:
        print(f"{stat.size_diff / 1024:9.0f} KiB {stat.count_diff:8d} blocks  {stat.traceback.format()[-1].strip()}")
        for line in stat.traceback.format()[:-1][-2 * frames:] if frames > 1 else []:
            print("            " + line)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1:3] == ["-m", "bot"]:
        child()
    else:
        asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, int(sys.argv[2]) if len(sys.argv) > 2
                         else 1))
