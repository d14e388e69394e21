"""`python -m bench.burstcpu [N] [PAIRS] [--spy=DIR]`: each bot's CPU per DM of an unpaced burst of N DMs (one per
player), by thread (user + system from /proc/PID/task/TID/stat before and after the burst), the bots in turns
(bare, Clerk, ...), as `python -m bench burst` starts them. Also the benchmark's own CPU per DM (the fake
Discord's work) and the wall time per DM. With --spy=DIR, py-spy (if installed) records each burst of each bot into
DIR/KIND-N.txt, raw collapsed stacks of whichever thread holds the GIL (``--gil``, 400 samples a second): for
comparing parts of the code, not latencies (the sampling costs the bot CPU of its own, and without ``--gil``
py-spy counts threads waiting for the GIL as busy)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

from bench.procs import TICKS, UNPACED, ProcFake, World, start_fake
from bench.separate import started


def threads(pid: int) -> dict[str, float]:
    """CPU seconds (user + system) of each thread of ``pid`` so far, by thread name (numbered if repeated)."""
    out: dict[str, float] = {}
    for task in sorted(Path(f"/proc/{pid}/task").iterdir(), key=lambda p: int(p.name)):
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:
            continue
        name = stat[stat.index("(") + 1: stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        key = name if task.name != str(pid) else "main"
        if key == "(system, all threads)":
            key = name
        while key in out:
            key += "'"
        out[key] = (int(fields[11]) + int(fields[12])) / TICKS
        out["(system, all threads)"] = out.get("(system, all threads)", 0.0) + int(fields[12]) / TICKS
    return out


async def one(fake: ProcFake, world: World, kind: str, text: str, spy: Path | None,
              p: int) -> tuple[float, dict[str, float]]:
    child = await started(fake, world, kind, UNPACED)
    recorder = None
    try:
        before = threads(child.proc.pid)
        if spy is not None and shutil.which("py-spy"):
            recorder = await asyncio.create_subprocess_exec(
                "py-spy", "record", "--gil", "--threads", "-r", "400", "-f", "raw",
                "-o", str(spy / f"{kind}-{p}.txt"), "--pid", str(child.proc.pid),
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            await asyncio.sleep(1.0)
            before = threads(child.proc.pid)
        n0 = len(fake.sent)
        own0 = sum(os.times()[:2])
        start = time.perf_counter()
        ids = await fake.dm_burst([(u, text) for u in world.users[0]])
        wanted = set(ids)
        await fake.wait_for(lambda: len(fake.sent) - n0 >= len(ids)
                            and wanted <= {s.reference for s in fake.sent[n0:]}, "replies", timeout=600)
        wall = time.perf_counter() - start
        rate = len(ids) / wall
        own = sum(os.times()[:2]) - own0
        await asyncio.sleep(0.3)
        after = threads(child.proc.pid)
        if recorder is not None:
            recorder.send_signal(2)
            await recorder.wait()
    finally:
        await child.stop()
    n = len(world.users[0])
    print(f"  {kind}: wall {wall / n * 1e3:.3f} ms/DM, the fake's (this process's) CPU {own / n * 1e3:.3f} ms/DM",
          flush=True)
    return rate, {k: (after[k] - before.get(k, 0.0)) / n * 1e3 for k in after if after[k] - before.get(k, 0.0) > 0}


async def main(n: int, pairs: int, spy: Path | None) -> None:
    fake = await start_fake()
    world = World(fake, 1, n)
    await world.setup()
    try:
        for p in range(pairs):
            for kind in ("bare", "clerk") if p % 2 == 0 else ("clerk", "bare"):
                text = "Vote: Aye" if kind == "clerk" and p % 2 == 0 else "Vote: Nay" if kind == "clerk" else "hi"
                rate, cpu = await one(fake, world, kind, text, spy, p)
                load = Path("/proc/loadavg").read_text().split()[0]
                system = cpu.pop("(system, all threads)", 0.0)
                per = ", ".join(f"{k} {v:.3f}" for k, v in sorted(cpu.items(), key=lambda kv: -kv[1]))
                print(f"{kind:5} {rate:6.0f}/s  CPU ms/DM total {sum(cpu.values()):.3f} (of it system {system:.3f}): "
                      f"{per}   (load {load})",
                      flush=True)
    finally:
        await fake.stop()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    spy = next((Path(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--spy=")), None)
    if spy is not None:
        spy.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(int(args[0]) if args else 2000, int(args[1]) if len(args) > 1 else 2, spy))
