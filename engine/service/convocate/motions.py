"""Motions and the Motion of Repeal (R4-13..R4-17): moving one, the offer to second round the table with a
timeout for each player (P4-13), its resolution, and the Repeal's count (P4-05)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import Board
from engine.convocate.motions import Box, MotionCard, can_second, move, resolve, second
from engine.convocate.repeal import counts_by_ruling, lines_json, repeal
from engine.convocate.rulings import value_of
from engine.convocate.seats import locked_out
from engine.core.durations import parse_duration
from engine.core.errors import NotFoundError, RuleError
from engine.service.clock import utc
from engine.service.convocate.store import Loaded, load, open_motion, save
from engine.service.convocate.views import Answer, MotionView, candidates
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
    to = loaded.name_of(row.offer_to)
    cands = candidates(loaded.board, to) if to is not None and row.status == "offering" else ()
    mover = loaded.name_of(row.mover_id) or "?"
    return MotionView(
        game=game_view(loaded.game), number=row.number, kind=row.kind, name=row.name, mover=mover,
        mover_user=loaded.user_of(mover) if mover in loaded.players else 0, convocant=row.convocant, route=row.route,
        details=dict(row.details), status=row.status, order=tuple(offer.get("order", ())),
        answers=tuple(Answer(a["player"], a["answer"], a.get("convocant"), a.get("why"))
                      for a in offer.get("answers", ())),
        offer_to=to, offer_user=loaded.user_of(to) if to else None, offer_index=int(offer.get("index", 0)),
        deadline=utc(row.offer_deadline) if row.offer_deadline else None, candidates=cands,
        seconder=loaded.name_of(row.seconder_id), seconder_convocant=row.seconder,
        outcome=dict(row.outcome) if row.outcome is not None else None, duplicate=duplicate)


def _timeout(game: Game) -> timedelta:
    return parse_duration(str(value_of(game.settings, "second_timeout")))


def _why_not(board: Board, player: str) -> str:
    if locked_out(board, board.player(player)):
        return "locked out, no active Seat"
    return "no readied Convocant with access"


def advance(loaded: Loaded, row: CvMotion, board: Board, now: datetime) -> None:
    """Offer the second to the next player in the order who could second; skip (and record) those who cannot;
    when nobody is left, resolve the Motion unseconded."""
    offer = dict(row.offer)
    answers = list(offer.get("answers", []))
    order = list(offer.get("order", []))
    index = int(offer.get("index", 0))
    motion = motion_card(row)
    while index < len(order):
        name = order[index]
        if can_second(board, name, motion):
            row.offer = {**offer, "answers": answers, "index": index}
            row.offer_to = loaded.players[name].id
            row.offer_deadline = now + _timeout(loaded.game)
            return
        answers.append({"player": name, "answer": "skipped", "why": _why_not(board, name)})
        index += 1
    row.offer = {**offer, "answers": answers, "index": index}
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


async def _next_number(session: AsyncSession, game_id: int) -> int:
    found = await session.execute(select(func.max(CvMotion.number)).where(CvMotion.game_id == game_id))
    return int(found.scalar_one() or 0) + 1


class ConvocateMotionService(ServiceBase):
    async def move_motion(self, game_id: int, *, user_id: int, motion: MotionCard, convocant: str,
                          source_id: str | None = None) -> MotionView:
        """R4-16: activate the mover; then the offer to second goes round from the mover (or, for a Motion with no
        Seconded box, it resolves at once)."""
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
                return motion_view(loaded, row)
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
                    raise RuleError(f"This offer to second Motion #{expected[0]} was already answered or has passed "
                                    "on; the Motion's outcome is in the game channel.")
                if row is None:
                    raise RuleError(f"No Motion in {loaded.game.name} is waiting for a second.")
                if row.offer_to != loaded.players[me].id:
                    waiting = loaded.name_of(row.offer_to) or "nobody"
                    raise RuleError(f"The offer to second Motion #{row.number} ({row.name}) is with {waiting} now, "
                                    "not with you; it goes round the table in turn order.")
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
                         expected: tuple[int, int] | None = None, source_id: str | None = None) -> MotionView | None:
        """The offer moves on without an answer: at its deadline (``timed out``) or by a moderator (``passed``).
        ``expected`` (motion number, offer index) makes a late or repeated timer do nothing."""
        async with self._write(game_id, source_id) as uow:
            loaded = await load(uow.session, await load_game(uow.session, game_id))
            row = await open_motion(uow.session, game_id)
            if row is None:
                if expected is not None:
                    return None
                raise RuleError(f"No Motion in {loaded.game.name} is waiting for a second.")
            index = int(row.offer.get("index", 0))
            if expected is not None and expected != (row.number, index):
                return None
            name = loaded.name_of(row.offer_to) or "?"
            answer: dict[str, Any] = {"player": name, "answer": reason}
            if (expected is not None and row.offer_deadline is not None
                    and uow.now - utc(row.offer_deadline) > LATE):
                answer["why"] = OFFLINE
            answers = [*row.offer.get("answers", []), answer]
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
                     source_id: str | None = None) -> MotionView:
        """R4-17: the Motion of Repeal, resolved at once; the outcome carries both totals."""
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
                return motion_view(loaded, row)
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
                    raise NotFoundError(f"No Motion in {loaded.game.name} is waiting for a second.")
            else:
                row = (await session.execute(select(CvMotion).where(
                    CvMotion.game_id == game_id, CvMotion.number == number))).scalar_one_or_none()
                if row is None:
                    raise NotFoundError(f"{loaded.game.name} has no Motion #{number}.")
            return motion_view(loaded, row)
