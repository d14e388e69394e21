"""Casting a crisis ballot: one short transaction whose size does not grow with the game (R0-11, R0-12)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select

from engine.core.errors import ClerkError, RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.crisis import RoundWindow, accept_ballot
from engine.landsdraad.model import Option
from engine.service.ballot_batch import BallotRequest, cast_batch
from engine.service.batching import Batcher
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game, require_player, require_running, view_player
from engine.service.rounds import current_round
from engine.service.uow import Duplicate, ServiceBase
from engine.service.views import BallotReceipt
from engine.store.models import Ballot


class BallotService(ServiceBase):
    async def cast_ballot(
        self,
        game_id: int,
        *,
        user_id: int,
        command: BallotCommand,
        received_at: datetime,
        source_id: str | None,
        expected_round: int | None = None,
    ) -> BallotReceipt:
        """Record the ballot and return what was recorded. The receipt exists only after the commit.
        A redelivered message (same ``source_id``) is answered again from the stored ballot and not counted twice.
        ``expected_round`` (a button's round) refuses a ballot when the current round is another one.
        Ballots of one game that arrive together are written together (``cast_batch``, one transaction)."""
        request = BallotRequest(user_id, command, received_at, source_id, expected_round)
        try:
            return await self._ballot_batcher.submit(game_id, request)
        except Duplicate as dup:
            return await self._receipt_again(game_id, user_id, dup)

    @property
    def _ballot_batcher(self) -> Batcher[int, BallotRequest, BallotReceipt]:
        batcher: Batcher[int, BallotRequest, BallotReceipt] | None = self.__dict__.get("_ballots_batcher")
        if batcher is None:
            batcher = self.__dict__["_ballots_batcher"] = Batcher(self._cast_batch)
        return batcher

    async def _cast_batch(self, game_id: int, items: Sequence[BallotRequest]
                          ) -> Sequence[BallotReceipt | BaseException]:
        """One transaction for the batch; if it fails as a whole (a race with another process on a source id, a
        lost connection) every ballot is tried again alone, so each gets its own answer."""
        try:
            async with self._write(game_id) as uow:
                results: list[BallotReceipt | ClerkError] = await cast_batch(uow, game_id, items)
            return results
        except ClerkError:
            raise
        except Exception:
            if len(items) == 1:
                raise
        alone: list[BallotReceipt | BaseException] = []
        for item in items:
            try:
                alone.append(await self._cast_one(game_id, item))
            except Exception as error:
                alone.append(error)
        return alone

    async def _cast_one(self, game_id: int, item: BallotRequest) -> BallotReceipt:
        user_id, command, received_at = item.user_id, item.command, item.received_at
        source_id, expected_round = item.source_id, item.expected_round
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_running(game)
            player = await require_player(uow.session, game, user_id, "You")
            if not player.active:
                raise RuleError(f"You are marked inactive in {game.name}, so your ballot cannot count. "
                                "Ask a moderator if this is wrong.")
            rnd = await current_round(uow.session, game)
            if rnd is None:
                raise RuleError(f"No round is open in {game.name}, so there is nothing to vote on yet.")
            if expected_round is not None and rnd.number != expected_round:
                raise RuleError(f"This ballot is for round {expected_round} of {game.name}, which is over; "
                                f"round {rnd.number} is the current one.")
            window = RoundWindow(rnd.number, rnd.status == "open", utc(rnd.deadline) if rnd.deadline else None)
            found = await uow.session.execute(
                select(Ballot).where(Ballot.round_id == rnd.id, Ballot.player_id == player.id))
            ballot = found.scalar_one_or_none()
            previous = Option(ballot.option) if ballot else None
            accepted = accept_ballot(window, previous, command.option, command.declared, received_at)
            if ballot is None:
                ballot = Ballot(round_id=rnd.id, player_id=player.id, revotes=0)
                uow.session.add(ballot)
            else:
                ballot.revotes += 1
            ballot.option = accepted.option.value
            ballot.declared = accepted.declared
            ballot.received_at = received_at
            ballot.source_id = source_id
            view = await view_player(uow.session, player)
            payload = {"round": rnd.number, "user_id": user_id, "option": accepted.option.value,
                       "declared": accepted.declared, "replaced": previous.value if previous else None,
                       "received_at": received_at.isoformat()}
            await uow.record(game_id, "BallotCast", user_id, payload, source_id)
        return BallotReceipt(
            game=game_view(game),
            round_number=rnd.number,
            option=accepted.option.value,
            declared=accepted.declared,
            votes=view.votes,
            replaced=previous.value if previous else None,
            deadline=window.deadline,
            paused_left=timedelta(seconds=rnd.paused_left) if rnd.paused_left is not None else None,
        )

    async def _receipt_again(self, game_id: int, user_id: int, dup: Duplicate) -> BallotReceipt:
        payload = dup.payload
        if dup.kind != "BallotCast":
            raise RuleError("That message was already handled.") from None
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
                duplicate=True,
                current=current,
            )
