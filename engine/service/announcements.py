"""Results the scheduler announces (a round or an AG election closed at its deadline) are marked posted once Discord
has them, so a bot killed between a close and its announcement posts it when it starts again (docs/reliability.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select

from engine.service.uow import Duplicate, ServiceBase
from engine.store.models import Event

CLOSED_BY_DEADLINE = {"RoundClosed": ("deadline:", "round"), "AgElectionClosed": ("ag-deadline:", "ag")}
"""The close events the scheduler makes (by their source id's prefix) and the kind of result each announces."""


def posted_marker(kind: str, game_id: int, number: int) -> str:
    """``round:<game>:<number>`` or ``ag:<game>:<number>``: also the Discord nonce of the announcement (at most 25
    characters), so Discord drops a second post of it within a few minutes."""
    return f"{kind}:{game_id}:{number}"


class AnnouncementService(ServiceBase):
    async def mark_posted(self, marker: str) -> None:
        """Record that the announcement ``marker`` reached Discord (once; a repeat is ignored)."""
        kind, game, number = marker.split(":")
        source = f"posted:{marker}"
        try:
            async with self._write(int(game), source) as uow:
                await uow.record(int(game), "ResultPosted", None, {"kind": kind, "number": int(number)}, source)
        except Duplicate:
            pass

    async def unposted(self, since: datetime) -> list[tuple[str, int, int]]:
        """(kind, game id, number) of every result closed by its deadline since ``since`` and not marked posted."""
        async with self._read() as session:
            rows = await session.execute(
                select(Event.game_id, Event.kind, Event.source_id, Event.payload)
                .where(Event.at >= since, or_(Event.kind == "ResultPosted", *[
                    (Event.kind == kind) & Event.source_id.startswith(prefix)
                    for kind, (prefix, _) in CLOSED_BY_DEADLINE.items()]))
                .order_by(Event.id))
            closed: list[tuple[str, int, int]] = []
            posted: set[tuple[str, int, int]] = set()
            for game_id, kind, source_id, payload in rows.all():
                if kind == "ResultPosted":
                    posted.add((str(payload["kind"]), game_id, int(payload["number"])))
                elif source_id is not None:
                    number = int(source_id.rsplit(":", 1)[1])
                    closed.append((CLOSED_BY_DEADLINE[kind][1], game_id, number))
            return [c for c in closed if c not in posted]
