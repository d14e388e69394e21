"""End to end and burst with each bot a process of its own (bench/procs.py): the honest figures of issue 20.

- **DM -> receipt**: Clerk (``python -m bot run``) and the bare bot (bench/barebot.py, given Clerk's post of text
  alone; and the same bot replying with discord.py's ``Message.reply``, the reference until 2026-12-06) take turns,
  three rounds of blocks (``ORDER``), each block a fresh process that has finished starting.
  All pace their requests to Discord's global limit with the same pacer (48 a second), and the DMs come one at a
  time at most 40 a second (each waits for the reply to the one before, and for its turn), so the pacer never holds
  a reply of either bot: the figure is the bots' own latency.
- **Burst**: 5,000 DMs from 5,000 players written to the gateway back to back, every bot unpaced
  (``CLERK_TEST_RATE_LIMIT``), three rounds as above; acknowledged DMs per second."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

from bench.common import Timing
from bench.procs import UNPACED, Child, ProcFake, World, clerk_first_pass, dm_and_wait, ready, spawn, start_fake
from bench.profiles import DMS_FILE
from bot.discord.run import PROFILE_RESTARTED

PLAYERS = 20
CADENCE = 1 / 40
"""Seconds between the starts of two DMs (at least): slower than the pacer's 1/48 s, so it never waits."""
CHOICES = ("Aye", "Nay", "Abstain")
ORDER = (("bare", "clerk", "bare-reply"), ("clerk", "bare-reply", "bare"), ("bare-reply", "bare", "clerk"))
"""Three rounds, each bot once a round and once in each place (a Latin square). ``bare``: the bare bot given what
Clerk has, its post of text alone too (bench/barebot.py), the reference of the targets; ``bare-reply``: the same
bot replying with discord.py's ``Message.reply``, the reference until 2026-12-06, printed beside it."""
REPLY_ROW = "bare bot, discord.py's reply (until 12-06)"


async def started(fake: ProcFake, world: World, kind: str, rate_limit: int | None = None,
                  profile: Path | None = None) -> Child:
    """A bot process that has answered a first DM and finished its start-up work (no CPU used for 0.3 s); with
    ``profile``, writing a cProfile of its main thread there when it stops, of what it did from now on."""
    child = await spawn(fake, kind, world.workdir, world.url if kind == "clerk" else None, rate_limit,
                        profile=profile)
    try:
        await ready(fake, child, world.users[0][-1], "Vote: Abstain" if kind == "clerk" else "hello")
        if kind == "clerk":
            await clerk_first_pass(fake, child)
        await child.settled()
        if profile is not None:  # the log is shared by the blocks of one bot: a new line, not the first
            seen = child.log.read_text().count(PROFILE_RESTARTED)
            child.profile_from_now()
            await fake.wait_for(lambda: child.log.read_text().count(PROFILE_RESTARTED) > seen,
                                "the profile's restart", timeout=60)
    except BaseException:
        await child.stop()
        raise
    return child


def _profile(profiles: Path | None, kind: str, what: str, p: int) -> Path | None:
    """Where a bot's profile of one block goes (``--bot-profile=DIR``), or None."""
    return None if profiles is None else profiles / f"{kind}-{what}-{p + 1}.prof"


def _profiled(profile: Path | None, dms: int) -> None:
    """Note how many DMs the block's profile covers (``DMS_FILE`` beside it), for bench/profiles.py."""
    if profile is not None:
        with (profile.parent / DMS_FILE).open("a") as index:
            index.write(f"{profile.name} {dms}\n")


