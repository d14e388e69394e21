"""Corrections with their consequences in the Convocate (issue 19): which resolved Motions of Repeal would have come
out differently after ``/card set ... since:T`` (a card that was wrong from turn T on), and the erratum a moderator
posts for one of them.

The correction records the card's Vote before and after it and what it changed; each Repeal of turn T or later
resolved before it is counted again from its ``RepealMoved`` event, card by card as its count was made (the lines
``/why repeal`` shows), by ``engine.convocate.errata`` (``repeal.destroys``, the resolution's own rule): the card's part
where it counted then, never its state when the correction is made. A Statute the corrected count would have kept is
not restored: the erratum says so, and the moderators act. Nothing recorded is changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.convocate.errata import CardCorrection, ClosedRepeal, Count, RepealRecount, Unrecounted, recount_repeal
from engine.convocate.repeal import RECOUNTED_BY, lines_of
from engine.convocate.rulings import rulings_of, shown, value_of
from engine.core.errors import NotFoundError, RuleError
from engine.service.announcements import jump_link, posted_card
from engine.service.ledger import game_view, read_game
from engine.service.owed import OwedWith, owe_in
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
    unknown: tuple[Unrecounted, ...] = ()
    """Resolved Repeals Clerk cannot count again, each with the reason (the moderators judge them by hand)."""


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


def _count(data: Any) -> Count | None:
    return (lines_of(data.get("mover")), lines_of(data.get("controller"))) if isinstance(data, dict) else None


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
        kept, kept_lines = p.get("by_ruling"), p.get("lines_by_ruling")
        by_ruling = ({str(k): (int(v[0]), int(v[1])) for k, v in kept.items()} if isinstance(kept, dict) else None)
        lines_by_ruling = ({str(k): count for k, v in kept_lines.items() if (count := _count(v)) is not None}
                           if isinstance(kept_lines, dict) else None)
        found[number] = (ClosedRepeal(number, int(turns[number]), str(p["statute"]), str(p["mover"]),
                                      str(p["controller"]), int(p["mover_votes"]), int(p["controller_votes"]),
                                      bool(p["destroyed"]), str(p.get("count", "after")),
                                      str(p["committed"]) if p.get("committed") else None, by_ruling,
                                      _count(p.get("lines")), lines_by_ruling), e.id)
    return found


def rulings_now(session: Session, game_id: int) -> tuple[str, str]:
    """(``repeal_count``, ``committed_cards``) as the game rules now."""
    rulings = rulings_of(read_game(session, game_id).settings)
    return rulings.repeal_count, rulings.committed_cards


def correction_of(event: Event) -> CardCorrection:
    p = event.payload
    vote = p.get("vote_of")
    return CardCorrection(str(p["card"]), int(p["since"]), (int(vote[0]), int(vote[1])) if vote else None,
                          tuple(p.get("controllers") or ()), tuple(p.get("changed") or ()))


def corrections(session: Session, game_id: int) -> list[tuple[CardCorrection, int]]:
    """Every correction with ``since`` so far, oldest first, with its event's id."""
    return [(correction_of(e), e.id) for e in session.execute(select(Event).where(
        Event.game_id == game_id, Event.kind == CHANGED).order_by(Event.id)).scalars()
        if e.payload.get("since") is not None]


def reaches(correction: CardCorrection, correction_id: int, closed: ClosedRepeal, closed_id: int) -> bool:
    """A correction from turn T reaches a Repeal of turn T or later resolved before it was made."""
    return closed.turn >= correction.since and closed_id < correction_id


def recount(closed: ClosedRepeal, closed_id: int, made: list[tuple[CardCorrection, int]],
            rulings: tuple[str, str]) -> RepealRecount | Unrecounted:
    return recount_repeal(closed, [c for c, c_id in made if reaches(c, c_id, closed, closed_id)], rulings)


