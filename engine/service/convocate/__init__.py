"""The Convocate ruleset in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``), its
service object (``clerk.convocate``, ``service.py``) and its export section (``export.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.rulings import SETTINGS
from engine.service.clock import utc
from engine.service.convocate.export import export_convocate
from engine.service.convocate.service import ConvocateService
from engine.service.convocate.store import NAME
from engine.service.ruleset import Ruleset
from engine.store.models import convocate as tables
from engine.store.models.convocate import CvMotion, CvTurn


async def progress(session: AsyncSession, game: Any) -> str:
    """``turn N, Action Phase`` for /game list and the export's title; ``before turn 1`` until the first turn
    starts (then ``setting_up`` says "being set up" for a game that has not ended)."""
    row = (await session.execute(select(CvTurn).where(CvTurn.game_id == game.id))).scalar_one_or_none()
    if row is None or not row.turn:
        return "before turn 1"
    return f"turn {row.turn}" + (f", {row.phase.capitalize()} Phase" if row.phase else "")


async def setting_up(session: AsyncSession, game: Any) -> bool:
    """``Ruleset.setting_up``: a Convocate table is being set up until its first turn begins (the first /phase
    next)."""
    row = (await session.execute(select(CvTurn).where(CvTurn.game_id == game.id))).scalar_one_or_none()
    return row is None or not row.turn


async def reopened(session: AsyncSession, game_id: int, ended_at: datetime, now: datetime
                   ) -> list[tuple[str, datetime]]:
    """``Ruleset.reopened`` (play-test X4.5): the offer to second a Motion the end left on the floor runs on from
    the reopening with the time its player had left when the game ended, rather than timing out at once for a time
    their answer was refused. Returns what moved, in words, with its new deadline."""
    moved: list[tuple[str, datetime]] = []
    rows = await session.execute(select(CvMotion).where(CvMotion.game_id == game_id, CvMotion.status == "offering",
                                                        CvMotion.offer_deadline.is_not(None)))
    for row in rows.scalars():
        if row.offer_deadline is not None and utc(row.offer_deadline) > ended_at:
            row.offer_deadline = now + (utc(row.offer_deadline) - ended_at)
            moved.append((f"the offer to second Motion #{row.number} ({row.name})", row.offer_deadline))
    return moved


TABLES = (tables.CvPlayer, tables.CvCard, tables.CvFactor, tables.CvTurn, tables.CvStatute, tables.CvMotion)
"""Its state tables (``Ruleset.tables``)."""

RULESET = Ruleset(NAME, "Convocate", SETTINGS, service=ConvocateService, exports=(export_convocate,), progress=progress,
                  setting_up=setting_up, tables=TABLES, untimed_events=frozenset({"VotesCommitted"}),
                  reopened=reopened)
"""Its settings are its rulings (``engine/convocate/rulings.py``): ``/game settings`` shows and changes them, and
``/convocate rulings`` is kept as an alias that lists them with their P-numbers."""

__all__ = ["RULESET", "ConvocateService"]
