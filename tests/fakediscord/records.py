"""What the bot did, as the fake recorded it: messages it sent and interactions it answered."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fakediscord.payloads import Channel, User

EPHEMERAL = 1 << 6


@dataclass
class Sent:
    """A message from the bot: a channel post, a reply, a DM, an interaction response / followup / edit, or a
    ``system`` message Discord posts for something the bot did (thread started, message pinned). Edits of a
    posted message change it in place; its earlier versions are in ``history``."""

    id: int
    channel_id: int
    kind: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    flags: int = 0
    reference: int | None = None
    pinned: bool = False
    deleted: bool = False
    history: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    """Earlier versions (content, embeds), oldest first: one per edit."""
    components: list[dict[str, Any]] = field(default_factory=list)
    """The action rows the bot sent with the message, as it reads now."""

    def buttons(self) -> list[dict[str, Any]]:
        """The buttons of the message (``label``, ``custom_id``, ``style``, ``disabled``), row by row."""
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        """The string select menus of the message (``custom_id``, ``options``, ``placeholder``, ``disabled``)."""
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 3]

    def button(self, label: str) -> dict[str, Any]:
        found = [b for b in self.buttons() if b.get("label") == label]
        assert len(found) == 1, f"no single button {label!r} among {[b.get('label') for b in self.buttons()]}"
        return found[0]

    @property
    def edits(self) -> int:
        return len(self.history)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def embed(self) -> dict[str, Any]:
        assert len(self.embeds) == 1, f"expected one embed, got {self.embeds!r}"
        return self.embeds[0]

    def fields(self) -> dict[str, str]:
        """The (first) embed's fields, name -> value."""
        return {f["name"]: f["value"] for f in self.embed.get("fields", [])}

    def text(self) -> str:
        """Everything a reader sees: content and every embed part, one string (for ``in`` checks)."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f['name']}: {f['value']}" for f in e.get("fields", [])]
            parts.append(e.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)


@dataclass
class Interaction:
    """An interaction the fake sent, and how the bot answered it."""

    id: int
    token: str
    user: User
    channel: Channel
    command: str
    sent_at: float
    """The fake's event-loop time when it sent the interaction."""
    sent_cpu: float
    """``time.process_time()`` then (the fake's deadline for the answer is in CPU seconds)."""
    message_id: int | None = None
    """The message whose button was pressed (a component interaction)."""
    response_type: int | None = None
    response_flags: int = 0
    responses: list[Sent] = field(default_factory=list)
    autocomplete: bool = False
    """An APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4): answered with choices, not a message."""
    choices: list[dict[str, Any]] | None = None
    """The choices the bot answered an autocomplete interaction with (response type 8)."""
    created: datetime | None = None
    """The fake's clock when it sent the interaction: its token expires ``FakeDiscord.token_lifetime`` later."""
    original_deleted: bool = False
    """The bot deleted the original response (a deferral's "thinking" message, or the first answer)."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        return self.response_type == 5

    @property
    def first(self) -> Sent:
        assert self.responses, f"/{self.command} got no response"
        return self.responses[0]
