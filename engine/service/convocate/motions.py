"""Motions and the Motion of Repeal (R4-13..R4-17): moving one, the offer to second round the table with a
timeout for each player (P4-13), its resolution, and the Repeal's count (P4-05)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, TypeAlias

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import Board, Phase
from engine.convocate.motions import Box, MotionCard, can_second, move, ready_again, resolve, second
from engine.convocate.repeal import counts_by_ruling, lines_json, repeal
from engine.convocate.rulings import value_of
from engine.convocate.seats import locked_out
from engine.core.durations import parse_duration
from engine.core.errors import NotFoundError, RuleError
from engine.service.clock import utc
from engine.service.convocate.store import Loaded, load, open_motion, save
from engine.service.convocate.views import (
    Answer,
    AskedAgain,
    MotionView,
    TakenBack,
    Withdrawal,
    candidates,
    what_was_taken,
)
from engine.service.ledger import game_view, load_game, require_running
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import Duplicate, ServiceBase, UnitOfWork
from engine.store.models import Event, Game
from engine.store.models.convocate import CvMotion

LATE = timedelta(minutes=1)
"""An offer its deadline passed on more than this late is told as passed on while the bot was offline (play-test
S4.3). The DMs sent meanwhile were read back at start before it passed on (bot/discord/catch_up.py, play-test R3.2),
so no answer had been sent before its deadline."""
OFFLINE = ("its deadline passed while the bot was offline, with no answer sent before it; the DMs sent meanwhile were "
           "read when the bot started again")


def motion_card(row: CvMotion) -> MotionCard:
    d = row.details
    return MotionCard(row.name, d.get("morality"), d.get("moved", ""), d.get("seconded"), d.get("only"),
                      d.get("targets", ""))


def motion_view(loaded: Loaded, row: CvMotion, *, duplicate: bool = False) -> MotionView:
    offer = row.offer or {}
    gone = offer.get("withdrawn")
    to = loaded.name_of(row.offer_to)
    cands = candidates(loaded.board, to) if to is not None and row.status == "offering" else ()
    mover = loaded.name_of(row.mover_id) or "?"
    return MotionView(
        game=game_view(loaded.game), number=row.number, kind=row.kind, name=row.name, mover=mover,
        mover_user=loaded.user_of(mover) if mover in loaded.players else 0, convocant=row.convocant, route=row.route,
        details=dict(row.details), status=row.status, order=tuple(offer.get("order", ())),
        answers=tuple(_answer(a) for a in offer.get("answers", ())),
        offer_to=to, offer_user=loaded.user_of(to) if to else None, offer_index=int(offer.get("index", 0)),
        deadline=utc(row.offer_deadline) if row.offer_deadline else None, candidates=cands,
        seconder=loaded.name_of(row.seconder_id), seconder_convocant=row.seconder,
        outcome=dict(row.outcome) if row.outcome is not None else None, duplicate=duplicate,
        withdrawn=Withdrawal(gone.get("with"), gone.get("reason"), gone.get("not_readied")) if gone else None,
        taken_back=tuple(TakenBack(t["player"], t["convocant"], t.get("reason"), t.get("not_readied"))
                         for t in offer.get("taken_back", ())),
        standing=tuple(_answer(a) for a in offer.get("standing", ())),
        asked_again=tuple(AskedAgain(t["player"], t["answer"], t.get("reason"), t.get("offer_was_with"),
                                     bool(t.get("reopened")), bool(t.get("when_reached")))
                          for t in offer.get("asked_again", ())))


def _answer(a: dict[str, Any]) -> Answer:
    return Answer(a["player"], a["answer"], a.get("convocant"), a.get("why"))


def _timeout(game: Game) -> timedelta:
    return parse_duration(str(value_of(game.settings, "second_timeout")))


def why_not(board: Board, player: str) -> str:
    if locked_out(board, board.player(player)):
        return "locked out, no active Seat"
    return "no readied Convocant with access"


def advance(loaded: Loaded, row: CvMotion, board: Board, now: datetime, *, back: bool = False) -> None:
    """Offer the second to the next player in the order who could second; skip (and record) those who cannot;
    when nobody is left, resolve the Motion unseconded. A player whose answer stands (``standing``: given after an
    earlier answer a moderator took back, ``/motion ask-again``) is not asked again: their answer is taken as given.
    ``back``: the offer went back to the player at ``index`` (a correction), so every answer that stands comes after
    theirs; else the player before ``index`` has just answered."""
    offer = {k: v for k, v in row.offer.items() if k != "standing"}
    answers = list(offer.get("answers", []))
    standing = list(row.offer.get("standing", []))
    order = list(offer.get("order", []))
    index = int(offer.get("index", 0))
    motion = motion_card(row)

    def kept() -> dict[str, Any]:
        return {**offer, "answers": answers, "index": index, **({"standing": standing} if standing else {})}

    while index < len(order):
        name = order[index]
        while not back and standing and standing[0]["player"] not in order[index:]:
            answers.append(standing.pop(0))  # a player no longer in the order (removed): their answer as it was
        back = False
        if standing and standing[0]["player"] == name:
            answers.append(standing.pop(0))
            index += 1
            continue
        if can_second(board, name, motion):
            row.offer = kept()
            row.offer_to = loaded.players[name].id
            row.offer_deadline = now + _timeout(loaded.game)
            return
        answers.append({"player": name, "answer": "skipped", "why": why_not(board, name)})
        index += 1
    answers += standing
    standing = []
    row.offer = kept()
    _resolve(loaded, row, board, None, now)


def _resolve(loaded: Loaded, row: CvMotion, board: Board, seconder: tuple[str, str] | None, now: datetime) -> None:
    mover = loaded.name_of(row.mover_id) or "?"
    done = resolve(board, motion_card(row), (mover, row.convocant), seconder)
    row.status, row.resolved_at = "resolved", now
    row.offer_to, row.offer_deadline = None, None
    row.outcome = {"effects": [list(e) for e in done.effects], "released": done.released,
                   "penalties": [{"convocant": p.convocant, "player": p.player, "morality": p.morality,
                                  "penalty": p.penalty} for p in done.penalties],
                   "unknown": list(done.unknown)}


ASKED = ("declined", "timed out", "passed")
"""Answers of players who were sent the offer by DM (a player skipped was never asked)."""


def asked(loaded: Loaded, row: CvMotion) -> list[str]:
    """The seated players who were sent the offer to second ``row`` by DM, in the order asked: those who answered
    (or did not in time, or were passed over), those whose second was taken back, and the one asked now."""
    offer = row.offer or {}
    names = [a["player"] for a in (*offer.get("answers", ()), *offer.get("standing", ())) if a.get("answer") in ASKED]
    names += [t["player"] for t in offer.get("taken_back", ())]
    names += [n for n in (loaded.name_of(row.offer_to),) if n is not None]
    return [n for n in dict.fromkeys(names) if n in loaded.players]


def back_with(loaded: Loaded, row: CvMotion, me: str) -> str:
    """Why the offer is not with ``me``, who was asked before (the offer was with them, or they answered) when a
    moderator gave it back to an earlier player (``/motion ask-again``), and whether they are asked again; empty
    for anyone else (a stale button of the old offer, or a ``Second:`` sent meanwhile, is answered with it)."""
    offer = row.offer or {}
    again = offer.get("asked_again") or []
    order, index = list(offer.get("order", [])), int(offer.get("index", 0))
    if row.status != "offering" or not again or me not in order[index + 1:]:
        return ""
    t = again[-1]
    why = f" ({t['reason']})" if t.get("reason") else ""
    head = (f"The moderators gave the offer back to {t['player']}, taking back "
            f"{what_was_taken(t['player'], t['answer'])} as a mistake{why}.")
    mine = next((a for a in offer.get("standing", ()) if a["player"] == me), None)
    if mine is not None:
        said = {"declined": "Your decline stands", "passed": "The moderators' /motion skip of you stands",
                "timed out": "You did not answer in time, and that stands"}.get(mine["answer"], "Your answer stands")
        return f"{head} {said}: you are not asked again."
    if any(a.get("offer_was_with") == me for a in again):
        return f"{head} If nobody before you seconds it, it comes to you again by DM, with a new deadline."
    return ""


async def latest_motion(session: AsyncSession, game_id: int) -> CvMotion | None:
    found = await session.execute(select(CvMotion).where(CvMotion.game_id == game_id)
                                  .order_by(CvMotion.number.desc()).limit(1))
    return found.scalar_one_or_none()


def withdrawn_text(row: CvMotion) -> str:
    """``Motion #1 (Open the Archives) was withdrawn by the moderators (wrong Convocant)``."""
    reason = (row.offer or {}).get("withdrawn", {}).get("reason")
    return f"Motion #{row.number} ({row.name}) was withdrawn by the moderators" + (f" ({reason})" if reason else "")


