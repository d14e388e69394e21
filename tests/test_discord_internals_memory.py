"""bot/discord/backpressure.py and bot/discord/relief.py lean on private parts of discord.py (2.x): the gateway's
``received_message`` (wrapped), the websocket's ``_dispatch`` (the client's bound ``dispatch``), the client's
``_schedule_event`` (overridden by ``ClerkBot`` to count ``on_message`` tasks) and the rate limit's fields. Should an
upgrade rename or stop using any of them, backpressure or the relief would silently do nothing: these tests fail
loudly instead."""

from __future__ import annotations

import inspect

import discord
from discord.client import Client
from discord.gateway import DiscordWebSocket
from discord.http import Ratelimit

from bot.discord.backpressure import install_backpressure


def test_the_gateway_still_reads_each_frame_through_received_message() -> None:
    assert "await self.received_message(msg.data)" in inspect.getsource(DiscordWebSocket.poll_event)
    assert "ws._dispatch = client.dispatch" in inspect.getsource(DiscordWebSocket.from_client)


def test_the_client_still_starts_each_handler_through_schedule_event() -> None:
    assert "self._schedule_event(coro, method, *args, **kwargs)" in inspect.getsource(Client.dispatch)
    assert "create_task" in inspect.getsource(Client._schedule_event)


def test_the_wrapper_is_installed_once() -> None:
    install_backpressure()
    wrapped = DiscordWebSocket.received_message
    install_backpressure()
    assert DiscordWebSocket.received_message is wrapped
    assert wrapped.__module__ == "bot.discord.backpressure"


def test_a_rate_limit_still_has_the_fields_the_relief_reads() -> None:
    for name in ("outgoing", "remaining", "_pending_requests", "_sleeping"):
        assert name in Ratelimit.__slots__, f"discord.py {discord.__version__}: Ratelimit.{name} is gone"
    assert callable(Ratelimit.is_expired)
