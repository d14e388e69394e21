"""Corrections with their consequences in Mylantium (issue 19): which closed General Elections would have come out
differently under a corrected Approval Rating, and the erratum a moderator posts for one of them.

``/government set approval:X since:T`` is a correction: the Approval Rating was off by X minus what it read from
turn T on (every later change is relative, so the whole run was off by as much). Each General Election of turn T or
later that closed before the correction is counted again from its ``ElectionClosed`` event at its approval plus the
difference (kept within 0..100), by ``engine.mylantium.errata`` (``elections.general``, the close's function).
Nothing recorded is changed; an erratum is a new post and a new event (``ErratumPosted``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.disclosure import shown
from engine.core.errors import NotFoundError, RuleError
from engine.mylantium.errata import ClosedGeneral, GeneralRecount, corrected_approval, recount_general
from engine.mylantium.model import Party
from engine.mylantium.settings import DEFAULT
from engine.service.announcements import jump_link, posted_key
from engine.service.ledger import game_view, read_game
from engine.service.mylantium.state import REOPENED, rules_of
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, PostedMessage
from engine.store.models.mylantium import MylElection

ERRATUM = "ErratumPosted"
SET = "GovernmentSet"
GENERAL = "general"


@dataclass(frozen=True)
class ElectionConsequences:
    game: GameView
    subject: str
    recounts: tuple[GeneralRecount, ...]


@dataclass(frozen=True)
class ElectionErratum:
    game: GameView
    recount: GeneralRecount
    channel_id: int | None
    message_id: int | None
    shown: str = "full"
    """How the original result was shown to the players (``engine.core.disclosure.shown``): an erratum of a
    coarsened result does not post the totals the card withheld (docs/rulings.md)."""

    @property
    def link(self) -> str | None:
        return jump_link(self.game.guild_id, self.channel_id, self.message_id)


def shown_at_close(session: Session, game_id: int, turn: int) -> str:
    """How the General Election of ``turn`` was shown to the players when it closed (or since its release):
    ``full``, ``coarse`` or ``held``. The erratum's corrected totals differ from the card's only by the Independent
    Vote's split, which the public approval decides, so they give away what the card's totals would have: nothing
    more when the card had them, what the disclosure check withheld when it did not."""
    row = session.execute(select(MylElection).where(MylElection.game_id == game_id, MylElection.turn == turn,
                                                    MylElection.stage == GENERAL)).scalar_one_or_none()
    return shown(((row.result or {}) if row is not None else {}).get("disclosure"))  # the row: it knows a release


def closed_generals(session: Session, game_id: int) -> dict[int, tuple[ClosedGeneral, int]]:
    """Turn -> what its General Election's close recorded, and the id of that ``ElectionClosed`` event: its latest
    close, and none while a moderator has reopened it since (``/election reopen`` withdrew that result)."""
    found: dict[int, tuple[ClosedGeneral, int]] = {}
    for e in session.execute(select(Event).where(Event.game_id == game_id,
                                                 Event.kind.in_(("ElectionClosed", REOPENED)))
                             .order_by(Event.id)).scalars():
        p = e.payload
        if e.kind == REOPENED:
            if p.get("stage") == GENERAL:
                found.pop(int(p["turn"]), None)
            continue
        r = p.get("result") or {}
        if p.get("stage") != GENERAL or not isinstance(r.get("lines"), dict) or "approval" not in r:
            continue
        lines = {Party(k): v for k, v in r["lines"].items()}
        closed = ClosedGeneral(int(p["turn"]), {k: int(v["faction_votes"]) for k, v in lines.items()},
                               int(r["faction_votes_in_play"]), {k: int(v["charisma"]) for k, v in lines.items()},
                               Party(r["incumbent"]), int(r["approval"]),
                               {k: int(v["total"]) for k, v in lines.items()}, Party(r["winner"]),
                               str(r.get("rounding", DEFAULT.rounding)))
        found[closed.turn] = (closed, e.id)
    return found


def corrections(session: Session, game_id: int) -> list[Event]:
    return [e for e in session.execute(select(Event).where(Event.game_id == game_id, Event.kind == SET)
                                       .order_by(Event.id)).scalars() if e.payload.get("since") is not None]


def reaches(correction: Event, turn: int, closed_id: int) -> bool:
    """The correction concerns that close: of its turn ``since`` or later, and made after the close."""
    return turn >= int(correction.payload["since"]) and closed_id < correction.id


def recount_turn(session: Session, game_id: int, closed: ClosedGeneral, closed_id: int,
                 made: list[Event]) -> GeneralRecount:
    change = sum(int(c.payload.get("approval_change", 0)) for c in made if reaches(c, closed.turn, closed_id))
    found = recount_general(closed, corrected_approval(closed.approval, change), rules_of(read_game(session, game_id)))
    return replace(found, stated=stated_totals(session, game_id).get(closed.turn))


def stated_totals(session: Session, game_id: int) -> dict[int, dict[Party, int]]:
    """Turn -> the totals of the latest erratum posted for its General Election (play-test M4.5: what a correction is
    compared with, as in Landsdraad) since its latest close: an erratum of a result withdrawn by a reopening went
    with it."""
    found = session.execute(select(Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.kind.in_((ERRATUM, "ElectionClosed", REOPENED))).order_by(Event.id)).all()
    stated: dict[int, dict[Party, int]] = {}
    for kind, p in found:
        if p.get("turn") is None or p.get("stage", GENERAL) != GENERAL:
            continue
        if kind == ERRATUM:
            stated[int(p["turn"])] = {party: int(p["corrected"].get(party.value, 0)) for party in Party}
        else:
            stated.pop(int(p["turn"]), None)
    return stated


def after_set(session: Session, game_id: int, source_id: str) -> ElectionConsequences | None:
    event = session.execute(select(Event).where(Event.game_id == game_id, Event.source_id == source_id,
                                                Event.kind == SET)).scalars().first()
    if event is None or event.payload.get("since") is None:
        return None
    made = corrections(session, game_id)
    found = [recount_turn(session, game_id, closed, closed_id, made)
             for turn, (closed, closed_id) in sorted(closed_generals(session, game_id).items())
             if reaches(event, turn, closed_id)]
    subject = (f"The correction of the Approval Rating ({int(event.payload['approval_change']):+d} from turn "
               f"{event.payload['since']})")
    return ElectionConsequences(game_view(read_game(session, game_id)), subject,
                                tuple(r for r in found if r.differs))


async def consequences_in(session: AsyncSession, game_id: int, source_id: str | None) -> ElectionConsequences | None:
    """``after_set`` read in ``session``'s transaction: ``/government set`` reads what its correction changes in
    the one it writes in (``clerk.followed``), so the moderators' notice is owed with it. None without a source id
    or a correction."""
    if source_id is None:
        return None
    return await session.run_sync(after_set, game_id, source_id)


async def setting_consequences_in(session: AsyncSession, game_id: int, name: str) -> ElectionConsequences | None:
    """``after_setting`` read in ``session``'s transaction: ``/game settings`` reads what a setting's change changes in
    the one it writes in (``clerk.followed``)."""
    return await session.run_sync(after_setting, game_id, name)


RECOUNTED_BY = frozenset({"independent_rounding"})
"""The settings a closed General Election is counted with: changing one may change closed results."""


def after_setting(session: Session, game_id: int, name: str) -> ElectionConsequences | None:
    """The closed General Elections that come out differently under the game's settings now (``name`` was just
    changed), with every correction of the approval made so far; None if ``name`` counts in no election."""
    if name not in RECOUNTED_BY:
        return None
    game = read_game(session, game_id)
    made = corrections(session, game_id)
    found = [recount_turn(session, game_id, closed, closed_id, made)
             for _, (closed, closed_id) in sorted(closed_generals(session, game_id).items())]
    subject = f"The change of the setting {name} to {rules_of(game).rounding}"
    return ElectionConsequences(game_view(game), subject, tuple(r for r in found if r.differs))


def recounted(session: Session, game_id: int, turn: int) -> GeneralRecount:
    game = read_game(session, game_id)
    closed = closed_generals(session, game_id)
    if turn not in closed:
        raise NotFoundError(f"The General Election of turn {turn} of {game.name} has not closed (closed: "
                            f"{', '.join(str(t) for t in sorted(closed)) or 'none yet'}).")
    general, closed_id = closed[turn]
    return recount_turn(session, game_id, general, closed_id, corrections(session, game_id))


def numbers(totals: Mapping[Party, int], winner: Party) -> dict[str, Any]:
    return {**{p.value: n for p, n in totals.items()}, "winner": winner.value}


class ElectionErrata(ServiceBase):
    async def after_set(self, game_id: int, *, source_id: str | None) -> ElectionConsequences | None:
        """The closed General Elections that ``/government set`` of ``source_id`` changes, if made as a correction
        (``since``); None otherwise."""
        async with self._read() as session:
            return await consequences_in(session, game_id, source_id)

    async def after_setting(self, game_id: int, name: str) -> ElectionConsequences | None:
        """The closed General Elections a change of the setting ``name`` changes (``after_setting``)."""
        async with self._read() as session:
            return await setting_consequences_in(session, game_id, name)

    async def post_erratum(self, game_id: int, *, turn: int, actor: int | None, source_id: str | None = None,
                           answer: OwedWith[ElectionErratum] | None = None) -> ElectionErratum:
        """``/election erratum``: the corrected totals of turn ``turn``'s General Election, recorded. ``answer``:
        what it posts (the erratum), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await session.run_sync(read_game, game_id)
            found = await session.run_sync(recounted, game_id, turn)
            corrected = numbers(found.totals, found.corrected.winner)
            if not found.differs and found.stated is None:
                raise RuleError(f"The General Election of turn {turn} comes out as posted under the corrected "
                                "ledger; there is nothing to correct. (A change counts from now on unless it says "
                                "from when: `/government set approval:X since:T` corrects the approval from turn T "
                                "on.)")
            if not found.differs:
                raise RuleError(f"An erratum for turn {turn} with these numbers was posted already; it is not "
                                "posted twice.")
            place = (await session.execute(select(PostedMessage.channel_id, PostedMessage.message_id).where(
                PostedMessage.game_id == game_id, PostedMessage.key == posted_key(GENERAL, turn)))).one_or_none()
            was = await session.run_sync(shown_at_close, game_id, turn)
            if was == "held":
                raise RuleError(f"The General Election of turn {turn} is held by the disclosure check: release it "
                                "with `/election release` before posting its erratum (the erratum would tell the "
                                "players what the held result has not).")
            erratum = ElectionErratum(game_view(game), found, place[0] if place else None,
                                      place[1] if place else None, was)
            payload: dict[str, Any] = {"turn": turn, "stage": GENERAL, "approval": found.corrected.approval,
                                       "rounding": found.rounding,
                                       "posted": numbers(found.closed.posted, found.closed.winner),
                                       "corrected": corrected, "outcome_changed": found.outcome_changed,
                                       "link": erratum.link}
            if was != "full":
                payload["shown"] = was
            if found.stated is not None:  # it replaces the latest erratum; ``restores``: it withdraws it
                payload.update(stated={p.value: n for p, n in found.stated.items()}, restores=found.restores)
            await uow.record(game_id, ERRATUM, actor, payload, source_id)
            return await owe_in(uow, answer, erratum)
