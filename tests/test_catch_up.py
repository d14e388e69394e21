"""Which DMs of a channel's history the start-up catch-up handles (bot/discord/catch_up.py, play-test R3.2): the
player's messages sent before the bot was ready that the bot has not replied to; an edited one unless the bot
replied after the edit (then as the edit, ``msg:<id>:edit:<ms>``); oldest first."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from discord.utils import time_snowflake

from bot.discord import catch_up
from bot.discord.catch_up import CatchUp, unanswered

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
USER, BOT, CHANNEL = 11, 22, 33
READY = T0 + timedelta(hours=3)


def message(minutes: float, *, by: int = USER, reply_to: int | None = None, edited: float | None = None,
            kind: int = 0, low: int = 0) -> dict[str, Any]:
    at = T0 + timedelta(minutes=minutes)
    data: dict[str, Any] = {"id": str(time_snowflake(at) + low), "channel_id": str(CHANNEL), "type": kind,
                            "author": {"id": str(by), "username": "bot" if by == BOT else "alice", "bot": by == BOT},
                            "content": f"at {minutes}", "edited_timestamp": None}
    if edited is not None:
        data["edited_timestamp"] = (T0 + timedelta(minutes=edited)).isoformat()
    if reply_to is not None:
        data["message_reference"] = {"message_id": str(reply_to), "channel_id": str(CHANNEL)}
    return data


def test_only_the_players_unanswered_dms_before_ready_are_handled_oldest_first() -> None:
    answered = message(10)
    edited_after = message(20, edited=50)        # answered at 21, edited at 50 while the bot was down
    edited_before = message(30, edited=31)       # edited at 31, the edit answered at 32
    waiting = message(40)
    later = message(200)                         # after ready: the gateway delivers it
    history = [
        later, waiting,
        message(21, by=BOT, reply_to=int(edited_after["id"])),
        message(32, by=BOT, reply_to=int(edited_before["id"])),
        message(11, by=BOT, reply_to=int(answered["id"])),
        message(5, by=BOT),                      # the round's ballot DM: no reply to anything
        message(45, kind=7, low=1),              # not a message a person writes
        edited_before, edited_after, answered,
    ]

    found = unanswered(history, USER, CHANNEL, READY)

    assert [m.id for m in found] == [int(waiting["id"]), int(edited_after["id"])]  # by Discord's time: 40, then 50
    assert found[0].source == f"msg:{waiting['id']}"
    assert found[1].source == f"msg:{edited_after['id']}:edit:{int((T0 + timedelta(minutes=50)).timestamp() * 1000)}"
    assert found[1].created_at == T0 + timedelta(minutes=50)


class Stub:
    """A Discord client's ``http`` (a create-DM, an empty page of history) and what the catch-up asks of a Clerk."""

    def __init__(self) -> None:
        self.http = self
        self.dm_channels = self
        self.outbox = self
        self.requests: list[str] = []

    async def start_private_message(self, user_id: int) -> dict[str, Any]:
        self.requests.append(f"open {user_id}")
        return {"id": str(user_id + 1000)}

    async def logs_from(self, channel_id: int, limit: int, after: int) -> list[dict[str, Any]]:
        self.requests.append(f"read {channel_id}")
        return []

    def learnt(self, user_id: int, channel_id: int) -> None:
        pass


async def test_in_the_background_a_player_never_seen_costs_two_slots_and_a_kept_one_one(
        monkeypatch: Any) -> None:
    """``BACKGROUND_REQUESTS`` paces requests, not channels: a player whose DM channel is kept takes one slot, one
    asked of Discord first (a create-DM) two, so kept channels are read twice as fast at the same load."""
    monkeypatch.setattr(catch_up, "BACKGROUND_REQUESTS", 1000.0)
    stub = Stub()

    async def quiet() -> None:
        pass

    async def handle(message: Any, note: str) -> None:
        raise AssertionError("nothing to handle")

    reading = CatchUp(stub, stub, handle, dict, quiet)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    for users, kept, requests in (([1, 2, 3, 4], {1: 1001, 2: 1002, 3: 1003, 4: 1004}, 4), ([5, 6, 7, 8], {}, 8)):
        stub.requests.clear()
        start = loop.time()
        await reading._read(users, kept, 0, READY, background=True)
        assert len(stub.requests) == requests, stub.requests
        slots = reading._next_slot - start
        assert slots >= requests / 1000.0 - 1e-9, (slots, requests)
