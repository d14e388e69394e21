"""Start-up: ``python -m bot run`` from the spawn to its reply to a first DM (sent as soon as it has identified on the
gateway), with 1 and with 1,000 games in its database, next to the bare discord.py bot (bench/barebot.py) started the
same way against the same fake (in this process); three interleaved pairs each. And the offline front ends:
``python -m bot replay`` of a one-line transcript and ``python -m bot console`` (on a fresh database and on one
already migrated), from the spawn to the end of the process (an upper bound of "ready to type": the console reads
``quit`` at once)."""

from __future__ import annotations

import asyncio
import os
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field

from bench.procs import BYTECODE, ROOT, Child, ProcFake, World, bot_environ, clerk_first_pass, ready, spawn, start_fake

TITLE = "Start-up (each bot its own process, the fake Discord in the benchmark's; spawn -> reply to a first DM)"
PAIRS = 3
LIMIT = 1.5
"""Target: Clerk's start to ready at most 1.5x the bare bot's; the offline front ends under 1.5 s."""
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Starts:
    """Seconds from spawn to ready, the CPU seconds the process had used by then, and the resident memory (MB) once
    started and idle, of each start."""

    seconds: dict[str, list[float]] = field(default_factory=lambda: {"bare": [], "clerk": []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"bare": [], "clerk": []})
    idle_mb: dict[str, list[float]] = field(default_factory=lambda: {"bare": [], "clerk": []})
    work: list[float] = field(default_factory=list)
    """Clerk's: seconds from the spawn to the end of the deadline scheduler's first pass (``FIRST_PASS``: the start's
    work, the recovery and each ruleset's ``Front.at_start`` among it, done), seen within ``POLL`` (5 ms)."""
    work_cpu: list[float] = field(default_factory=list)
    """Clerk's CPU seconds by then."""


async def starts(fake: ProcFake, world: World, pairs: int) -> Starts:
    """``pairs`` interleaved pairs of starts (bare, Clerk; Clerk, bare; ...), each stopped once idle, after one
    untimed start of each (which writes the bytecode of whatever it imports, ``BYTECODE``)."""
    got = Starts()
    user = world.users[0][0]
    for p in range(-1, pairs):
        for kind in (("bare", "clerk") if p % 2 == 0 else ("clerk", "bare")):
            child = await spawn(fake, kind, world.workdir, world.url if kind == "clerk" else None)
            worked = asyncio.ensure_future(_worked(fake, child)) if kind == "clerk" else None
            try:
                seconds = await ready(fake, child, user, "Vote: Aye" if kind == "clerk" else "hello")
                cpu = child.cpu()
                if worked is not None:  # so that its stop is not in the middle of start-up work
                    at, work_cpu = await worked
                    if p >= 0:
                        got.work.append(at - child.started)
                        got.work_cpu.append(work_cpu)
                await child.settled()
                if p >= 0:
                    got.seconds[kind].append(seconds)
                    got.cpu[kind].append(cpu)
                    got.idle_mb[kind].append(child.rss_mb())
            finally:
                if worked is not None:
                    worked.cancel()
                await child.stop()
    return got


async def _worked(fake: ProcFake, child: Child) -> tuple[float, float]:
    """When (``perf_counter``) Clerk's start's work was done, seen within ``POLL`` as its log's ``FIRST_PASS``
    line, and its CPU seconds then."""
    await clerk_first_pass(fake, child)
    return time.perf_counter(), child.cpu()


def start_rows(games: int, got: Starts) -> list[str]:
    bare, clerk = got.seconds["bare"], got.seconds["clerk"]
    ratio = statistics.median(clerk) / statistics.median(bare)
    many = f"{games:,} game{'s' if games > 1 else ''}"
    mb = {kind: statistics.median(v) for kind, v in got.idle_mb.items()}
    return [_row(f"bare discord.py bot ({many} in Clerk's)", bare, bare),
            _row(f"Clerk, python -m bot run, {many}", clerk, bare),
            f"  target: Clerk <= {LIMIT}x the bare bot: {ratio:.2f}x, {'ok' if ratio <= LIMIT else 'OVER'}",
            f"  CPU used by then (user + system, steadier than the seconds on a busy machine): Clerk "
            f"{statistics.median(got.cpu['clerk']):.2f} s, the bare bot {statistics.median(got.cpu['bare']):.2f} s: "
            f"{statistics.median(got.cpu['clerk']) / statistics.median(got.cpu['bare']):.2f}x",
            *work_rows(got),
            f"  ({BYTECODE})",
            f"  resident memory, started and idle: Clerk {mb['clerk']:.0f} MB, the bare bot {mb['bare']:.0f} MB: "
            f"{mb['clerk'] / mb['bare']:.2f}x"]


def work_rows(got: Starts) -> list[str]:
    """The start's work (Clerk's scheduler's first pass done) next to the bare bot's start to ready; none when not
    measured."""
    if not got.work:
        return []
    bare_cpu = statistics.median(got.cpu["bare"])
    return [_row("Clerk, spawn -> the start's work done", got.work, got.seconds["bare"]),
            f"    (the deadline scheduler's first pass: the recovery, each ruleset's work at start, what is due; "
            f"CPU by then {statistics.median(got.work_cpu):.2f} s, {statistics.median(got.work_cpu) / bare_cpu:.2f}x "
            f"the bare bot's at ready)"]


