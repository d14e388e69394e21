"""Mylantium's reminder forms (``engine/service/reminders.py``): a Primary and a General Election, whose waiting are
the players of the Factions in play that have not chosen. One query finds the open elections of both stages, so the
General Election's form finds none of its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.service.clock import utc
from engine.service.mylantium.state import suspended
from engine.service.reminders import Found, ReminderForm, Target
from engine.store.models import Game, Player
from engine.store.models.mylantium import MylChoice, MylElection, MylFaction


async def election_targets(session: AsyncSession) -> list[Target]:
    """Every open election with a deadline, of either stage (its kind is its stage)."""
    targets: list[Target] = []
    myl = await session.execute(select(Game, MylElection).join(MylElection, MylElection.game_id == Game.id)
                                .where(MylElection.status == "open", MylElection.deadline.is_not(None),
                                       ~suspended(MylElection.game_id)))  # held while a chain runs
    for game, row in myl.all():
        assert row.deadline is not None
        targets.append((game, row.stage, row.turn, utc(row.opened_at), utc(row.deadline)))
    return targets


async def no_targets(session: AsyncSession) -> list[Target]:
    return []


def election_waiting(stage: str) -> Callable[[AsyncSession, Game, int | None], Awaitable[Found]]:
    async def waiting(session: AsyncSession, game: Game, turn: int | None) -> Found:
        query = select(MylElection).where(MylElection.game_id == game.id, MylElection.stage == stage)
        query = query.where(MylElection.turn == turn) if turn is not None else query.where(
            MylElection.status == "open")
        row = (await session.execute(query)).scalar_one_or_none()
        if row is None:
            what = "Primary" if stage == "primary" else "General Election"
            raise RuleError(f"No {what} is open in {game.name}.")
        chose = set((await session.execute(select(MylChoice.faction_id).where(
            MylChoice.election_id == row.id))).scalars())
        factions = await session.execute(select(MylFaction.id, Player.user_id, Player.name)
                                         .join(Player, Player.id == MylFaction.player_id)
                                         .where(MylFaction.game_id == game.id, MylFaction.in_play)
                                         .order_by(MylFaction.id))
        return (row.turn, utc(row.deadline) if row.deadline else None,
                tuple((user, name) for faction, user, name in factions.all() if faction not in chose), None)
    return waiting


FORMS = (ReminderForm("primary", election_targets, election_waiting("primary")),
         ReminderForm("general", no_targets, election_waiting("general")))
"""A Primary or General Election (players whose Faction has not chosen)."""
