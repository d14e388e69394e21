"""The fake's world (users, roles, channels) and the JSON shapes Discord sends for them.

IDs are strings in everything Discord sends; discord.py sends ints back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits used here.
SEND_MESSAGES = 1 << 11
VIEW_CHANNEL = 1 << 10
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
EVERYONE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | (1 << 31)  # + use application commands

# Intents the fake applies to MESSAGE_CREATE.
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

# Channel types.
TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)


class Snowflakes:
    """Snowflake ids whose timestamp comes from ``now`` (the test's clock), so ``created_at`` follows it."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self.now = now
        self._count = 0

    def next(self) -> int:
        self._count += 1
        ms = int(self.now().timestamp() * 1000)
        return ((ms - DISCORD_EPOCH_MS) << 22) | (self._count & 0x3FFFFF)

    def at(self, when: datetime) -> int:
        """A new id whose timestamp is ``when`` (a message sent then)."""
        self._count += 1
        return ((int(when.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22) | (self._count & 0x3FFFFF)


def snowflake_time(snowflake: int) -> datetime:
    """The time in a snowflake id (as discord.py's ``utils.snowflake_time``)."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def iso(when: datetime) -> str:
    return when.isoformat()


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 1

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                "position": self.position, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                "flags": 0}


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    roles: list[Role] = field(default_factory=list)
    manage_guild: bool = False
    accepts_dms: bool = True

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0}

    def permissions(self) -> int:
        bits = EVERYONE_PERMISSIONS | (MANAGE_GUILD if self.manage_guild else 0)
        for role in self.roles:
            bits |= role.permissions
        if bits & ADMINISTRATOR:
            bits = (1 << 50) - 1
        return bits

    def member(self, joined: datetime, *, with_user: bool = True, permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {"roles": [str(r.id) for r in self.roles], "flags": 0, "joined_at": iso(joined),
                                "deaf": False, "mute": False, "nick": None, "avatar": None}
        if with_user:
            data["user"] = self.payload()
        if permissions:
            data["permissions"] = str(self.permissions())
        return data


@dataclass
class Channel:
    id: int
    name: str
    type: int = TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    archived: bool = False
    auto_archive_duration: int = 1440
    members: set[int] = field(default_factory=set)
    """A thread's members (user ids): a private thread is seen only by them (and by Manage Threads)."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREADS

    @property
    def is_private(self) -> bool:
        return self.type == PRIVATE_THREAD

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def payload(self, created: datetime) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM, "recipients": [self.recipient.payload()],
                    "last_message_id": None}
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "guild_id": str(self.guild_id),
                                "name": self.name, "position": 0, "permission_overwrites": [], "nsfw": False,
                                "rate_limit_per_user": 0, "last_message_id": None, "flags": 0,
                                "parent_id": str(self.parent_id) if self.parent_id else None}
        if self.type == TEXT:
            data["topic"] = None
        if self.is_thread:
            data.update({"owner_id": str(self.owner_id), "message_count": 0, "member_count": len(self.members) or 2,
                         "total_message_sent": 0,
                         "thread_metadata": {"archived": self.archived,
                                             "auto_archive_duration": self.auto_archive_duration,
                                             "archive_timestamp": iso(created), "locked": False}})
            if self.is_private:
                data["thread_metadata"]["invitable"] = False
        return data


def message_payload(*, id: int, channel: Channel, author: User, content: str, at: datetime,
                    embeds: list[dict[str, Any]] | None = None, attachments: list[dict[str, Any]] | None = None,
                    reference: int | None = None, flags: int = 0, member: dict[str, Any] | None = None,
                    components: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(id), "type": 19 if reference is not None else 0, "channel_id": str(channel.id),
        "author": author.payload(), "content": content, "timestamp": iso(at), "edited_timestamp": None,
        "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": attachments or [], "embeds": embeds or [], "pinned": False, "flags": flags,
        "components": components or [],
    }
    if reference is not None:
        data["message_reference"] = {"message_id": str(reference), "channel_id": str(channel.id)}
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
        if member is not None:
            data["member"] = member
    return data