def _row(name: str, samples: list[float], floor: list[float] | None = None) -> str:
    ratio = f"{statistics.median(samples) / statistics.median(floor):5.2f}x" if floor else "    -"
    each = ", ".join(f"{s:.2f}" for s in samples)
    return f"  {name:<44} median {statistics.median(samples):6.2f} s  ({each})  {ratio}"


async def _wall(*args: str, stdin: bytes = b"") -> float:
    start = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, cwd=ROOT, env=bot_environ(),
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
                                                stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate(stdin)
    if proc.returncode != 0:
        raise RuntimeError(f"python -m bot {' '.join(args)} exited {proc.returncode}: {err.decode()[-2000:]}")
    return time.perf_counter() - start


async def offline(runs: int = 3) -> list[str]:
    fake = await start_fake()
    world = World(fake, 0, 0)
    await fake.stop()
    transcript = world.workdir / "one.txt"
    transcript.write_text("alice #general: /help\n")
    await _wall("replay", str(transcript))  # untimed: the bytecode of what replay and the console import (BYTECODE)
    replay = [await _wall("replay", str(transcript)) for _ in range(runs)]
    fresh = [await _wall("console", "--database", f"sqlite+aiosqlite:///{world.workdir / f'c{i}.db'}",
                         stdin=b"quit\n") for i in range(runs)]
    kept = [await _wall("console", "--database", f"sqlite+aiosqlite:///{world.workdir / 'c0.db'}",
                        stdin=b"quit\n") for _ in range(runs)]
    lines = [_row("replay of a one-line transcript", replay),
             _row("console, a new database (made at the head)", fresh),
             _row("console, a database at the newest revision", kept)]
    worst = max(statistics.median(s) for s in (replay, fresh, kept))
    lines.append(f"  target: replay and console under {LIMIT} s: {worst:.2f} s at most, "
                 f"{'ok' if worst < LIMIT else 'OVER'}")
    return lines


FLOORS = (("discord.py and aiohttp (the bare bot's)", "discord, aiohttp"),
          ("and SQLAlchemy's ORM, asyncio extension, aiosqlite",
           "discord, aiohttp, sqlalchemy.orm, sqlalchemy.ext.asyncio, sqlalchemy.dialects.sqlite.aiosqlite"),
          ("Clerk's bot.discord.run (all it imports to start)", "bot.discord.run"),
          ("the same as python -m bot has it (dataclass_code)",
           "bot.dataclass_code; bot.dataclass_code.start(); import bot.discord.run; bot.dataclass_code.stop()"))
"""What each import costs on its own: the floor of the stack under both bots' start-up, next to Clerk's own."""


async def _import_cost(modules: str) -> tuple[float, float]:
    """CPU seconds (user + system) of a Python that imports ``modules`` and exits at once (``os._exit``: no
    clean-up), the collector off during the imports as ``python -m bot`` has it (bot/__main__.py); and its resident
    memory (MB) once they are imported (after ``gc.freeze()``, as ``python -m bot`` does then)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    program = (f"import gc, os, sys; gc.disable(); import {modules}; gc.freeze(); "
               "sys.stdout.write(open('/proc/self/statm').read().split()[1]); sys.stdout.flush(); os._exit(0)")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", program, cwd=ROOT, env=bot_environ(),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"import {modules} failed: {err.decode()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            int(out) * PAGE / 2**20)


async def import_floors(runs: int = 5) -> list[str]:
    """Each of ``FLOORS`` ``runs`` times, in turns, after one untimed round (``BYTECODE``): the CPU and the memory
    of the imports alone, the floor of each bot's start and idle memory before it does anything."""
    got: list[list[tuple[float, float]]] = [[] for _ in FLOORS]
    for r in range(runs + 1):
        for i, (_, modules) in enumerate(FLOORS):
            cost = await _import_cost(modules)
            if r:
                got[i].append(cost)
    cpu = [statistics.median(c for c, _ in samples) for samples in got]
    mb = [statistics.median(m for _, m in samples) for samples in got]
    lines = ["  the imports alone (a Python that imports them and exits at once, in turns: CPU; resident memory):"]
    for (name, _), c, m in zip(FLOORS, cpu, mb, strict=True):
        lines.append(f"  {name:<52} median {c:5.2f} s CPU {c / cpu[0]:5.2f}x   {m:4.0f} MB {m / mb[0]:5.2f}x")
    room = LIMIT * mb[0] - mb[1]
    lines.append(f"  (a bot on SQLAlchemy's ORM and asyncio extension imports {cpu[1] / cpu[0]:.2f}x the bare bot's CPU"
                 f" and holds {mb[1] / mb[0]:.2f}x its memory before it does anything: the {LIMIT}x start target is "
                 f"{'below' if cpu[1] / cpu[0] > LIMIT else 'above'} that floor, and the {LIMIT}x idle memory target "
                 f"leaves {room:.0f} MB for all of Clerk's own code, connections and threads, whose imports alone "
                 f"take {mb[3] - mb[1]:.0f} MB)")
    return lines


async def run(pairs: int = PAIRS) -> list[str]:
    """One game of 20 players (bench/many.py has the 1,000 games), and the offline front ends."""
    fake = await start_fake()
    try:
        world = World(fake, 1, 20)
        await world.setup()
        got = await starts(fake, world, pairs)
    finally:
        await fake.stop()
    return [TITLE, *start_rows(1, got), *await import_floors(3 if pairs == 1 else 5), *await offline()]


if __name__ == "__main__":
    print("\n".join(asyncio.run(run())))
