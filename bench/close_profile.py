"""The close of N voters, profiled (docs/performance-history.md, branch pgclose): ``bench.tally``'s set-up and plain
read, ``repeat`` warm closes (one untimed first), each after ``gc.collect()``; the medians of the close's wall time and
of the process's CPU during it (``time.process_time``: on SQLite the twin's worker thread, on PostgreSQL the event
loop's thread; not the server's), and the plain reads (three before each close, each a sample). ``stmts``: each
statement's execute timed (``before/after_cursor_execute``) with the time since the one before (``gap``: Python
between them), the medians over the closes; ``prof``: cProfile of the timed closes, by internal time. For A/B runs
in turns, run it in two worktrees, one after the other. Its imports are frozen (``bench.__main__.prepare``, as the
bot's are; since 2026-12-08: before, a full collection went over them as well).

    python -m bench.close_profile [sqlite|postgresql] [voters] [closes] [time|stmts|prof]
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import pstats
import statistics
import sys
import time
from typing import Any

from sqlalchemy import event

from bench.common import migrated
from bench.tally import START, _game, round_ready
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_sessionmaker


async def run(backend: str, n: int, repeat: int, mode: str) -> list[str]:
    clock = ManualClock(START)
    closes: list[float] = []
    cpus: list[float] = []
    reads: list[float] = []
    runs: list[list[tuple[str, float, float]]] = []
    profile = cProfile.Profile() if mode == "prof" else None
    seen: list[tuple[str, float, float]] = []
    last = [0.0]

    def before(conn: Any, _cursor: Any, _statement: str, _params: Any, _context: Any, _many: bool) -> None:
        conn.info["pgclose_t0"] = time.perf_counter()

    def after(conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any, _many: bool) -> None:
        now = time.perf_counter()
        t0 = conn.info["pgclose_t0"]
        seen.append((statement.split("\n")[0][:72], t0 - last[0], now - t0))
        last[0] = now

    async with migrated(backend) as engine:
        clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(3))
        twin = clerk.landsdraad.rounds._twin
        targets = [engine.sync_engine, *([twin] if twin is not None else [])]
        game_id = await _game(engine, clerk, n)
        for turn in range(repeat + 1):
            read = await round_ready(engine, clerk, clock, game_id)
            listening = mode == "stmts" and turn > 0
            for target in targets if listening else ():
                event.listen(target, "before_cursor_execute", before)
                event.listen(target, "after_cursor_execute", after)
            seen.clear()
            gc.collect()
            if profile is not None and turn:
                profile.enable()
            start, cpu = time.perf_counter(), time.process_time()
            last[0] = start
            await clerk.landsdraad.rounds.close_round(game_id, actor=1)
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
            if profile is not None and turn:
                profile.disable()
            for target in targets if listening else ():
                event.remove(target, "before_cursor_execute", before)
                event.remove(target, "after_cursor_execute", after)
            if turn:
                closes.append(took)
                cpus.append(cpu)
                reads += read
                runs.append([*seen, ("(the rest: commit, the unit's end)", start + took - last[0], 0.0)])
    close, plain = statistics.median(closes), statistics.median(reads)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    lines = [f"{backend}, {n:,} voters, {repeat} closes: close median {close * 1e3:.1f} ms wall "
             f"({', '.join(f'{c * 1e3:.1f}' for c in closes)}), {statistics.median(cpus) * 1e3:.1f} ms CPU; plain "
             f"read {plain * 1e3:.1f} ms; ratio {close / plain:.2f}x; load {load}, "
             f"{time.strftime('%H:%M:%S', time.gmtime())} UTC"]
    if mode == "stmts" and runs:
        for i, (text, _, _) in enumerate(runs[0]):
            gaps = [r[i][1] for r in runs if len(r) > i]
            execs = [r[i][2] for r in runs if len(r) > i]
            lines.append(f"  gap {statistics.median(gaps) * 1e3:6.3f} ms  execute "
                         f"{statistics.median(execs) * 1e3:6.3f} ms  {text}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
    return lines


if __name__ == "__main__":
    from bench.__main__ import prepare

    prepare()  # this process as ``python -m bench``'s and the bot's: its imports frozen out of the collector's way
    args = sys.argv[1:]
    print("\n".join(asyncio.run(run(args[0] if args else "sqlite", int(args[1]) if len(args) > 1 else 10_000,
                                    int(args[2]) if len(args) > 2 else 7, args[3] if len(args) > 3 else "time"))))
