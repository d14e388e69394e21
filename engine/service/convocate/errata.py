"""Corrections with their consequences in the Convocate (issue 19): which resolved Motions of Repeal would have come
out differently after ``/card set ... since:T`` (a card that was wrong from turn T on), and the erratum a moderator
posts for one of them.

The correction records how it changes each player's Standing Vote (read on the board when it is made); each Repeal
of turn T or later resolved before it is counted again from its ``RepealMoved`` event with those changes, by
``engine.convocate.errata`` (``repeal.destroys``, the resolution's own rule). A Statute the corrected count would
have kept is not restored: the erratum says so, and the moderators act. Nothing recorded is changed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.convocate.errata import ClosedRepeal, RepealRecount, recount_repeal
from engine.core.errors import NotFoundError, RuleError
from engine.service.ledger import game_view, read_game
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event
from engine.store.models.convocate import CvMotion

ERRATUM = "ErratumPosted"
CHANGED = "CardChanged"


@dataclass(frozen=True)
class RepealConsequences:
    game: GameView
    subject: str
    recounts: tuple[RepealRecount, ...]


@dataclass(frozen=True)
class RepealErratum:
    game: GameView
    recount: RepealRecount


def closed_repeals(session: Session, game_id: int) -> dict[int, tuple[ClosedRepeal, int]]:
    """Motion number -> what its Repeal's resolution recorded, and the id of its ``RepealMoved`` event."""
    turns = dict(session.execute(select(CvMotion.number, CvMotion.turn).where(CvMotion.game_id == game_id,
                                                                              CvMotion.kind == "repeal")).all())
    found: dict[int, tuple[ClosedRepeal, int]] = {}
    for e in session.execute(select(Event).where(Event.game_id == game_id, Event.kind == "RepealMoved")
                             .order_by(Event.id)).scalars():
        p = e.payload
        number = int(p["motion"])
        if number not in turns:
            continue
        found[number] = (ClosedRepeal(number, int(turns[number]), str(p["statute"]), str(p["mover"]),
                                      str(p["controller"]), int(p["mover_votes"]), int(p["controller_votes"]),
                                      bool(p["destroyed"])), e.id)
    return found


def corrections(session: Session, game_id: int) -> list[Event]:
    return [e for e in session.execute(select(Event).where(Event.game_id == game_id, Event.kind == CHANGED)
                                       .order_by(Event.id)).scalars() if e.payload.get("since") is not None]


def reaches(correction: Event, closed: ClosedRepeal, closed_id: int) -> bool:
    return closed.turn >= int(correction.payload["since"]) and closed_id < correction.id


def recount(closed: ClosedRepeal, closed_id: int, made: list[Event]) -> RepealRecount:
    change: dict[str, int] = {}
    for c in made:
        if reaches(c, closed, closed_id):
            for player, n in (c.payload.get("votes_change") or {}).items():
                change[player] = change.get(player, 0) + int(n)
    return recount_repeal(closed, change)


def after_card_set(session: Session, game_id: int, source_id: str) -> RepealConsequences | None:
    event = session.execute(select(Event).where(Event.game_id == game_id, Event.source_id == source_id,
                                                Event.kind == CHANGED)).scalars().first()
    if event is None or event.payload.get("since") is None:
        return None
    made = corrections(session, game_id)
    found = [recount(closed, closed_id, made) for _, (closed, closed_id) in sorted(closed_repeals(session,
                                                                                                  game_id).items())
             if reaches(event, closed, closed_id)]
    moved: Mapping[str, int] = event.payload.get("votes_change") or {}
    subject = (f"The correction of {event.payload['card']} from turn {event.payload['since']} (Standing Vote "
               + (", ".join(f"{p} {n:+d}" for p, n in moved.items()) or "unchanged") + ")")
    return RepealConsequences(game_view(read_game(session, game_id)), subject, tuple(r for r in found if r.differs))


def recounted(session: Session, game_id: int, number: int) -> RepealRecount:
    game = read_game(session, game_id)
    closed = closed_repeals(session, game_id)
    if number not in closed:
        raise NotFoundError(f"Motion #{number} of {game.name} is no resolved Motion of Repeal (those: "
                            f"{', '.join(f'#{n}' for n in sorted(closed)) or 'none yet'}).")
    repeal, closed_id = closed[number]
    return recount(repeal, closed_id, corrections(session, game_id))


class RepealErrata(ServiceBase):
    async def after_card_set(self, game_id: int, *, source_id: str | None) -> RepealConsequences | None:
        if source_id is None:
            return None
        async with self._read() as session:
            return await session.run_sync(after_card_set, game_id, source_id)

    async def post_erratum(self, game_id: int, *, number: int, actor: int | None,
                           source_id: str | None = None) -> RepealErratum:
        """``/motion erratum``: the corrected Standing Votes of Repeal ``number``, recorded (``ErratumPosted``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await session.run_sync(read_game, game_id)
            found = await session.run_sync(recounted, game_id, number)
            if not found.differs:
                raise RuleError(f"Motion #{number} comes out as announced under the corrected board; there is "
                                "nothing to correct.")
            corrected = {"mover_votes": found.mover_votes, "controller_votes": found.controller_votes,
                         "destroyed": found.destroyed}
            earlier = [e for e in (await session.execute(select(Event).where(
                Event.game_id == game_id, Event.kind == ERRATUM).order_by(Event.id))).scalars()
                if e.payload.get("motion") == number]
            if earlier and earlier[-1].payload.get("corrected") == corrected:
                raise RuleError(f"An erratum for Motion #{number} with these numbers was posted already; it is not "
                                "posted twice.")
            c = found.closed
            await uow.record(game_id, ERRATUM, actor,
                             {"motion": number, "statute": c.statute,
                              "posted": {"mover_votes": c.mover_votes, "controller_votes": c.controller_votes,
                                         "destroyed": c.destroyed},
                              "corrected": corrected, "outcome_changed": found.outcome_changed}, source_id)
            return RepealErratum(game_view(game), found)
