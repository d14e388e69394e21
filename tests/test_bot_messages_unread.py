"""Clerk leaves the gateway's messages written by a bot unbuilt (``read_no_bot_messages``, bot/discord/client.py):
its own receipts come back to it one per message it sends, and ``on_message`` drops every bot's message anyway.
A person's message is built and dispatched as before, on the plain and the sharded client alike."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.actions.commands import App
from bot.discord.client import make_bot
from bot.discord.contexts import DirectMessage, ctx_of_dm, ctx_of_message
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker


def dm(author: dict[str, Any], message_id: int) -> dict[str, Any]:
    return {"id": str(message_id), "channel_id": "500", "author": author, "content": "Vote: Aye", "timestamp":
            "2026-03-01T18:00:00+00:00", "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": False, "type": 0}


@pytest.mark.parametrize("shards", [None, 2])
async def test_a_bots_message_is_not_built_and_a_persons_is(shards: int | None) -> None:
    """A bot's message is dropped unbuilt; a person's message in a server is built and dispatched as before; a
    person's DM is read from the gateway's data (``DirectMessage``) and handled in an ``on_message`` task counted by
    the intake, with what discord.py's ``Message`` would have said of it."""
    engine = make_engine("sqlite+aiosqlite:///:memory:")  # never connected: building a bot touches no database
    bot = make_bot(App(Clerk(make_sessionmaker(engine), ManualClock(), RandomDice(1))), shard_count=shards)
    seen: list[tuple[str, tuple[Any, ...]]] = []
    bot._connection.dispatch = lambda event, *args, **kwargs: seen.append((event, args))  # what it would dispatch
    direct: list[DirectMessage] = []
    handled = asyncio.Event()

    async def on_direct_message(message: DirectMessage) -> None:
        direct.append(message)
        handled.set()

    bot.on_direct_message = on_direct_message  # type: ignore[method-assign]
    bot.loop = asyncio.get_running_loop()  # as login sets it (discord.py starts the event's task on it)
    parse = bot._connection.parsers["MESSAGE_CREATE"]
    person = {"id": "7", "username": "alice", "discriminator": "0", "avatar": None}
    parse(dm({**person, "id": "8", "username": "clerk", "bot": True}, 1001))
    parse({**dm({**person, "id": "8", "username": "clerk", "bot": True}, 1003), "guild_id": "900"})
    assert seen == [] and direct == []
    parse({**dm(person, 1004), "guild_id": "900"})
    assert [event for event, _ in seen] == ["message"]
    message = seen[0][1][0]
    assert isinstance(message, discord.Message) and message.id == 1004 and message.author.name == "alice"
    assert not message.author.bot
    parse(dm(person, 1002))
    assert bot.intake.in_flight == 1  # counted until handled (backpressure.py)
    await handled.wait()
    assert len(seen) == 1 and direct == [DirectMessage(1002, 500, 7, "alice", "Vote: Aye", 0)]
    built = discord.Message(state=bot._connection, channel=discord.DMChannel._from_message(bot._connection, 500),
                            data=dm(person, 1002))  # type: ignore[arg-type]
    assert direct[0].created_at == built.created_at
    assert ctx_of_dm(direct[0]) == ctx_of_message(built)
    parse({**dm(person, 1005), "type": 7})  # a system message (member joined) is not read
    await asyncio.sleep(0)
    assert bot.intake.in_flight == 0 and len(direct) == 1
    await engine.dispose()
