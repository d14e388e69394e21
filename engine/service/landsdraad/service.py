"""``clerk.landsdraad``: the Landsdraad ruleset's use cases, composed of its parts, each reached by its name
(``clerk.landsdraad.rounds.open_round(...)``, ``clerk.landsdraad.ledger.add_holding(...)``). Every part is a service
on the Clerk's one ``Backend``, so they share its sessions, clock, dice and per-game locks."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine.service.landsdraad.adjutant import AdjutantService
from engine.service.landsdraad.audits import AuditService
from engine.service.landsdraad.ballots import BallotService
from engine.service.landsdraad.edits import LedgerEdits
from engine.service.landsdraad.errata import ErrataService
from engine.service.landsdraad.explain import ExplainService
from engine.service.landsdraad.ledger import LedgerService
from engine.service.landsdraad.majority import MajorityService
from engine.service.landsdraad.perks import PerkService
from engine.service.landsdraad.previews import PreviewService
from engine.service.landsdraad.registries import RegistryService
from engine.service.landsdraad.removal import RemovalService
from engine.service.landsdraad.roster import RosterService
from engine.service.landsdraad.rounds import RoundService
from engine.service.landsdraad.transfer_moves import TransferMoveService
from engine.service.landsdraad.victory import VictoryService
from engine.service.ruleset import RulesetService
from engine.service.uow import Backend

if TYPE_CHECKING:  # the composition root imports every ruleset; a ruleset's service only refers to it
    from engine.service.clerk import Clerk


class LandsdraadService(RulesetService):
    """The vote ledger (players and holdings), crisis rounds and ballots, the Adjutant General, player-majority
    votes, the registries (embargoes, Kanly, transits), audits, perks, victory points, bulk rosters, the
    moderators' edits of the ledger with what follows them in one transaction (``edits``), and where their numbers
    come from (``/why``)."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend, shared)
        self.ledger = LedgerService(backend)
        self.roster = RosterService(backend)
        self.removal = RemovalService(backend)
        self.rounds = RoundService(backend)
        self.ballots = BallotService(backend)
        self.adjutant = AdjutantService(backend)
        self.majority = MajorityService(backend)
        self.registries = RegistryService(backend)
        self.audits = AuditService(backend)
        self.transfer_moves = TransferMoveService(backend)
        self.errata = ErrataService(backend)
        self.perks = PerkService(backend)
        self.victory = VictoryService(backend)
        self.edits = LedgerEdits(shared.followed, self.majority, self.victory)
        self.previews = PreviewService(backend)
        self.explain = ExplainService(backend)

    async def game_deadlines(self) -> list[tuple[int, datetime]]:
        """The open rounds' and AG elections' deadlines, with their games (their reminders are the shared
        mechanism's: ``Ruleset.reminders``)."""
        return ([(g, d) for g, _, d in await self.rounds.pending_deadlines()]
                + [(g, d) for g, _, d in await self.adjutant.pending_elections()])