def consequences(game: GameView, subject: str, found: list[RepealRecount | Unrecounted],
                 unknown: tuple[Unrecounted, ...] = ()) -> RepealConsequences:
    return RepealConsequences(game, subject, tuple(r for r in found if isinstance(r, RepealRecount) and r.differs),
                              (*unknown, *(r for r in found if isinstance(r, Unrecounted))))


def after_card_set(session: Session, game_id: int, source_id: str) -> RepealConsequences | None:
    event = session.execute(select(Event).where(Event.game_id == game_id, Event.source_id == source_id,
                                                Event.kind == CHANGED)).scalars().first()
    if event is None or event.payload.get("since") is None:
        return None
    made, rulings, this = corrections(session, game_id), rulings_now(session, game_id), correction_of(event)
    found = [recount(closed, closed_id, made, rulings)
             for _, (closed, closed_id) in sorted(closed_repeals(session, game_id).items())
             if reaches(this, event.id, closed, closed_id)]
    vote = (f" (Vote {this.vote[0]} → {this.vote[1]})" if this.vote is not None and this.vote[0] != this.vote[1]
            else "")
    subject = f"The correction of {this.card} from turn {this.since}{vote}"
    return consequences(game_view(read_game(session, game_id)), subject, found)


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
    return consequences(game_view(game), subject, found, tuple(
        Unrecounted(c, "it was resolved before Clerk kept its count under each ruling")
        for _, (c, _) in closed if c.by_ruling is None))


def recounted(session: Session, game_id: int, number: int) -> RepealRecount:
    game = read_game(session, game_id)
    closed = closed_repeals(session, game_id)
    if number not in closed:
        raise NotFoundError(f"Motion #{number} of {game.name} is no resolved Motion of Repeal (those: "
                            f"{', '.join(f'#{n}' for n in sorted(closed)) or 'none yet'}).")
    repeal, closed_id = closed[number]
    found = recount(repeal, closed_id, corrections(session, game_id), rulings_now(session, game_id))
    if isinstance(found, Unrecounted):
        raise RuleError(f"Clerk cannot count Motion #{number} again: {found.reason}. Judge it by hand; no erratum "
                        "is posted by Clerk for it.")
    return found


async def consequences_in(session: AsyncSession, game_id: int, source_id: str | None) -> RepealConsequences | None:
    """``after_card_set`` read in ``session``'s transaction: ``/card set ... since:`` reads what its correction changes
    in the one it writes in (``clerk.followed``), so the moderators' notice is owed with it. None without a source
    id or a correction."""
    if source_id is None:
        return None
    return await session.run_sync(after_card_set, game_id, source_id)


async def setting_consequences_in(session: AsyncSession, game_id: int, name: str) -> RepealConsequences | None:
    """``after_setting`` read in ``session``'s transaction: ``/game settings`` reads what a ruling's change changes in
    the one it writes in (``clerk.followed``)."""
    return await session.run_sync(after_setting, game_id, name)


class RepealErrata(ServiceBase):
    async def after_card_set(self, game_id: int, *, source_id: str | None) -> RepealConsequences | None:
        async with self._read() as session:
            return await consequences_in(session, game_id, source_id)

    async def after_setting(self, game_id: int, name: str) -> RepealConsequences | None:
        """The resolved Repeals a change of the ruling ``name`` changes (``after_setting``)."""
        async with self._read() as session:
            return await session.run_sync(after_setting, game_id, name)

    async def post_erratum(self, game_id: int, *, number: int, actor: int | None, source_id: str | None = None,
                           answer: OwedWith[RepealErratum] | None = None) -> RepealErratum:
        """``/motion erratum``: the corrected Standing Votes of Repeal ``number``, recorded (``ErratumPosted``).
        ``answer``: what it posts (the erratum), owed in its transaction (``owe_in``): a kill after the commit
        cannot lose it (it is not posted twice, so it could not be posted again)."""
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
            return await owe_in(uow, answer, erratum)
