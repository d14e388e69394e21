"""Committing Votes, pushing Galactic Factors, Statutes, and the phases of a turn (R4-06..R4-08, R4-11, R4-12)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import Phase, Statute
from engine.convocate.factors import Committed, Pushed, commit, push
from engine.convocate.parsing import parse_one_time
from engine.convocate.statutes import change_section, declare, destroy, sections_of
from engine.convocate.turns import PhaseChanged, PhaseReturned, next_phase, previous_phase
from engine.convocate.votes import standing_vote
from engine.core.errors import RuleError
from engine.core.text import typed_back
from engine.service.convocate.store import load, open_motion, save, sections_json
from engine.service.convocate.store import sections_of as stored_sections
from engine.service.convocate.views import StatuteView
from engine.service.ledger import game_view, load_game
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.store.models import Event
from engine.store.models.convocate import CvStatute

STEP, BACK = "PhaseAdvanced", "PhaseSteppedBack"
PASSING = frozenset({"SettingChanged", "ModeratorRoleChanged", "GameMoved", "KeptMessagePostedAgain", "ReminderSent",
                     "ErratumPosted", "GameEnded", "GameReopened"})
"""What may be recorded after a ``/phase next`` and still let ``/phase back`` take it back: these change nothing the
step changed or that happens in a Phase (a ruling, the moderators, the channel, a message posted again, an erratum,
the game closed and reopened). Anything else (a commit, a push, a Statute, a Motion or its offer, a card, a Factor,
a player) was recorded in the new Phase, and stepping back would leave it in a Phase that never began."""
RECORDED = {"VotesCommitted": "Votes committed", "FactorPushed": "a Galactic Factor pushed",
            "StatuteDeclared": "a Statute declared", "StatuteSectionChanged": "a Statute's Section changed",
            "StatuteDestroyed": "a Statute destroyed", "MotionMoved": "a Motion moved",
            "RepealMoved": "a Motion of Repeal moved", "CardAdded": "a card added", "CardChanged": "a card changed",
            "CardRemoved": "a card removed", "FactorSet": "a Galactic Factor set", "DirectiveSet": "a Directive set",
            "PlayerRemoved": "a player removed", "ConvocatePlayerAdded": "a player seated",
            "ConvocatePlayerChanged": "a player changed", "GameImported": "a set-up imported"}
"""What an event that stops ``/phase back`` recorded, in words (the others are named by their kind in /log)."""
BY_HAND = ("Instead, put right by hand what matters: /card set readied: readies or activates a card, /card set "
           "bonus: and /convocate player temp: give an effect until end of turn; Votes lost from a Resource Pool do "
           "not come back, but the cards committed for them can be readied to commit again in the player's next "
           "Action Phase.")


def step_of(payload: dict[str, Any], seq: int) -> PhaseChanged:
    """The ``PhaseChanged`` a ``PhaseAdvanced`` event recorded, to take it back. A step that ended effects "until end
    of turn" before Clerk kept them by name and value cannot be rebuilt: RuleError."""
    if payload.get("expired") and "temps" not in payload:
        raise RuleError(f"The latest /phase next (#{seq}) ended effects until end of turn ("
                        f"{', '.join(payload['expired'])}) before Clerk kept them to step back; nothing was changed. "
                        + BY_HAND)
    ended = payload.get("ended")
    return PhaseChanged(
        (str(ended[0]), Phase(ended[1])) if ended else None,
        (str(payload["started"][0]), Phase(payload["started"][1])), int(payload["turn"]),
        tuple((str(p), int(n)) for p, n in (payload.get("lost") or {}).items()),
        tuple(str(c) for c in payload.get("readied") or ()), tuple(str(e) for e in payload.get("expired") or ()),
        tuple((str(p), int(n)) for p, n in payload.get("temps") or ()),
        tuple((str(c), int(n)) for c, n in payload.get("bonuses") or ()))


