"""Revolutions and coups through the service (R1-40..R1-46, R1-50): a chain starts after any change to VP, asks
the Brass Hats about a coup (P1-23), takes contributions by DM until a deadline (P1-22) and keeps them secret until
the attempt is resolved (P1-19). Social Collapse or a victory ends the game."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.stamps import stamp
from engine.mylantium.disclosure import contribution_exposures
from engine.mylantium.fervor import collapsed
from engine.mylantium.model import FactionCode
from engine.mylantium.revolution import (
    Chain,
    Contribution,
    Step,
    Waiting,
    answer_coup,
    call_off,
    chain_of,
    chain_to_dict,
    check_contribution,
    resolve,
    start,
    vanguard_order,
)
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game, require_running
from engine.service.mylantium.history import add_history, record
from engine.service.mylantium.state import (
    assets_of,
    faction_of_user,
    faction_rows,
    government_of,
    live_chain,
    open_election,
    open_else_latest,
    player_names,
    pure_factions,
    require_mylantium,
    stop_candidates,
    territory_rows,
    unit_rows,
    write_back,
)
from engine.service.mylantium.views import ChainView, HeldElection, PledgeReceipt
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import Duplicate, ServiceBase, UnitOfWork
from engine.store.models import Game
from engine.store.models.mylantium import MylChain, MylContribution, MylFaction, MylGovernment


def summary(chain: Chain) -> dict[str, Any]:
    """A chain for an event's payload."""
    return chain_to_dict(chain)


async def chain_view(session: AsyncSession, game: Game, row: MylChain, *, first_new: int = 1,
                     resumed: str | None = None) -> ChainView:
    chain = chain_of(row.state)
    factions, rows = await pure_factions(session, game.id)
    players = await player_names(session, game.id)
    users = {FactionCode[r.code]: players[r.player_id].user_id for r in rows if r.player_id in players}
    pledged: tuple[FactionCode, ...] = ()
    current = chain.current
    if chain.waiting is Waiting.CONTRIBUTIONS and current is not None:
        by_id = {r.id: FactionCode[r.code] for r in rows}
        found = await session.execute(select(MylContribution.faction_id).where(
            MylContribution.chain_id == row.id, MylContribution.attempt == current.number))
        pledged = tuple(by_id[i] for i in found.scalars() if i in by_id)
    fervor = (await session.execute(select(MylGovernment.fervor).where(
        MylGovernment.game_id == game.id))).scalar_one_or_none()
    election = await open_election(session, game.id)
    held = None
    if election is not None and election.deadline is not None:
        deadline = utc(election.deadline)
        since = utc(row.opened_at) if chain.waiting is not Waiting.NOTHING else None
        held = HeldElection("Primary" if election.stage == "primary" else "General Election", deadline,
                            max(timedelta(0), deadline - since) if since is not None else None)
    return ChainView(game_view(game), row.number, chain, factions, users,
                     utc(row.deadline) if row.deadline else None, pledged,
                     new_attempts=max(0, len(chain.attempts) - first_new + 1), first_new=first_new, resumed=resumed,
                     fervor=fervor, election=held)


def _offer(chain: Chain) -> tuple[int, int] | None:
    """Which coup offer a chain waits on: its attempt's number and how many attempts were called off before it (the
    same pair names a new offer after an attempt is called off)."""
    return (chain.current.number, len(chain.called_off)) if chain.current is not None else None


