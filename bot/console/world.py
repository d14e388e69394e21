"""The pretend Discord server of the console: users, channels, threads and roles, made on first mention.

Ids are derived from the names (a hash), so the same name is the same user or channel in every console
session and replay: a game kept in the database is found again next time. A copy of a live game (``console
--from``) names its Discord ids instead (``adopt``): then typing as ``jenny`` is typing as the real jenny."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from bot.actions.context import Actor, Place, UserRef

GUILD_ID = 100_000_000_000_000_001
DEFAULT_MODERATOR = "mod"


def slug(name: str) -> str:
    """A thread name as the transcript syntax writes it (``#channel/ag-election-1``): lower case, runs of
    anything but letters, digits, ``_`` and ``-`` become one ``-``."""
    return re.sub(r"[^\w-]+", "-", name.strip().lower()).strip("-") or "thread"


def stable_id(kind: str, name: str) -> int:
    """A Discord-sized id for a name: the same every time, distinct per kind (user, channel, thread, role)."""
    digest = hashlib.sha256(f"{kind}:{name.lower()}".encode()).digest()
    return 100_000_000_000_000_000 + int.from_bytes(digest[:6], "big")


@dataclass
class World:
    users: dict[int, str] = field(default_factory=dict)
    channels: dict[int, str] = field(default_factory=dict)
    """Where each channel or thread id is printed: ``#sirius``, ``#sirius/ag-election-1``."""
    names: dict[int, str] = field(default_factory=dict)
    """The plain name of each channel users addressed (``sirius``), to name the threads the bot makes in it."""
    moderators: set[int] = field(default_factory=set)
    roles: dict[int, set[int]] = field(default_factory=dict)
    known: dict[tuple[str, str], int] = field(default_factory=dict)
    """Ids given to names (``adopt``), in place of the derived ones: (kind, lower-case name) -> id."""

    def id_of(self, kind: str, name: str) -> int:
        return self.known.get((kind, name.lower()), stable_id(kind, name))

    def adopt(self, kind: str, name: str, given: int) -> None:
        """The user, channel, thread (``parent/thread``) or role ``name`` is ``given``, not its derived id."""
        self.known[(kind, name.lower())] = given

    def user(self, name: str) -> UserRef:
        uid = self.id_of("user", name)
        if uid not in self.users:
            self.users[uid] = name
            if name.lower() == DEFAULT_MODERATOR:
                self.moderators.add(uid)
        return UserRef(uid, self.users[uid])

    def role(self, name: str) -> int:
        """A role's id; ``everyone`` is the server's own id, as Discord gives @everyone."""
        return GUILD_ID if name.lstrip("@").lower() == "everyone" else self.id_of("role", name)

    def make_moderator(self, name: str) -> None:
        self.moderators.add(self.user(name).id)

    def give_role(self, name: str, role: str) -> None:
        self.roles.setdefault(self.user(name).id, set()).add(self.role(role))

    def actor(self, name: str) -> Actor:
        ref = self.user(name)
        return Actor(ref.id, ref.name, frozenset(self.roles.get(ref.id, ())), ref.id in self.moderators)

    def place(self, channel: str | None, thread: str | None) -> Place:
        if channel is None:
            return Place(None, None)
        channel = channel.lower()
        channel_id = self.id_of("channel", channel)
        self.channels.setdefault(channel_id, f"#{channel}")
        self.names.setdefault(channel_id, channel)
        if thread is None:
            return Place(GUILD_ID, channel_id)
        return Place(GUILD_ID, channel_id, self.thread(channel_id, thread))

    def channel(self, name: str) -> int:
        """The channel ``#name`` as an option value (``moderator_channel:#mods``)."""
        place = self.place(name, None)
        assert place.channel_id is not None
        return place.channel_id

    def thread(self, channel_id: int, name: str) -> int:
        """The thread ``name`` of a channel, the same one users address as ``#channel/name`` (the bot's own
        thread names are written the transcript's way, e.g. ``AG election 1`` is ``#sirius/ag-election-1``)."""
        parent = self.names.get(channel_id, f"channel-{channel_id}")
        thread = slug(name)
        thread_id = self.id_of("thread", f"{parent}/{thread}")
        self.channels.setdefault(thread_id, f"{self.channels.get(channel_id, '#' + parent)}/{thread}")
        return thread_id

    def name_thread(self, channel_id: int, thread_id: int, name: str) -> None:
        """A thread the bot made in an earlier session (its id is kept in the database): print it by name."""
        if thread_id not in self.channels:
            parent = self.channels.get(channel_id, f"#{self.names.get(channel_id, f'channel-{channel_id}')}")
            self.channels[thread_id] = f"{parent}/{slug(name)}"

    def where(self, place: Place) -> str:
        if place.is_dm:
            return "DM"
        key = place.thread_id if place.thread_id is not None else place.channel_id
        return self.channels.get(key or 0, f"#channel-{key}")
