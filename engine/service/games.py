"""Games (``clerk.games``): a new game, the game of a channel, the games of a user, several games in a server (the
list of them), each game's moderator role, and its audit trail (the events)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import GameClosed, NotFoundError, RuleError
from engine.service.batching import Batcher
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game, require_player
from engine.service.marks import CHANNEL_LOST, MOVED_FROM
from engine.service.membership import GamesCache, games_cache
from engine.service.owed import Owed, OwedRow, OwedWith, owe_in, release_in
from engine.service.uow import Backend, ServiceBase, again_if_lost
from engine.service.views import GameView
from engine.store.models import Event, Game, GameMark, Player
from engine.store.twin import READ

LOG_PAGE = 15
"""Events on one page of /log."""


@dataclass(frozen=True)
class GameListing:
    game: GameView
    status: str
    players: int
    progress: str = ""
    """Where it stands in its ruleset's own unit: ``round 3``, ``turn 1`` (``Ruleset.progress``)."""
    setting_up: bool = False
    """It is being set up (``Ruleset.setting_up``): nothing played yet."""

    @property
    def where(self) -> str:
        """``being set up``, or where it stands (``round 3``, ``turn 2, Action Phase``)."""
        return "being set up" if self.setting_up else self.progress


@dataclass(frozen=True)
class Reopened:
    """A game reopened by a moderator (``/game reopen``): when it had ended, and why it is reopened."""

    game: GameView
    ended_at: datetime
    reason: str | None
    deadlines: tuple[tuple[str, datetime], ...] = ()
    """The deadlines that were running when it ended and now run on from the reopening with the time they had left
    (``Ruleset.reopened``): each in words with its new time, for the announcement (play-test X5.6)."""


@dataclass(frozen=True)
class Moved:
    """A game moved to another channel (``/game move``): the channel it left, whether that one was marked deleted,
    the game as it is now, and the messages held for the old one owed again for the new one in the move's
    transaction (``release``), to queue."""

    old: int
    lost: bool
    game: GameView
    released: tuple[OwedRow, ...] = ()


@dataclass(frozen=True)
class Closed:
    """A game a moderator ended (``/game close``), ``again`` after a reopening."""

    game: GameView
    reason: str | None
    again: bool
    changes: tuple[str, ...] = ()
    """``again``: the kinds of the events recorded while it was reopened, in order (``changes_since_reopen``), read
    in the close's transaction, so its correction is made of its result (and owed with it)."""


@dataclass(frozen=True)
class LogEntry:
    seq: int
    at: datetime
    kind: str
    actor: int | None
    actor_name: str | None
    payload: dict[str, Any]


@dataclass(frozen=True)
class LogPage:
    entries: tuple[LogEntry, ...]
    page: int
    pages: int
    total: int
    names: dict[int, str]
    """user id -> player name, for the payloads that name users."""


def mentions_user(event: Event, user_id: int) -> bool:
    payload = event.payload or {}
    return event.actor == user_id or payload.get("user_id") == user_id


