"""``python -m bot run``: make the resources in main, pass them in, run the bot, dispose of them.

Modelled on discord.py's ``examples/advanced_startup.py``."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.actions.commands import App
from bot.discord.client import make_bot
from bot.settings import Settings
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import upgrade

log = logging.getLogger("clerk")


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    # discord.py's gateway chatter is useful at INFO only when debugging.
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))


async def main(settings: Settings) -> int:
    if not settings.token:
        log.error("DISCORD_TOKEN is not set")
        return 2
    engine = make_engine(settings.database_url)
    try:
        await upgrade(engine)
        clerk = Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(settings.seed))
        app = App(clerk)
        async with make_bot(app, sync_commands=settings.sync_commands, dev_guild_id=settings.dev_guild_id,
                            shard_count=settings.shard_count, shard_ids=settings.shard_ids) as bot:
            try:
                await bot.start(settings.token)
            except discord.LoginFailure:
                log.error("Discord refused the token in DISCORD_TOKEN (check it in the developer portal)")
                return 1
            except discord.PrivilegedIntentsRequired:
                log.error("Discord refused the intents: switch on MESSAGE CONTENT INTENT for the bot "
                          "in the developer portal (Bot tab)")
                return 1
    finally:
        await engine.dispose()
    return 0


def run_bot(settings: Settings) -> int:
    setup_logging(settings.log_level)
    try:
        return asyncio.run(main(settings))
    except KeyboardInterrupt:
        log.info("stopped")
        return 0