async def _block(fake: ProcFake, world: World, kind: str, n: int, offset: int,
                 profile: Path | None = None) -> list[float]:
    child = await started(fake, world, kind, profile=profile)
    samples = []
    try:
        users = world.users[0]
        for i in range(n):
            start = time.perf_counter()
            text = f"Vote: {CHOICES[(offset + i) % 3]}" if kind == "clerk" else "hello"
            samples.append(await dm_and_wait(fake, users[(offset + i) % len(users)], text) - start)
            await asyncio.sleep(max(0.0, start + CADENCE - time.perf_counter()))
    finally:
        await child.stop()
    _profiled(profile, len(samples))
    return samples


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def e2e(n: int = 600, profiles: Path | None = None) -> list[str]:
    fake = await start_fake()
    world = World(fake, 1, PLAYERS)
    await world.setup()
    per = n // len(ORDER)
    got: dict[str, list[list[float]]] = {"bare": [], "clerk": [], "bare-reply": []}
    try:
        for p, pair in enumerate(ORDER):
            for kind in pair:
                got[kind].append(await _block(fake, world, kind, per, p * per, _profile(profiles, kind, "e2e", p)))
    finally:
        await fake.stop()
    bare = Timing("bare discord.py bot, DM -> \"ok\"", [s for b in got["bare"] for s in b])
    reply = Timing(REPLY_ROW, [s for b in got["bare-reply"] for s in b])
    clerk = Timing("Clerk, DM ballot -> receipt", [s for b in got["clerk"] for s in b])
    ratio, p99 = clerk.median / bare.median, _p99(clerk.samples) / _p99(bare.samples)
    pairs = ", ".join(f"{statistics.median(c) / statistics.median(b):.2f}x"
                      for b, c in zip(got["bare"], got["clerk"], strict=True))
    return ["End to end, each bot its own process (python -m bot run; the fake in the benchmark's process; all "
            "paced alike, DMs at most 40/s)",
            bare.row(bare) + f"   p99 {_p99(bare.samples) * 1e3:7.3f} ms",
            reply.row(bare) + f"   p99 {_p99(reply.samples) * 1e3:7.3f} ms",
            clerk.row(bare) + f"   p99 {_p99(clerk.samples) * 1e3:7.3f} ms",
            f"  the three rounds, Clerk to the bare bot: {pairs}; Clerk to discord.py's reply: "
            f"{clerk.median / reply.median:.2f}x",
            f"  target: median <= 2x the bare bot: {ratio:.2f}x, {'ok' if ratio <= 2 else 'OVER'}; "
            f"p99 <= 3x: {p99:.2f}x, {'ok' if p99 <= 3 else 'OVER'}"]


async def _burst(fake: ProcFake, world: World, kind: str, text: str, profile: Path | None = None) -> float:
    child = await started(fake, world, kind, UNPACED, profile)
    try:
        before = len(fake.sent)
        start = time.perf_counter()
        ids = await fake.dm_burst([(u, text) for u in world.users[0]])
        wanted = set(ids)
        await fake.wait_for(lambda: len(fake.sent) - before >= len(ids)
                            and wanted <= {s.reference for s in fake.sent[before:]},
                            f"{len(ids)} replies", timeout=600)
        rate = len(ids) / (time.perf_counter() - start)
    finally:
        await child.stop()
    _profiled(profile, len(world.users[0]))
    return rate


async def burst(n: int = 5000, profiles: Path | None = None) -> list[str]:
    fake = await start_fake()
    world = World(fake, 1, n)
    await world.setup()
    rates: dict[str, list[float]] = {"bare": [], "clerk": [], "bare-reply": []}
    try:
        for p, pair in enumerate(ORDER):
            for kind in pair:
                text = f"Vote: {CHOICES[p % 2]}" if kind == "clerk" else "hello"
                rates[kind].append(await _burst(fake, world, kind, text, _profile(profiles, kind, "burst", p)))
    finally:
        await fake.stop()
    bare, clerk = statistics.median(rates["bare"]), statistics.median(rates["clerk"])
    reply = statistics.median(rates["bare-reply"])
    each = ", ".join(f"{c / b:.2f}" for b, c in zip(rates["bare"], rates["clerk"], strict=True))
    return [f"Burst: {n:,} DMs at once, one per player, each bot its own process, all unpaced",
            f"  {'bare discord.py bot:':<44} {bare:6.0f} replies/s   "
            f"({', '.join(f'{r:.0f}' for r in rates['bare'])})",
            f"  {REPLY_ROW + ':':<44} {reply:6.0f} replies/s   "
            f"({', '.join(f'{r:.0f}' for r in rates['bare-reply'])})",
            f"  {'Clerk:':<44} {clerk:6.0f} receipts/s  ({', '.join(f'{r:.0f}' for r in rates['clerk'])})",
            f"  the three rounds: {each} of the bare bot's rate; {clerk / reply:.2f} of discord.py's reply's",
            f"  target: at least 0.90 of the bare bot's rate: {clerk / bare:.2f}, "
            f"{'ok' if clerk / bare >= 0.9 else 'OVER'}"]


if __name__ == "__main__":
    async def both() -> list[str]:
        return [*await e2e(120), *await burst(1000)]

    print("\n".join(asyncio.run(both())))
