"""End to end: a DM ballot through the real discord.py client and the fake Discord on 127.0.0.1, from the DM to
the reply that acknowledges it, next to a bare discord.py bot answering every DM with "ok" over the same fake.
The two bots take turns in blocks (one bot is connected at a time, so neither sees the other's DMs)."""

from __future__ import annotations

import time
from functools import partial

from fakediscord import FakeDiscord

from bench.common import Timing
from bench.wire import BareBot, Bot, ClerkWorld, fake_discord

PLAYERS = 20
CHOICES = ("Aye", "Nay", "Abstain")


def _answered(fake: FakeDiscord, before: int, message_id: int) -> bool:
    """Whether the bot has replied to ``message_id``, among what it sent since ``before``. (``fake.reply_to`` scans
    everything sent since the fake started: by the last block 1,200 messages, about 30 µs a look and a few looks
    a DM, added to both bots alike, which flattered the ratio.)"""
    return any(s.reference == message_id and s.kind != "system" for s in fake.sent[before:])


async def _block(bot: Bot, world: ClerkWorld, texts: list[str], offset: int, samples: list[float]) -> None:
    fake = world.fake
    await bot.start()
    try:
        for i, text in enumerate(texts):
            user = world.users[(offset + i) % len(world.users)]
            before = len(fake.sent)
            start = time.perf_counter()
            mid = await fake.dm(user, text)
            await fake.wait_for(partial(_answered, fake, before, mid), f"a reply to message {mid}")
            samples.append(time.perf_counter() - start)
    finally:
        await bot.stop()


async def run(n: int = 600, blocks: int = 6) -> list[str]:
    fake = await fake_discord()
    world = ClerkWorld(fake, PLAYERS)
    await world.setup()
    bare_samples: list[float] = []
    clerk_samples: list[float] = []
    try:
        per = n // blocks
        for b in range(blocks):
            await _block(BareBot(), world, ["hello"] * per, b * per, bare_samples)
            texts = [f"Vote: {CHOICES[(b * per + i) % 3]}" for i in range(per)]
            await _block(world, world, texts, b * per, clerk_samples)
    finally:
        await world.close()
        await fake.stop()
    bare, clerk = Timing("bare discord.py bot, DM -> \"ok\"", bare_samples), Timing("Clerk, DM ballot -> receipt",
                                                                                    clerk_samples)
    ratio = clerk.median / bare.median
    return ["End to end IN-PROCESS (the fake Discord in the bots' process, which flatters the ratio; bench/separate.py "
            "has the honest figure)",
            bare.row(bare), clerk.row(bare),
            f"  target: Clerk <= 4x the bare bot: {ratio:.2f}x, {'ok' if ratio <= 4 else 'OVER'}"]


if __name__ == "__main__":
    import asyncio

    print("\n".join(asyncio.run(run())))
