"""The application service every front end (Discord, console, replay) drives."""

from __future__ import annotations

from datetime import datetime

from engine.service.adjutant import AdjutantService
from engine.service.announcements import AnnouncementService
from engine.service.audits import AuditService
from engine.service.ballots import BallotService
from engine.service.convocate import ConvocateService
from engine.service.exports import ExportService
from engine.service.games import GameAdminService
from engine.service.ledger import LedgerService
from engine.service.majority import MajorityService
from engine.service.mylantium import MylantiumService
from engine.service.owed import OwedService
from engine.service.pending_dms import PendingDmService
from engine.service.perks import PerkService
from engine.service.posts import PostService
from engine.service.registries import RegistryService
from engine.service.reminders import ReminderService
from engine.service.roster import RosterService
from engine.service.rounds import RoundService
from engine.service.settings import SettingsService
from engine.service.victory import VictoryService


class Clerk(LedgerService, RoundService, BallotService, ExportService, PostService, AdjutantService, MajorityService,
            RegistryService, AuditService, PerkService, SettingsService, VictoryService,
            MylantiumService, ConvocateService, GameAdminService, ReminderService, PendingDmService, RosterService,
            AnnouncementService, OwedService):
    """Games, the vote ledger, rounds and ballots, the Adjutant General and player votes, victory points.
    Construct with a sessionmaker, a clock and dice."""

    async def next_deadlines(self) -> list[datetime]:
        """Every pending deadline (rounds and AG elections) and reminder instant, soonest first: what a scheduler
        sleeps until."""
        times = [d for _, _, d in await self.pending_deadlines()] + [d for _, _, d in await self.pending_elections()]
        times += [instant for *_, instant in await self.pending_reminders()]
        return sorted(times + await self.mylantium_deadlines() + await self.cv_next_deadlines())