async def nothing_offered(session: AsyncSession, loaded: Loaded) -> str:
    """No Motion waits for a second: said so, and, when the latest Motion was withdrawn, that an answer to it does
    not count (a player's ``Second:`` DM after the withdrawal, play-test U3.4)."""
    said = f"No Motion in {loaded.game.name} is waiting for a second."
    latest = await latest_motion(session, loaded.game.id)
    if latest is not None and latest.status == "withdrawn":
        said += f" {withdrawn_text(latest)}; nothing answered to it counts."
    return said


async def not_offered_for_moderators(session: AsyncSession, loaded: Loaded, command: str) -> str:
    """``/motion withdraw`` with nothing on the floor: what it takes, and what is there to do about the latest
    Motion instead."""
    said = (f"No Motion in {loaded.game.name} is being offered for a second, so there is nothing to {command}: "
            f"/motion {command} takes back a Motion only while its offer to second goes round.")
    latest = await latest_motion(session, loaded.game.id)
    if latest is None:
        return said
    if latest.kind == "repeal":
        return (f"{said} The latest, Motion #{latest.number}, is a Motion of Repeal, which resolves as it is moved: "
                "/statute restore puts back a Statute it destroyed by mistake.")
    if latest.status == "withdrawn":
        return f"{said} {withdrawn_text(latest)} already."
    if latest.seconder_id is not None:
        return (f"{said} The latest, Motion #{latest.number} ({latest.name}), has resolved: a second entered by "
                f"mistake is taken back with /motion reopen number:{latest.number}.")
    if latest.details.get("box") == "none":
        return (f"{said} The latest, Motion #{latest.number} ({latest.name}), has no Seconded box and has resolved; "
                "Clerk cannot take it back, and the moderators put right by hand what it did.")
    return (f"{said} The latest, Motion #{latest.number} ({latest.name}), has resolved without a second; a decline "
            "(or a /motion skip) made by mistake is taken back with /motion ask-again player:<who>, which reopens it.")


