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
from engine.convocate.repeal import RECOUNTED_BY
from engine.convocate.rulings import rulings_of, shown, value_of
from engine.core.errors import NotFoundError, RuleError
from engine.service.announcements import jump_link, posted_card
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
    unknown: tuple[ClosedRepeal, ...] = ()
    """Resolved Repeals a change of ruling cannot recount: resolved before Clerk kept their count under each ruling."""


@dataclass(frozen=True)
class RepealErratum:
    game: GameView
    recount: RepealRecount
    channel_id: int | None = None
    message_id: int | None = None

    @property
    def link(self) -> str | None:
        """The Repeal's card on Discord (None when Clerk did not keep where it went)."""
        return jump_link(self.game.guild_id, self.channel_id, self.message_id)


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
        kept = p.get("by_ruling")
        by_ruling = ({str(k): (int(v[0]), int(v[1])) for k, v in kept.items()} if isinstance(kept, dict) else None)
        found[number] = (ClosedRepeal(number, int(turns[number]), str(p["statute"]), str(p["mover"]),
                                      str(p["controller"]), int(p["mover_votes"]), int(p["controller_votes"]),
                                      bool(p["destroyed"]), str(p.get("count", "after")),
                                      str(p["committed"]) if p.get("committed") else None, by_ruling), e.id)
    return found


def rulings_now(session: Session, game_id: int) -> tuple[str, str]:
    """(``repeal_count``, ``committed_cards``) as the game rules now."""
    rulings = rulings_of(read_game(session, game_id).settings)
    return rulings.repeal_count, rulings.committed_cards


def corrections(session: Session, game_id: int) -> list[Event]:
    return [e for e in session.execute(select(Event).where(Event.game_id == game_id, Event.kind == CHANGED)
                                       .order_by(Event.id)).scalars() if e.payload.get("since") is not None]


def reaches(correction: Event, closed: ClosedRepeal, closed_id: int) -> bool:
    return closed.turn >= int(correction.payload["since"]) and closed_id < correction.id


def recount(closed: ClosedRepeal, closed_id: int, made: list[Event], rulings: tuple[str, str]) -> RepealRecount:
    change: dict[str, int] = {}
    for c in made:
        if reaches(c, closed, closed_id):
            for player, n in (c.payload.get("votes_change") or {}).items():
                change[player] = change.get(player, 0) + int(n)
    return recount_repeal(closed, change, rulings)


def after_card_set(session: Session, game_id: int, source_id: str) -> RepealConsequences | None:
    event = session.execute(select(Event).where(Event.game_id == game_id, Event.source_id == source_id,
                                                Event.kind == CHANGED)).scalars().first()
    if event is None or event.payload.get("since") is None:
        return None
    made, rulings = corrections(session, game_id), rulings_now(session, game_id)
    found = [recount(closed, closed_id, made, rulings)
             for _, (closed, closed_id) in sorted(closed_repeals(session, game_id).items())
             if reaches(event, closed, closed_id)]
    moved: Mapping[str, int] = event.payload.get("votes_change") or {}
    subject = (f"The correction of {event.payload['card']} from turn {event.payload['since']} (Standing Vote "
               + (", ".join(f"{p} {n:+d}" for p, n in moved.items()) or "unchanged") + ")")
    return RepealConsequences(game_view(read_game(session, game_id)), subject, tuple(r for r in found if r.differs))


def after_setting(session: Session, game_id: int, name: str) -> RepealConsequences | None:
    """The resolved Repeals that come out differently under the game's rulings now (``name`` was just changed),
    with every correction made so far, and those that cannot be recounted; None if ``name`` counts in no Repeal."""
    if name not in RECOUNTED_BY:
        return None
    game = read_game(session, game_id)
    made, rulings = corrections(session, game_id), rulings_now(session, game_id)
    closed = sorted(closed_repeals(session, game_id).items())
    found = [recount(c, closed_id, made, rulings) for _, (c, closed_id) in closed if c.by_ruling is not None]
    subject = f"The change of the ruling {name} to {shown(value_of(game.settings, name))}"
    return RepealConsequences(game_view(game), subject, tuple(r for r in found if r.differs),
                              tuple(c for _, (c, _) in closed if c.by_ruling is None))


def recounted(session: Session, game_id: int, number: int) -> RepealRecount:
    game = read_game(session, game_id)
    closed = closed_repeals(session, game_id)
    if number not in closed:
        raise NotFoundError(f"Motion #{number} of {game.name} is no resolved Motion of Repeal (those: "
                            f"{', '.join(f'#{n}' for n in sorted(closed)) or 'none yet'}).")
    repeal, closed_id = closed[number]
    return recount(repeal, closed_id, corrections(session, game_id), rulings_now(session, game_id))


class RepealErrata(ServiceBase):
    async def after_card_set(self, game_id: int, *, source_id: str | None) -> RepealConsequences | None:
        if source_id is None:
            return None
        async with self._read() as session:
            return await session.run_sync(after_card_set, game_id, source_id)

    async def after_setting(self, game_id: int, name: str) -> RepealConsequences | None:
        """The resolved Repeals a change of the ruling ``name`` changes (``after_setting``)."""
        async with self._read() as session:
            return await session.run_sync(after_setting, game_id, name)

    async def post_erratum(self, game_id: int, *, number: int, actor: int | None,
                           source_id: str | None = None) -> RepealErratum:
        """``/motion erratum``: the corrected Standing Votes of Repeal ``number``, recorded (``ErratumPosted``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await session.run_sync(read_game, game_id)
            found = await session.run_sync(recounted, game_id, number)
            if not found.differs:
                raise RuleError(f"Motion #{number} comes out as announced under the corrected board; there is "
                                "nothing to correct. (A change counts from now on unless it says from when: "
                                "`/card set ... since:N` corrects a card from turn N on.)")
            corrected = {"mover_votes": found.mover_votes, "controller_votes": found.controller_votes,
                         "destroyed": found.destroyed}
            earlier = [e for e in (await session.execute(select(Event).where(
                Event.game_id == game_id, Event.kind == ERRATUM).order_by(Event.id))).scalars()
                if e.payload.get("motion") == number]
            if earlier and earlier[-1].payload.get("corrected") == corrected:
                raise RuleError(f"An erratum for Motion #{number} with these numbers was posted already; it is not "
                                "posted twice.")
            c = found.closed
            place = await session.run_sync(posted_card, game_id, "repeal", number)
            erratum = RepealErratum(game_view(game), found, *(place or (None, None)))
            await uow.record(game_id, ERRATUM, actor,
                             {"motion": number, "statute": c.statute,
                              "posted": {"mover_votes": c.mover_votes, "controller_votes": c.controller_votes,
                                         "destroyed": c.destroyed},
                              "corrected": corrected, "outcome_changed": found.outcome_changed,
                              "rulings": {"repeal_count": found.ruled[0], "committed_cards": found.ruled[1]},
                              "link": erratum.link}, source_id)
            return erratum
