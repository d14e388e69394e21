"""Start-up: ``python -m bot run`` from the spawn to its reply to a first DM (sent as soon as it has identified on the
gateway), with 1 and with 1,000 games in its database, next to the bare discord.py bot (bench/barebot.py) started the
same way against the same fake (in this process); three interleaved pairs each. And the offline front ends:
``python -m bot replay`` of a one-line transcript and ``python -m bot console`` (on a fresh database and on one
already migrated), from the spawn to the end of the process (an upper bound of "ready to type": the console reads
``quit`` at once)."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from bench.procs import ROOT, ProcFake, World, clerk_first_pass, ready, spawn, start_fake

PAIRS = 3
LIMIT = 1.5
"""Target: Clerk's start to ready at most 1.5x the bare bot's; the offline front ends under 1.5 s."""


async def _pairs(fake: ProcFake, world: World, pairs: int) -> tuple[list[float], list[float]]:
    bare, clerk = [], []
    user = world.users[0][0]
    for p in range(pairs):
        for kind in (("bare", "clerk") if p % 2 == 0 else ("clerk", "bare")):
            child = await spawn(fake, kind, world.workdir, world.url if kind == "clerk" else None)
            try:
                text = "Vote: Aye" if kind == "clerk" else "hello"
                (clerk if kind == "clerk" else bare).append(await ready(fake, child, user, text))
                if kind == "clerk":
                    await clerk_first_pass(fake, child)  # so that its stop is not in the middle of start-up work
            finally:
                await child.stop()
    return bare, clerk


def _row(name: str, samples: list[float], floor: list[float] | None = None) -> str:
    ratio = f"{statistics.median(samples) / statistics.median(floor):5.2f}x" if floor else "    -"
    each = ", ".join(f"{s:.2f}" for s in samples)
    return f"  {name:<44} median {statistics.median(samples):6.2f} s  ({each})  {ratio}"


async def _wall(*args: str, stdin: bytes = b"") -> float:
    start = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, cwd=ROOT,
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
    replay = [await _wall("replay", str(transcript)) for _ in range(runs)]
    fresh = [await _wall("console", "--database", f"sqlite+aiosqlite:///{world.workdir / f'c{i}.db'}",
                         stdin=b"quit\n") for i in range(runs)]
    kept = [await _wall("console", "--database", f"sqlite+aiosqlite:///{world.workdir / 'c0.db'}",
                        stdin=b"quit\n") for _ in range(runs)]
    lines = [_row("replay of a one-line transcript", replay),
             _row("console, a fresh database (migrated)", fresh),
             _row("console, a database at the newest revision", kept)]
    worst = max(statistics.median(s) for s in (replay, fresh, kept))
    lines.append(f"  target: replay and console under {LIMIT} s: {worst:.2f} s at most, "
                 f"{'ok' if worst < LIMIT else 'OVER'}")
    return lines


async def run(pairs: int = PAIRS, many: int = 1000) -> list[str]:
    lines = ["Start-up (each bot its own process, the fake Discord in the benchmark's; spawn -> reply to a first DM)"]
    for games in (1, many):
        fake = await start_fake()
        try:
            world = World(fake, games, 20)
            await world.setup()
            bare, clerk = await _pairs(fake, world, pairs)
        finally:
            await fake.stop()
        ratio = statistics.median(clerk) / statistics.median(bare)
        lines += [_row(f"bare discord.py bot ({games:,} game{'s' if games > 1 else ''} in Clerk's)", bare, bare),
                  _row(f"Clerk, python -m bot run, {games:,} game{'s' if games > 1 else ''}", clerk, bare),
                  f"  target: Clerk <= {LIMIT}x the bare bot: {ratio:.2f}x, {'ok' if ratio <= LIMIT else 'OVER'}"]
    return lines + await offline()


if __name__ == "__main__":
    print("\n".join(asyncio.run(run())))
