"""Casting a crisis ballot: one short transaction whose size does not grow with the game (R0-11, R0-12)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import select

from engine.core.errors import ClerkError, RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.service.batching import Batcher
from engine.service.clock import utc
from engine.service.landsdraad.ballot_batch import BallotRequest, cast_batch
from engine.service.landsdraad.ledger import view_player
from engine.service.landsdraad.round_state import current_round
from engine.service.landsdraad.views import BallotReceipt
from engine.service.ledger import game_view, load_game, require_player
from engine.service.membership import StaleGames, games_cache
from engine.service.owed import OwedWith
from engine.service.uow import Backend, Duplicate, ServiceBase, SyncUnit, short_units
from engine.store.models.landsdraad import Ballot


class Cast(NamedTuple):
    """A ballot waiting for its batch, with the games it was chosen from when they came from a remembered lookup."""

    request: BallotRequest
    plays_in: frozenset[int] | None
    answer: OwedWith[BallotReceipt] | None = None


def checked_batch(uow: SyncUnit, game_id: int, items: Sequence[Cast]) -> list[BallotReceipt | ClerkError]:
    """``cast_batch`` of the ballots, those whose user no longer plays in exactly the games they were chosen from
    answered ``StaleGames``, unrecorded (membership.py; checked in the batch's read), and the receipts of the
    others owed in the same transaction when asked (``OwedWith``)."""
    return cast_batch(uow, game_id, [c.request for c in items], [c.plays_in for c in items],
                      [c.answer for c in items])


class BallotService(ServiceBase):
    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._ballot_batcher: Batcher[int, Cast, BallotReceipt] = Batcher(self._cast_batch)
        """Ballots of one game that arrive together share a transaction (``batching.py``)."""

    async def cast_ballot(
        self,
        game_id: int,
        *,
        user_id: int,
        command: BallotCommand,
        received_at: datetime,
        source_id: str | None,
        expected_round: int | None = None,
        plays_in: Collection[int] | None = None,
        answer: OwedWith[BallotReceipt] | None = None,
    ) -> BallotReceipt:
        """Record the ballot and return what was recorded. The receipt exists only after the commit.
        A redelivered message (same ``source_id``) is answered again from the stored ballot and not counted twice.
        ``expected_round`` (a button's round) refuses a ballot when the current round is another one.
        Ballots of one game that arrive together are written together (``cast_batch``, one transaction).
        ``plays_in``: the ids of the games the game was chosen from, when they were remembered (``known_games``);
        if the user's games are no longer exactly these, nothing is recorded and ``StaleGames`` is raised (look
        them up again with ``games_of_user`` and choose again).
        ``answer``: the receipt's messages, owed in the ballot's own transaction (``OwedWith``; not for a message that
        arrived again, whose receipt is made after it)."""
        request = BallotRequest(user_id, command, received_at, source_id, expected_round)
        if answer is not None:
            answer.rows = []
        try:
            return await self._ballot_batcher.submit(game_id, Cast(request, None if plays_in is None
                                                                   else frozenset(plays_in), answer))
        except Duplicate as dup:
            if dup.kind != "BallotCast":
                raise RuleError("That message was already handled.") from None
            return await self.recorded_receipt(game_id, user_id, dup.payload, duplicate=True)
        except StaleGames:
            games_cache(self).forget([user_id])
            raise

    async def _cast_batch(self, game_id: int, items: Sequence[Cast]) -> Sequence[BallotReceipt | BaseException]:
        """One transaction for the batch; if it fails as a whole (a race with another process on a source id, a
        lost connection) every ballot is tried again alone, so each gets its own answer."""
        try:
            with short_units(len(items) == 1):  # a lone ballot may be written on the loop's thread (issue 20)
                results: list[BallotReceipt | ClerkError] = await self._optimistic_unit(
                    game_id, checked_batch, game_id, items)
            return results
        except ClerkError:
            raise
        except Exception:
            if len(items) == 1:
                raise
        alone: list[BallotReceipt | BaseException] = []
        for item in items:
            try:
                alone += await self._optimistic_unit(game_id, checked_batch, game_id, [item])
            except Exception as error:
                alone.append(error)
        return alone

    async def recorded_receipt(self, game_id: int, user_id: int, payload: dict[str, Any], *, duplicate: bool
                               ) -> BallotReceipt:
        """The receipt of a ballot recorded earlier (its ``BallotCast`` payload): for a message that arrived again
        (``duplicate``), or for one whose receipt was never sent (the bot died between the commit and the reply)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            view = await view_player(session, await require_player(session, game, user_id, "You"))
            rnd = await current_round(session, game)
            deadline = utc(rnd.deadline) if rnd is not None and rnd.deadline else None
            current: str | None = None
            if rnd is not None and rnd.number == int(payload["round"]):
                found = await session.execute(
                    select(Ballot.option).where(Ballot.round_id == rnd.id, Ballot.player_id == view.id))
                current = found.scalar_one_or_none()
            return BallotReceipt(
                game=game_view(game),
                round_number=int(payload["round"]),
                option=str(payload["option"]),
                declared=payload.get("declared"),
                votes=view.votes,
                replaced=payload.get("replaced"),
                deadline=deadline,
                duplicate=duplicate,
                current=current,
                paused_left=None if duplicate or rnd is None or rnd.paused_left is None
                else timedelta(seconds=rnd.paused_left),
            )
