"""DMs held until their sender chooses the game: a DM that fits several of the sender's games and names none is
stored (so nothing a player sent is lost, across restarts) and answered with a menu of those games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from engine.service.uow import ServiceBase
from engine.store.models import Event, PendingDm


@dataclass(frozen=True)
class PendingDmView:
    id: int
    user_id: int
    source_id: str | None
    text: str
    sent_at: datetime

    @property
    def choice_source(self) -> str:
        """The source id a choice records under: the original DM's, so the DM counts once whatever is chosen how
        often (a DM the front end gave no id gets one from its row)."""
        return self.source_id or f"pending-dm:{self.id}"


def _view(row: PendingDm) -> PendingDmView:
    return PendingDmView(row.id, row.user_id, row.source_id, row.text, row.sent_at)


class PendingDmService(ServiceBase):
    async def hold_dm(self, user_id: int, text: str, source_id: str | None, sent_at: datetime) -> PendingDmView:
        """Keep the DM; the same DM delivered again (same ``source_id``) is kept once and gets the same id."""
        if source_id is not None:
            found = await self._pending_by_source(source_id)
            if found is not None:
                return found
        try:
            async with self._sessions() as session, session.begin():
                row = PendingDm(user_id=user_id, source_id=source_id, text=text, sent_at=sent_at)
                session.add(row)
                await session.flush()
                return _view(row)
        except IntegrityError:  # the same DM kept by a concurrent delivery
            found = await self._pending_by_source(source_id or "")
            if found is None:
                raise
            return found

    async def pending_dm(self, pending_id: int) -> PendingDmView | None:
        async with self._read() as session:
            row = await session.get(PendingDm, pending_id)
            return _view(row) if row is not None else None

    async def _pending_by_source(self, source_id: str) -> PendingDmView | None:
        async with self._read() as session:
            found = await session.execute(select(PendingDm).where(PendingDm.source_id == source_id))
            row = found.scalar_one_or_none()
            return _view(row) if row is not None else None

    async def recorded_in(self, source_id: str) -> int | None:
        """The game in which something was recorded under ``source_id`` (a DM counted), or None."""
        async with self._read() as session:
            found = await session.execute(select(Event.game_id).where(Event.source_id == source_id).limit(1))
            return found.scalars().first()  # a message may have recorded several events
