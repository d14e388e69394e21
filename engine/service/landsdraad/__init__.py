"""The Landsdraad ruleset in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``) and
its use cases (``service.LandsdraadService``, reached as ``clerk.landsdraad``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.landsdraad.close_weights import exported as exported_close
from engine.landsdraad.settings import SETTINGS
from engine.service.clock import utc
from engine.service.landsdraad.adjutant import export_offices
from engine.service.landsdraad.audit_export import export_transfers
from engine.service.landsdraad.ledger_export import export_players_and_rounds
from engine.service.landsdraad.majority import export_player_votes
from engine.service.landsdraad.name import NAME
from engine.service.landsdraad.perks import export_perks
from engine.service.landsdraad.registries import export_registries
from engine.service.landsdraad.reminders import FORMS
from engine.service.landsdraad.round_state import current_round
from engine.service.landsdraad.service import LandsdraadService
from engine.service.landsdraad.victory_export import export_final_scores, export_forecast, export_victory
from engine.service.ruleset import Ruleset
from engine.store.models import landsdraad as tables
from engine.store.models.landsdraad import Round

TABLES = (tables.Holding, tables.Round, tables.TempFactionRow, tables.Ballot, tables.Office, tables.AgElection,
          tables.AgBallotRow, tables.PlayerVoteRow, tables.SupportRow, tables.EmbargoRow, tables.KanlyRow,
          tables.TransitRow, tables.TransferRow, tables.AuditRow, tables.PerkRow, tables.VictoryHoldings,
          tables.VictoryGoal, tables.PrestigeAward, tables.VictoryState, tables.FinalScoreRow)
"""Its state tables (``Ruleset.tables``)."""


async def setting_up(session: AsyncSession, game: Any) -> bool:
    """``Ruleset.setting_up``: a Landsdraad game is being set up until its first round is opened."""
    return await current_round(session, game) is None


async def reopened(session: AsyncSession, game_id: int, ended_at: datetime, now: datetime
                   ) -> list[tuple[str, datetime]]:
    """``Ruleset.reopened`` (play-test X5.7), as Mylantium's and the Convocate's: an Adjutant General election
    whose deadline was still to come when the game ended runs on from the reopening with the time it had left
    then, rather than closing at once for a time every AG ballot was refused. Nothing else of a Landsdraad game
    runs across its end: a round open at an End Game vote or a Majority Victory is void (R0-61), and `/game end`
    by a moderator is refused while one is open; player votes have no deadline of their own. An election opened by
    No Confidence has its round's deadline as its own (R0-35) and runs on the same way; one whose round had none
    has no deadline to move (docs/rulings.md, "A reopened Landsdraad game's deadlines"). Returns what moved, in
    words, with its new deadline."""
    moved: list[tuple[str, datetime]] = []
    rows = await session.execute(select(tables.AgElection).where(
        tables.AgElection.game_id == game_id, tables.AgElection.status == "open",
        tables.AgElection.closes_at.is_not(None)))
    for row in rows.scalars():
        if row.closes_at is not None and utc(row.closes_at) > ended_at:
            row.closes_at = now + (utc(row.closes_at) - ended_at)
            moved.append((f"Adjutant General election #{row.number}", row.closes_at))
    return moved


async def dice_note(session: AsyncSession, game_id: int, scope: int) -> str | None:
    """``Ruleset.dice_note``: a void round's dice decided nothing (the game ended while it was open, or the moderators
    voided it: ``/round void``, play-test Y6, Y7)."""
    found = (await session.execute(select(Round.status, Round.result).where(
        Round.game_id == game_id, Round.number == scope))).one_or_none()
    if found is None or found[0] != "void":
        return None
    note = (found[1] or {}).get("voided")
    if not note:
        return f"Round {scope} is void (the game ended while it was open): its dice decided nothing."
    posted = " after its close; its posted result was withdrawn" if note.get("was") == "closed" else ""
    return f"Round {scope} is void (the moderators voided it{posted}): its dice decided nothing."


RULESET = Ruleset(NAME, "Landsdraad", SETTINGS, service=LandsdraadService, exports=(
    export_players_and_rounds, export_offices, export_transfers, export_player_votes, export_perks,
    export_registries, export_victory, export_forecast, export_final_scores), reminders=FORMS, tables=TABLES,
    untimed_events=frozenset({"BallotCast"}), exported_events={"RoundClosed": exported_close}, dice=True,
    setting_up=setting_up, reopened=reopened, dice_note=dice_note)

__all__ = ["RULESET", "LandsdraadService"]
