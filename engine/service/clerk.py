"""The application service every front end (Discord, console, replay) drives, and the one list of the rulesets it
plays (``RULESETS``). This module is the service layer's composition root: the only one that names the rulesets.

A ruleset's use cases are reached through its own service object, ``clerk.<ruleset>`` (built from its record's
``service``); what every game shares (games, players, posts, exports, reminders, the outbox) is on the Clerk."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from engine.landsdraad.settings import SETTINGS as LANDSDRAAD_SETTINGS
from engine.service.adjutant import AdjutantService, export_offices
from engine.service.announcements import AnnouncementService
from engine.service.audits import AuditService, export_transfers
from engine.service.ballots import BallotService
from engine.service.clock import Clock, Dice
from engine.service.convocate import RULESET as CONVOCATE
from engine.service.convocate import ConvocateService
from engine.service.exports import ExportService
from engine.service.games import GameAdminService
from engine.service.ledger import LedgerService
from engine.service.majority import MajorityService, export_player_votes
from engine.service.mylantium import RULESET as MYLANTIUM
from engine.service.mylantium import MylantiumService
from engine.service.owed import OwedService
from engine.service.pending_dms import PendingDmService
from engine.service.perks import PerkService, export_perks
from engine.service.posts import PostService
from engine.service.registries import RegistryService, export_registries
from engine.service.reminders import ReminderService
from engine.service.roster import RosterService
from engine.service.rounds import RoundService
from engine.service.ruleset import Ruleset, RulesetService
from engine.service.settings import SettingsService
from engine.service.uow import Backend
from engine.service.victory import VictoryService
from engine.service.victory_export import export_final_scores, export_forecast, export_victory

LANDSDRAAD = Ruleset("landsdraad", "Landsdraad", LANDSDRAAD_SETTINGS, exports=(
    export_offices, export_transfers, export_player_votes, export_perks, export_registries, export_victory,
    export_forecast, export_final_scores))

S = TypeVar("S", bound=RulesetService)

RULESETS: tuple[Ruleset, ...] = (LANDSDRAAD, MYLANTIUM, CONVOCATE)
"""The rulesets Clerk ships, in the order ``/game new`` offers them. A new ruleset adds its record here (and its
front's to ``bot/actions/rulesets.py``)."""


class Clerk(LedgerService, RoundService, BallotService, ExportService, PostService, AdjutantService, MajorityService,
            RegistryService, AuditService, PerkService, SettingsService, VictoryService,
            GameAdminService, ReminderService, PendingDmService, RosterService,
            AnnouncementService, OwedService):
    """Games, the vote ledger, rounds and ballots, the Adjutant General and player votes, victory points.
    Construct with a sessionmaker, a clock and dice; ``rulesets`` adds to or replaces the shipped ones."""

    convocate: ConvocateService
    """``clerk.convocate``: set when the Clerk plays the Convocate (a Clerk built without it has no such attribute)."""
    mylantium: MylantiumService
    """``clerk.mylantium``: set when the Clerk plays Mylantium."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, dice: Dice,
                 rulesets: Sequence[Ruleset] = RULESETS) -> None:
        super().__init__(Backend.open(sessions, clock, dice, rulesets))
        self.plugged: dict[str, RulesetService] = {r.name: r.service(self.backend, self)
                                                   for r in rulesets if r.service is not None}
        """Each ruleset's service by name (``ruleset_service``); the shipped ones are also attributes."""
        if CONVOCATE.name in self.plugged:
            self.convocate = self._plugged(CONVOCATE.name, ConvocateService)
        if MYLANTIUM.name in self.plugged:
            self.mylantium = self._plugged(MYLANTIUM.name, MylantiumService)

    def ruleset_service(self, name: str) -> RulesetService:
        return self.plugged[name]

    def _plugged(self, name: str, kind: type[S]) -> S:
        """The service of the ruleset ``name``, as the type its attribute on the Clerk has."""
        service = self.plugged[name]
        if not isinstance(service, kind):
            raise TypeError(f"the {name} ruleset's service is a {type(service).__name__}, not a {kind.__name__}")
        return service

    async def next_deadlines(self) -> list[datetime]:
        """Every pending deadline (rounds and AG elections) and reminder instant, soonest first: what a scheduler
        sleeps until."""
        times = [d for _, _, d in await self.pending_deadlines()] + [d for _, _, d in await self.pending_elections()]
        times += [instant for *_, instant in await self.pending_reminders()]
        for service in self.plugged.values():
            times += await service.next_deadlines()
        return sorted(times)
