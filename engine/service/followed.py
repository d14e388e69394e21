"""A moderator's write and a read of what it left, in ONE transaction, with the messages made of both owed there
(``owe_in``): the Convocate's and Mylantium's set-up commands and ``/game import``, whose set-up summary (or line in
the game channel) is made of the game as the write leaves it. Before, the read came after the write's commit and
the messages were owed after it: a kill in between lost them (docs/reliability.md). The write is the ruleset's own
use case, joining the transaction as a savepoint (``ServiceBase._batch``), as ``clerk.landsdraad.edits`` does."""

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


@dataclass(frozen=True)
class Followed(Generic[T, V]):
    """A write's own result (``done``) and what ``read`` found in its transaction after it (``seen``)."""

    done: T
    seen: V


class FollowedWrites(ServiceBase):
    """``clerk.followed``."""

    async def write(self, game_id: int, write: Callable[[], Awaitable[T]],
                    read: Callable[[AsyncSession, int], Awaitable[V]], *, source_id: str | None,
                    answer: OwedWith[Followed[T, V]] | None = None,
                    joins: Callable[[T], Sequence[int]] | None = None) -> Followed[T, V]:
        """``write`` (a use case of the game under ``source_id``), then ``read(session, game_id)`` in the same
        transaction; ``answer``: the messages made of both, owed there. ``joins``: the users whose games the write
        changed (a player seated), forgotten again by the games cache once it has committed (``membership``).
        Raises Duplicate for a redelivery of ``source_id``, and whatever ``write`` raises (then nothing is
        written)."""
        async with self._batch(game_id, source_id) as uow:
            done = await write()
            seen = await read(uow.session, game_id)
            followed = await owe_in(uow, answer, Followed(done, seen))
        if joins is not None:  # again after the commit: a lookup begun before it may not keep what it read
            games_cache(self).forget(list(joins(done)))
        return followed
