"""What the services return to the front ends (Discord, console, replay): plain frozen data. The shared ones; each
ruleset's are in its package (``engine/service/landsdraad/views.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameView:
    id: int
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    moderator_role_id: int | None
    current_round: int
