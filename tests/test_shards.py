"""SHARD_COUNT and SHARD_IDS: read from the environment (bad values refused with what is accepted), and the bot
class they pick (``make_bot``): a plain client without them, discord.py's AutoShardedClient with them."""

from __future__ import annotations

import discord
import pytest

from bot.actions.commands import App
from bot.discord.client import ClerkBot, ShardedClerkBot, make_bot
from bot.settings import ConfigError, load_settings
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker


def settings(**env: str) -> tuple[int | None, tuple[int, ...] | None]:
    found = load_settings(env=env)
    return found.shard_count, found.shard_ids


def test_shards_come_from_the_environment() -> None:
    assert settings() == (None, None)
    assert settings(SHARD_COUNT="4") == (4, None)
    assert settings(SHARD_COUNT="4", SHARD_IDS="3, 1") == (4, (1, 3))


@pytest.mark.parametrize(("env", "says"), [
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number of shards, 1 or more, not '0'"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number of shards, 1 or more, not 'two'"),
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT (the total number of shards), e.g. SHARD_COUNT=4"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be shard numbers from 0 to 1 separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "SHARD_IDS must be shard numbers from 0 to 1 separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS names a shard twice: '1,1'"),
])
def test_bad_shard_settings_say_what_is_accepted(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(env=env)
    assert says in str(refused.value)


async def test_make_bot_picks_the_sharded_client_only_with_a_shard_count() -> None:
    engine = make_engine("sqlite+aiosqlite:///:memory:")  # never connected: building a bot touches no database
    app = App(Clerk(make_sessionmaker(engine), ManualClock(), RandomDice(1)))
    plain = make_bot(app)
    assert type(plain) is ClerkBot and not isinstance(plain, discord.AutoShardedClient)
    sharded = make_bot(app, shard_count=4, shard_ids=(1, 3))
    assert isinstance(sharded, ShardedClerkBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    await engine.dispose()
