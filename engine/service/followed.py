"""A moderator's write and what follows it, in ONE transaction, with the messages made of both owed there
(``owe_in``). The write is the ruleset's own use case, joining the transaction as a savepoint (``ServiceBase._batch``);
what follows it is read (or written: each write of the game joins the transaction too) in that transaction after it.

- ``write``: a write and a read of what it left: the Convocate's and Mylantium's set-up commands, ``/game import``
  and ``/player remove``, whose set-up summary (or line in the game channel) is made of the game as the write leaves
  it, and Mylantium's ``/government set``, with what a correction of the approval changes in the closed results.
- ``follow``: the general form, given the write's result: a Landsdraad ledger edit with the player votes judged
  again, the majority check and the rest (``clerk.landsdraad.edits``, engine/service/landsdraad/edits.py).

Before, the read (or the writes that follow) came after the write's commit and the messages were owed after it: a
kill in between lost them (docs/reliability.md)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from engine.service.membership import games_cache
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase

T = TypeVar("T")
V = TypeVar("V")
R = TypeVar("R")


@dataclass(frozen=True)
class Followed(Generic[T, V]):
    """A write's own result (``done``) and what ``read`` found in its transaction after it (``seen``)."""

    done: T
    seen: V


class FollowedWrites(ServiceBase):
    """``clerk.followed``."""

    async def follow(self, game_id: int, write: Callable[[], Awaitable[T]],
                     then: Callable[[AsyncSession, T], Awaitable[R]], *, source_id: str | None,
                     answer: OwedWith[R] | None = None,
                     joins: Callable[[T], Sequence[int]] | None = None) -> R:
        """``write`` (a use case of the game under ``source_id``), then ``then(session, its result)`` in the same
        transaction (a read, or use cases of the game: each joins the transaction as a savepoint), whose result is
        returned; ``answer``: the messages made of it, owed there. ``joins``: the users whose games the write
        changed (a player seated or removed), forgotten again by the games cache once it has committed
        (``membership``). Raises Duplicate for a redelivery of ``source_id``, and whatever ``write`` or ``then``
        raises (then nothing is written)."""
        async with self._batch(game_id, source_id) as uow:
            done = await write()
            followed = await owe_in(uow, answer, await then(uow.session, done))
        if joins is not None:  # again after the commit: a lookup begun before it may not keep what it read
            games_cache(self).forget(list(joins(done)))
        return followed

    async def write(self, game_id: int, write: Callable[[], Awaitable[T]],
                    read: Callable[[AsyncSession, int], Awaitable[V]], *, source_id: str | None,
                    answer: OwedWith[Followed[T, V]] | None = None,
                    joins: Callable[[T], Sequence[int]] | None = None) -> Followed[T, V]:
        """``follow`` with ``read(session, game_id)`` after ``write``: the write's result and what the read found
        (the same as a read after the commit finds)."""
        async def then(session: AsyncSession, done: T) -> Followed[T, V]:
            return Followed(done, await read(session, game_id))

        return await self.follow(game_id, write, then, source_id=source_id, answer=answer, joins=joins)
