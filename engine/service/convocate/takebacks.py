"""A moderator's correction of the offer to second (``/motion ask-again``; docs/rulings.md, "A decline made by
mistake"): a player's decline, or a moderator's ``/motion skip`` of them, made by mistake is taken back and the offer
goes back to that player, who is asked again by DM with a new ``second_timeout``.

The first acceptance ends the offer (R4-15, P4-13), so a decline entered for the wrong player (a ``/cast-for``), a
Decline pressed by mistake or a skip of a player who was about to answer took the chance to second from them. The
answers given after it in turn order stand: they were given after that decline, as they would have been had the
player declined again, and are taken as given when the offer reaches them (``standing``); the player the offer was
with is asked again when it reaches them. A Motion that everyone declined has resolved without a second: it is
unresolved, as ``/motion reopen`` unresolves one for a second, and refused where later play stands on it (a later
Motion or Repeal, the Phase ended, a Statute declared since the answer, the player removed)."""

from __future__ import annotations

from typing import Any, TypeAlias

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import Phase
from engine.convocate.motions import can_second
from engine.core.errors import NotFoundError, RuleError
from engine.service.convocate.motions import ASKED, advance, motion_card, motion_view, turned_since, why_not
from engine.service.convocate.store import Loaded, load, open_motion
from engine.service.convocate.views import MotionView, what_was_taken
from engine.service.ledger import load_game, require_running
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.store.models import Event
from engine.store.models.convocate import CvMotion

AskedBack: TypeAlias = tuple[MotionView, tuple[str, int] | None]
"""The Motion as it stands, and the player (name, user id) the offer was with and went back from, to be told."""

EVENTS = {"declined": "SecondDeclined", "passed": "SecondPassed"}
"""The answers a moderator takes back, and the event each was recorded with."""


def _seated(loaded: Loaded, user_id: int) -> str:
    name = loaded.find_user(user_id)
    if name is not None:
        return name
    gone = next((n for n, p in loaded.everyone.items() if p.user_id == user_id), None)
    if gone is not None:
        raise RuleError(f"{gone} was removed from {loaded.game.name}, so their answer is not taken back; nothing was "
                        "changed.")
    raise NotFoundError(f"That member is not a player in {loaded.game.name}; nothing was changed.")


def _answer_of(loaded: Loaded, row: CvMotion, name: str) -> tuple[dict[str, Any], bool]:
    """``name``'s answer to the offer to second ``row`` that a moderator may take back, and whether it stands ahead
    of the offer (given after an answer taken back earlier); else why not, with what ``/motion ask-again`` takes."""
    head = f"Motion #{row.number} ({row.name})"
    if row.kind == "repeal":
        raise RuleError(f"Motion #{row.number} is a Motion of Repeal, which cannot be seconded (rules §6.9): nobody "
                        "was asked to second it, so there is no answer to take back.")
    if row.status == "withdrawn":
        raise RuleError(f"{head} was withdrawn; nothing answered to it counts, so there is no answer to take back.")
    if row.details.get("box") == "none":
        raise RuleError(f"{head} has no Seconded box: no offer to second was made, so there is no answer to take "
                        "back.")
    offer = row.offer or {}
    if row.status == "offering" and loaded.name_of(row.offer_to) == name:
        raise RuleError(f"The offer to second {head} is with {name} now: they have not answered it, so there is no "
                        "answer to take back (/motion skip passes it on).")
    ahead = next((a for a in offer.get("standing", ()) if a["player"] == name), None)
    given = ahead or next((a for a in reversed(offer.get("answers", ())) if a["player"] == name), None)
    if given is None:
        waiting = loaded.name_of(row.offer_to)
        where = (f"the offer is with {waiting} now, and reaches {name} in turn order" if waiting else
                 f"{name} was not asked")
        raise RuleError(f"{name} has not answered the offer to second {head} ({where}); there is no answer to take "
                        "back.")
    answer = given.get("answer")
    if answer == "seconded":
        raise RuleError(f"{name} seconded {head} with {given.get('convocant')}: a second made by mistake is taken "
                        f"back with /motion reopen number:{row.number}.")
    if answer == "skipped":
        raise RuleError(f"Clerk skipped {name} when the offer to second {head} reached them ({given.get('why')}): "
                        "nobody asked them, so there is no answer to take back.")
    if answer == "timed out":
        raise RuleError(f"{name} did not answer the offer to second {head} in time: it passed on at the game's "
                        "second_timeout, as agreed, not by mistake, so it is not given back. /motion ask-again takes "
                        "back a decline or a /motion skip made by mistake.")
    if answer not in EVENTS:
        raise RuleError(f"{name}'s answer to the offer to second {head} ({answer}) is not one a moderator takes "
                        "back.")
    if row.status == "resolved" and row.seconder_id is not None:
        seconder = loaded.name_of(row.seconder_id)
        raise RuleError(f"{head} was seconded by {seconder} with {row.seconder}, after "
                        f"{what_was_taken(name, answer)}. Take that second back first with /motion reopen "
                        f"number:{row.number} (the offer reopens with {seconder}); then /motion ask-again gives the "
                        f"offer back to {name}.")
    return given, ahead is not None


def _in_its_action_phase(loaded: Loaded, row: CvMotion, name: str, answer: str) -> None:
    """A Motion that resolved without a second is unresolved only while the Action Phase in which it was offered
    goes on (it is the latest Motion not withdrawn: ``ask_again`` takes no other)."""
    board, mover = loaded.board, loaded.name_of(row.mover_id)
    if (board.turn, board.active, board.phase) != (row.turn, mover, Phase.ACTION):
        raise RuleError(f"Motion #{row.number} ({row.name}) resolved in {mover}'s Action Phase of turn {row.turn}, "
                        f"which has ended (it is {board.when()}): {what_was_taken(name, answer)} is taken back only "
                        "while the Action Phase in which the Motion was offered goes on. The moderators put it right "
                        "by hand.")