async def latest_step(session: AsyncSession, game_id: int, game: str) -> Event:
    """The ``PhaseAdvanced`` that ``/phase back`` takes back: the latest not already taken back (each
    ``PhaseSteppedBack`` took back the latest before it), reading the ledger from the newest event. RuleError when
    there is none, or when something other than ``PASSING`` was recorded after it."""
    pending, before = 0, None
    while True:
        query = select(Event).where(Event.game_id == game_id)
        if before is not None:
            query = query.where(Event.seq < before)
        rows = (await session.execute(query.order_by(Event.seq.desc()).limit(50))).scalars().all()
        if not rows:
            raise RuleError(f"No /phase next has been taken in {game}; there is no step to take back.")
        for e in rows:
            if e.kind == BACK:
                pending += 1
            elif e.kind == STEP and pending:
                pending -= 1
            elif e.kind == STEP:
                return e
            elif e.kind not in PASSING and not pending:
                raise RuleError(f"Too late to step back: something was recorded after the latest /phase next "
                                f"({RECORDED.get(e.kind, e.kind)}, #{e.seq} in /log), and stepping back would leave "
                                "it in a Phase that never began. /phase back takes back only the latest /phase next, "
                                f"while nothing has been recorded since. Nothing was changed. {BY_HAND}")
        before = rows[-1].seq


