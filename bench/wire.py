"""The fake Discord of tests/fakediscord, and two bots on it: Clerk (the real adapter, service and store) and a bare
discord.py bot that answers every DM with "ok" (the floor of the stack: gateway, HTTP, discord.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import discord
import discord.gateway
import discord.http
import yarl
from fakediscord import TOKEN, FakeDiscord, User
from sqlalchemy import insert

from bench.common import migrated_sqlite, scratch_dir
from bot.actions.commands import App
from bot.discord import make_bot
from bot.discord.http_tuning import tune_http
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.models import Player

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
READY = 0.02


def point_at(fake: FakeDiscord) -> None:
    discord.http.Route.BASE = fake.api_base  # type: ignore[misc]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)


class Bot(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...


async def _connect(client: discord.Client) -> asyncio.Task[None]:
    await client.__aenter__()
    task = asyncio.create_task(client.start(TOKEN))
    await asyncio.wait_for(client.wait_until_ready(), 10)
    return task


async def _disconnect(client: discord.Client, task: asyncio.Task[None]) -> None:
    await client.close()
    await asyncio.wait_for(task, 10)


class Echo(discord.Client):
    async def login(self, token: str) -> None:
        tune_http(self.http)  # the same discord.py HTTP settings as Clerk's (bot/discord/http_tuning.py)
        await super().login(token)

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot and isinstance(message.channel, discord.DMChannel):
            await message.reply("ok")


@dataclass
class BareBot:
    """discord.py alone: every DM is answered "ok" (a reply, as Clerk's receipts are)."""

    task: asyncio.Task[None] | None = None
    client: discord.Client | None = None

    async def start(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        self.client = Echo(intents=intents, guild_ready_timeout=READY)
        self.task = await _connect(self.client)

    async def stop(self) -> None:
        assert self.client is not None and self.task is not None
        await _disconnect(self.client, self.task)


@dataclass
class ClerkWorld:
    """Clerk on a fresh SQLite file: one Landsdraad game in a channel of the fake, ``players`` players (users of the
    fake, written to the ledger in bulk), round 1 open."""

    fake: FakeDiscord
    players: int
    users: list[User] = field(default_factory=list)
    clock: ManualClock = field(default_factory=lambda: ManualClock(START))

    async def setup(self) -> None:
        self.url = await migrated_sqlite(scratch_dir() / "clerk.db")
        self.engine = make_engine(self.url)
        self.clerk = Clerk(make_sessionmaker(self.engine), self.clock, RandomDice(5))
        channel = self.fake.add_channel("sirius")
        game = await self.clerk.games.create_game(guild_id=self.fake.guild_id, channel_id=channel.id, name="sirius",
                                                  ruleset="landsdraad", moderator_role_id=None,
                                                  actor=self.fake.owner.id)
        self.users = [self.fake.add_user(f"p{i}") for i in range(self.players)]
        rows: list[dict[str, Any]] = [
            {"game_id": game.id, "user_id": u.id, "name": u.name, "faction": None, "diplomacy": 3, "command": 2,
             "intrigue": 2, "roll": 2, "diplomacy_max": 3, "intrigue_max": 2, "misc_votes": 0, "active": True}
            for u in self.users]
        async with self.engine.begin() as conn:
            await conn.execute(insert(Player), rows)
        await self.clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None,
                                                      actor=self.fake.owner.id)
        self.game_id = game.id

    async def start(self) -> None:
        """Connected, and its start-up work done (the import of the charts' library in a worker thread, the
        scheduler's first pass): otherwise the first burst competes with it for the GIL and the bare bot has none."""
        self.bot = make_bot(App(self.clerk), guild_ready_timeout=READY)
        self.task = await _connect(self.bot)
        await self.bot.warmed_up()

    async def stop(self) -> None:
        await _disconnect(self.bot, self.task)

    async def close(self) -> None:
        await self.engine.dispose()


async def fake_discord() -> FakeDiscord:
    fake = FakeDiscord()
    await fake.start()
    point_at(fake)
    return fake
