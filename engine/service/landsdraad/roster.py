"""Many players at once: a roster imported in one transaction (a large game's sign-up sheet, load tests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import insert, select

from engine.core.errors import RuleError
from engine.landsdraad.model import Attributes
from engine.service.ledger import load_game
from engine.service.membership import games_cache
from engine.service.uow import ServiceBase
from engine.store.models import Event, Player


@dataclass(frozen=True)
class RosterRow:
    user_id: int
    name: str
    diplomacy: int
    command: int
    intrigue: int
    roll: int
    faction: str | None = None


class RosterService(ServiceBase):
    async def add_players(self, game_id: int, rows: Sequence[RosterRow], *, actor: int | None,
                          source_id: str | None = None) -> int:
        """Add every row as a player, all or none: one transaction, one ``PlayerAdded`` event per player (the
        same events ``add_player`` appends). Refused, with nothing added, if a user appears twice or already plays."""
        users = [r.user_id for r in rows]
        if len(set(users)) != len(users):
            raise RuleError("The roster names a user twice; nothing was added.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            existing = set((await uow.session.execute(
                select(Player.user_id).where(Player.game_id == game_id))).scalars())
            clash = [r.name for r in rows if r.user_id in existing]
            if clash:
                raise RuleError(f"Already players in {game.name}: {', '.join(clash[:5])}; nothing was added.")
            # Plain executemany inserts, not object by object: a 2,000-player roster is one statement per table.
            players, events = [], []
            last = await uow.reserve(game_id, len(rows), ("PlayerAdded",))
            for index, row in enumerate(rows):
                attributes = Attributes.start(row.diplomacy, row.command, row.intrigue, row.roll)
                players.append({
                    "game_id": game_id, "user_id": row.user_id, "name": row.name, "faction": row.faction,
                    "diplomacy": attributes.diplomacy, "command": attributes.command,
                    "intrigue": attributes.intrigue, "roll": attributes.roll,
                    "diplomacy_max": attributes.diplomacy_max, "intrigue_max": attributes.intrigue_max,
                    "misc_votes": 0, "active": True})
                payload = {"user_id": row.user_id, "name": row.name, "faction": row.faction,
                           "diplomacy": row.diplomacy, "command": row.command, "intrigue": row.intrigue,
                           "roll": row.roll, "rolled_by_clerk": False}
                # The import's source id goes on its first event, so a repeated import is recognised.
                events.append({"game_id": game_id, "seq": last - len(rows) + 1 + index, "kind": "PlayerAdded",
                               "actor": actor, "payload": payload, "source_id": source_id if index == 0 else None,
                               "at": uow.now})
            if rows:
                await uow.session.execute(insert(Player), players)
                await uow.session.execute(insert(Event), events)
        games_cache(self).forget(users)  # after the commit: they play in one more game (membership.py)
        return len(rows)