async def apply_step(uow: UnitOfWork, game: Game, gov: MylGovernment, row: MylChain, old: Chain, step: Step,
                     rows: list[MylFaction]) -> None:
    """Write a chain's step to the ledger: VP, treasuries, withdrawals, Fervor (+3 for each put-down, P1-10) with
    its history, the contributions' deadline, and the end of the game. A Faction that withdraws loses its running
    Candidate (``stop_candidates``)."""
    playing = {r.id for r in rows if r.in_play}
    write_back(rows, step.factions)
    await stop_candidates(uow.session, game.id, [r for r in rows if r.id in playing and not r.in_play])
    new = step.chain
    for attempt in new.attempts:
        before = next((a for a in old.attempts if a.number == attempt.number), None)
        if attempt.fervor and (before is None or not before.fervor):
            gov.fervor += attempt.fervor
            what = "coup of the Brass Hats" if attempt.coup else f"Revolution of the {attempt.vanguard.plural}"
            add_history(uow.session, game.id, gov.turn, "fervor", f"the {what} was put down", attempt.fervor,
                        gov.fervor, uow.now)
            for code, lost in attempt.lost.items():
                f = next(f for f in step.factions if f.code is code)
                add_history(uow.session, game.id, gov.turn, f"vp:{code.name}",
                            f"Fervor +{attempt.fervor} (the {what} was put down)", -lost, f.vp, uow.now)
    row.state = chain_to_dict(new)
    row.waiting = new.waiting.value
    if new.waiting is Waiting.COUP and _offer(new) != (_offer(old) if old.waiting is Waiting.COUP else None):
        row.offered_at = uow.now  # a new coup offer (play-test M1.1: one made after another was called off)
    old_current, new_current = old.current, new.current
    if new.waiting is Waiting.CONTRIBUTIONS and new_current is not None and (
            old.waiting is not Waiting.CONTRIBUTIONS or old_current is None
            or old_current.number != new_current.number):
        hours = int(game.settings.get("contribution_hours", 48))
        row.deadline = uow.now + timedelta(hours=hours)
    elif new.waiting is not Waiting.CONTRIBUTIONS:
        row.deadline = None
    if new.waiting is Waiting.NOTHING:
        if row.closed_at is None and new.ended is None:
            await resume_election(uow, game, row)
        row.closed_at = uow.now
    if new.ended is not None:
        election = await open_election(uow.session, game.id)
        if election is not None:  # held by the chain, it stops with the game (play-test X4.4): no deadline runs on
            election.deadline = None  # to close it late, "the bot was offline", once the game is reopened
        uow.end(game)
    await uow.session.flush()


async def resume_election(uow: UnitOfWork, game: Game, row: MylChain) -> None:
    """The open election's deadline was held while the chain suspended play (docs/rulings.md, "An election's
    deadline is held during a chain"): it runs on from now with the time it had left when the chain began."""
    election = await open_election(uow.session, game.id)
    held = uow.now - utc(row.opened_at)
    if election is not None and election.deadline is not None and held > timedelta(0):
        election.deadline = utc(election.deadline) + held


async def decided_by(session: AsyncSession, game_id: int) -> Chain | None:
    """The chain that ended the game (a victory, Social Collapse), if one did: once decided, a reopened game is
    corrected, not played on, so a change to VP starts no Revolution (play-test M4.1)."""
    latest = (await session.execute(select(MylChain).where(MylChain.game_id == game_id)
                                    .order_by(MylChain.number.desc()).limit(1))).scalar_one_or_none()
    chain = chain_of(latest.state) if latest is not None and latest.state else None
    return chain if chain is not None and chain.ended is not None else None


async def begin_chain(uow: UnitOfWork, game: Game, gov: MylGovernment) -> ChainView | None:
    """R1-40, R1-50: after a change to VP, a new chain when the Republic has collapsed or a Faction in play is at
    0 (unless a chain is already running its course, which picks such Factions up itself)."""
    if await live_chain(uow.session, game.id) is not None or await decided_by(uow.session, game.id) is not None:
        return None
    factions, rows = await pure_factions(uow.session, game.id)
    if not collapsed(factions) and not vanguard_order(factions):
        return None
    assets = assets_of(await territory_rows(uow.session, game.id), await unit_rows(uow.session, game.id))
    count = (await uow.session.execute(select(func.count()).select_from(MylChain)
                                       .where(MylChain.game_id == game.id))).scalar_one()
    row = MylChain(game_id=game.id, number=count + 1, turn=gov.turn, waiting="nothing", state={}, opened_at=uow.now)
    uow.session.add(row)
    step = start(factions, assets)
    await apply_step(uow, game, gov, row, Chain(), step, rows)
    return await chain_view(uow.session, game, row)


async def _live(session: AsyncSession, game: Game) -> MylChain:
    row = await live_chain(session, game.id)
    if row is None:
        raise RuleError(f"No Revolution is under way in {game.name}.")
    return row


async def _pledges(session: AsyncSession, row: MylChain, attempt: int) -> dict[FactionCode, Contribution]:
    found = await session.execute(select(MylContribution, MylFaction.code).join(
        MylFaction, MylFaction.id == MylContribution.faction_id).where(
        MylContribution.chain_id == row.id, MylContribution.attempt == attempt))
    return {FactionCode[code]: Contribution(c.to_crt, c.to_vanguard) for c, code in found.all()}


