"""Messages and threads the bot keeps (a pinned tally edited in place; a thread found again by its name)."""

from __future__ import annotations

from sqlalchemy import select

from engine.service.owed import OwedWith, owe_in
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

    async def post_again(self, game_id: int, key: str, *, actor: int | None, source_id: str | None = None,
                         answer: OwedWith[str | None] | None = None) -> str | None:
        """Make the next send under ``key`` a new message (``/game announce``): the message kept so far is moved to
        ``<key>:old`` (returned, so that it can be edited to point to the new one; None if there was none), and the
        request is recorded (``KeptMessagePostedAgain``), so a redelivered command does it once. ``answer``: what
        it posts (the new message, the old one's edit), owed in its transaction (``owe_in``)."""
        old_key = f"{key}:old"
        async with self._write(game_id, source_id) as uow:
            found = await uow.session.execute(
                select(PostedMessage).where(PostedMessage.game_id == game_id,
                                            PostedMessage.key.in_((key, old_key))))
            rows = {row.key: row for row in found.scalars()}
            kept = rows.get(key)
            if old_key in rows:
                await uow.session.delete(rows[old_key])
                await uow.session.flush()
            if kept is not None:
                kept.key = old_key
            await uow.record(game_id, "KeptMessagePostedAgain", actor, {"key": key}, source_id)
            return await owe_in(uow, answer, old_key if kept is not None else None)
