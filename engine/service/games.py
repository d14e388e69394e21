"""Several games in a server: the list of them, each game's moderator role, and its audit trail (the events)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from engine.core.errors import RuleError
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Game, Player

LOG_PAGE = 15
"""Events on one page of /log."""


@dataclass(frozen=True)
class GameListing:
    game: GameView
    status: str
    players: int


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


class GameAdminService(ServiceBase):
    async def games_in_guild(self, guild_id: int) -> list[GameListing]:
        async with self._read() as session:
            games = list((await session.execute(select(Game).where(Game.guild_id == guild_id)
                                                .order_by(Game.id))).scalars())
            return [await self._listing(session, g) for g in games]

    async def listings(self, games: list[GameView]) -> list[GameListing]:
        async with self._read() as session:
            return [await self._listing(session, await load_game(session, g.id)) for g in games]

    @staticmethod
    async def _listing(session: Any, game: Game) -> GameListing:
        players = (await session.execute(select(Player.id).where(Player.game_id == game.id,
                                                                 Player.active.is_(True)))).all()
        return GameListing(game_view(game), game.status, len(players))

    async def set_moderator_role(self, game_id: int, *, role_id: int | None, actor: int | None,
                                 source_id: str | None = None) -> tuple[int | None, int | None]:
        """(old role id, new role id); None means members with Manage Server."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            old = game.moderator_role_id
            if old == role_id:
                raise RuleError(f"{game.name} already has that moderator role; nothing was changed.")
            game.moderator_role_id = role_id
            await uow.record(game_id, "ModeratorRoleChanged", actor, {"from": old, "to": role_id}, source_id)
            return old, role_id

    async def event_log(self, game_id: int, *, round_number: int | None = None, user_id: int | None = None,
                        page: int = 1, per_page: int = LOG_PAGE) -> LogPage:
        """The game's events, newest first, filtered by the payload's ``round`` and by a user (the actor or the
        payload's ``user_id``), one page of them."""
        async with self._read() as session:
            await load_game(session, game_id)
            events = list((await session.execute(select(Event).where(Event.game_id == game_id)
                                                 .order_by(Event.seq.desc()))).scalars())
            players = (await session.execute(select(Player.user_id, Player.name)
                                             .where(Player.game_id == game_id))).all()
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
        return LogPage(tuple(LogEntry(e.seq, utc(e.at), e.kind, e.actor,
                                      names.get(e.actor) if e.actor is not None else None, dict(e.payload or {}))
                             for e in chosen), page, pages, total, names)

    async def game_founder(self, game_id: int) -> int | None:
        """The user who ran /game new for the game (the actor of its ``GameCreated`` event), or None."""
        async with self._read() as session:
            found = await session.execute(select(Event.actor).where(Event.game_id == game_id,
                                                                    Event.kind == "GameCreated").limit(1))
            return found.scalar_one_or_none()