class Revolutions(ServiceBase):
    """Revolutions and coups: ``clerk.mylantium.revolutions``."""

    async def revolution(self, game_id: int) -> ChainView | None:
        """The running chain, else the latest one; None if there has never been one."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            row = await open_else_latest(session, game_id, await live_chain(session, game_id), MylChain,
                                         MylChain.number)
            return await chain_view(session, game, row) if row else None

    async def answer_coup(self, game_id: int, *, accept: bool, user_id: int | None, actor: int | None,
                          source_id: str | None = None, expected: tuple[int, int, int] | None = None,
                          sent_at: datetime | None = None, answer: OwedWith[ChainView] | None = None) -> ChainView:
        """R1-42: the Brass Hats' answer (``user_id`` their player; None when a moderator answers for them).
        ``expected`` (chain number, attempt number, attempts called off before it) is the offer a button was sent
        with: an answer to an offer already settled (or called off) is refused as already decided. ``sent_at``: when
        a `Coup:` DM was sent; one sent before the offer open now was made answered an earlier one (called off, or
        settled) and is refused (play-test M1.1). ``answer``: its answer, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_mylantium(game)
            require_running(game)
            if expected is not None:
                live = await live_chain(uow.session, game_id)
                now = chain_of(live.state) if live is not None else None
                if live is None or now is None or now.waiting is not Waiting.COUP or now.current is None or \
                        (live.number, now.current.number, len(now.called_off)) != expected:
                    raise RuleError("This coup offer was already answered or decided; the game channel has what "
                                    "happened.")
            if user_id is not None:  # a removed Faction's player is told so first (play-test Q4.2)
                await faction_of_user(uow.session, game, user_id)
            row = await _live(uow.session, game)
            old = chain_of(row.state)
            if old.waiting is not Waiting.COUP:
                raise RuleError("No coup is being offered now.")
            if sent_at is not None and row.offered_at is not None and utc(sent_at) < utc(row.offered_at):
                assert old.current is not None
                raise RuleError(f"Your answer was sent at {stamp(utc(sent_at))}, before the coup offer open now was "
                                f"made ({stamp(utc(row.offered_at))}), so it answered an earlier offer, since called "
                                "off or settled; it does not answer this one. Nothing was recorded. The Brass Hats "
                                f"are now asked about the {old.current.vanguard.plural}' Revolution: reply `Coup: "
                                "yes` or `Coup: no` again, or press a button of the new offer.")
            if user_id is not None:
                _, faction = await faction_of_user(uow.session, game, user_id)
                if faction.code != FactionCode.BH.name:
                    raise RuleError("Only the Brass Hats' player is offered the coup.")
            gov = await government_of(uow.session, game)
            factions, rows = await pure_factions(uow.session, game_id)
            assets = assets_of(await territory_rows(uow.session, game_id), await unit_rows(uow.session, game_id))
            step = answer_coup(old, factions, assets, accept)
            first = len(old.attempts)
            await apply_step(uow, game, gov, row, old, step, rows)
            await record(uow, game_id, "CoupAnswered", actor, {"chain": row.number, "accept": accept,
                                                              "by_player": user_id is not None,
                                                              "state": summary(step.chain)}, source_id)
            return await owe_in(uow, answer, await chain_view(uow.session, game, row, first_new=first,
                                                             resumed="coup"))

    async def refusal(self, game_id: int, *, user_id: int, coup: bool) -> str | None:
        """Why a `Coup:` answer (``coup``) or a contribution from ``user_id`` would be refused now (no offer to them,
        no Revolution taking contributions), or None; nothing is recorded. An answer's hint is checked with it before
        it suggests the form (play-test M5.4)."""
        async with self._read() as session:
            try:
                game = await load_game(session, game_id)
                require_mylantium(game)
                require_running(game)
                await faction_of_user(session, game, user_id)  # the removal line first (play-test Q4.2)
                chain = chain_of((await _live(session, game)).state)
                if not coup and (chain.waiting is not Waiting.CONTRIBUTIONS or chain.current is None):
                    raise RuleError("The Revolution is not taking contributions now.")
                if coup and chain.waiting is not Waiting.COUP:
                    raise RuleError("No coup is being offered now.")
                _, faction = await faction_of_user(session, game, user_id)
                if coup and faction.code != FactionCode.BH.name:
                    raise RuleError("Only the Brass Hats' player is offered the coup.")
            except RuleError as error:
                return str(error)
        return None

    async def pledge(self, game_id: int, *, user_id: int, amount: int, to_vanguard: bool, at: datetime,
                     source_id: str | None, answer: OwedWith[PledgeReceipt] | None = None) -> PledgeReceipt:
        """R1-44.2 / P1-22: a Faction's contribution, by DM; a new one replaces the last of the same kind (to the
        Counter-Revolutionary Treasury, or to the Vanguard) until the deadline. ``answer``: its receipt, owed in its
        transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                require_mylantium(game)
                require_running(game)  # an ended game's closed line, whatever chain it left (play-test M4.1)
                await faction_of_user(uow.session, game, user_id)  # the removal line first (play-test Q4.2)
                row = await _live(uow.session, game)
                chain = chain_of(row.state)
                attempt = chain.current
                if chain.waiting is not Waiting.CONTRIBUTIONS or attempt is None:
                    raise RuleError("The Revolution is not taking contributions yet: the Brass Hats are deciding "
                                    "whether to attempt a coup.")
                if row.deadline is not None and at >= utc(row.deadline):
                    raise RuleError(f"Contributions closed at {stamp(utc(row.deadline))}; yours came "
                                    "too late and was not recorded.")
                _, faction = await faction_of_user(uow.session, game, user_id)
                code = FactionCode[faction.code]
                found = await uow.session.execute(select(MylContribution).where(
                    MylContribution.chain_id == row.id, MylContribution.attempt == attempt.number,
                    MylContribution.faction_id == faction.id))
                pledge = found.scalar_one_or_none()
                old = (pledge.to_crt, pledge.to_vanguard) if pledge else None
                to_crt = (pledge.to_crt if pledge else 0) if to_vanguard else amount
                to_van = amount if to_vanguard else (pledge.to_vanguard if pledge else 0)
                factions, _ = await pure_factions(uow.session, game_id)
                check_contribution(chain, factions, code, Contribution(to_crt, to_van))
                if pledge is None:
                    pledge = MylContribution(chain_id=row.id, attempt=attempt.number, faction_id=faction.id)
                    uow.session.add(pledge)
                pledge.to_crt, pledge.to_vanguard, pledge.received_at, pledge.source_id = to_crt, to_van, at, source_id
                await uow.session.flush()
                await uow.record(game_id, "ContributionPledged", user_id,
                                 {"chain": row.number, "attempt": attempt.number, "faction": code.name,
                                  "to_crt": to_crt, "to_vanguard": to_van, "at": at.isoformat()}, source_id)
                return await owe_in(uow, answer, PledgeReceipt(game_view(game), code, to_crt, to_van,
                                                               faction.treasury,
                                                               utc(row.deadline) if row.deadline else None, old,
                                                               attempt.vanguard))
        except Duplicate as dup:
            if dup.kind != "ContributionPledged":
                raise RuleError("That message was already handled.") from None
            p = dup.payload
            async with self._read() as session:
                game = await load_game(session, game_id)
                _, faction = await faction_of_user(session, game, user_id)
                return PledgeReceipt(game_view(game), FactionCode[p["faction"]], int(p["to_crt"]),
                                     int(p["to_vanguard"]), faction.treasury, None, None, FactionCode[p["faction"]],
                                     duplicate=True)

    async def set_chain_deadline(self, game_id: int, *, deadline: datetime, actor: int | None,
                                 source_id: str | None = None, answer: OwedWith[ChainView] | None = None) -> ChainView:
        """P1-22: the moderator sets (or moves) the contributions' deadline. ``answer``: what it announces, owed in
        its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_mylantium(game)
            row = await _live(uow.session, game)
            if chain_of(row.state).waiting is not Waiting.CONTRIBUTIONS:
                raise RuleError("The Revolution is not taking contributions yet.")
            if deadline <= uow.now:
                raise RuleError("The deadline must be in the future.")
            row.deadline = deadline
            await uow.record(game_id, "ContributionDeadlineSet", actor,
                             {"chain": row.number, "deadline": deadline.isoformat()}, source_id)
            return await owe_in(uow, answer, await chain_view(uow.session, game, row,
                                                              first_new=len(chain_of(row.state).attempts) + 1))

    async def resolve_revolution(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                                 expected: tuple[int, int] | None = None,
                                 answer: OwedWith[ChainView | None] | None = None) -> ChainView | None:
        """Close the contributions now (a moderator, or the deadline with ``expected`` = (chain, attempt)) and
        resolve the attempt. None when the deadline's attempt was already resolved. ``answer``: what it announces
        (the chain's news, the coup offer, the requests for contributions), owed in its transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                require_mylantium(game)
                row = await live_chain(uow.session, game_id)
                old = chain_of(row.state) if row is not None else None
                current = old.current if old is not None else None
                if expected is not None and (row is None or old is None or current is None
                                             or (row.number, current.number) != expected
                                             or old.waiting is not Waiting.CONTRIBUTIONS):
                    return None
                if row is None or old is None or current is None or old.waiting is not Waiting.CONTRIBUTIONS:
                    raise RuleError(f"No Revolution is taking contributions in {game.name}.")
                gov = await government_of(uow.session, game)
                factions, rows = await pure_factions(uow.session, game_id)
                assets = assets_of(await territory_rows(uow.session, game_id), await unit_rows(uow.session, game_id))
                pledges = await _pledges(uow.session, row, current.number)
                step = resolve(old, factions, assets, pledges)
                await apply_step(uow, game, gov, row, old, step, rows)
                await record(uow, game_id, "RevolutionResolved", actor,
                                 {"chain": row.number, "attempt": current.number, "by_deadline": expected is not None,
                                  "state": summary(step.chain)}, source_id)
                view = await chain_view(uow.session, game, row, first_new=current.number, resumed="contributions")
                resolved = step.chain.attempts[current.number - 1]
                return await owe_in(uow, answer, replace(view, disclosed=contribution_exposures(resolved,
                                                                                                 set(pledges))))
        except Duplicate:
            return None

    async def pending_contributions(self) -> list[tuple[int, int, int, datetime]]:
        """Chains taking contributions with a deadline: (game id, chain number, attempt number, deadline)."""
        async with self._read() as session:
            rows = await session.execute(select(MylChain).join(Game, Game.id == MylChain.game_id)
                                         .where(MylChain.waiting == "contributions", MylChain.deadline.is_not(None),
                                                Game.status != "ended")  # a closed ledger closes nothing more
                                         .order_by(MylChain.deadline))
            out: list[tuple[int, int, int, datetime]] = []
            for row in rows.scalars():
                current = chain_of(row.state).current
                if current is not None and row.deadline is not None:
                    out.append((row.game_id, row.number, current.number, utc(row.deadline)))
            return out


async def reconsider_chain(uow: UnitOfWork, game: Game, gov: MylGovernment, row: MylChain) -> ChainView | None:
    """A change during a chain: the attempt not yet resolved is called off when its Vanguard is no longer at 0 VP
    (``call_off``), its pledges dropped, and the chain goes on from there. None when nothing changed."""
    old = chain_of(row.state)
    factions, rows = await pure_factions(uow.session, game.id)
    assets = assets_of(await territory_rows(uow.session, game.id), await unit_rows(uow.session, game.id))
    step = call_off(old, factions, assets)
    if step is None:
        return None
    dropped = step.chain.called_off[-1]
    await uow.session.execute(delete(MylContribution).where(MylContribution.chain_id == row.id,
                                                            MylContribution.attempt == dropped.number))
    # as the chain stood without the dropped attempt, so that a new attempt of the same number gets its deadline
    before = replace(old, attempts=old.attempts[:-1], waiting=Waiting.NOTHING)
    await apply_step(uow, game, gov, row, before, step, rows)
    return replace(await chain_view(uow.session, game, row, first_new=dropped.number), called_off=dropped)


async def chain_after_vp_change(uow: UnitOfWork, game: Game) -> ChainView | None:
    """Used by every command that changes VP: R1-40 and R1-50 are checked at once; during a chain, an attempt
    whose Vanguard is no longer at 0 VP is called off (R1-41)."""
    gov = await government_of(uow.session, game)
    row = await live_chain(uow.session, game.id)
    if row is not None:
        return await reconsider_chain(uow, game, gov, row)
    return await begin_chain(uow, game, gov)


__all__ = ["Revolutions", "begin_chain", "chain_after_vp_change", "decided_by", "faction_rows"]
