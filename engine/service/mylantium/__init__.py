"""The Republic of Mylantium in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``)
and its use cases, ``clerk.mylantium`` (``MylantiumService``: the moderators' setup, and the parts of a turn,
``elections``, ``business`` and ``revolutions``); its reminder forms (a Primary, a General Election) in
``reminders``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.mylantium.settings import SETTINGS
from engine.service.mylantium.export import export_mylantium
from engine.service.mylantium.reminders import FORMS
from engine.service.mylantium.service import MylantiumService
from engine.service.mylantium.state import NAME
from engine.service.ruleset import Ruleset
from engine.store.models import mylantium as tables
from engine.store.models.mylantium import MylGovernment


async def progress(session: AsyncSession, game: Any) -> str:
    """``turn N`` for /game list (a game counts turns from 1, before its government page is set too)."""
    turn = (await session.execute(select(MylGovernment.turn).where(MylGovernment.game_id == game.id))).scalar()
    return f"turn {turn or 1}"


TABLES = (tables.MylGovernment, tables.MylFaction, tables.MylCandidate, tables.MylTerritory, tables.MylUnit,
          tables.MylElection, tables.MylChoice, tables.MylHappening, tables.MylHistory, tables.MylChain,
          tables.MylContribution)
"""Its state tables (``Ruleset.tables``)."""

RULESET = Ruleset(NAME, "Mylantium", SETTINGS, service=MylantiumService, exports=(export_mylantium,), reminders=FORMS,
                  progress=progress, tables=TABLES, untimed_events=frozenset({"ChoiceMade", "ContributionPledged"}))

__all__ = ["NAME", "RULESET", "MylantiumService"]
