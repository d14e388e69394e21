"""Which DMs of a channel's history the start-up catch-up handles (bot/discord/catch_up.py, play-test R3.2): the
player's messages sent before the bot was ready that the bot has not replied to; an edited one unless the bot
replied after the edit (then as the edit, ``msg:<id>:edit:<ms>``); oldest first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from discord.utils import time_snowflake

from bot.discord.catch_up import unanswered

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