async def _numbered(session: AsyncSession, game_id: int, number: int) -> CvMotion | None:
    return (await session.execute(select(CvMotion).where(CvMotion.game_id == game_id, CvMotion.number == number))
            ).scalar_one_or_none()


async def _next_number(session: AsyncSession, game_id: int) -> int:
    found = await session.execute(select(func.max(CvMotion.number)).where(CvMotion.game_id == game_id))
    return int(found.scalar_one() or 0) + 1


Withdrawn: TypeAlias = tuple[MotionView, tuple[tuple[str, int], ...]]
"""A Motion withdrawn, and the players (name, user id) who were sent its offer by DM."""


class ConvocateMotionService(ServiceBase):
    async def move_motion(self, game_id: int, *, user_id: int, motion: MotionCard, convocant: str,
                          source_id: str | None = None, answer: OwedWith[MotionView] | None = None) -> MotionView:
        """R4-16: activate the mover; then the offer to second goes round from the mover (or, for a Motion with no
        Seconded box, it resolves at once). ``answer``: what it answers and announces (the Motion, the offer to the
        first player asked), owed in its transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                loaded = await load(uow.session, await load_game(uow.session, game_id))
                me = loaded.by_user(user_id)
                await self._no_open_motion(uow, loaded)
                after, moved = move(loaded.board, me, motion, convocant)
                loaded = save(uow.session, loaded, after)
                row = CvMotion(game_id=game_id, number=await _next_number(uow.session, game_id), kind="motion",
                               name=motion.name, mover_id=loaded.players[me].id, convocant=moved.access.convocant,
                               route=moved.access.route.value, turn=after.turn, status="offering",
                               details={"morality": motion.morality, "moved": motion.moved,
                                        "seconded": motion.seconded, "box": motion.box.value, "only": motion.only,
                                        "targets": motion.targets},
                               offer={"order": list(moved.offer), "index": 0, "answers": []}, moved_at=uow.now)
                uow.session.add(row)
                if motion.box is Box.NONE:
                    _resolve(loaded, row, after, None, uow.now)
                else:
                    advance(loaded, row, after, uow.now)
                await uow.session.flush()
                await uow.record(game_id, "MotionMoved", user_id, {
                    "motion": row.number, "name": row.name, "mover": me, "convocant": row.convocant,
                    "route": row.route, "box": motion.box.value, "morality": motion.morality,
                    "offer": list(moved.offer), "offer_to": loaded.name_of(row.offer_to),
                    "resolved": row.outcome}, source_id)
                return await owe_in(uow, answer, motion_view(loaded, row))
        except Duplicate:
            return await self._again(game_id, source_id)

    async def _no_open_motion(self, uow: UnitOfWork, loaded: Loaded) -> None:
        """The floor is free for a Motion or a Repeal: the game runs (an ended game's closed line comes first, not
        an offer that can no longer move) and no Motion is being offered."""
        require_running(loaded.game)
        row = await open_motion(uow.session, loaded.game.id)
        if row is not None:
            waiting = loaded.name_of(row.offer_to) or "nobody"
            raise RuleError(f"Motion #{row.number} ({row.name}) is still being offered for a second (waiting for "
                            f"{waiting}); one Motion at a time.")

    async def _again(self, game_id: int, source_id: str | None) -> MotionView:
        """A redelivered message: the Motion it made (or answered), as it stands now, marked as a duplicate."""
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            done = (await session.execute(select(Event).where(Event.source_id == source_id))).scalar_one()
            number = done.payload.get("motion")
            row = (await session.execute(select(CvMotion).where(CvMotion.game_id == game_id,
                                                                CvMotion.number == number))).scalar_one()
            return motion_view(loaded, row, duplicate=True)

    async def answer_offer(self, game_id: int, *, user_id: int, accept: bool, convocant: str | None,
                           source_id: str | None = None, expected: tuple[int, int] | None = None,
                           answer: OwedWith[MotionView] | None = None) -> MotionView:
        """R4-15: the player now offered the second accepts with one Convocant (who must have access) or declines;
        the first acceptance seconds the Motion and it resolves. ``expected`` (motion number, offer index) is the
        offer a button was sent with: an answer to an offer that has moved on is refused as already decided.
        ``answer``: the player's answer, owed in its transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                loaded = await load(uow.session, await load_game(uow.session, game_id))
                require_running(loaded.game)  # an ended game: the closed line, not the offer's state
                me = loaded.by_user(user_id)
                row = await open_motion(uow.session, game_id)
                if expected is not None and (row is None or (row.number, int(row.offer.get("index", 0))) != expected):
                    pressed = await _numbered(uow.session, game_id, expected[0])
                    if pressed is not None and pressed.status == "withdrawn":
                        raise RuleError(f"{withdrawn_text(pressed)}; nothing answered to it counts.")
                    gone_back = back_with(loaded, row, me) if row is not None and row.number == expected[0] else ""
                    if row is not None and gone_back:
                        raise RuleError(f"The offer to second Motion #{row.number} ({row.name}) is with "
                                        f"{loaded.name_of(row.offer_to)} now, not with you. {gone_back}")
                    raise RuleError(f"This offer to second Motion #{expected[0]} was already answered or has passed "
                                    "on; the Motion's outcome is in the game channel.")
                if row is None:
                    raise RuleError(await nothing_offered(uow.session, loaded))
                if row.offer_to != loaded.players[me].id:
                    waiting = loaded.name_of(row.offer_to) or "nobody"
                    raise RuleError(f"The offer to second Motion #{row.number} ({row.name}) is with {waiting} now, "
                                    "not with you; it goes round the table in turn order."
                                    + (f" {gone}" if (gone := back_with(loaded, row, me)) else ""))
                board = loaded.board
                answers = list(row.offer.get("answers", []))
                if accept:
                    if convocant is None:
                        options = candidates(board, me)
                        if len(options) != 1:
                            listing = ", ".join(options)
                            raise RuleError(f"Say which Convocant seconds: `Second: <Convocant>`. Yours with access: "
                                            f"{listing}.")
                        convocant = options[0]
                    after, how = second(board, me, motion_card(row), convocant)
                    save(uow.session, loaded, after)
                    answers.append({"player": me, "answer": "seconded", "convocant": how.convocant})
                    row.offer = {**row.offer, "answers": answers}
                    row.seconder_id, row.seconder = loaded.players[me].id, how.convocant
                    _resolve(loaded, row, after, (me, how.convocant), uow.now)
                    kind = "MotionSeconded"
                else:
                    answers.append({"player": me, "answer": "declined"})
                    row.offer = {**row.offer, "answers": answers, "index": int(row.offer.get("index", 0)) + 1}
                    advance(loaded, row, board, uow.now)
                    kind = "SecondDeclined"
                await uow.record(game_id, kind, user_id, {
                    "motion": row.number, "player": me, "convocant": row.seconder if accept else None,
                    "offer_to": loaded.name_of(row.offer_to), "resolved": row.outcome}, source_id)
                return await owe_in(uow, answer, motion_view(loaded, row))
        except Duplicate:
            return await self._again(game_id, source_id)

    async def pass_offer(self, game_id: int, *, actor: int | None, reason: str = "passed",
                         expected: tuple[int, int] | None = None, source_id: str | None = None,
                         answer: OwedWith[MotionView | None] | None = None) -> MotionView | None:
        """The offer moves on without an answer: at its deadline (``timed out``) or by a moderator (``passed``).
        ``expected`` (motion number, offer index) makes a late or repeated timer do nothing. ``answer``: what it
        announces (the offer's move, the offer to the next player, or the resolution), owed in its transaction
        (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            return await owe_in(uow, answer, await self._pass(uow, game_id, actor=actor, reason=reason,
                                                              expected=expected, source_id=source_id))

    async def _pass(self, uow: UnitOfWork, game_id: int, *, actor: int | None, reason: str,
                    expected: tuple[int, int] | None, source_id: str | None) -> MotionView | None:
        loaded = await load(uow.session, await load_game(uow.session, game_id))
        row = await open_motion(uow.session, game_id)
        if row is None:
            if expected is not None:
                return None
            raise RuleError(await nothing_offered(uow.session, loaded))
        index = int(row.offer.get("index", 0))
        if expected is not None and expected != (row.number, index):
            return None
        name = loaded.name_of(row.offer_to) or "?"
        said: dict[str, Any] = {"player": name, "answer": reason}
        if (expected is not None and row.offer_deadline is not None
                and uow.now - utc(row.offer_deadline) > LATE):
            said["why"] = OFFLINE
        answers = [*row.offer.get("answers", []), said]
        row.offer = {**row.offer, "answers": answers, "index": index + 1}
        advance(loaded, row, loaded.board, uow.now)
        await uow.record(game_id, "SecondTimedOut" if reason == "timed out" else "SecondPassed", actor, {
            "motion": row.number, "player": name, "offer_to": loaded.name_of(row.offer_to),
            "resolved": row.outcome}, source_id)
        return motion_view(loaded, row)

    async def offer_deadlines(self) -> list[tuple[int, int, int, datetime]]:
        """(game, motion number, offer index, deadline) of every offer waiting for an answer, soonest first."""
        async with self._read() as session:
            rows = (await session.execute(select(CvMotion).join(Game, Game.id == CvMotion.game_id).where(
                CvMotion.status == "offering", CvMotion.offer_deadline.is_not(None),
                Game.status != "ended")  # a closed ledger times nothing out
                .order_by(CvMotion.offer_deadline))).scalars().all()
            return [(r.game_id, r.number, int(r.offer.get("index", 0)), utc(r.offer_deadline)) for r in rows
                    if r.offer_deadline is not None]

    async def repeal(self, game_id: int, *, user_id: int, statute: str, convocant: str,
                     source_id: str | None = None, answer: OwedWith[MotionView] | None = None) -> MotionView:
        """R4-17: the Motion of Repeal, resolved at once; the outcome carries both totals. ``answer``: what it
        answers and announces (the outcome), owed in its transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                loaded = await load(uow.session, await load_game(uow.session, game_id))
                me = loaded.by_user(user_id)
                await self._no_open_motion(uow, loaded)
                after, done = repeal(loaded.board, me, statute, convocant)
                by_ruling = counts_by_ruling(loaded.board, me, statute, convocant)  # a ruling changed later
                loaded = save(uow.session, loaded, after)
                target = loaded.statutes[done.statute.name]
                if done.destroyed:
                    target.status, target.ended_at, target.ended_turn = "repealed", uow.now, after.turn
                outcome: dict[str, Any] = {"statute": done.statute.name, "controller": done.statute.controller,
                                           "owner": done.statute.owner, "mover_votes": done.mover_votes,
                                           "controller_votes": done.controller_votes, "destroyed": done.destroyed,
                                           "count": after.rulings.repeal_count,
                                           "lines": lines_json(done)}
                row = CvMotion(game_id=game_id, number=await _next_number(uow.session, game_id), kind="repeal",
                               name=f"Motion of Repeal: {done.statute.name}", mover_id=loaded.players[me].id,
                               convocant=done.access.convocant, route=done.access.route.value, turn=after.turn,
                               status="resolved", details={"box": "none"}, offer={}, outcome=outcome,
                               statute_id=target.id, moved_at=uow.now, resolved_at=uow.now)
                uow.session.add(row)
                await uow.session.flush()
                await uow.record(game_id, "RepealMoved", user_id, {"motion": row.number, "mover": me,
                                                                   "convocant": row.convocant, "route": row.route,
                                                                   **outcome,
                                                                   "committed": after.rulings.committed_cards,
                                                                   "by_ruling": {k: [v.mover_votes, v.controller_votes]
                                                                                 for k, v in by_ruling.items()},
                                                                   "lines_by_ruling": {k: lines_json(v) for k, v
                                                                                       in by_ruling.items()}},
                               source_id)
                return await owe_in(uow, answer, motion_view(loaded, row))
        except Duplicate:
            return await self._again(game_id, source_id)

    async def motions(self, game_id: int) -> list[MotionView]:
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            rows = (await session.execute(select(CvMotion).where(CvMotion.game_id == game_id)
                                          .order_by(CvMotion.number))).scalars().all()
            return [motion_view(loaded, r) for r in rows]

    async def motion(self, game_id: int, number: int | None = None) -> MotionView:
        """The open Motion, or the one numbered."""
        async with self._read() as session:
            loaded = await load(session, await load_game(session, game_id))
            if number is None:
                row = await open_motion(session, game_id)
                if row is None:
                    raise NotFoundError(await nothing_offered(session, loaded))
            else:
                row = await _numbered(session, game_id, number)
                if row is None:
                    raise NotFoundError(f"{loaded.game.name} has no Motion #{number}.")
            return motion_view(loaded, row)

    async def withdraw(self, game_id: int, *, actor: int | None, reason: str | None = None,
                       source_id: str | None = None, answer: OwedWith[Withdrawn] | None = None) -> Withdrawn:
        """A moderator's correction (play-test U3.4): the Motion on the floor, moved by mistake (the wrong Convocant
        or text), is withdrawn while its offer to second goes round. The offer ends; the mover's Convocant, activated
        to move it, is readied again; nothing of it resolves and nobody pays a Penalty (docs/rulings.md). Returns the
        Motion and the players (name, user id) who were sent the offer by DM, to be told. ``answer``: what it
        announces (in the game channel, and by DM to those players), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            loaded = await load(uow.session, await load_game(uow.session, game_id))
            require_running(loaded.game)
            row = await open_motion(uow.session, game_id)
            if row is None:
                raise RuleError(await not_offered_for_moderators(uow.session, loaded, "withdraw"))
            mover = loaded.name_of(row.mover_id) or "?"
            after, not_readied = ready_again(loaded.board, mover, row.convocant)
            loaded = save(uow.session, loaded, after)
            was_with, told = loaded.name_of(row.offer_to), asked(loaded, row)
            row.status, row.offer_to, row.offer_deadline = "withdrawn", None, None
            row.offer = {**row.offer, "withdrawn": {"with": was_with, "reason": reason, "not_readied": not_readied}}
            await uow.record(game_id, "MotionWithdrawn", actor, {
                "motion": row.number, "name": row.name, "mover": mover, "convocant": row.convocant,
                "readied": not_readied is None, "offer_was_with": was_with, "told": told, "reason": reason},
                source_id)
            return await owe_in(uow, answer, (motion_view(loaded, row), tuple((n, loaded.user_of(n)) for n in told)))

    async def reopen(self, game_id: int, *, actor: int | None, number: int, reason: str | None = None,
                     source_id: str | None = None, answer: OwedWith[MotionView] | None = None) -> MotionView:
        """A moderator's correction (play-test U3.1): the second that resolved Motion ``number`` (entered for the
        wrong player, or with the wrong Convocant) is taken back. The seconder's Convocant is readied again, the
        Motion is unresolved, and the offer reopens at the player it had reached, who and those after are asked
        again as at the first offer. Only the latest Motion, while the Action Phase in which it resolved goes on and
        before a Statute is declared on the board it left (docs/rulings.md). ``answer``: what it announces (in the
        game channel; the offer DMed again, or the resolution), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            loaded = await load(session, await load_game(session, game_id))
            require_running(loaded.game)
            row = await _numbered(session, game_id, number)
            latest = await latest_motion(session, game_id)
            if row is None or latest is None:
                known = (f"its Motions are #1 to #{latest.number}; only the latest can be reopened"
                         if latest is not None else "no Motion has been moved yet")
                raise NotFoundError(f"{loaded.game.name} has no Motion #{number} ({known}).")
            later = (await session.execute(select(CvMotion.number).where(
                CvMotion.game_id == game_id, CvMotion.number > number, CvMotion.status != "withdrawn")
                .order_by(CvMotion.number).limit(1))).scalar_one_or_none()
            seconder = _reopenable(loaded, row, later)
            await _nothing_after(session, loaded, row)
            convocant = row.seconder or "?"
            after, not_readied = ready_again(loaded.board, seconder, convocant)
            loaded = save(session, loaded, after)
            answers = list(row.offer.get("answers", []))
            if answers and answers[-1].get("answer") == "seconded":
                answers.pop()  # the offer goes back to the player who seconded: it is theirs to answer again
            taken = [*row.offer.get("taken_back", []),
                     {"player": seconder, "convocant": convocant, "reason": reason, "not_readied": not_readied}]
            undone = row.outcome
            row.offer = {**row.offer, "answers": answers, "taken_back": taken}
            row.status, row.resolved_at, row.outcome, row.seconder_id, row.seconder = "offering", None, None, None, None
            advance(loaded, row, after, uow.now, back=True)
            await uow.record(game_id, "MotionReopened", actor, {
                "motion": row.number, "name": row.name, "seconder": seconder, "convocant": convocant,
                "readied": not_readied is None, "undone": undone, "offer_to": loaded.name_of(row.offer_to),
                "resolved": row.outcome, "reason": reason}, source_id)
            return await owe_in(uow, answer, motion_view(loaded, row))


