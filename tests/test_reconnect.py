"""bot/discord/reconnect.py: discord.py's waits between its tries to reconnect to the gateway stop at 64 s (play-test
V6.2: after some minutes of outage they reached 941 s, and the bot came back a quarter of an hour after Discord)."""

from __future__ import annotations

import inspect

import discord.client
import discord.shard
import pytest
from discord.backoff import ExponentialBackoff

from bot.actions.commands import App
from bot.discord.client import make_bot
from bot.discord.reconnect import MAX_EXPONENT, CappedBackoff, install_reconnect_cap
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker


def test_discord_py_still_makes_its_reconnect_backoff_from_the_modules_name() -> None:
    """If an upgrade moves the backoff elsewhere, the cap would silently do nothing: fail here instead."""
    assert "backoff = ExponentialBackoff()" in inspect.getsource(discord.client.Client.connect)
    assert "self._backoff: ExponentialBackoff = ExponentialBackoff()" in inspect.getsource(discord.shard.Shard.__init__)


def test_the_waits_between_reconnects_stop_at_64_seconds() -> None:
    install_reconnect_cap()
    for module in (discord.client, discord.shard):
        backoff = module.ExponentialBackoff()  # as Client.connect and Shard make it
        backoff._randfunc = lambda low, high: high  # the longest wait each time
        assert [backoff.delay() for _ in range(12)] == [2, 4, 8, 16, 32, 64, 64, 64, 64, 64, 64, 64]
    assert 2 ** MAX_EXPONENT == 64


async def test_a_bot_made_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.client, "ExponentialBackoff", ExponentialBackoff)  # as before any bot was made
    monkeypatch.setattr(discord.shard, "ExponentialBackoff", ExponentialBackoff)
    engine = make_engine("sqlite+aiosqlite:///:memory:")
    try:
        make_bot(App(Clerk(make_sessionmaker(engine), ManualClock(), RandomDice(1))))
    finally:
        await engine.dispose()

    assert discord.client.ExponentialBackoff is CappedBackoff
    assert discord.shard.ExponentialBackoff is CappedBackoff