class ConvocateTurnService(ServiceBase):
    async def commit(self, game_id: int, *, user_id: int, cards: list[str], added: int = 0,
                     source_id: str | None = None) -> Committed:
        async with self._write(game_id, source_id) as uow:
            loaded = await load(uow.session, await load_game(uow.session, game_id))
            me = loaded.by_user(user_id)
            after, done = commit(loaded.board, me, cards, added)
            save(uow.session, loaded, after)
            await uow.record(game_id, "VotesCommitted", user_id, {"player": me, "cards": [list(c) for c in done.cards],
                                                                  "added": added, "pool": done.pool}, source_id)
            return done

    async def push(self, game_id: int, *, user_id: int, factor: str, direction: int, steps: int = 1,
                   source_id: str | None = None) -> Pushed:
        async with self._write(game_id, source_id) as uow:
            loaded = await load(uow.session, await load_game(uow.session, game_id))
            me = loaded.by_user(user_id)
            after, done = push(loaded.board, me, factor, direction, steps)
            save(uow.session, loaded, after)
            await uow.record(game_id, "FactorPushed", user_id, {
                "player": me, "factor": done.factor, "from": done.frm, "to": done.to, "costs": list(done.costs),
                "pool": done.pool}, source_id)
            return done

    async def declare(self, game_id: int, *, user_id: int, statute: str, character: str, section: int,
                      sections: int, one_time: str | None = None, cost: str | None = None,
                      owner: int | None = None, source_id: str | None = None,
                      answer: OwedWith[StatuteView] | None = None) -> StatuteView:
        """R4-11: a Statute declared. ``answer``: what it answers and announces, owed in its transaction
        (``owe_in``)."""
        numbers, costs = parse_one_time(one_time) if one_time else ((), {})
        printed = sections_of(sections, numbers, costs)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            me = loaded.by_user(user_id)
            owner_name = loaded.find_user(owner) if owner is not None else me
            if owner_name is None:
                raise RuleError(f"The owner must be a player in {game.name}.")
            after, done = declare(loaded.board, me, statute, character, section, printed, owner_name, cost)
            loaded = save(uow.session, loaded, after)
            row = CvStatute(game_id=game_id, name=done.statute.name, controller_id=loaded.players[me].id,
                            owner_id=loaded.players[owner_name].id, section=section, sections=sections_json(printed),
                            changed_turn=None, status="in force", declared_by=done.character, seat=done.seat,
                            cost=cost, declared_at=uow.now, declared_turn=after.turn)
            uow.session.add(row)
            resolves = (done.resolves.section, done.resolves.cost) if done.resolves else None
            await uow.record(game_id, "StatuteDeclared", user_id, {
                "statute": done.statute.name, "controller": me, "owner": owner_name, "character": done.character,
                "seat": done.seat, "section": section, "sections": sections_json(printed)["sections"], "cost": cost,
                "standing_votes": done.votes, "resolves": resolves is not None}, source_id)
            return await owe_in(uow, answer, StatuteView(game_view(game), done.statute, done.character, done.seat,
                                                         resolves, done.votes, cost))

    async def change_section(self, game_id: int, *, user_id: int, statute: str, section: int,
                             source_id: str | None = None, answer: OwedWith[StatuteView] | None = None
                             ) -> StatuteView:
        """R4-12: another Section of a Statute put in force. ``answer``: as ``declare``'s."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            me = loaded.by_user(user_id)
            after, done = change_section(loaded.board, me, statute, section)
            save(uow.session, loaded, after)
            resolves = (done.resolves.section, done.resolves.cost) if done.resolves else None
            await uow.record(game_id, "StatuteSectionChanged", user_id, {
                "statute": done.statute, "from": done.old, "to": done.new, "resolves": resolves is not None},
                source_id)
            return await owe_in(uow, answer, StatuteView(game_view(game), after.statute(done.statute), None, None,
                                                         resolves))

    async def destroy_statute(self, game_id: int, *, user_id: int, statute: str, source_id: str | None = None,
                              answer: OwedWith[StatuteView] | None = None) -> StatuteView:
        """R4-12: a Statute destroyed by its controller. ``answer``: as ``declare``'s."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            me = loaded.by_user(user_id)
            after, gone = destroy(loaded.board, me, statute)
            save(uow.session, loaded, after)
            row = loaded.statutes[gone.name]
            row.status, row.ended_at, row.ended_turn = "destroyed", uow.now, after.turn
            await uow.record(game_id, "StatuteDestroyed", user_id, {"statute": gone.name, "controller": me,
                                                                    "owner": gone.owner}, source_id)
            return await owe_in(uow, answer, StatuteView(game_view(game), gone, None, None, None, destroyed=True))

    async def set_statute_owner(self, game_id: int, *, user_id: int, statute: str, owner: int,
                                reason: str | None = None, source_id: str | None = None,
                                answer: OwedWith[tuple[str, str, str]] | None = None) -> tuple[str, str, str]:
        """A moderator's correction (play-test U3.3): a Statute declared with the wrong owner (``owner`` names whose
        Depleted Pile it goes to, and a Statute its owner takes with them when removed) is given its owner. Its
        controller, Section and every count stay as they are. Returns (the Statute, the owner it had, the new).
        ``answer``: what it announces, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            found = loaded.board.statute(statute)
            new = loaded.find_user(owner)
            if new is None:
                raise RuleError(f"The owner must be a player seated in {game.name}. Nothing was recorded.")
            if new == found.owner:
                raise RuleError(f"{found.name}'s owner is {new} already; nothing was changed.")
            row = loaded.statutes[found.name]
            row.owner_id = loaded.players[new].id
            await uow.record(game_id, "StatuteChanged", user_id, {
                "statute": found.name, "owner": [found.owner, new], "reason": reason}, source_id)
            return await owe_in(uow, answer, (found.name, found.owner, new))

    async def ended_statutes(self, game_id: int) -> list[tuple[str, str]]:
        """The Statutes repealed or destroyed, (name, how it ended), the latest of each name, newest first: what
        ``/statute restore`` could put back (its option suggests them)."""
        async with self._read() as session:
            rows = (await session.execute(select(CvStatute.name, CvStatute.status).where(
                CvStatute.game_id == game_id, CvStatute.status != "in force").order_by(CvStatute.id.desc()))).all()
            latest: dict[str, str] = {}
            for name, status in rows:
                latest.setdefault(name, status)
            return list(latest.items())

    async def restore_statute(self, game_id: int, *, user_id: int, statute: str, reason: str | None = None,
                              source_id: str | None = None,
                              answer: OwedWith[tuple[StatuteView, str]] | None = None) -> tuple[StatuteView, str]:
        """A moderator's correction (play-test U3.2): a Statute repealed or destroyed by mistake (a Repeal counted
        with a wrong card, a destroy typed for another Statute) is put back in force as it was when it ended: the
        same controller, owner and Section. Nothing resolves again (a one-time Section is not paid for twice) and no
        card is readied or activated; the mover of the Repeal keeps the Repeal they moved this turn. Returns the
        view and how it had ended ("repealed" or "destroyed"). ``answer``: what it announces, owed in its transaction
        (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            key = statute.strip().lower()
            if key in {n.lower() for n in loaded.statutes}:
                raise RuleError(f"{statute.strip()} is in force; there is nothing to restore.")
            row = (await uow.session.execute(
                select(CvStatute).where(CvStatute.game_id == game_id, func.lower(CvStatute.name) == key,
                                        CvStatute.status != "in force")
                .order_by(CvStatute.id.desc()).limit(1))).scalar_one_or_none()
            if row is None:
                ended = (await uow.session.execute(select(CvStatute.name).where(
                    CvStatute.game_id == game_id, CvStatute.status != "in force")
                    .order_by(CvStatute.id))).scalars().all()
                listed = ", ".join(dict.fromkeys(ended)) or "none"
                raise RuleError(f"No Statute called {typed_back(statute)} has been repealed or destroyed in "
                                f"{game.name} (those: {listed}). Nothing was recorded.")
            controller, owner = loaded.name_of(row.controller_id), loaded.name_of(row.owner_id)
            if controller not in loaded.players:
                raise RuleError(f"{row.name}'s controller {controller} no longer sits at the table (removed); it "
                                "cannot be put back in force for them. Nothing was recorded.")
            assert owner is not None
            was = row.status
            row.status, row.ended_at, row.ended_turn = "in force", None, None
            await uow.record(game_id, "StatuteRestored", user_id, {
                "statute": row.name, "controller": controller, "owner": owner, "section": row.section,
                "was": was, "reason": reason}, source_id)
            back = Statute(row.name, controller, owner, row.section, stored_sections(row.sections), row.changed_turn)
            return await owe_in(uow, answer, (StatuteView(game_view(game), back, None, None, None), was))

    async def next_phase(self, game_id: int, *, user_id: int, moderator: bool,
                         source_id: str | None = None, answer: OwedWith[PhaseChanged] | None = None) -> PhaseChanged:
        """The active player (or a moderator) ends the Phase: every pool empties; the next Phase, or the next
        player's Ready Phase, in which their cards ready (R4-06, R4-07). ``answer``: what it answers and announces
        (whose Phase it is now), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            board = loaded.board
            if not moderator and (board.active is None or loaded.find_user(user_id) != board.active):
                if board.active and board.phase:
                    raise RuleError(f"Only {board.active} (whose {board.phase.label} it is) or a moderator ends "
                                    "the Phase.")
                raise RuleError("Only a moderator ends the Phase: no player's turn is under way.")
            motion = await open_motion(uow.session, game_id)
            if motion is not None:
                waiting = loaded.name_of(motion.offer_to) or "nobody"
                raise RuleError(f"Motion #{motion.number} ({motion.name}) is still being offered for a second "
                                f"(waiting for {waiting}); the Phase ends once it resolves. A moderator can pass "
                                "the offer on with /motion skip.")
            after, changed = next_phase(board)
            save(uow.session, loaded, after)
            await owe_in(uow, answer, changed)  # in this transaction, which records the step below
            payload: dict[str, Any] = {
                "ended": [changed.ended[0], changed.ended[1].value] if changed.ended else None,
                "started": [changed.started[0], changed.started[1].value], "turn": changed.turn,
                "lost": dict(changed.lost), "readied": list(changed.readied), "expired": list(changed.expired)}
            if changed.ended is not None and changed.turn != board.turn:  # a turn ended: its Standing Votes, kept
                payload["standing"] = {p.name: [[line.source, line.votes, line.note]  # for /why standing round:N
                                                for line in standing_vote(board, p.name).lines]
                                       for p in board.players}
                payload["turn_ended"] = board.turn
                payload["temps"] = [list(t) for t in changed.temps]  # kept by value, for /phase back
                payload["bonuses"] = [list(b) for b in changed.bonuses]
            await uow.record(game_id, STEP, user_id, payload, source_id)
            return changed

    async def back_phase(self, game_id: int, *, user_id: int, reason: str | None = None,
                         source_id: str | None = None,
                         answer: OwedWith[tuple[PhaseReturned, int]] | None = None) -> tuple[PhaseReturned, int]:
        """A moderator's correction (play-test U2.2): the latest ``/phase next`` taken back, while nothing has been
        recorded since (``latest_step``): the Phase it ended is under way again, in its turn, with the Resource
        Pools it emptied, the cards it readied activated again and the effects it ended back (``previous_phase``).
        Each back takes back the step before the last one taken back. Returns what came back and the step's
        number in the ledger. ``answer``: what the step back announces, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            loaded = await load(uow.session, game)
            if loaded.board.active is None:
                raise RuleError(f"No turn is under way in {game.name} (no /phase next has begun one); there is no "
                                "step to take back.")
            event = await latest_step(uow.session, game_id, game.name)
            after, back = previous_phase(loaded.board, step_of(event.payload, event.seq))
            save(uow.session, loaded, after)
            await uow.record(game_id, BACK, user_id, {
                "undoes": event.seq, "from": [back.left[0], back.left[1].value], "from_turn": back.left_turn,
                "to": [back.back[0], back.back[1].value], "turn": back.turn, "pools": dict(back.pools),
                "activated": list(back.activated), "effects": list(back.effects), "reason": reason}, source_id)
            return await owe_in(uow, answer, (back, event.seq))


__all__ = ["ConvocateTurnService", "Phase"]
