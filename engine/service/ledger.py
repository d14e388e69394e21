"""Games, players and holdings: who controls how many votes, and why (R0-01..R0-07)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.model import Attributes, Elector, Planet, Quality, Tier
from engine.landsdraad.votes import holding_votes, planet_votes, vote_breakdown
from engine.service.batching import Batcher
from engine.service.membership import GamesCache, games_cache
from engine.service.uow import ServiceBase
from engine.service.views import GameView, HoldingView, PlayerView
from engine.store.models import Game, Player
from engine.store.models.landsdraad import Holding


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


def attributes_of(player: Player) -> Attributes:
    return Attributes(
        diplomacy=player.diplomacy,
        command=player.command,
        intrigue=player.intrigue,
        roll=player.roll,
        diplomacy_max=player.diplomacy_max,
        intrigue_max=player.intrigue_max,
    )


def holding_view(h: Holding) -> HoldingView:
    votes = planet_votes(Planet(h.name, Quality(h.grade), h.homeworld)) if h.kind == "planet" else h.votes
    return HoldingView(h.kind, h.name, h.grade, votes, h.homeworld)


def player_view(player: Player, holdings: Sequence[Holding]) -> PlayerView:
    electors = [Elector(h.name, Tier(h.grade), h.votes) for h in holdings if h.kind == "elector"]
    planets = [Planet(h.name, Quality(h.grade), h.homeworld) for h in holdings if h.kind == "planet"]
    return PlayerView(
        id=player.id,
        user_id=player.user_id,
        name=player.name,
        faction=player.faction,
        diplomacy=player.diplomacy,
        command=player.command,
        intrigue=player.intrigue,
        roll=player.roll,
        misc=player.misc_votes,
        active=player.active,
        breakdown=vote_breakdown(attributes_of(player), electors, planets, player.misc_votes),
        holdings=tuple(holding_view(h) for h in holdings),
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


async def holdings_of(session: AsyncSession, player_id: int) -> Sequence[Holding]:
    found = await session.execute(select(Holding).where(Holding.player_id == player_id).order_by(Holding.id))
    return found.scalars().all()


async def view_player(session: AsyncSession, player: Player) -> PlayerView:
    return player_view(player, await holdings_of(session, player.id))


def read_players(session: Session, game_id: int) -> list[PlayerView]:
    players = session.execute(select(Player).where(Player.game_id == game_id).order_by(Player.id)).scalars()
    holdings = session.execute(select(Holding).where(Holding.game_id == game_id).order_by(Holding.id)).scalars()
    by_player: dict[int, list[Holding]] = {}
    for h in holdings:
        by_player.setdefault(h.player_id, []).append(h)
    return [player_view(p, by_player.get(p.id, [])) for p in players]


async def game_players(session: AsyncSession, game_id: int) -> list[PlayerView]:
    return await session.run_sync(read_players, game_id)


PLAIN_VOTES = Player.diplomacy_max * 2 + Player.intrigue_max + Player.roll + Player.misc_votes
"""V(p) of a player who holds nothing, as SQL: ``votes.base_votes`` (2·D_max + I_max + r) plus misc, the
``total_votes`` of a player without holdings (tests/service/test_service_rounds.py checks the two agree). The
database adds it up, so a tally of 10,000 players makes no Python call per player (bench/tally.py)."""


def active_players(game_id: int, *columns: Any) -> Select[Any]:
    """Every active player of ``game_id`` in the order they joined: their id, user id, name, ``PLAIN_VOTES`` and
    ``columns``."""
    return (select(Player.id, Player.user_id, Player.name, PLAIN_VOTES, *columns)
            .where(Player.game_id == game_id, Player.active.is_(True)).order_by(Player.id))


def holding_extras(session: Session, game_id: int) -> dict[int, int]:
    """What each active holder's electors and planets add to V(p) (``votes.holding_votes``), by player id;
    players who hold nothing (or are inactive) are not in it."""
    rows = session.connection().execute(
        select(Holding.player_id, Holding.kind, Holding.name, Holding.grade, Holding.votes, Holding.homeworld,
               Player.diplomacy)
        .join(Player, Player.id == Holding.player_id)
        .where(Holding.game_id == game_id, Player.active.is_(True)).order_by(Holding.id))
    diplomacy: dict[int, int] = {}
    electors: dict[int, list[Elector]] = {}
    planets: dict[int, list[Planet]] = {}
    for player_id, kind, name, grade, votes, homeworld, d in rows:
        diplomacy[player_id] = d
        if kind == "elector":
            electors.setdefault(player_id, []).append(Elector(name, Tier(grade), votes))
        elif kind == "planet":
            planets.setdefault(player_id, []).append(Planet(name, Quality(grade), homeworld))
    return {p: holding_votes(d, electors.get(p, ()), planets.get(p, ())) for p, d in diplomacy.items()}


def active_votes(session: Session, game_id: int) -> int:
    """Σ V(p) over the active players, read now (the players' part of the votes in play, R0-17): one sum in the
    database and the holders' extras, nothing per player."""
    session.flush()  # what session.execute would autoflush; the plain connection below does not
    plain = session.connection().execute(select(func.coalesce(func.sum(PLAIN_VOTES), 0))
                                         .where(Player.game_id == game_id, Player.active.is_(True))).scalar_one()
    return int(plain) + sum(holding_extras(session, game_id).values())


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

    async def add_player(
        self,
        game_id: int,
        *,
        user_id: int,
        name: str,
        diplomacy: int,
        command: int,
        intrigue: int,
        roll: int | None,
        faction: str | None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if await find_player(uow.session, game_id, user_id) is not None:
                raise RuleError(f"{name} is already a player in {game.name}; use /player set to change them.")
            rolled = roll is None
            d3 = self.dice.roll(3) if roll is None else roll
            attributes = Attributes.start(diplomacy, command, intrigue, d3)
            player = Player(
                game_id=game_id,
                user_id=user_id,
                name=name,
                faction=faction,
                diplomacy=attributes.diplomacy,
                command=attributes.command,
                intrigue=attributes.intrigue,
                roll=attributes.roll,
                diplomacy_max=attributes.diplomacy_max,
                intrigue_max=attributes.intrigue_max,
                misc_votes=0,
                active=True,
            )
            uow.session.add(player)
            await uow.session.flush()
            payload = {"user_id": user_id, "name": name, "faction": faction, "diplomacy": diplomacy,
                       "command": command, "intrigue": intrigue, "roll": d3, "rolled_by_clerk": rolled}
            await uow.record(game_id, "PlayerAdded", actor, payload, source_id)
            added = player_view(player, [])
        self.forget_games_of([user_id])  # after the commit (membership.py)
        return added

    async def set_player(
        self,
        game_id: int,
        *,
        user_id: int,
        diplomacy: int | None = None,
        command: int | None = None,
        intrigue: int | None = None,
        misc: int | None = None,
        active: bool | None = None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            player = await require_player(uow.session, game, user_id)
            if misc is not None and misc < 0:
                raise RuleError(f"misc votes must be 0 or more, not {misc}.")
            attributes = attributes_of(player).with_scores(diplomacy, command, intrigue)
            player.diplomacy, player.command, player.intrigue = (
                attributes.diplomacy, attributes.command, attributes.intrigue)
            player.diplomacy_max, player.intrigue_max = attributes.diplomacy_max, attributes.intrigue_max
            if misc is not None:
                player.misc_votes = misc
            if active is not None:
                player.active = active
            changes = {k: v for k, v in {"diplomacy": diplomacy, "command": command, "intrigue": intrigue,
                                         "misc": misc, "active": active}.items() if v is not None}
            if not changes:
                raise RuleError("Nothing to change: give at least one of diplomacy, command, intrigue, misc, active.")
            await uow.record(game_id, "PlayerChanged", actor, {"user_id": user_id, **changes}, source_id)
            return await view_player(uow.session, player)

    async def add_holding(
        self,
        game_id: int,
        *,
        user_id: int,
        kind: str,
        name: str,
        grade: str,
        votes: int | None,
        homeworld: bool,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        kind = kind.strip().lower()
        grade = grade.strip().lower()
        if kind == "elector":
            if grade not in {t.value for t in Tier}:
                raise RuleError(f"An Elector's tier is weak, average or strong, not “{grade}”.")
            if votes is None or votes < 0:
                raise RuleError("An Elector needs its number of votes (0 or more).")
            if homeworld:
                raise RuleError("Only a planet can be a Homeworld.")
        elif kind == "planet":
            if grade not in {q.value for q in Quality}:
                raise RuleError(f"A planet's quality is poor, average or rich, not “{grade}”.")
            if votes is not None:
                raise RuleError("A planet's votes come from its quality (poor 2, average 3, rich 4); leave votes out.")
            votes = 0
        else:
            raise RuleError(f"A holding is an elector or a planet, not “{kind}”.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            player = await require_player(uow.session, game, user_id)
            clash = await uow.session.execute(select(Holding).where(Holding.game_id == game_id, Holding.name == name))
            if clash.scalar_one_or_none() is not None:
                raise RuleError(f"{name} is already held in {game.name}; remove it first to move it.")
            uow.session.add(Holding(game_id=game_id, player_id=player.id, kind=kind, name=name, grade=grade,
                                    votes=votes, homeworld=homeworld))
            await uow.session.flush()
            payload = {"user_id": user_id, "kind": kind, "name": name, "grade": grade, "votes": votes,
                       "homeworld": homeworld}
            await uow.record(game_id, "HoldingAdded", actor, payload, source_id)
            return await view_player(uow.session, player)

    async def remove_holding(
        self, game_id: int, *, user_id: int, name: str, actor: int | None, source_id: str | None = None
    ) -> PlayerView:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            player = await require_player(uow.session, game, user_id)
            found = await uow.session.execute(
                select(Holding).where(Holding.player_id == player.id, Holding.name == name)
            )
            holding = found.scalar_one_or_none()
            if holding is None:
                held = [h.name for h in await holdings_of(uow.session, player.id)]
                listing = ", ".join(held) if held else "nothing"
                raise NotFoundError(f"{player.name} holds no {name}. They hold: {listing}.")
            await uow.session.delete(holding)
            await uow.session.flush()
            await uow.record(game_id, "HoldingRemoved", actor, {"user_id": user_id, "name": name}, source_id)
            return await view_player(uow.session, player)

    async def player(self, game_id: int, user_id: int) -> PlayerView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            return await view_player(session, await require_player(session, game, user_id, "You"))

    async def players(self, game_id: int) -> list[PlayerView]:
        async with self._read() as session:
            return await game_players(session, game_id)
