"""Who did what, where, and when: the neutral description of an incoming message or command."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from engine.core.text import plain_name

if TYPE_CHECKING:
    from bot.actions.outbox import Answering


@dataclass(frozen=True)
class UserRef:
    """A Discord user as an option value (``user:@jenny``)."""

    id: int
    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", plain_name(self.name))  # no bidi override reorders a line Clerk posts


@dataclass(frozen=True)
class Actor:
    id: int
    name: str
    roles: frozenset[int] = field(default_factory=frozenset)
    manages_server: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", plain_name(self.name))

    def moderates(self, moderator_role_id: int | None) -> bool:
        """Moderators hold the game's moderator role; with no role set, members with Manage Server."""
        if moderator_role_id is None:
            return self.manages_server
        return moderator_role_id in self.roles or self.manages_server


@dataclass(frozen=True)
class Place:
    """Where it was said: a DM, a guild channel, or a thread (``channel_id`` is then the thread's parent)."""

    guild_id: int | None
    channel_id: int | None
    thread_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None


@dataclass(frozen=True)
class Ctx:
    actor: Actor
    place: Place
    source_id: str | None
    at: datetime
    answering: Answering | None = field(default=None, compare=False, repr=False)
    """Where a handler may owe its answer in its own write's transaction (``Answering``); None: it is owed after."""
