"""1,000 games of 20 players (20,000 players, round 1 open in each): start to ready (three interleaved pairs with the
bare bot, as bench/startup.py) and the resident memory of each bot process, idle and after every player has DMed
once (Clerk: every player has voted; both unpaced, the 20,000 DMs written to the gateway back to back)."""

from __future__ import annotations

import asyncio
import time

from bench.procs import UNPACED, ProcFake, World, start_fake
from bench.separate import started
from bench.startup import PAIRS, TITLE, start_rows, starts

GAMES = 1000
PLAYERS = 20
MEMORY_BUDGET = 150
"""MB: Clerk's target with 1,000 games of 20 players after every player voted."""


async def _after_voting(fake: ProcFake, world: World, kind: str) -> tuple[float, float, float]:
    """(idle MB, MB once every player's DM is answered, seconds the DMs took)."""
    child = await started(fake, world, kind, UNPACED)
    try:
        idle = child.rss_mb()
        before = len(fake.sent)
        start = time.perf_counter()
        ids = await fake.dm_burst([(u, "Vote: Aye" if kind == "clerk" else "hello") for u in world.everyone])
        await fake.wait_for(lambda: len(fake.sent) - before >= len(ids), f"{len(ids)} replies", timeout=900)
        took = time.perf_counter() - start
        await child.settled()
        return idle, child.rss_mb(), took
    finally:
        await child.stop()


async def run(games: int = GAMES, pairs: int = PAIRS) -> list[str]:
    fake = await start_fake()
    try:
        world = World(fake, games, PLAYERS)
        await world.setup()
        got = await starts(fake, world, pairs)
        bare = await _after_voting(fake, world, "bare")
        clerk = await _after_voting(fake, world, "clerk")
    finally:
        await fake.stop()
    players = games * PLAYERS
    ok = clerk[1] < MEMORY_BUDGET
    idle_ratio = clerk[0] / bare[0]
    return [TITLE.replace("Start-up", f"Start-up and memory with {games:,} games of {PLAYERS}"),
            *start_rows(games, got),
            f"  resident memory after {players:,} DMs, one per player: Clerk {clerk[1]:.0f} MB "
            f"(every player voted, {players / clerk[2]:.0f} receipts/s), the bare bot {bare[1]:.0f} MB",
            f"  target: idle <= 1.5x the bare bot: {idle_ratio:.2f}x, {'ok' if idle_ratio <= 1.5 else 'OVER'}; "
            f"after voting < {MEMORY_BUDGET} MB: {clerk[1]:.0f} MB, {'ok' if ok else 'OVER'}"]


if __name__ == "__main__":
    print("\n".join(asyncio.run(run(50, 1))))
