"""The Convocate ruleset's service object, ``clerk.convocate`` (rules-spec §4). It is made of parts, each a
module of this package, held as attributes and called directly, as the other rulesets' parts are:
``clerk.convocate.board`` (the board, the players, cards, Factors, Directives and the per-game rulings),
``clerk.convocate.turns`` (committed Votes and pushes, Statutes, phases) and ``clerk.convocate.motions`` (Motions,
offers to second and Repeals), with ``clerk.convocate.takebacks`` (a decline made by mistake taken back)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine.service.convocate.board import ConvocateBoardService
from engine.service.convocate.errata import RepealErrata
from engine.service.convocate.explain import ConvocateExplain
from engine.service.convocate.motions import ConvocateMotionService
from engine.service.convocate.previews import ConvocatePreviewService
from engine.service.convocate.removal import RemovalService
from engine.service.convocate.takebacks import AnswerTakebacks
from engine.service.convocate.turns import ConvocateTurnService
from engine.service.ruleset import RulesetService
from engine.service.uow import Backend

if TYPE_CHECKING:  # the composition root imports this package; the service only refers to the Clerk
    from engine.service.clerk import Clerk


class ConvocateService(RulesetService):
    """``clerk.convocate``: the parts of a Convocate game."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend, shared)
        self.board = ConvocateBoardService(backend, shared)
        self.turns = ConvocateTurnService(backend)
        self.motions = ConvocateMotionService(backend)
        self.errata = RepealErrata(backend)
        self.takebacks = AnswerTakebacks(backend)
        """``/motion ask-again``: a decline (or a skip) made by mistake taken back (``takebacks.py``)."""
        self.removal = RemovalService(backend)
        self.previews = ConvocatePreviewService(backend)
        """``/motion preview``: a Motion of Repeal counted before it is moved (reads only)."""
        """``/player remove``: the seat leaves the table (``engine/service/convocate/removal.py``)."""
        self.explain = ConvocateExplain(backend)
        """``/why``: derivations of posted numbers (``engine/service/convocate/explain.py``)."""

    async def game_deadlines(self) -> list[tuple[int, datetime]]:
        """Every offer to second that waits for an answer times out at its deadline (with its game)."""
        return [(g, d) for g, *_, d in await self.motions.offer_deadlines()]
