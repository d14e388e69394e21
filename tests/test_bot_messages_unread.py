"""Clerk leaves the gateway's messages written by a bot unbuilt (``read_no_bot_messages``, bot/discord/client.py):
its own receipts come back to it one per message it sends, and ``on_message`` drops every bot's message anyway.
A person's message is built and dispatched as before, on the plain and the sharded client alike."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.actions.commands import App
from bot.discord.client import make_bot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker


def dm(author: dict[str, Any], message_id: int) -> dict[str, Any]:
    return {"id": str(message_id), "channel_id": "500", "author": author, "content": "Vote: Aye", "timestamp":
            "2026-03-01T18:00:00+00:00", "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": False, "type": 0}


@pytest.mark.parametrize("shards", [None, 2])
async def test_a_bots_message_is_not_built_and_a_persons_is(shards: int | None) -> None:
    engine = make_engine("sqlite+aiosqlite:///:memory:")  # never connected: building a bot touches no database
    bot = make_bot(App(Clerk(make_sessionmaker(engine), ManualClock(), RandomDice(1))), shard_count=shards)
    seen: list[tuple[str, tuple[Any, ...]]] = []
    bot._connection.dispatch = lambda event, *args, **kwargs: seen.append((event, args))  # what it would dispatch
    parse = bot._connection.parsers["MESSAGE_CREATE"]
    person = {"id": "7", "username": "alice", "discriminator": "0", "avatar": None}
    parse(dm({**person, "id": "8", "username": "clerk", "bot": True}, 1001))
    assert seen == []
    parse(dm(person, 1002))
    assert [event for event, _ in seen] == ["message"]
    message = seen[0][1][0]
    assert isinstance(message, discord.Message) and message.id == 1002 and message.author.name == "alice"
    assert not message.author.bot and isinstance(message.channel, discord.DMChannel)
    await engine.dispose()
