"""Games and their players: the game of a channel, the games of a user, a player by user id. Every ruleset shares
them; what a player holds and how many votes they control is the ruleset's (``engine/service/landsdraad/ledger.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import NotFoundError, RuleError
from engine.service.batching import Batcher
from engine.service.membership import GamesCache, games_cache
from engine.service.uow import ServiceBase
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


def require_running(game: Running) -> None:
    """After the game has ended (End Game, a final score), nothing more can be voted on or opened."""
    if game.status == "ended":
        raise RuleError(f"{game.name} has ended; nothing more can be voted on.")


async def find_player(session: AsyncSession, game_id: int, user_id: int) -> Player | None:
    found = await session.execute(select(Player).where(Player.game_id == game_id, Player.user_id == user_id))
    return found.scalar_one_or_none()


async def require_player(session: AsyncSession, game: Game, user_id: int, who: str = "That user") -> Player:
    player = await find_player(session, game.id, user_id)
    if player is None:
        raise NotFoundError(f"{who} {'are' if who == 'You' else 'is'} not a player in {game.name}.")
    return player


_PLAYERS, _GAMES = Player.__table__, Game.__table__
_USER_GAMES = (select(_PLAYERS.c.user_id, _GAMES.c.id, _GAMES.c.guild_id, _GAMES.c.channel_id, _GAMES.c.name,
                      _GAMES.c.ruleset, _GAMES.c.moderator_role_id, _GAMES.c.current_round)
               .join_from(_PLAYERS, _GAMES, _PLAYERS.c.game_id == _GAMES.c.id)
               .where(_PLAYERS.c.user_id.in_(bindparam("users", expanding=True))).order_by(_GAMES.c.id))
"""The games of some users (each row: the user id, then a ``GameView``'s fields in order), built once: building it
per call cost more than running it."""


class LedgerService(ServiceBase):
    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        ruleset: str,
        moderator_role_id: int | None,
        actor: int | None,
        source_id: str | None = None,
    ) -> GameView:
        ruleset = self.backend.ruleset(ruleset.strip().lower()).name
        name = name.strip()
        if not name:
            raise RuleError("A game needs a name.")
        async with self._read() as session:
            taken = await session.execute(select(Game).where(Game.channel_id == channel_id))
            existing = taken.scalar_one_or_none()
            if existing is not None:
                raise RuleError(f"This channel is already the game channel of {existing.name}.")
        try:
            async with self._write(None, source_id) as uow:
                game = Game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    name=name,
                    ruleset=ruleset,
                    settings={},
                    moderator_role_id=moderator_role_id,
                    current_round=0,
                    last_seq=0,
                    created_at=uow.now,
                )
                uow.session.add(game)
                await uow.session.flush()
                await uow.record(game.id, "GameCreated", actor, {"name": name, "ruleset": ruleset}, source_id)
        except IntegrityError:
            raise RuleError(f"A game called {name} already exists on this server, or this channel has one.") from None
        return game_view(game)

    async def game_in_channel(self, channel_id: int) -> GameView | None:
        async with self._read() as session:
            found = await session.execute(select(Game).where(Game.channel_id == channel_id))
            game = found.scalar_one_or_none()
            return game_view(game) if game else None

    async def games_of_user(self, user_id: int) -> list[GameView]:
        """The games ``user_id`` plays in, read now (and remembered: ``known_games``). The lookups of a burst of
        DMs share one query."""
        batcher: Batcher[None, int, list[GameView]] | None = self.__dict__.get("_games_of_users")
        if batcher is None:
            batcher = self.__dict__["_games_of_users"] = Batcher(self._games_of_users)
        return await batcher.submit(None, user_id)

    def known_games(self, user_id: int) -> tuple[GameView, ...] | None:
        """The games of ``user_id``'s last lookup in this process, or None (membership.py). A hint: their ids, names
        and rulesets are fixed, their rounds and roles may have moved on; a ballot chosen from them passes their
        ids as ``plays_in``, which its transaction checks."""
        return self._games_cache.get(user_id)

    def forget_games_of(self, user_ids: Iterable[int] | None = None) -> None:
        """A user joined a game (everyone, with None): look their games up again at their next DM."""
        self._games_cache.forget(user_ids)

    @property
    def _games_cache(self) -> GamesCache:
        return games_cache(self)

    async def _games_of_users(self, _key: None, user_ids: Sequence[int]) -> list[list[GameView]]:
        wanted = sorted(set(user_ids))
        games: dict[int, list[GameView]] = {u: [] for u in wanted}
        views: dict[int, GameView] = {}  # one per game, shared by its players (they are kept: membership.py)
        generation = self._games_cache.generation
        async with self._read() as session:
            connection = await session.connection()
            for start in range(0, len(wanted), 400):
                found = await connection.execute(_USER_GAMES, {"users": wanted[start:start + 400]})
                for user_id, game_id, *rest in found:
                    view = views.get(game_id)
                    if view is None:
                        view = views[game_id] = GameView(game_id, *rest)
                    games[user_id].append(view)
        self._games_cache.store(generation, games.items())
        return [list(games[u]) for u in user_ids]

    async def game(self, game_id: int) -> GameView:
        async with self._read() as session:
            return game_view(await load_game(session, game_id))

    async def player_name(self, game_id: int, user_id: int) -> str:
        """The name of ``user_id`` in the game (every ruleset's players are in the shared table)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            return (await require_player(session, game, user_id, "You")).name

    async def player_names(self, game_id: int) -> dict[int, str]:
        """User id -> name of every player of the game, in the order they joined."""
        async with self._read() as session:
            found = await session.execute(select(Player.user_id, Player.name).where(Player.game_id == game_id)
                                          .order_by(Player.id))
            return {user_id: name for user_id, name in found.all()}
