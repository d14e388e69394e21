"""`python -m bench [storage|startup|e2e|tally|burst|many|many-long ...] [--quick] [--profile] [--bot-profile=DIR]`: run
benchmarks, print figures.

Everything is measured in this one run on this machine; the targets of issue 20 are ratios (and two absolute
budgets: the offline front ends' start and the memory with 1,000 games), printed next to the figures, never asserted
in tests. ``startup``, ``e2e``, ``burst`` and ``many`` run each bot as a process of its own, the fake Discord in this
one (bench/procs.py). The older in-process figures (the fake and the bot sharing one process, which flatters the
ratio) are still there by name, not in the default run: ``e2e-inprocess``, ``burst-inprocess``, ``memory-inprocess``.
The load average is printed at the start and after each benchmark: the figures mean little above about 1."""

from __future__ import annotations

import asyncio
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from bench import burst, e2e, many, memory, separate, startup, storage, tally
from bot.__main__ import imported

ALL = ("storage", "startup", "e2e", "tally", "burst", "many", "many-long")
INPROCESS = ("e2e-inprocess", "burst-inprocess", "memory-inprocess")


def load() -> str:
    one, five, _ = __import__("os").getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f})"


async def main(names: list[str], quick: bool, profiles: Path | None = None) -> None:
    print(f"Clerk benchmarks, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
          f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cores"
          + (" (--quick: fewer samples)" if quick else "") + f"; {load()}")
    for name in names:
        start = time.perf_counter()
        if name == "storage":
            lines = await storage.run(300 if quick else 1000)
        elif name == "startup":
            lines = await startup.run(1 if quick else startup.PAIRS)
        elif name == "e2e":
            lines = await separate.e2e(150 if quick else 600, profiles)
        elif name == "tally":
            lines = await tally.run(quick)
        elif name == "burst":
            lines = await separate.burst(1000 if quick else 5000, profiles)
        elif name == "many":
            lines = await many.run(100 if quick else many.GAMES, 1 if quick else startup.PAIRS)
        elif name == "many-long":
            lines = await many.run_long(100 if quick else many.GAMES, 1 if quick else startup.PAIRS)
        elif name == "e2e-inprocess":
            lines = await e2e.run(120 if quick else 600)
        elif name == "burst-inprocess":
            lines = await burst.run(1000 if quick else burst.DMS)
        else:
            lines = memory.run()
        print()
        print("\n".join(lines))
        print(f"  ({time.perf_counter() - start:.0f} s; {load()})")
        sys.stdout.flush()


def profiled(names: list[str], quick: bool) -> None:
    """``--profile``: the same run under pyinstrument (a sampling profiler), its call tree printed at the end."""
    from pyinstrument import Profiler

    profiler = Profiler(async_mode="enabled")
    with profiler:
        asyncio.run(main(names, quick))
    print(profiler.output_text(unicode=False, color=False, show_all=False))


def bot_profiles(argv: list[str]) -> Path | None:
    """``--bot-profile=DIR``: each block of ``e2e`` and ``burst`` has its bot (Clerk and the bare bot alike) write a
    cProfile of its main thread to DIR/KIND-BENCH-N.prof (``CLERK_TEST_PROFILE``, bot/discord/run.py), from the end
    of its start-up to its stop: read it with ``python -m pstats``. It slows both bots: time nothing with it."""
    given = [a.split("=", 1)[1] for a in argv if a.startswith("--bot-profile=")]
    if not given:
        return None
    path = Path(given[-1]).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def prepare() -> None:
    """Set this process up as ``python -m bot`` sets up the bot's once its imports are in (``bot.__main__.imported``:
    what they made is frozen out of the garbage collector's way). The in-process figures (the storage floor, the
    close through the service, and their bare baselines beside them) run the service here: without it each full
    collection went over every object of this process's imports, which the bot's collections never do (a full
    collection in two closes of three, about 40 ms of a 52 ms close of 10,000 voters; docs/performance-history.md)."""
    imported()


if __name__ == "__main__":
    prepare()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    profiles = bot_profiles(sys.argv[1:])
    unknown = [a for a in args if a not in ALL + INPROCESS]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(ALL + INPROCESS)}")
    if "--profile" in sys.argv:
        profiled(args or list(ALL), "--quick" in sys.argv)
    else:
        asyncio.run(main(args or list(ALL), "--quick" in sys.argv, profiles))