async def _nothing_since(session: AsyncSession, loaded: Loaded, row: CvMotion, name: str, answer: str) -> None:
    """Refuse to take back ``name``'s answer when later play stood on the board it left: a Phase ended (and stepped
    back) since, or a Statute declared with political control counted while ``name`` had not seconded."""
    kind = EVENTS[answer]
    found = (await session.execute(select(Event).where(Event.game_id == loaded.game.id, Event.kind == kind)
                                   .order_by(Event.seq.desc()))).scalars()
    given = next((e for e in found if e.payload.get("motion") == row.number and e.payload.get("player") == name),
                 None)
    head = f"Motion #{row.number} ({row.name})"
    taken = (f"{name}'s decline of {head}" if answer == "declined" else
             f"the /motion skip of {name} when {head} was offered")
    if given is None:
        raise RuleError(f"The log does not hold {taken}; Clerk cannot take it back.")
    e = await turned_since(session, loaded.game.id, given.seq)
    if e is not None:
        if e.kind.startswith("Phase"):
            raise RuleError(f"The Phase has changed since {taken} (event #{e.seq}, {e.kind}): an answer is "
                            "taken back only while the Action Phase in which it was given goes on.")
        raise RuleError(f"{e.payload.get('controller')} declared {e.payload.get('statute')} after {taken}, "
                        f"with political control counted while {name} had not seconded; had {name} "
                        "seconded, their Convocant would have been activated before that count. The moderators "
                        "put it right by hand.")


async def _latest_not_withdrawn(session: AsyncSession, game_id: int) -> CvMotion | None:
    """The latest Motion that was not withdrawn (a withdrawn one did nothing: the one before it is the latest)."""
    return (await session.execute(select(CvMotion).where(CvMotion.game_id == game_id, CvMotion.status != "withdrawn")
                                  .order_by(CvMotion.number.desc()).limit(1))).scalar_one_or_none()


class AnswerTakebacks(ServiceBase):
    """``clerk.convocate.takebacks``: ``/motion ask-again``."""

    async def ask_again(self, game_id: int, *, actor: int | None, user_id: int, reason: str | None = None,
                        source_id: str | None = None, answer: OwedWith[AskedBack] | None = None) -> AskedBack:
        """A moderator's correction: the decline (or the moderator's skip) of the player ``user_id`` to the offer
        to second the Motion on the floor, or the latest Motion, is taken back, and the offer goes back to them (a
        new DM, a new ``second_timeout``). The answers given after theirs stand; a Motion that had resolved without
        a second is unresolved (docs/rulings.md). Returns the Motion, and the player the offer was with (to be told
        it went back). ``answer``: what it announces (in the game channel; the offer DMed again; the DM to that
        player), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            loaded = await load(session, await load_game(session, game_id))
            require_running(loaded.game)
            name = _seated(loaded, user_id)
            row = await open_motion(session, game_id) or await _latest_not_withdrawn(session, game_id)
            if row is None:
                raise NotFoundError(f"No Motion has been moved in {loaded.game.name} yet; there is no answer to take "
                                    "back.")
            given, ahead = _answer_of(loaded, row, name)
            taken_answer = str(given["answer"])
            if row.status == "resolved":
                _in_its_action_phase(loaded, row, name, taken_answer)
            await _nothing_since(session, loaded, row, name, taken_answer)
            if not can_second(loaded.board, name, motion_card(row)):
                raise RuleError(f"{name} has no Convocant that could second Motion #{row.number} ({row.name}) now "
                                f"({why_not(loaded.board, name)}), so asking them again could only end in no; nothing "
                                "was changed.")
            offer = {k: v for k, v in row.offer.items() if k != "standing"}
            was_with = loaded.name_of(row.offer_to)
            undone = None
            if ahead:
                standing = [a for a in row.offer.get("standing", []) if a["player"] != name]
            else:
                answers = list(offer.get("answers", []))
                at = max(i for i, a in enumerate(answers) if a["player"] == name)
                standing = [a for a in answers[at + 1:] if a.get("answer") in (*ASKED, "removed")]
                standing += list(row.offer.get("standing", []))
                offer = {**offer, "answers": answers[:at], "index": list(offer.get("order", [])).index(name)}
                if row.status == "resolved":
                    undone = row.outcome
                    row.status, row.resolved_at, row.outcome = "offering", None, None
            entry = {"player": name, "answer": taken_answer, "reason": reason, "offer_was_with": was_with,
                     "reopened": undone is not None, "when_reached": ahead}
            row.offer = {**offer, **({"standing": standing} if standing else {}),
                         "asked_again": [*offer.get("asked_again", []), entry]}
            if not ahead:
                advance(loaded, row, loaded.board, uow.now, back=True)
            await uow.record(game_id, "SecondAskedAgain", actor, {
                "motion": row.number, "name": row.name, "player": name, "answer": taken_answer,
                "offer_was_with": was_with, "offer_to": loaded.name_of(row.offer_to), "when_reached": ahead,
                "standing": [a["player"] for a in standing], "undone": undone, "reason": reason}, source_id)
            told = ((was_with, loaded.user_of(was_with)) if not ahead and was_with not in (None, name)
                    and was_with in loaded.players else None)
            return await owe_in(uow, answer, (motion_view(loaded, row), told))
