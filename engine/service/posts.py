"""Messages and threads the bot keeps (a pinned tally edited in place; a thread found again by its name)."""

from __future__ import annotations

from sqlalchemy import select

from engine.service.uow import ServiceBase
from engine.store.models import PostedMessage


class PostService(ServiceBase):
    async def kept_message(self, game_id: int, key: str) -> tuple[int, int] | None:
        """(channel id, message id) of the message kept under ``key``; for ``thread:<name>``, (parent, thread)."""
        async with self._read() as session:
            found = await session.execute(
                select(PostedMessage.channel_id, PostedMessage.message_id).where(
                    PostedMessage.game_id == game_id, PostedMessage.key == key))
            row = found.one_or_none()
            return (row[0], row[1]) if row else None

    async def keep_message(self, game_id: int, key: str, channel_id: int, message_id: int) -> None:
        """Remember (or move) the message kept under ``key``. Not an event: it is delivery bookkeeping."""
        async with self._sessions() as session, session.begin():
            found = await session.execute(
                select(PostedMessage).where(PostedMessage.game_id == game_id, PostedMessage.key == key))
            row = found.scalar_one_or_none()
            if row is None:
                session.add(PostedMessage(game_id=game_id, key=key, channel_id=channel_id, message_id=message_id))
            else:
                row.channel_id, row.message_id = channel_id, message_id

    async def forget_message(self, game_id: int, key: str) -> None:
        async with self._sessions() as session, session.begin():
            found = await session.execute(
                select(PostedMessage).where(PostedMessage.game_id == game_id, PostedMessage.key == key))
            row = found.scalar_one_or_none()
            if row is not None:
                await session.delete(row)