def _reopenable(loaded: Loaded, row: CvMotion, later: int | None) -> str:
    """The seconder whose second resolved ``row``, if a moderator may take it back; else why not, with what
    ``/motion reopen`` takes. ``later``: a Motion or Repeal moved after it and not withdrawn (a withdrawn one did
    nothing: its mover's Convocant was readied again)."""
    head = f"Motion #{row.number} ({row.name})"
    if row.kind == "repeal":
        statute = (row.outcome or {}).get("statute", "the Statute")
        fix = (f"if it destroyed {statute} by mistake, /statute restore statute:{statute} puts it back in force"
               if (row.outcome or {}).get("destroyed") else f"it kept {statute} in force")
        raise RuleError(f"Motion #{row.number} is a Motion of Repeal, which has no Seconded text and cannot be "
                        "seconded (rules §6.9), so there is no second to take back, and it is not moved again. If it "
                        f"was counted wrongly, /motion erratum number:{row.number} posts the corrected count; {fix}.")
    if row.status == "withdrawn":
        raise RuleError(f"{head} was withdrawn; it has no second to take back.")
    if row.status == "offering":
        waiting = loaded.name_of(row.offer_to) or "nobody"
        raise RuleError(f"{head} has not resolved: its offer to second is with {waiting}. /motion reopen takes back "
                        "a second that resolved a Motion; a Motion moved by mistake is withdrawn with /motion "
                        "withdraw while it is offered.")
    seconder = loaded.name_of(row.seconder_id)
    if seconder is None:
        how = "it has no Seconded box" if row.details.get("box") == "none" else "nobody seconded it"
        fix = ("a decline (or a /motion skip) made by mistake is taken back with /motion ask-again player:<who>"
               if row.details.get("box") != "none" else "what it did at the table is put right by hand")
        raise RuleError(f"{head} resolved without a second ({how}); /motion reopen takes back only a second that "
                        f"resolved a Motion: {fix}.")
    if later is not None:
        raise RuleError(f"{head} is not the latest Motion: #{later} was moved after it, on the board its second "
                        "left. Only the latest Motion is reopened; the moderators put the rest right by hand.")
    board = loaded.board
    mover = loaded.name_of(row.mover_id)
    if (board.turn, board.active, board.phase) != (row.turn, mover, Phase.ACTION):
        raise RuleError(f"{head} resolved in {mover}'s Action Phase of turn {row.turn}, which has ended (it is "
                        f"{board.when()}): a second is taken back only while the Action Phase in which it resolved "
                        "goes on. The moderators put it right by hand.")
    if seconder not in loaded.players:
        raise RuleError(f"{seconder}, who seconded {head}, no longer sits at the table; their second is not taken "
                        "back.")
    return seconder


