"""Many crisis ballots of one game in one transaction (group commit, batching.py): a constant number of statements
per batch, not per ballot. Each ballot is judged as it would be alone, in the order
the ballots arrived, and one refused ballot never stops the others."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import insert, select, update

from engine.core.errors import ClerkError, NotFoundError, RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.crisis import RoundWindow, accept_ballot
from engine.landsdraad.model import Option
from engine.service.clock import utc
from engine.service.ledger import game_view, player_view, require_running
from engine.service.uow import Duplicate, SyncUnit
from engine.service.views import BallotReceipt
from engine.store.models import Ballot, Event, Game, Holding, Player, Round

T = TypeVar("T")
CHUNK = 400
"""Ids per ``IN (...)`` list: well under SQLite's limit on bound parameters."""


@dataclass(frozen=True)
class BallotRequest:
    user_id: int
    command: BallotCommand
    received_at: datetime
    source_id: str | None
    expected_round: int | None


def chunks(values: Sequence[T]) -> Iterable[Sequence[T]]:
    for start in range(0, len(values), CHUNK):
        yield values[start:start + CHUNK]


def cast_batch(uow: SyncUnit, game_id: int, items: Sequence[BallotRequest]) -> list[BallotReceipt | ClerkError]:
    """Record every acceptable ballot of ``items``; the result of each is its receipt, its refusal (a RuleError) or
    a ``Duplicate`` (its message was already handled: answered again by the caller after the commit).
    Synchronous: it runs as one ``ServiceBase._unit`` (on SQLite, one hop to a worker thread for the whole batch)."""
    session = uow.session
    done: dict[str, tuple[str, dict[str, Any]]] = {}
    sources = [i.source_id for i in items if i.source_id is not None]
    for part in chunks(sources):
        rows = session.execute(select(Event.source_id, Event.kind, Event.payload)
                                     .where(Event.source_id.in_(part)))
        done.update({source: (kind, dict(payload)) for source, kind, payload in rows.all() if source is not None})
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("That game no longer exists.")
    rnd = (session.execute(select(Round).where(Round.game_id == game_id, Round.number == game.current_round))
           .scalar_one_or_none() if game.current_round else None)
    users = sorted({i.user_id for i in items})
    players: dict[int, Player] = {}
    for user_part in chunks(users):
        found = session.execute(select(Player).where(Player.game_id == game_id, Player.user_id.in_(user_part)))
        players.update({p.user_id: p for p in found.scalars()})
    ids = sorted(p.id for p in players.values())
    holdings: dict[int, list[Holding]] = {}
    ballots: dict[int, Ballot] = {}
    for id_part in chunks(ids):
        for h in (session.execute(select(Holding).where(Holding.player_id.in_(id_part))
                                        .order_by(Holding.id))).scalars():
            holdings.setdefault(h.player_id, []).append(h)
        if rnd is not None:
            found_ballots = session.execute(select(Ballot).where(Ballot.round_id == rnd.id,
                                                                       Ballot.player_id.in_(id_part)))
            ballots.update({b.player_id: b for b in found_ballots.scalars()})

    results: list[BallotReceipt | ClerkError] = []
    accepted: list[tuple[int, dict[str, Any], str | None]] = []
    for item in items:
        if item.source_id is not None and item.source_id in done:
            kind, payload = done[item.source_id]
            results.append(Duplicate(item.source_id, kind, payload))
            continue
        try:
            receipt, payload = _judge(game, rnd, players.get(item.user_id), holdings, ballots, item)
        except ClerkError as refused:
            results.append(refused)
            continue
        results.append(receipt)
        accepted.append((item.user_id, payload, item.source_id))
        if item.source_id is not None:
            done[item.source_id] = ("BallotCast", payload)
    if accepted:
        # Plain statements, not the ORM's unit of work: with 2,000 players loaded, evaluating the UPDATE against
        # the session and flushing object by object cost more than the ballots themselves (profiled).
        last = (session.execute(update(Game).where(Game.id == game_id)
                                      .values(last_seq=Game.last_seq + len(accepted))
                                      .returning(Game.last_seq)
                                      .execution_options(synchronize_session=False))).scalar_one()
        first = last - len(accepted) + 1
        session.execute(insert(Event), [
            {"game_id": game_id, "seq": first + n, "kind": "BallotCast", "actor": user, "payload": payload,
             "source_id": source, "at": uow.now} for n, (user, payload, source) in enumerate(accepted)])
        new = [b for b in ballots.values() if b.id is None]
        if new:
            session.execute(insert(Ballot), [
                {"round_id": b.round_id, "player_id": b.player_id, "option": b.option, "declared": b.declared,
                 "received_at": b.received_at, "source_id": b.source_id, "revotes": b.revotes} for b in new])
    return results


def _judge(game: Game, rnd: Round | None, player: Player | None, holdings: dict[int, list[Holding]],
           ballots: dict[int, Ballot], item: BallotRequest) -> tuple[BallotReceipt, dict[str, Any]]:
    """One ballot, as it would be judged alone: the receipt and the event's payload, or a ClerkError."""
    require_running(game)
    if player is None:
        raise NotFoundError(f"You are not a player in {game.name}.")
    if not player.active:
        raise RuleError(f"You are marked inactive in {game.name}, so your ballot cannot count. "
                        "Ask a moderator if this is wrong.")
    if rnd is None:
        raise RuleError(f"No round is open in {game.name}, so there is nothing to vote on yet.")
    if item.expected_round is not None and rnd.number != item.expected_round:
        raise RuleError(f"This ballot is for round {item.expected_round} of {game.name}, which is over; "
                        f"round {rnd.number} is the current one.")
    window = RoundWindow(rnd.number, rnd.status == "open", utc(rnd.deadline) if rnd.deadline else None)
    ballot = ballots.get(player.id)
    previous = Option(ballot.option) if ballot else None
    accepted = accept_ballot(window, previous, item.command.option, item.command.declared, item.received_at)
    if ballot is None:
        ballot = ballots[player.id] = Ballot(round_id=rnd.id, player_id=player.id, revotes=0)  # inserted at the end
    else:
        ballot.revotes += 1
    ballot.option = accepted.option.value
    ballot.declared = accepted.declared
    ballot.received_at = item.received_at
    ballot.source_id = item.source_id
    view = player_view(player, holdings.get(player.id, []))
    payload = {"round": rnd.number, "user_id": item.user_id, "option": accepted.option.value,
               "declared": accepted.declared, "replaced": previous.value if previous else None,
               "received_at": item.received_at.isoformat()}
    receipt = BallotReceipt(
        game=game_view(game), round_number=rnd.number, option=accepted.option.value, declared=accepted.declared,
        votes=view.votes, replaced=previous.value if previous else None, deadline=window.deadline,
        paused_left=timedelta(seconds=rnd.paused_left) if rnd.paused_left is not None else None)
    return receipt, payload
