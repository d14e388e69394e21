"""The Convocate ruleset's services (rules-spec §4): one mixin for ``Clerk``."""

from __future__ import annotations

from datetime import datetime

from engine.service import convocate_export  # noqa: F401  (registers the export section)
from engine.service.convocate_board import ConvocateBoardService
from engine.service.convocate_motions import ConvocateMotionService
from engine.service.convocate_turns import ConvocateTurnService


class ConvocateService(ConvocateBoardService, ConvocateTurnService, ConvocateMotionService):
    """The board, committed Votes and pushes, Statutes, phases, Motions and Repeals. Method names start with
    ``cv_`` so they never meet another ruleset's."""

    async def cv_next_deadlines(self) -> list[datetime]:
        return [d for *_, d in await self.cv_offer_deadlines()]
