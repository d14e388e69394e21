"""The bare discord.py bot as a process of its own (``python bench/barebot.py``), the floor that ``python -m bot run``
is compared with: it answers every DM with a reply "ok".

It is given what Clerk has, so that the baseline is not weakened: the same HTTP settings (``tune_http``: the
connection limit and the amortised bucket clean-up), the same pacer of every request (``Pacer``, Discord's global
limit, 48 a second) and the same post of a message of text alone (``PlainPoster``: the request discord.py's
``send_message`` makes, on discord.py's session, without its bookkeeping around aiohttp; Clerk's receipts go so), all
loaded from Clerk's own files without importing the rest of Clerk. ``CLERK_BARE_SEND=reply`` makes it reply with
discord.py's own ``Message.reply`` instead, the bare bot the benchmarks measured until 2026-12-06 (printed beside
the other as "bare bot, discord.py's reply"); the same
``guild_ready_timeout`` as Clerk's test mode; the same environment (``CLERK_TEST_DISCORD_API``/``_GATEWAY``: the fake
Discord on 127.0.0.1; ``CLERK_TEST_RATE_LIMIT``: the limit it paces to, for the unpaced burst); and Clerk's start-up
treatment of the collector: off during the imports, then ``gc.freeze()`` and on again (bot/__main__.py), about a tenth
of the bare bot's import CPU."""

# ruff: noqa: E402 (the collector is turned off before the imports, as bot/__main__.py does)
from __future__ import annotations

import gc

gc.disable()

import asyncio
import importlib.util
import os
import secrets
import signal
import sys
from collections.abc import Coroutine
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    """One module of bot/discord by its file, without the package (whose ``__init__`` imports all of Clerk)."""
    spec = importlib.util.spec_from_file_location(f"bare_{name}", ROOT / "bot" / "discord" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROFILE_RESTARTED = "TEST MODE: the main thread's profile starts afresh:"
"""As bot/discord/run.py logs it (not imported: that would import all of Clerk)."""
pacing = _load("pacing")
http_tuning = _load("http_tuning")
plain_post = _load("plain_post")
gc.freeze()  # what the imports made lives as long as the process (bot/__main__.py: imported)
gc.enable()


class Echo(discord.Client):
    def __init__(self, rate_limit: int | None, plain: bool = True) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        self.pacer = pacing.Pacer()
        if rate_limit is not None:
            self.pacer.set_limit(rate_limit)
        self.poster = plain_post.PlainPoster(self, self.pacer) if plain else None
        super().__init__(intents=intents, guild_ready_timeout=0.05, http_trace=self.pacer.trace())

    async def login(self, token: str) -> None:
        http_tuning.tune_http(self.http)
        await super().login(token)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not isinstance(message.channel, discord.DMChannel):
            return
        if self.poster is None:
            await message.reply("ok")
            return
        # the arguments Messageable.send gives handle_message_parameters for a reply of text alone (as Clerk's
        # Courier.send_plain does), posted as Clerk posts it
        with discord.http.handle_message_parameters(
                content="ok", nonce=secrets.randbits(64), message_reference=message.to_message_reference_dict(),
                previous_allowed_mentions=self.allowed_mentions, allowed_mentions=None, view=None,
                poll=None) as params:
            await self.poster.post(message.channel.id, params)


async def profiled(work: Coroutine[Any, Any, None], path: str) -> None:
    """``CLERK_TEST_PROFILE``, as Clerk's test mode has it (bot/discord/run.py ``MainThreadProfile``): a cProfile of
    the main thread written to ``path`` at the end, started afresh at each SIGUSR1 (logged, for the benchmark)."""
    import cProfile
    import time

    profiles = [cProfile.Profile(time.thread_time)]

    def restart() -> None:
        profiles[-1].disable()
        profiles.append(cProfile.Profile(time.thread_time))
        print(f"{PROFILE_RESTARTED} {len(profiles) - 1}", file=sys.stderr, flush=True)
        profiles[-1].enable()

    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, restart)
    profiles[-1].enable()
    try:
        await work
    finally:
        profiles[-1].disable()
        profiles[-1].dump_stats(path)


async def main() -> None:
    env = os.environ
    discord.http.Route.BASE = env["CLERK_TEST_DISCORD_API"]  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(env["CLERK_TEST_DISCORD_GATEWAY"])
    limit = env.get("CLERK_TEST_RATE_LIMIT")
    client = Echo(int(limit) if limit else None, plain=env.get("CLERK_BARE_SEND", "plain") != "reply")
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(client.close()))
    async with client:
        await client.start(env["DISCORD_TOKEN"])


if __name__ == "__main__":
    profile = os.environ.get("CLERK_TEST_PROFILE")
    asyncio.run(main() if profile is None else profiled(main(), profile))
    sys.exit(0)
