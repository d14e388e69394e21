"""``clerk.marks``: what the bot noted about a game outside its ledger, so that what it tells a game's moderators or
channel once is not told again after a restart (the ``game_marks`` table; delivery bookkeeping, not an event):

- ``channel_lost``: the game's channel was found deleted (Discord: 404 Unknown Channel) and the moderators were told
  (bot/discord/lost_channels.py); its value is the channel's id, so a channel lost after a ``/game move`` is told
  again. ``/game move`` clears it, and notes the channel the game left (``moved_from``), so a message owed for the
  old channel before the move and refused after it goes to the new one.
- ``unread``: the game's channel was told that the bot cannot read message text (started without the Message
  Content intent: ``reading_notices`` in bot/actions/message_commands.py), or its ``/game new`` reply said so;
  cleared, and the channel told that its posts are read again, at the first start that can read them.

Writes take the game's lock (``_write``) but record no event, so they also work in an ended game. A write that tells
someone of itself (``answer``: the notice to the game's channel) owes that message in its own transaction
(``engine.service.owed.owe_in``), only when it changed the mark: a kill cannot leave the mark without the notice
owed, nor the notice owed twice (play-test R4.3)."""

from __future__ import annotations

from sqlalchemy import delete, select

from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.store.models import Game, GameMark

CHANNEL_LOST = "channel_lost"
MOVED_FROM = "moved_from"
UNREAD = "unread"


class MarkService(ServiceBase):
    async def mark(self, game_id: int, key: str, value: str, answer: OwedWith[bool] | None = None) -> bool:
        """Note ``key`` = ``value`` for the game; True if it was not so already (then tell it), False if it was.
        ``answer``: what telling it sends, owed in this write's transaction when it was not so already."""
        async with self._write(game_id) as uow:
            found = await uow.session.get(GameMark, (game_id, key))
            if found is not None and found.value == value:
                return False
            if found is None:
                uow.session.add(GameMark(game_id=game_id, key=key, value=value, at=uow.now))
            else:
                found.value, found.at = value, uow.now
            return await owe_in(uow, answer, True)

    async def unmark(self, game_id: int, key: str, answer: OwedWith[bool] | None = None) -> bool:
        """Forget ``key`` for the game; True if it was noted. ``answer``: what telling it sends, owed in this write's
        transaction when it was noted."""
        async with self._write(game_id) as uow:
            done = await uow.session.execute(delete(GameMark).where(GameMark.game_id == game_id, GameMark.key == key))
            if not getattr(done, "rowcount", 0):
                return False
            return await owe_in(uow, answer, True)

    async def marked(self, game_id: int, key: str) -> str | None:
        async with self._read() as session:
            found = await session.get(GameMark, (game_id, key))
            return found.value if found is not None else None

    async def marked_games(self, key: str) -> dict[int, str]:
        """Game id -> value of every game with ``key`` noted."""
        async with self._read() as session:
            found = await session.execute(select(GameMark.game_id, GameMark.value).where(GameMark.key == key))
            return {game_id: value for game_id, value in found.all()}

    async def moved_from(self, channel_id: int) -> int | None:
        """The game that was last moved away from the channel ``channel_id`` (``/game move``), if one was."""
        async with self._read() as session:
            found = await session.execute(select(GameMark.game_id).where(GameMark.key == MOVED_FROM,
                                                                         GameMark.value == str(channel_id)).limit(1))
            return found.scalar_one_or_none()

    async def lost_channels(self, guild_id: int) -> list[str]:
        """The names of the server's games whose channel was found deleted (and not moved since), by name."""
        async with self._read() as session:
            found = await session.execute(
                select(Game.name, Game.channel_id, GameMark.value).join(GameMark, GameMark.game_id == Game.id)
                .where(Game.guild_id == guild_id, GameMark.key == CHANNEL_LOST).order_by(Game.name))
            return [name for name, channel_id, value in found.all() if value == str(channel_id)]
