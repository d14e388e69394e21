"""A crisis round as the store holds it: the round of a game, its temporary factions, and the views players see
of both. Read by the round's use cases (``rounds.py``) and by its close (``round_close.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import RuleError
from engine.landsdraad.factions import TempFaction, make_faction
from engine.service.announcements import POST_TOKEN
from engine.service.clock import utc
from engine.service.dice import GAME_SCOPE, SealView, rolls_of, seal_of
from engine.service.landsdraad.ledger import active_votes
from engine.service.landsdraad.views import Disclosure, FactionView, ResultView, RoundView
from engine.service.ledger import game_view
from engine.store.models import Game
from engine.store.models.landsdraad import Round, TempFactionRow


def faction_of(row: TempFactionRow) -> TempFaction:
    return make_faction(row.name, row.votes, row.stance, row.table)


def faction_purpose(name: str) -> str:
    """The name of a d6 faction's roll under its round's seed (docs/dice.md)."""
    return f"d6 for faction {name}"


def faction_view(row: TempFactionRow, *, reveal: bool, sealed: str | None = None) -> FactionView:
    return FactionView(
        name=row.name,
        votes=row.votes,
        stance=row.stance,
        table=row.table,
        roll=row.roll if reveal else None,
        vote=row.vote if reveal else None,
        sealed=sealed,
        preset=row.stance == "d6" and row.roll is not None,
    )


def read_round(session: Session, game: Game, number: int | None = None) -> Round | None:
    """Round ``number`` of ``game`` (its current round if None; None before the first)."""
    number = game.current_round if number is None else number
    if number == 0:
        return None
    found = session.execute(select(Round).where(Round.game_id == game.id, Round.number == number))
    rnd: Round | None = found.scalar_one_or_none()
    return rnd


async def current_round(session: AsyncSession, game: Game) -> Round | None:
    return await session.run_sync(read_round, game)


async def open_round_of(session: AsyncSession, game: Game) -> Round:
    found = await current_round(session, game)
    if found is None or found.status != "open":
        raise RuleError(f"No round is open in {game.name}.")
    return found


def read_factions(session: Session, round_id: int) -> Sequence[TempFactionRow]:
    rows = session.execute(select(TempFactionRow).where(TempFactionRow.round_id == round_id).order_by(
        TempFactionRow.id))
    return list(rows.scalars())


async def factions_of(session: AsyncSession, round_id: int) -> Sequence[TempFactionRow]:
    return await session.run_sync(read_factions, round_id)


@dataclass(frozen=True)
class KnownDice:
    """What a round's view reads of the dice, if the caller has read it already (the close): the seal of each
    purpose a moderator sealed in the round's scope (``dice.seeds_and_rolls``) and the game scope's seal
    (``seal_of(..., GAME_SCOPE)``, None without a seed)."""

    seals: Mapping[str, str]
    base_seal: SealView | None


def read_round_view(session: Session, game: Game, rnd: Round,
                    factions: Sequence[TempFactionRow] | None = None, seal: SealView | None = None,
                    known: KnownDice | None = None) -> RoundView:
    """The round as players see it; ``factions``, the round's ``seal`` (``seal_of``) and the rest of its dice
    (``known``) if the caller knows them."""
    if factions is None:
        factions = read_factions(session, rnd.id)
    note = (rnd.result or {}).get("voided") if rnd.status == "void" else None
    closed = rnd.status == "closed" or (note is not None and note.get("was") == "closed")  # its rolls were posted
    if known is None:
        seals: Mapping[str, str] = {r.purpose: r.sealed for r in rolls_of(session, game.id, rnd.number)
                                    if r.sealed is not None}
    else:
        seals = known.seals
    if closed and rnd.result:
        vip = rnd.result["in_play"]
    else:
        vip = active_votes(session, game.id) + sum(f.votes for f in factions)
    return RoundView(
        game=game_view(game),
        number=rnd.number,
        crisis=rnd.crisis,
        status=rnd.status,
        deadline=utc(rnd.deadline) if rnd.deadline else None,
        in_play=vip,
        factions=tuple(faction_view(f, reveal=closed, sealed=seals.get(faction_purpose(f.name))) for f in factions),
        paused_left=timedelta(seconds=rnd.paused_left) if rnd.paused_left is not None and not closed else None,
        seal=seal if seal is not None else seal_of(session, game.id, rnd.number),
        base_seal=seal_of(session, game.id, GAME_SCOPE) if known is None else known.base_seal,
        void_was=str(note["was"]) if note else None,
        void_reason=note.get("reason") if note else None,
    )


async def round_view(session: AsyncSession, game: Game, rnd: Round) -> RoundView:
    return await session.run_sync(read_round_view, game, rnd)


def result_view(view: RoundView, result: dict[str, Any], *, already_closed: bool = False) -> ResultView:
    return ResultView(
        round=view,
        outcome=str(result["outcome"]),
        aye=int(result["aye"]),
        nay=int(result["nay"]),
        abstain=int(result["abstain"]),
        in_play=int(result["in_play"]),
        needed=int(result["needed"]),
        factions=view.factions,
        already_closed=already_closed,
        adjutant=result.get("adjutant_general"),
        income_penalty=int(result.get("income_penalty", 0)),
        expired=tuple(result.get("expired_votes", ())),
        elections_closed=tuple(result.get("elections_closed", ())),
        due_at=datetime.fromisoformat(result["due_at"]) if result.get("due_at") else None,
        disclosure=disclosure_of(result.get("disclosure")),
        post_token=result.get(POST_TOKEN),
    )


def disclosure_of(found: dict[str, Any] | None) -> Disclosure | None:
    if not found:
        return None
    return Disclosure(mode=str(found["mode"]), exposed=tuple((str(n), str(o)) for n, o in found["exposed"]),
                      ruled_out=tuple((str(n), int(v), tuple(str(o) for o in out))
                                      for n, v, out in found.get("ruled_out", ())),
                      partial=bool(found.get("partial")), held=bool(found.get("held")),
                      released=bool(found.get("released")))
