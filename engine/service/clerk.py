"""The application service every front end (Discord, console, replay) drives."""

from __future__ import annotations

from engine.service.ballots import BallotService
from engine.service.exports import ExportService
from engine.service.ledger import LedgerService
from engine.service.posts import PostService
from engine.service.rounds import RoundService


class Clerk(LedgerService, RoundService, BallotService, ExportService, PostService):
    """Games, the vote ledger, rounds and ballots. Construct with a sessionmaker, a clock and dice."""