async def _changes_since_reopen(session: AsyncSession, game_id: int) -> list[str]:
    """The kinds of the events recorded since the game was last reopened, in order, its end left out."""
    last = (await session.execute(select(Event.seq).where(Event.game_id == game_id, Event.kind == "GameReopened")
                                  .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
    if last is None:
        return []
    kinds = await session.execute(select(Event.kind).where(Event.game_id == game_id, Event.seq > last,
                                                           Event.kind != "GameEnded").order_by(Event.seq))
    return list(kinds.scalars())


_PLAYERS, _GAMES = Player.__table__, Game.__table__
_USER_GAMES = (select(_PLAYERS.c.user_id, _GAMES.c.id, _GAMES.c.guild_id, _GAMES.c.channel_id, _GAMES.c.name,
                      _GAMES.c.ruleset, _GAMES.c.moderator_role_id, _GAMES.c.current_round,
                      _GAMES.c.ended_at)
               .join_from(_PLAYERS, _GAMES, _PLAYERS.c.game_id == _GAMES.c.id)
               .where(_PLAYERS.c.user_id.in_(bindparam("users", expanding=True))).order_by(_GAMES.c.id))
"""The games of some users (each row: the user id, then a ``GameView``'s fields in order), built once: building it
per call cost more than running it."""


def _user_games_in_twin(twin: Engine, wanted: Sequence[int]) -> list[Any]:
    """The rows of ``_USER_GAMES`` for ``wanted``, read on the SQLite file's twin without its write lock."""
    with twin.connect() as connection:
        connection.execution_options(**{READ: True})
        return [row for start in range(0, len(wanted), 400)
                for row in connection.execute(_USER_GAMES, {"users": wanted[start:start + 400]})]


class GameService(ServiceBase):
    """``clerk.games``: creating games, the game of a channel, the games of a user (and of a server), a game's
    moderator role, founder and audit trail (the events)."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._games_of_users_batcher: Batcher[None, int, list[GameView]] = Batcher(self._games_of_users)

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
            names = (await session.execute(select(Game.name).where(Game.guild_id == guild_id))).scalars()
            same = next((n for n in names if n.casefold() == name.casefold()), None)
            if same is not None:  # `#Sirius` and `#sirius` name one game wherever a game is named (play-test)
                raise RuleError(f"A game called {same} already exists on this server; names differ by more than "
                                "case, since players name a game as `#name` in any case. Choose another name.")
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
        return await self._games_of_users_batcher.submit(None, user_id)

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

    async def _user_games(self, wanted: Sequence[int]) -> list[Any]:
        rows: list[Any] = []
        async with self._read() as session:
            connection = await session.connection()
            for start in range(0, len(wanted), 400):
                rows += (await connection.execute(_USER_GAMES, {"users": wanted[start:start + 400]})).all()
        return rows

    async def _games_of_users(self, _key: None, user_ids: Sequence[int]) -> list[list[GameView]]:
        wanted = sorted(set(user_ids))
        games: dict[int, list[GameView]] = {u: [] for u in wanted}
        views: dict[int, GameView] = {}  # one per game, shared by its players (they are kept: membership.py)
        generation = self._games_cache.generation
        twin = self._twin
        rows: list[Any] = []
        if twin is not None:  # a SQLite file: read in a worker thread on the twin, off the event loop (a burst of
            rows = await asyncio.to_thread(_user_games_in_twin, twin, wanted)  # first DMs reads thousands of rows)
        else:  # a read: run again if its connection was found lost (play-test V5.2, ``again_if_lost``)
            rows = await again_if_lost(lambda: self._user_games(wanted), reading=True)
        for user_id, game_id, guild, channel, name, ruleset, role, current, ended_at in rows:
            view = views.get(game_id)
            if view is None:
                view = views[game_id] = GameView(game_id, guild, channel, name, ruleset, role, current,
                                                 utc(ended_at) if ended_at else None)
            games[user_id].append(view)
        self._games_cache.store(generation, games.items())
        return [list(games[u]) for u in user_ids]

    async def running_games(self) -> list[GameView]:
        """Every game that has not ended, oldest first."""
        async with self._read() as session:
            found = await session.execute(select(Game).where(Game.status != "ended").order_by(Game.id))
            return [game_view(g) for g in found.scalars()]

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

    async def players_of(self, game_ids: Sequence[int]) -> list[int]:
        """The user ids of the players (not removed) of the games ``game_ids``, each once, in the games' order and
        the order they joined: those whose DMs a start reads back (bot/discord/catch_up.py)."""
        async with self._read() as session:
            found = await session.execute(select(Player.game_id, Player.user_id)
                                          .where(Player.game_id.in_(list(game_ids)), Player.removed.is_(False))
                                          .order_by(Player.id))
            rank = {game_id: n for n, game_id in enumerate(game_ids)}
            rows = sorted(found.all(), key=lambda row: rank[row[0]])
            return list(dict.fromkeys(int(user) for _, user in rows))

    async def oldest_running_game(self) -> datetime | None:
        """When the oldest game that has not ended was made (None: there is none)."""
        async with self._read() as session:
            found = (await session.execute(select(func.min(Game.created_at)).where(Game.status != "ended"))
                     ).scalar_one_or_none()
            return utc(found) if found is not None else None

    async def removed_users(self, game_id: int) -> frozenset[int]:
        """The user ids of the game's players a moderator removed (``/player remove``)."""
        async with self._read() as session:
            found = await session.execute(select(Player.user_id).where(Player.game_id == game_id,
                                                                       Player.removed.is_(True)))
            return frozenset(found.scalars())

    async def games_in_guild(self, guild_id: int) -> list[GameListing]:
        async with self._read() as session:
            games = list((await session.execute(select(Game).where(Game.guild_id == guild_id)
                                                .order_by(Game.id))).scalars())
            return [await self._listing(session, g) for g in games]

    async def listings(self, games: list[GameView]) -> list[GameListing]:
        async with self._read() as session:
            return [await self._listing(session, await load_game(session, g.id)) for g in games]

    async def _listing(self, session: Any, game: Game) -> GameListing:
        players = (await session.execute(select(Player.id).where(Player.game_id == game.id,
                                                                 Player.active.is_(True)))).all()
        ruleset = next((r for r in self.backend.rulesets if r.name == game.ruleset), None)
        if ruleset is not None and ruleset.progress is not None:
            progress = await ruleset.progress(session, game)
        else:
            progress = f"round {game.current_round}"
        setting_up = (game.status != "ended" and ruleset is not None and ruleset.setting_up is not None
                      and await ruleset.setting_up(session, game))
        return GameListing(game_view(game), game.status, len(players), progress, setting_up)

    async def listing(self, game_id: int) -> GameListing:
        """Where one game stands (``/game list``'s line of it; the export's title)."""
        async with self._read() as session:
            return await self._listing(session, await load_game(session, game_id))

    async def set_moderator_role(self, game_id: int, *, role_id: int | None, actor: int | None,
                                 source_id: str | None = None,
                                 answer: OwedWith[tuple[int | None, int | None]] | None = None
                                 ) -> tuple[int | None, int | None]:
        """(old role id, new role id); None means members with Manage Server. ``answer``: what it announces, owed
        in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            old = game.moderator_role_id
            if old == role_id:
                raise RuleError(f"{game.name} already has that moderator role; nothing was changed.")
            game.moderator_role_id = role_id
            await uow.record(game_id, "ModeratorRoleChanged", actor, {"from": old, "to": role_id}, source_id)
            return await owe_in(uow, answer, (old, role_id))

    async def move(self, game_id: int, *, channel_id: int, actor: int | None, source_id: str | None = None,
                   release: Callable[[Owed], Owed] | None = None, answer: OwedWith[Moved] | None = None) -> Moved:
        """``/game move``: the game's channel becomes ``channel_id`` (its old one was deleted, or the moderators
        want another); recorded (``GameMoved``, from and to), in an ended game too (its export and ``/log`` need a
        channel). The mark that its old channel was lost is cleared in the same transaction, and with ``release``
        (how a message held for the old channel goes to the new one) what was held for it is owed again there
        (``release_in``), so a kill after the commit cannot leave it held for a channel the game has left.
        ``answer``: what it announces, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            old = game.channel_id
            if old == channel_id:
                raise RuleError(f"{game.name} is already played in this channel; nothing was changed.")
            taken = (await uow.session.execute(select(Game.name).where(Game.channel_id == channel_id))).scalar()
            if taken is not None:
                raise RuleError(f"This channel is already the game channel of {taken}; run /game move in a channel "
                                "that has no game. Nothing was changed.")
            mark = await uow.session.get(GameMark, (game_id, CHANNEL_LOST))
            lost = mark is not None and mark.value == str(old)
            if mark is not None:
                await uow.session.delete(mark)
            left = await uow.session.get(GameMark, (game_id, MOVED_FROM))  # what is refused there goes to the new one
            if left is None:
                uow.session.add(GameMark(game_id=game_id, key=MOVED_FROM, value=str(old), at=uow.now))
            else:
                left.value, left.at = str(old), uow.now
            game.channel_id = channel_id
            await uow.record(game_id, "GameMoved", actor, {"from": old, "to": channel_id, "deleted": lost},
                             source_id)
            released: list[OwedRow] = []
            if release is not None:
                now = uow.now
                released = await uow.session.run_sync(lambda s: release_in(s.connection(), now, old, release))
            moved = await owe_in(uow, answer, Moved(old, lost, game_view(game), tuple(released)))
        self.backend.games.forget()  # the games remembered per user carry their channel (membership.py)
        return moved

    async def reopen(self, game_id: int, *, actor: int | None, reason: str | None = None,
                     source_id: str | None = None, answer: OwedWith[Reopened] | None = None) -> Reopened:
        """``/game reopen``: an ended game runs again, to correct a mistake; recorded (``GameReopened``, with when it
        had ended and the reason). What its ruleset stored at the end (Landsdraad's final scores) is kept, to be
        compared with what the next end stores (the correction). ``answer``: what it announces, owed in its
        transaction (``owe_in``)."""
        reason = reason.strip() if reason and reason.strip() else None
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if game.status != "ended" or game.ended_at is None:
                raise RuleError(f"{game.name} has not ended, so there is nothing to reopen; nothing was changed.")
            ended_at = utc(game.ended_at)
            uow.reopen(game)
            ruleset = next((r for r in self.backend.rulesets if r.name == game.ruleset), None)
            moved: list[tuple[str, datetime]] = []
            if ruleset is not None and ruleset.reopened is not None:  # its deadlines run on (play-test X4.5)
                moved = await ruleset.reopened(uow.session, game_id, ended_at, uow.now)
            await uow.record(game_id, "GameReopened", actor, {"ended_at": ended_at.isoformat(), "reason": reason},
                             source_id)
            return await owe_in(uow, answer, Reopened(game_view(game), ended_at, reason, tuple(moved)))

    async def close(self, game_id: int, *, actor: int | None, reason: str | None = None,
                    source_id: str | None = None, answer: OwedWith[Closed] | None = None) -> Closed:
        """``/game close``: a moderator ends a game whose ruleset has no ending of its own that the moderator runs
        (the front refuses it for the others): recorded as ``GameEnded`` (``ended_by`` moderator), the ledger closed.
        After a reopening, what changed meanwhile is read in the same transaction (``Closed.changes``). ``answer``:
        what it announces, owed in its transaction (``owe_in``)."""
        reason = reason.strip() if reason and reason.strip() else None
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if game.status == "ended":
                raise GameClosed(game.name, game.ended_at)
            again = (await uow.session.execute(select(Event.id).where(
                Event.game_id == game_id, Event.kind == "GameReopened").limit(1))).first() is not None
            changes = tuple(await _changes_since_reopen(uow.session, game_id)) if again else ()
            uow.end(game)
            await uow.record(game_id, "GameEnded", actor, {"ended_by": "moderator", "reason": reason,
                                                           "again": again}, source_id)
            return await owe_in(uow, answer, Closed(game_view(game), reason, again, changes))

    async def event_log(self, game_id: int, *, round_number: int | None = None, user_id: int | None = None,
                        page: int = 1, per_page: int = LOG_PAGE) -> LogPage:
        """The game's events, newest first, filtered by the payload's ``round`` and by a user (the actor or the
        payload's ``user_id``), one page of them."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            events = list((await session.execute(select(Event).where(Event.game_id == game_id)
                                                 .order_by(Event.seq.desc()))).scalars())
            players = (await session.execute(select(Player.user_id, Player.name)
                                             .where(Player.game_id == game_id))).all()
            if round_number is not None and round_number > game.current_round:  # not "Nothing recorded" (T5.5)
                listing = await self._listing(session, game)
                where = listing.where if listing.setting_up else f"at {listing.where}"  # its own unit: turns too
                raise NotFoundError(f"{game.name} has no round {round_number} (it is {where}).")
        names = {int(u): n for u, n in players}
        if round_number is not None:
            events = [e for e in events if (e.payload or {}).get("round") == round_number]
        if user_id is not None:
            events = [e for e in events if mentions_user(e, user_id)]
        total = len(events)
        pages = max(1, -(-total // per_page))
        if page < 1 or page > pages:
            raise RuleError(f"There {'is' if pages == 1 else 'are'} {pages} page{'' if pages == 1 else 's'}; "
                            f"page {page} does not exist.")
        chosen = events[(page - 1) * per_page: page * per_page]
        readable = self.backend.ruleset(game.ruleset).exported  # a payload as the export writes it
        return LogPage(tuple(LogEntry(e.seq, utc(e.at), e.kind, e.actor,
                                      names.get(e.actor) if e.actor is not None else None,
                                      dict(readable(e.kind, e.payload or {})))
                             for e in chosen), page, pages, total, names)

    async def game_founder(self, game_id: int) -> int | None:
        """The user who ran /game new for the game (the actor of its ``GameCreated`` event), or None."""
        async with self._read() as session:
            found = await session.execute(select(Event.actor).where(Event.game_id == game_id,
                                                                    Event.kind == "GameCreated").limit(1))
            return found.scalar_one_or_none()

    async def known_moderators(self, game_id: int) -> tuple[int, ...]:
        """The moderators Clerk knows of (it cannot list a role's members without the members intent): the user
        who ran /game new, then everyone else who has done something recorded in the game and is not one of its
        players (only moderator commands record an event without a player), first act first."""
        async with self._read() as session:
            players = set((await session.execute(select(Player.user_id).where(Player.game_id == game_id))).scalars())
            found = await session.execute(select(Event.actor, Event.kind).where(
                Event.game_id == game_id, Event.actor.is_not(None)).order_by(Event.id))
            founder: list[int] = []
            others: list[int] = []
            for actor, kind in found.all():
                if actor is None:
                    continue
                if kind == "GameCreated":
                    founder.append(actor)
                elif actor not in players:
                    others.append(actor)
            return tuple(dict.fromkeys(founder + others))
