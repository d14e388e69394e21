"""Issue 8: with SHARD_COUNT the bot runs as discord.py's AutoShardedClient. Against the fake Discord with two
shards (GET /gateway/bot, IDENTIFY with [shard, count]; the guild on shard 1, DMs on shard 0, as Discord routes
them) the bot connects both shards, answers slash commands in the server and ballots by DM."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from databases import E2E_BACKEND, migrated_copy
from fakediscord import FakeDiscord
from fakediscord.wiring import ErrorLog

from bot.discord.client import ShardedClerkBot
from engine.service.clock import ManualClock

from .clerkbot import START, Harness


@pytest.fixture
def clock() -> ManualClock:
    """One millisecond later than usual: the fake's guild id (a snowflake of this instant) lands on shard 1 of 2."""
    return ManualClock(START + timedelta(milliseconds=1))


@pytest.fixture
async def sharded(fake: FakeDiscord, clock: ManualClock, tmp_path: Path, migrated_database: Path,
                  postgres_schema: str | None, errors: ErrorLog) -> AsyncIterator[Harness]:
    database = await migrated_copy(E2E_BACKEND, tmp_path, migrated_database, postgres_schema)
    harness = Harness(fake, database.url, clock, database.options)
    harness.errors = errors
    harness.bot_options = {"shard_count": 2}
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def test_with_two_shards_the_bot_answers_slash_commands_and_dm_ballots(sharded: Harness) -> None:
    h = sharded
    assert isinstance(h.bot, ShardedClerkBot) and isinstance(h.bot, discord.AutoShardedClient)
    assert sorted(h.fake.shards_identified.values()) == [(0, 2), (1, 2)]
    assert [(g.id, g.shard_id) for g in h.bot.guilds] == [(h.fake.guild_id, 1)]
    assert h.bot.gateway.up == {0: True, 1: True} and h.bot.gateway.connected()  # /healthz, per shard

    game = await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")  # the server: shard 1
    assert "sirius" in game.first.content
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    assert await h.clerk.games.game_in_channel(h.game.id) is not None
    answer = await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))  # a DM: shard 0
    assert "No round is open in sirius" in answer.content and "Nothing was recorded" in answer.content
