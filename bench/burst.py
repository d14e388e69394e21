"""Burst: 5,000 DMs injected at once (every player's ballot in the rush before a deadline), and the rate of
acknowledged ballots per second, next to the bare discord.py bot's rate for 5,000 DMs in the same run."""

from __future__ import annotations

import asyncio
import time

from fakediscord import FakeDiscord

from bench.wire import BareBot, Bot, ClerkWorld, fake_discord

DMS = 5_000


async def _burst(fake: FakeDiscord, bot: Bot, world: ClerkWorld, text: str) -> float:
    """Seconds from the first DM sent to the last reply, with every DM from a different user."""
    await bot.start()
    try:
        before = len(fake.sent)
        start = time.perf_counter()
        ids = await fake.dm_burst([(u, text) for u in world.users])
        await fake.wait_for(lambda: len(fake.sent) - before >= len(ids), f"{len(ids)} replies", timeout=600)
        elapsed = time.perf_counter() - start
        answered = {s.reference for s in fake.sent[before:]}
        assert answered >= set(ids), f"{len(set(ids) - answered)} DMs were not answered"
        return elapsed
    finally:
        await bot.stop()


async def run(n: int = DMS) -> list[str]:
    fake = await fake_discord()
    world = ClerkWorld(fake, n)
    await world.setup()
    try:
        bare = await _burst(fake, BareBot(), world, "hello")
        clerk = await _burst(fake, world, world, "Vote: Aye")
        counted = await world.clerk.landsdraad.rounds.round_status(world.game_id)
    finally:
        await world.close()
        await fake.stop()
    voted = len(counted.voted)
    return [f"Burst IN-PROCESS (the fake in the bots' process; bench/separate.py has the honest figure): {n:,} DMs",
            f"  bare discord.py bot: {n / bare:8.0f} replies/s ({bare:.1f} s)",
            f"  Clerk:               {n / clerk:8.0f} acknowledged ballots/s ({clerk:.1f} s); "
            f"{voted:,} ballots in the round; {bare / clerk:.2f} of the bare bot's rate"]


if __name__ == "__main__":
    print("\n".join(asyncio.run(run())))
