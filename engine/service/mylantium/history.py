"""The history of a Mylantium game's approval, Fervor and each Faction's VP (``myl_history``): every change written
with its cause and the value after it, and stamped with the number of the event that recorded it (``#41``), so that
``/why fervor-level`` and ``/why approval-level`` can cite it. A change is written (``add_history``) before its event
is recorded; ``record`` records the event and gives its number to every change written since in the transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from engine.service.uow import UnitOfWork
from engine.store.models.mylantium import MylHistory

PENDING = "mylantium.history.unstamped"
"""``session.info`` key: the changes written in the transaction that no event has stamped yet."""


def add_history(session: AsyncSession, game_id: int, turn: int, measure: str, cause: str, delta: int, value: int,
                at: datetime) -> MylHistory:
    """Write one change (``measure``: ``approval``, ``fervor`` or ``vp:<code>``); ``record`` stamps it."""
    row = MylHistory(game_id=game_id, turn=turn, measure=measure, cause=cause[:200], delta=delta, value=value, at=at)
    session.add(row)
    session.info.setdefault(PENDING, []).append(row)
    return row


async def record(uow: UnitOfWork, game_id: int, kind: str, actor: int | None, payload: dict[str, Any],
                 source_id: str | None) -> int:
    """``uow.record``, and the changes written since in this transaction get the event's number (a change undone
    with a savepoint, a refused step of a batch, is no longer in the session and is left alone)."""
    seq = await uow.record(game_id, kind, actor, payload, source_id)
    for row in uow.session.info.pop(PENDING, []):
        if row in uow.session:
            row.event_seq = seq
    return seq