async def _nothing_after(session: AsyncSession, loaded: Loaded, row: CvMotion) -> None:
    """Refuse to take back the second of ``row`` when later play stood on the board it left: a Phase ended (and
    stepped back) since, or a Statute declared with political control counted with the seconder's Convocant
    activated."""
    seconds = (await session.execute(select(Event).where(Event.game_id == loaded.game.id,
                                                         Event.kind == "MotionSeconded")
                                     .order_by(Event.seq.desc()))).scalars()
    resolving = next((e for e in seconds if e.payload.get("motion") == row.number), None)
    if resolving is None:
        raise RuleError(f"The second of Motion #{row.number} is not in the log; Clerk cannot take it back.")
    head = f"Motion #{row.number} ({row.name})"
    e = await turned_since(session, loaded.game.id, resolving.seq)
    if e is not None:
        if e.kind.startswith("Phase"):
            raise RuleError(f"The Phase has changed since {head} resolved (event #{e.seq}, {e.kind}): a second is "
                            "taken back only while the Action Phase in which it resolved goes on.")
        raise RuleError(f"{e.payload.get('controller')} declared {e.payload.get('statute')} after {head} "
                        f"resolved, with political control counted while {row.seconder} was activated by the "
                        "second; taking the second back would change that count. The moderators put it right "
                        "by hand.")


async def turned_since(session: AsyncSession, game_id: int, seq: int) -> Event | None:
    """The first event after ``seq`` that a taken-back answer cannot stand behind: a Phase event (the Action Phase in
    which it was given has ended, or stepped back) or a Statute declared (political control counted with it)."""
    found = await session.execute(select(Event).where(Event.game_id == game_id, Event.seq > seq,
                                                      or_(Event.kind.startswith("Phase"),
                                                          Event.kind == "StatuteDeclared"))
                                  .order_by(Event.seq).limit(1))
    return found.scalars().first()
