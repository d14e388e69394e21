"""`python -m bench [storage|e2e|tally|burst|memory ...] [--quick] [--profile]`: run benchmarks, print figures.

Everything is measured in this one run on this machine; the targets of issue 9 are ratios (and two absolute
budgets, the 10,000-voter tally and the memory), printed next to the figures, never asserted in tests."""

from __future__ import annotations

import asyncio
import platform
import sys
import time
from datetime import UTC, datetime

from bench import burst, e2e, memory, storage, tally

ALL = ("storage", "e2e", "tally", "burst", "memory")


async def main(names: list[str], quick: bool) -> None:
    print(f"Clerk benchmarks, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
          f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cores"
          + (" (--quick: fewer samples)" if quick else ""))
    for name in names:
        start = time.perf_counter()
        if name == "storage":
            lines = await storage.run(300 if quick else 1000)
        elif name == "e2e":
            lines = await e2e.run(120 if quick else 600)
        elif name == "tally":
            lines = await tally.run(quick)
        elif name == "burst":
            lines = await burst.run(1000 if quick else burst.DMS)
        else:
            lines = memory.run()
        print()
        print("\n".join(lines))
        print(f"  ({time.perf_counter() - start:.0f} s)")
        sys.stdout.flush()


def profiled(names: list[str], quick: bool) -> None:
    """``--profile``: the same run under pyinstrument (a sampling profiler), its call tree printed at the end."""
    from pyinstrument import Profiler

    profiler = Profiler(async_mode="enabled")
    with profiler:
        asyncio.run(main(names, quick))
    print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    unknown = [a for a in args if a not in ALL]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(ALL)}")
    if "--profile" in sys.argv:
        profiled(args or list(ALL), "--quick" in sys.argv)
    else:
        asyncio.run(main(args or list(ALL), "--quick" in sys.argv))
