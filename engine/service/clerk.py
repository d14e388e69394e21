"""The application service every front end (Discord, console, replay) drives, and the one list of the rulesets it
plays (``RULESETS``). This module is the service layer's composition root: the only one that names the rulesets.

A ruleset's use cases are reached through its own service object, ``clerk.<ruleset>`` (built from its record's
``service``); what every game shares is one service object each, too: ``clerk.games``, ``clerk.settings``,
``clerk.exports``, ``clerk.posts``, ``clerk.reminders``, ``clerk.pending_dms``, ``clerk.announcements``,
``clerk.outbox``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from engine.service.announcements import AnnouncementService
from engine.service.clock import Clock, Dice
from engine.service.closed_dms import ClosedDmService
from engine.service.convocate import RULESET as CONVOCATE
from engine.service.convocate import ConvocateService
from engine.service.dice import DiceService
from engine.service.dm_channels import DmChannelService
from engine.service.exports import ExportService
from engine.service.followed import FollowedWrites
from engine.service.games import GameService
from engine.service.landsdraad import RULESET as LANDSDRAAD
from engine.service.landsdraad import LandsdraadService
from engine.service.marks import MarkService
from engine.service.mylantium import RULESET as MYLANTIUM
from engine.service.mylantium import MylantiumService
from engine.service.owed import OwedService
from engine.service.pending_dms import PendingDmService
from engine.service.posts import PostService
from engine.service.reminders import ReminderService
from engine.service.ruleset import Ruleset, RulesetService
from engine.service.settings import SettingsService
from engine.service.timed_changes import TimedChanges
from engine.service.uow import Backend, ServiceBase

S = TypeVar("S", bound=RulesetService)

RULESETS: tuple[Ruleset, ...] = (LANDSDRAAD, MYLANTIUM, CONVOCATE)
"""The rulesets Clerk ships, in the order ``/game new`` offers them. A new ruleset adds its record here (and its
front's to ``bot/actions/rulesets.py``)."""


class Clerk(ServiceBase):
    """The shared services, one attribute each (``games``, ``settings``, ``exports``, ``posts``, ``reminders``,
    ``pending_dms``, ``announcements``, ``outbox``), and each ruleset's use cases on its own service
    (``clerk.landsdraad``, ``clerk.mylantium``, ``clerk.convocate``), all on one ``Backend``.
    Construct with a sessionmaker, a clock and dice; ``rulesets`` adds to or replaces the shipped ones."""

    convocate: ConvocateService
    """``clerk.convocate``: set when the Clerk plays the Convocate (a Clerk built without it has no such attribute)."""
    mylantium: MylantiumService
    """``clerk.mylantium``: set when the Clerk plays Mylantium."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, dice: Dice,
                 rulesets: Sequence[Ruleset] = RULESETS) -> None:
        super().__init__(Backend.open(sessions, clock, dice, rulesets))
        backend = self.backend
        self.games = GameService(backend)
        """Games and players by id: create, the game of a channel, the games of a user or a server, /log."""
        self.settings = SettingsService(backend)
        self.exports = ExportService(backend)
        self.posts = PostService(backend)
        """The messages and threads the bot keeps."""
        self.reminders = ReminderService(backend)
        self.timed_changes = TimedChanges(backend)
        """Whether the timed work may have changed since a scheduler pass read it (engine/service/timed_changes.py)."""
        self.pending_dms = PendingDmService(backend)
        self.closed_dms = ClosedDmService(backend)
        """Users the bot does not DM: their DMs refused it (``closed_dms``)."""
        self.dm_channels = DmChannelService(backend)
        """Each user's DM channel, once known (``dm_channels``): the catch-up reads it without a create-DM."""
        self.marks = MarkService(backend)
        """What the bot told a game's moderators or channel once (``game_marks``): not told again after a restart."""
        self.announcements = AnnouncementService(backend)
        """Results closed and not yet posted (``ResultPending`` / ``ResultPosted``)."""
        self.outbox = OwedService(backend)
        """The messages the bot owes Discord (``owed_messages``)."""
        self.followed = FollowedWrites(backend)
        """A write and a read of what it left in one transaction, what they post owed there (``followed``)."""
        self.seals = DiceService(backend)
        """The committed dice seeds and their rolls (``/verify``, docs/dice.md)."""
        self.plugged: dict[str, RulesetService] = {r.name: r.service(self.backend, self)
                                                   for r in rulesets if r.service is not None}
        """Each ruleset's service by name (``ruleset_service``); the shipped ones are also attributes."""
        landsdraad = self.plugged.get(LANDSDRAAD.name)
        # A Clerk built without Landsdraad (a test's own rulesets) still has the attribute, on the same backend.
        self.landsdraad = (landsdraad if isinstance(landsdraad, LandsdraadService)
                           else LandsdraadService(self.backend, self))
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
        """Every pending deadline (each plugged ruleset's ``next_deadlines``) and reminder instant, soonest first:
        what a scheduler sleeps until."""
        return sorted(instant for instant, _ in await self.timed_work())

    async def game_deadlines(self) -> dict[int, datetime]:
        """Game id -> the soonest deadline of its timed work (each plugged ruleset's ``game_deadlines``), for the
        games that have one: a start reads back first the DMs of the players whose deadline comes first
        (bot/discord/catch_up.py)."""
        soonest: dict[int, datetime] = {}
        for service in self.plugged.values():
            for game_id, instant in await service.game_deadlines():
                if game_id not in soonest or instant < soonest[game_id]:
                    soonest[game_id] = instant
        return soonest

    async def timed_work(self) -> list[tuple[datetime, str]]:
        """``next_deadlines`` with what each instant is: ``deadline`` or ``reminder`` (the console says which)."""
        times = [(instant, "reminder") for *_, instant in await self.reminders.pending_reminders()]
        for service in self.plugged.values():
            times += [(instant, "deadline") for instant in await service.next_deadlines()]
        return sorted(times)
