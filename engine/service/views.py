"""What the services return to the front ends (Discord, console, replay): plain frozen data. The shared ones; each
ruleset's are in its package (``engine/service/landsdraad/views.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class GameView:
    id: int
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    moderator_role_id: int | None
    current_round: int
    ended_at: datetime | None = None
    """When the game ended (its ledger is closed until a moderator reopens it); None while it runs."""

    @property
    def ended(self) -> bool:
        return self.ended_at is not None
