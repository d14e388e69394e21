"""The Business Phase through the service (R1-20..R1-33): the moderator records what happened in the turn (each
happening moves what is in play at once), and closing the phase applies the approval table (P1-05..P1-07),
evaluates every Fervor condition (P1-09, P1-14, P1-17), deducts VP (P1-08), and checks Social Collapse and then
revolutions (P1-11)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.words import plural
from engine.mylantium.approval import ApprovalResult, approval_change
from engine.mylantium.business import Happening, InPlay, Occurrence, after, check_turn
from engine.mylantium.fervor import FervorResult, deduct, fervor_change
from engine.mylantium.model import Faction, FactionCode, total_vp
from engine.mylantium.settings import Rules
from engine.service.ledger import game_view, load_game
from engine.service.mylantium.history import add_history, record
from engine.service.mylantium.revolution import begin_chain
from engine.service.mylantium.state import (
    approval_of,
    calm_game,
    government_of,
    in_play_of,
    live_chain,
    open_election,
    pure_factions,
    require_mylantium,
    rules_of,
    set_in_play,
    write_back,
)
from engine.service.mylantium.views import BusinessView, HappeningView
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.store.models.mylantium import MylGovernment, MylHappening


def happening_view(row: MylHappening) -> HappeningView:
    return HappeningView(row.id, row.turn, Occurrence(Happening(row.what), row.amount).text, row.note)


class Business(ServiceBase):
    """The Business Phase: what happened this turn, and its close: ``clerk.mylantium.business``."""

    async def record_happening(self, game_id: int, *, what: Happening, amount: int, note: str | None,
                               actor: int | None, source_id: str | None = None) -> tuple[HappeningView, InPlay]:
        """Record one happening of this turn (``/event ...``) and move the counts in play."""
        occurrence = Occurrence(what, amount)
        async with self._write(game_id, source_id) as uow:
            game = await calm_game(uow.session, game_id)
            gov = await government_of(uow.session, game)
            if gov.business_closed:
                raise RuleError(f"Turn {gov.turn}'s Business Phase is closed; what happens next belongs to the next "
                                "turn, which starts with /election start.")
            before = in_play_of(gov)
            state = after(before, occurrence)
            found = await uow.session.execute(select(MylHappening).where(
                MylHappening.game_id == game_id, MylHappening.turn == gov.turn).order_by(MylHappening.id))
            check_turn((Occurrence(Happening(r.what), r.amount) for r in found.scalars()), occurrence, state,
                       gov.turn)
            set_in_play(gov, state)
            row = MylHappening(game_id=game_id, turn=gov.turn, what=what.value, amount=amount,
                               note=note.strip()[:200] if note and note.strip() else None,
                               before=dict(before.__dict__), at=uow.now)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "HappeningRecorded", actor,
                             {"id": row.id, "turn": gov.turn, "what": what.value, "amount": amount, "note": row.note},
                             source_id)
            return happening_view(row), state

    async def undo_happening(self, game_id: int, *, number: int | None = None, actor: int | None,
                             source_id: str | None = None) -> tuple[HappeningView, InPlay]:
        """Take back a happening of the turn (a moderator's mistake): the latest, or the one ``number`` in the
        turn's list (``/event list`` numbers them from 1). The counts return to what they would be had it never been
        recorded: the entries after it are counted again, in order, from the counts before it; if one of them could
        not have been recorded without it (an Income Tax raised that it created), nothing is taken back and the
        answer names that entry (docs/rulings.md "Taking back a happening that is not the latest")."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_mylantium(game)
            gov = await government_of(uow.session, game)
            if gov.business_closed:
                raise RuleError(f"Turn {gov.turn}'s Business Phase is closed; its happenings have been applied.")
            rows = list((await uow.session.execute(select(MylHappening).where(
                MylHappening.game_id == game_id, MylHappening.turn == gov.turn).order_by(MylHappening.id)))
                .scalars())
            if not rows:
                raise RuleError(f"Nothing has been recorded in turn {gov.turn}.")
            if number is not None and not 1 <= number <= len(rows):
                raise RuleError(f"Turn {gov.turn} has {plural(len(rows), 'happening')} recorded, numbered 1 to "
                                f"{len(rows)} in /event list; there is no number {number}. Nothing was changed.")
            at = len(rows) if number is None else number
            row = rows[at - 1]
            if await live_chain(uow.session, game_id) is not None:  # R1-40, play-test M5.1: as recording one is
                raise RuleError(f"A Revolution is under way and play is suspended until it runs its course "
                                f"(/revolution status): a happening can be neither recorded nor taken back meanwhile. "
                                f"Once play resumes, /event undo takes back the latest, "
                                f"{happening_view(rows[-1]).text}.")
            state = InPlay(**row.before)
            earlier = [Occurrence(Happening(r.what), r.amount) for r in rows[:at - 1]]
            for later, r in enumerate(rows[at:], start=at + 1):
                occurrence = Occurrence(Happening(r.what), r.amount)
                try:
                    check_turn(earlier, occurrence, state, gov.turn)
                    counted = after(state, occurrence)
                except RuleError as error:
                    why = str(error).split(" Nothing was recorded")[0].rstrip(".")
                    raise RuleError(f"{happening_view(row).text} (number {at}) cannot be taken back on its own: "
                                    f"without it, number {later}, {occurrence.text}, could not have been recorded "
                                    f"({why}). Take back number {later} first (/event undo number:{later}). "
                                    "Nothing was changed.") from None
                r.before = dict(state.__dict__)
                earlier.append(occurrence)
                state = counted
            set_in_play(gov, state)
            view = happening_view(row)
            await uow.session.delete(row)
            await uow.session.flush()
            await uow.record(game_id, "HappeningUndone", actor, {"id": view.id, "what": row.what,
                                                                 "amount": row.amount}, source_id)
            return view, state

    async def happenings(self, game_id: int, turn: int | None = None) -> tuple[int, list[HappeningView], InPlay]:
        """(turn, its happenings, what is in play now)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            gov = await government_of(session, game)
            wanted = gov.turn if turn is None else turn
            found = await session.execute(select(MylHappening).where(
                MylHappening.game_id == game_id, MylHappening.turn == wanted).order_by(MylHappening.id))
            return wanted, [happening_view(r) for r in found.scalars()], in_play_of(gov)

    async def close_business(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                             answer: OwedWith[BusinessView] | None = None) -> BusinessView:
        """The turn's Business Phase closes: approval, Fervor, VP, then Social Collapse and revolutions (a chain it
        begins). ``answer``: what it announces (its card, what a chain it begins moves on), owed in its transaction
        (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await calm_game(uow.session, game_id)
            gov = await government_of(uow.session, game)
            if gov.business_closed:
                raise RuleError(f"Turn {gov.turn}'s Business Phase is already closed; /election start begins the "
                                "next turn.")
            if await open_election(uow.session, game_id) is not None:
                raise RuleError("An election is open; close it before the Business Phase.")
            found = await uow.session.execute(select(MylHappening).where(
                MylHappening.game_id == game_id, MylHappening.turn == gov.turn).order_by(MylHappening.id))
            events = [Occurrence(Happening(r.what), r.amount) for r in found.scalars()]
            at_end = in_play_of(gov)
            start = approval_of(gov, game)
            kept = {"in_play": asdict(at_end), "unfunded_last_turn": gov.unfunded_last_turn,
                    "fervor_start": gov.fervor}  # the inputs as applied, for /why (explain.py)
            approval = _apply_approval(uow.session, gov, start, events, at_end, uow.now)
            fervor = _apply_fervor(uow.session, gov, events, at_end, rules_of(game), uow.now)
            factions, lost = await _deduct_vp(uow.session, gov, fervor.total, uow.now)
            gov.unfunded_last_turn = sum(o.amount for o in events if o.what is Happening.PENSION_UNFUNDED)
            gov.business_closed = True
            await uow.session.flush()
            chain = await begin_chain(uow, game, gov)
            payload: dict[str, Any] = {
                "turn": gov.turn, **kept,
                "approval": {"start": start, "changes": [[c.cause, c.delta] for c in approval.changes],
                             "end": approval.end},
                "fervor": {"changes": [[c.cause, c.delta] for c in fervor.changes], "total": fervor.total,
                           "end": gov.fervor},
                "vp_lost": {c.name: n for c, n in lost.items()},
                "chain": chain.number if chain else None,
            }
            await record(uow, game_id, "BusinessClosed", actor, payload, source_id)  # stamps the changes
            return await owe_in(uow, answer, BusinessView(
                game=game_view(game), turn=gov.turn, approval_start=start, approval_changes=approval.changes,
                approval_end=approval.end, approval_raw=approval.raw, fervor_changes=fervor.changes,
                fervor_end=gov.fervor - (chain.chain.fervor if chain else 0), lost=lost,
                vp={f.code: f.vp for f in factions if f.in_play}, total_vp=total_vp(factions), chain=chain,
                collapse=bool(chain and chain.chain.ended == "collapse")))


def _apply_approval(session: AsyncSession, gov: MylGovernment, start: int, events: Sequence[Occurrence],
                    at_end: InPlay, now: datetime) -> ApprovalResult:
    """The approval table (P1-05..P1-07): each change in the history, clamped to 0..100."""
    approval = approval_change(start, events, at_end)
    value = start
    for c in approval.changes:
        value += c.delta
        add_history(session, gov.game_id, gov.turn, "approval", c.cause, c.delta, value, now)
    if approval.clamped:
        add_history(session, gov.game_id, gov.turn, "approval", "clamped to 0..100", approval.end - approval.raw,
                    approval.end, now)
    gov.approval = approval.end
    return approval


def _apply_fervor(session: AsyncSession, gov: MylGovernment, events: Sequence[Occurrence], at_end: InPlay,
                  rules: Rules, now: datetime) -> FervorResult:
    """Every Fervor condition (P1-09, P1-14, P1-17), each change in the history."""
    fervor = fervor_change(at_end, events, gov.unfunded_last_turn, rules)
    for c in fervor.changes:
        gov.fervor += c.delta
        add_history(session, gov.game_id, gov.turn, "fervor", c.cause, c.delta, gov.fervor, now)
    return fervor


async def _deduct_vp(session: AsyncSession, gov: MylGovernment, points: int,
                     now: datetime) -> tuple[tuple[Faction, ...], Mapping[FactionCode, int]]:
    """P1-08: the Fervor's points off every Faction's VP, each loss in the history."""
    factions, rows = await pure_factions(session, gov.game_id)
    factions, lost = deduct(factions, points)
    write_back(rows, factions)
    for f in factions:
        if lost.get(f.code):
            add_history(session, gov.game_id, gov.turn, f"vp:{f.code.name}",
                        f"Fervor +{points} at the end of the Business Phase", -lost[f.code], f.vp, now)
    return factions, lost
