"""Casting a crisis ballot: one short transaction whose size does not grow with the game (R0-11, R0-12)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update

from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.crisis import RoundWindow, accept_ballot
from engine.landsdraad.model import Attributes, Elector, Option, Planet, Quality, Tier
from engine.landsdraad.votes import vote_breakdown
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game, require_player, view_player
from engine.service.rounds import current_round
from engine.service.uow import Duplicate, ServiceBase, SyncUnit
from engine.service.views import BallotReceipt, GameView
from engine.store.models import Ballot, Base


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
        ``expected_round`` (a button's round) refuses a ballot when the current round is another one."""
        try:
            return await self._unit(game_id, source_id, _cast, game_id, user_id, command, received_at, source_id,
                                    expected_round)
        except Duplicate as dup:
            return await self._receipt_again(game_id, user_id, dup)

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


_G, _P, _R, _B, _H = (Base.metadata.tables[t] for t in ("games", "players", "rounds", "ballots", "holdings"))
_READ = (
    select(_G.c.id, _G.c.guild_id, _G.c.channel_id, _G.c.name, _G.c.ruleset, _G.c.moderator_role_id,
           _G.c.current_round, _G.c.status,
           _P.c.id.label("player_id"), _P.c.active, _P.c.diplomacy, _P.c.command, _P.c.intrigue, _P.c.roll,
           _P.c.diplomacy_max, _P.c.intrigue_max, _P.c.misc_votes,
           _R.c.id.label("round_id"), _R.c.number, _R.c.status.label("round_status"), _R.c.deadline,
           _R.c.paused_left, _B.c.option.label("previous"),
           _H.c.kind, _H.c.name.label("holding"), _H.c.grade, _H.c.votes.label("holding_votes"), _H.c.homeworld)
    .select_from(
        _G.outerjoin(_P, and_(_P.c.game_id == _G.c.id, _P.c.user_id == bindparam("user")))
        .outerjoin(_R, and_(_R.c.game_id == _G.c.id, _R.c.number == _G.c.current_round))
        .outerjoin(_B, and_(_B.c.round_id == _R.c.id, _B.c.player_id == _P.c.id))
        .outerjoin(_H, _H.c.player_id == _P.c.id))
    .where(_G.c.id == bindparam("game"))
    .order_by(_H.c.id)
)
"""Everything a ballot needs in one statement: the game, the player and their holdings (one row each), the current
round and the player's ballot in it."""
_NEW_BALLOT = insert(_B)
_REVOTE = (update(_B).where(_B.c.round_id == bindparam("round"), _B.c.player_id == bindparam("player"))
           .values(option=bindparam("option"), declared=bindparam("declared"), revotes=_B.c.revotes + 1,
                   received_at=bindparam("received"), source_id=bindparam("source")))


def _votes(row: Any, rows: Sequence[Any]) -> int:
    """The player's votes now (R0-01..R0-07), from the statement's rows (one per holding)."""
    attributes = Attributes(diplomacy=row.diplomacy, command=row.command, intrigue=row.intrigue, roll=row.roll,
                            diplomacy_max=row.diplomacy_max, intrigue_max=row.intrigue_max)
    electors = [Elector(r.holding, Tier(r.grade), r.holding_votes) for r in rows if r.kind == "elector"]
    planets = [Planet(r.holding, Quality(r.grade), r.homeworld) for r in rows if r.kind == "planet"]
    return vote_breakdown(attributes, electors, planets, row.misc_votes).total


def _cast(unit: SyncUnit, game_id: int, user_id: int, command: BallotCommand, received_at: datetime,
          source_id: str | None, expected_round: int | None) -> BallotReceipt:
    """The ballot's transaction: one read, the ballot's row, the event (four statements in all)."""
    connection = unit.session.connection()
    rows = connection.execute(_READ, {"game": game_id, "user": user_id}).all()
    if not rows:
        raise NotFoundError("That game no longer exists.")
    row = rows[0]
    if row.status == "ended":
        raise RuleError(f"{row.name} has ended; nothing more can be voted on.")
    if row.player_id is None:
        raise NotFoundError(f"You are not a player in {row.name}.")
    if not row.active:
        raise RuleError(f"You are marked inactive in {row.name}, so your ballot cannot count. "
                        "Ask a moderator if this is wrong.")
    if row.round_id is None:
        raise RuleError(f"No round is open in {row.name}, so there is nothing to vote on yet.")
    if expected_round is not None and row.number != expected_round:
        raise RuleError(f"This ballot is for round {expected_round} of {row.name}, which is over; "
                        f"round {row.number} is the current one.")
    window = RoundWindow(row.number, row.round_status == "open", utc(row.deadline) if row.deadline else None)
    previous = Option(row.previous) if row.previous is not None else None
    accepted = accept_ballot(window, previous, command.option, command.declared, received_at)
    values = {"option": accepted.option.value, "declared": accepted.declared, "received": received_at,
              "source": source_id, "round": row.round_id, "player": row.player_id}
    if previous is None:
        connection.execute(_NEW_BALLOT, {"round_id": row.round_id, "player_id": row.player_id, "revotes": 0,
                                         "option": values["option"], "declared": values["declared"],
                                         "received_at": received_at, "source_id": source_id})
    else:
        connection.execute(_REVOTE, values)
    payload = {"round": row.number, "user_id": user_id, "option": accepted.option.value,
               "declared": accepted.declared, "replaced": previous.value if previous else None,
               "received_at": received_at.isoformat()}
    unit.record(game_id, "BallotCast", user_id, payload, source_id)
    game = GameView(id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, name=row.name, ruleset=row.ruleset,
                    moderator_role_id=row.moderator_role_id, current_round=row.current_round)
    return BallotReceipt(
        game=game,
        round_number=row.number,
        option=accepted.option.value,
        declared=accepted.declared,
        votes=_votes(row, rows if row.kind is not None else []),
        replaced=previous.value if previous else None,
        deadline=window.deadline,
        paused_left=timedelta(seconds=row.paused_left) if row.paused_left is not None else None,
    )
