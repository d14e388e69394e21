"""Games and their players as every ruleset's use cases read them: a game by id, a player by user id, the check
that a game still runs. The use cases on games themselves are ``clerk.games`` (``games.py``); what a player holds and
how many votes they control is the ruleset's (``engine/service/landsdraad/ledger.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import GameClosed, NotFoundError
from engine.service.clock import utc
from engine.service.views import GameView
from engine.store.models import Game, Player


def game_view(game: Game) -> GameView:
    return GameView(
        id=game.id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        name=game.name,
        ruleset=game.ruleset,
        moderator_role_id=game.moderator_role_id,
        current_round=game.current_round,
        ended_at=utc(game.ended_at) if game.status == "ended" and game.ended_at else None,
    )


def read_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("That game no longer exists.")
    return game


async def load_game(session: AsyncSession, game_id: int) -> Game:
    return await session.run_sync(read_game, game_id)


class Running(Protocol):
    """What ``require_running`` reads: a Game, or a row of the ballot batch (``ballot_batch``)."""

    @property
    def status(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def ended_at(self) -> datetime | None: ...


def require_running(game: Running) -> None:
    """After the game has ended (End Game, a final score), nothing more can be voted on or opened: the closed line
    (``GameClosed``). The event append refuses it too (``engine.service.uow``); this says it before anything is read."""
    if game.status == "ended":
        raise GameClosed(game.name, game.ended_at)


async def find_player(session: AsyncSession, game_id: int, user_id: int) -> Player | None:
    found = await session.execute(select(Player).where(Player.game_id == game_id, Player.user_id == user_id))
    return found.scalar_one_or_none()


async def require_player(session: AsyncSession, game: Game, user_id: int, who: str = "That user") -> Player:
    player = await find_player(session, game.id, user_id)
    if player is None:
        raise NotFoundError(f"{who} {'are' if who == 'You' else 'is'} not a player in {game.name}.")
    return player
