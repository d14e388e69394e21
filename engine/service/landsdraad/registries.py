"""Embargoes and Kanly: registries the moderators keep (the rules leave both to the game, A0-15), and what an
enacted ``Vote: End Embargo`` or ``Vote: End Kanly`` does to them (R0-44, R0-60, P0-11).

The module-level functions take the open unit of work, so that the lead's enactment of a player vote changes
the registries in the same transaction; they record no event of their own (the enactment records one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.landsdraad.kanly import InTransit, kanly_refunds
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game, require_player
from engine.service.names import find_player_by_name
from engine.service.uow import ServiceBase, UnitOfWork
from engine.service.views import GameView
from engine.store.models import Game, Player
from engine.store.models.landsdraad import EmbargoRow, KanlyRow, TransitRow


@dataclass(frozen=True)
class EmbargoView:
    by: str
    on: str
    since: datetime

    @property
    def line(self) -> str:
        return f"{self.by}'s embargo on {self.on}"


@dataclass(frozen=True)
class TransitView:
    """Forces or assassins en route against a kanly rival, and the Guild transport fee paid for them."""

    id: int
    owner: str
    target: str
    fee: int
    what: str
    returned: bool = False

    @property
    def summary(self) -> str:
        return f"{self.owner}'s {self.what} bound for {self.target}, Guild fee {self.fee} MS"

    @property
    def line(self) -> str:
        return f"#{self.id}: {self.summary}" + (" (returning home)" if self.returned else "")


@dataclass(frozen=True)
class KanlyView:
    first: str
    second: str
    since: datetime
    transit: tuple[TransitView, ...] = ()

    @property
    def line(self) -> str:
        return f"{self.first} and {self.second}"


@dataclass(frozen=True)
class KanlyEnded:
    """What ending Kanly did (R0-60): half of each Guild fee back (P0-11), embargoes between the two removed."""

    names: tuple[str, str]
    refunds: dict[str, int]
    """Player name -> MS refunded: floor(fee / 2) for each force or assassin en route, summed."""
    embargoes_removed: list[str]
    returning: tuple[str, ...] = ()
    """The forces and assassins that return home at the start of the next round."""


@dataclass(frozen=True)
class RegistryChange:
    """The answer to a moderator's change of a registry."""

    game: GameView
    text: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    id: int | None = None
    """The number of the entry made (forces en route)."""


@dataclass(frozen=True)
class Registries:
    game: GameView
    embargoes: tuple[EmbargoView, ...]
    kanly: tuple[KanlyView, ...]


def _pair(p: int, q: int) -> tuple[int, int]:
    return (p, q) if p < q else (q, p)


async def _names(session: AsyncSession, game_id: int) -> dict[int, str]:
    rows = await session.execute(select(Player.id, Player.name).where(Player.game_id == game_id))
    return {i: n for i, n in rows.all()}


async def _embargo_rows(session: AsyncSession, game_id: int) -> Sequence[EmbargoRow]:
    found = await session.execute(select(EmbargoRow).where(EmbargoRow.game_id == game_id).order_by(EmbargoRow.id))
    return found.scalars().all()


async def _kanly_rows(session: AsyncSession, game_id: int) -> Sequence[KanlyRow]:
    found = await session.execute(select(KanlyRow).where(KanlyRow.game_id == game_id).order_by(KanlyRow.id))
    return found.scalars().all()


async def _transit_rows(session: AsyncSession, game_id: int, pair: tuple[int, int] | None = None,
                        *, en_route: bool = True) -> Sequence[TransitRow]:
    query = select(TransitRow).where(TransitRow.game_id == game_id)
    if en_route:
        query = query.where(TransitRow.returned.is_(False))
    if pair is not None:
        p, q = pair
        query = query.where(or_((TransitRow.owner_id == p) & (TransitRow.target_id == q),
                                (TransitRow.owner_id == q) & (TransitRow.target_id == p)))
    return (await session.execute(query.order_by(TransitRow.id))).scalars().all()


def _embargo_view(row: EmbargoRow, names: dict[int, str]) -> EmbargoView:
    return EmbargoView(names.get(row.by_id, "?"), names.get(row.on_id, "?"), utc(row.since))


def _transit_view(row: TransitRow, names: dict[int, str]) -> TransitView:
    return TransitView(row.id, names.get(row.owner_id, "?"), names.get(row.target_id, "?"), row.guild_fee,
                       row.description or "forces", row.returned)


async def _kanly_views(session: AsyncSession, game_id: int, names: dict[int, str]) -> list[KanlyView]:
    transit = await _transit_rows(session, game_id)
    views = []
    for row in await _kanly_rows(session, game_id):
        pair = {row.first_id, row.second_id}
        mine = tuple(_transit_view(t, names) for t in transit if {t.owner_id, t.target_id} == pair)
        views.append(KanlyView(names.get(row.first_id, "?"), names.get(row.second_id, "?"), utc(row.since), mine))
    return views


def _embargo_listing(rows: Sequence[EmbargoRow], names: dict[int, str]) -> str:
    return "; ".join(_embargo_view(r, names).line for r in rows) or "none"


async def resolve_embargo_target(session: AsyncSession, game: Game, name: str | None) -> int:
    """The player id of the embargoed player named (``Vote: End Embargo on <Name>``), or with no name the only
    embargoed player. The name is required when embargoes lie on more than one player (R0-44)."""
    rows = await _embargo_rows(session, game.id)
    names = await _names(session, game.id)
    if name is None or not name.strip():
        targets = list(dict.fromkeys(r.on_id for r in rows))
        if not targets:
            raise RuleError(f"There is no embargo in {game.name}, so there is none to end.")
        if len(targets) > 1:
            raise RuleError("There are several embargoes: name the player (Vote: End Embargo on <Name>). "
                            f"Embargoes: {_embargo_listing(rows, names)}.")
        return targets[0]
    player = await find_player_by_name(session, game, name)
    if not any(r.on_id == player.id for r in rows):
        raise RuleError(f"There is no embargo on {player.name}. Embargoes: {_embargo_listing(rows, names)}.")
    return player.id


async def end_embargo(uow: UnitOfWork, game: Game, on_player_id: int) -> list[str]:
    """Remove every embargo on that player; the lines say what was removed (``Alice's embargo on Bob``)."""
    names = await _names(uow.session, game.id)
    rows = [r for r in await _embargo_rows(uow.session, game.id) if r.on_id == on_player_id]
    for row in rows:
        await uow.session.delete(row)
    await uow.session.flush()
    return [_embargo_view(r, names).line for r in rows]


def _kanly_listing(rows: Sequence[KanlyRow], names: dict[int, str]) -> str:
    return "; ".join(f"{names.get(r.first_id, '?')} and {names.get(r.second_id, '?')}" for r in rows) or "none"


async def resolve_kanly(session: AsyncSession, game: Game, names: tuple[str, ...]) -> tuple[int, int]:
    """The pair (lower player id first) of ``Vote: End Kanly`` (the only kanly in the game) or
    ``Vote: End Kanly between <P> and <Q>``. One name: the only kanly that player is in."""
    rows = await _kanly_rows(session, game.id)
    known = await _names(session, game.id)
    listing = _kanly_listing(rows, known)
    if not rows:
        raise RuleError(f"There is no kanly in {game.name}, so there is none to end.")
    if not names:
        if len(rows) > 1:
            raise RuleError("There are several kanly: name the two players (Vote: End Kanly between <P> and <Q>). "
                            f"Kanly: {listing}.")
        return rows[0].first_id, rows[0].second_id
    players = [await find_player_by_name(session, game, n) for n in names[:2]]
    if len(players) == 1:
        mine = [r for r in rows if players[0].id in (r.first_id, r.second_id)]
        if len(mine) != 1:
            which = "no kanly" if not mine else "kanly with several players"
            raise RuleError(f"{players[0].name} is in {which}: name both players (Vote: End Kanly between <P> and "
                            f"<Q>). Kanly: {listing}.")
        return mine[0].first_id, mine[0].second_id
    p, q = players
    if p.id == q.id:
        raise RuleError(f"Kanly is between two different players, not {p.name} and {p.name}.")
    pair = _pair(p.id, q.id)
    if not any((r.first_id, r.second_id) == pair for r in rows):
        raise RuleError(f"There is no kanly between {p.name} and {q.name}. Kanly: {listing}.")
    return pair


async def end_kanly(uow: UnitOfWork, game: Game, pair: tuple[int, int]) -> KanlyEnded:
    """R0-60: the kanly ends; forces and assassins of either player en route against the other return home at
    the start of the next round (their transit entries are marked returned) with half of each Guild transport fee
    refunded, rounded down (P0-11); any embargo either holds against the other is removed."""
    session = uow.session
    p, q = _pair(*pair)
    names = await _names(session, game.id)
    found = await session.execute(select(KanlyRow).where(KanlyRow.game_id == game.id, KanlyRow.first_id == p,
                                                         KanlyRow.second_id == q))
    row = found.scalar_one_or_none()
    if row is None:
        raise RuleError(f"There is no kanly between {names.get(p, '?')} and {names.get(q, '?')}.")
    transit = await _transit_rows(session, game.id, (p, q))
    refunds = kanly_refunds(p, q, [InTransit(t.owner_id, t.target_id, t.guild_fee) for t in transit])
    returning = tuple(_transit_view(t, names).summary for t in transit)
    for t in transit:
        t.returned = True
    embargoes = [e for e in await _embargo_rows(session, game.id) if {e.by_id, e.on_id} == {p, q}]
    removed = [_embargo_view(e, names).line for e in embargoes]
    for e in embargoes:
        await session.delete(e)
    await session.delete(row)
    await session.flush()
    return KanlyEnded(names=(names[p], names[q]), refunds={names[p]: refunds[p], names[q]: refunds[q]},
                      embargoes_removed=removed, returning=returning)


async def registries_of(session: AsyncSession, game: Game) -> Registries:
    names = await _names(session, game.id)
    embargoes = tuple(_embargo_view(r, names) for r in await _embargo_rows(session, game.id))
    return Registries(game_view(game), embargoes, tuple(await _kanly_views(session, game.id, names)))


class RegistryService(ServiceBase):
    """The moderators' side of the registries: ``/embargo add|remove``, ``/kanly add|remove|transit|arrived``."""

    async def add_embargo(self, game_id: int, *, by_user: int, on_user: int, actor: int | None,
                          source_id: str | None = None) -> RegistryChange:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            by = await require_player(uow.session, game, by_user)
            on = await require_player(uow.session, game, on_user)
            if by.id == on.id:
                raise RuleError(f"{by.name} cannot embargo themselves.")
            clash = await uow.session.execute(select(EmbargoRow).where(
                EmbargoRow.game_id == game_id, EmbargoRow.by_id == by.id, EmbargoRow.on_id == on.id))
            if clash.scalar_one_or_none() is not None:
                raise RuleError(f"{by.name} already has an embargo on {on.name}.")
            uow.session.add(EmbargoRow(game_id=game_id, by_id=by.id, on_id=on.id, since=uow.now))
            await uow.session.flush()
            await uow.record(game_id, "EmbargoAdded", actor, {"by": by.user_id, "on": on.user_id,
                                                             "by_name": by.name, "on_name": on.name}, source_id)
            return RegistryChange(game_view(game), f"Recorded {by.name}'s embargo on {on.name}.")

    async def remove_embargo(self, game_id: int, *, by_user: int, on_user: int, actor: int | None,
                             source_id: str | None = None) -> RegistryChange:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            by = await require_player(uow.session, game, by_user)
            on = await require_player(uow.session, game, on_user)
            found = await uow.session.execute(select(EmbargoRow).where(
                EmbargoRow.game_id == game_id, EmbargoRow.by_id == by.id, EmbargoRow.on_id == on.id))
            row = found.scalar_one_or_none()
            if row is None:
                listing = _embargo_listing(await _embargo_rows(uow.session, game_id), await _names(uow.session,
                                                                                                  game_id))
                raise RuleError(f"{by.name} has no embargo on {on.name}. Embargoes: {listing}.")
            await uow.session.delete(row)
            await uow.session.flush()
            await uow.record(game_id, "EmbargoRemoved", actor, {"by": by.user_id, "on": on.user_id,
                                                               "by_name": by.name, "on_name": on.name}, source_id)
            return RegistryChange(game_view(game), f"Removed {by.name}'s embargo on {on.name}.")

    async def add_kanly(self, game_id: int, *, p_user: int, q_user: int, actor: int | None,
                        source_id: str | None = None) -> RegistryChange:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            p = await require_player(uow.session, game, p_user)
            q = await require_player(uow.session, game, q_user)
            if p.id == q.id:
                raise RuleError("Kanly is between two different players.")
            first, second = _pair(p.id, q.id)
            clash = await uow.session.execute(select(KanlyRow).where(
                KanlyRow.game_id == game_id, KanlyRow.first_id == first, KanlyRow.second_id == second))
            if clash.scalar_one_or_none() is not None:
                raise RuleError(f"{p.name} and {q.name} are already in kanly.")
            uow.session.add(KanlyRow(game_id=game_id, first_id=first, second_id=second, since=uow.now))
            await uow.session.flush()
            await uow.record(game_id, "KanlyAdded", actor, {"between": [p.user_id, q.user_id],
                                                           "names": [p.name, q.name]}, source_id)
            return RegistryChange(game_view(game), f"Recorded kanly between {p.name} and {q.name}.")

    async def remove_kanly(self, game_id: int, *, p_user: int, q_user: int, actor: int | None,
                           source_id: str | None = None) -> RegistryChange:
        """A correction of the registry, or kanly ended some other way than a player vote: no refund and no
        embargo removed (those are the effects of an enacted End Kanly, R0-60). Forces still listed en route
        between the two leave the list, since it tracks only forces bound against a kanly rival."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            p = await require_player(uow.session, game, p_user)
            q = await require_player(uow.session, game, q_user)
            pair = _pair(p.id, q.id)
            found = await uow.session.execute(select(KanlyRow).where(
                KanlyRow.game_id == game_id, KanlyRow.first_id == pair[0], KanlyRow.second_id == pair[1]))
            row = found.scalar_one_or_none()
            names = await _names(uow.session, game_id)
            if row is None:
                listing = _kanly_listing(await _kanly_rows(uow.session, game_id), names)
                raise RuleError(f"There is no kanly between {p.name} and {q.name}. Kanly: {listing}.")
            transit = await _transit_rows(uow.session, game_id, pair, en_route=False)
            dropped = tuple(_transit_view(t, names).line for t in transit if not t.returned)
            await uow.session.execute(delete(TransitRow).where(TransitRow.id.in_([t.id for t in transit])))
            await uow.session.delete(row)
            await uow.session.flush()
            payload: dict[str, Any] = {"between": [p.user_id, q.user_id], "names": [p.name, q.name],
                                       "transit_dropped": [t.id for t in transit if not t.returned]}
            await uow.record(game_id, "KanlyRemoved", actor, payload, source_id)
            return RegistryChange(game_view(game), f"Removed the kanly between {p.name} and {q.name} from the "
                                  "registry (no refund: that comes only with an enacted End Kanly vote).",
                                  tuple(f"No longer tracked: {line}" for line in dropped))

    async def add_transit(self, game_id: int, *, owner_user: int, target_user: int, fee: int, what: str | None = None,
                          actor: int | None, source_id: str | None = None) -> RegistryChange:
        if fee < 0:
            raise RuleError(f"The Guild transport fee is 0 MS or more, not {fee}.")
        what = (what or "").strip() or "forces"
        if len(what) > 200:
            raise RuleError("Describe the forces in 200 characters or fewer.")
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            owner = await require_player(uow.session, game, owner_user)
            target = await require_player(uow.session, game, target_user)
            pair = _pair(owner.id, target.id)
            found = await uow.session.execute(select(KanlyRow).where(
                KanlyRow.game_id == game_id, KanlyRow.first_id == pair[0], KanlyRow.second_id == pair[1]))
            if owner.id == target.id or found.scalar_one_or_none() is None:
                raise RuleError(f"{owner.name} and {target.name} are not in kanly; only forces bound against a kanly "
                                "rival are tracked (add the kanly first with /kanly add).")
            row = TransitRow(game_id=game_id, owner_id=owner.id, target_id=target.id, guild_fee=fee,
                             description=what, returned=False)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "KanlyTransitAdded", actor, {
                "id": row.id, "owner": owner.user_id, "target": target.user_id, "fee": fee, "what": what}, source_id)
            view = _transit_view(row, {owner.id: owner.name, target.id: target.name})
            return RegistryChange(game_view(game), f"Recorded {view.line}.", id=row.id)

    async def transit_arrived(self, game_id: int, *, transit_id: int, actor: int | None,
                              source_id: str | None = None) -> RegistryChange:
        """The forces reached their target (or were destroyed): no longer en route, so no refund if the kanly
        ends later. The entry leaves the list; the event log keeps it."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            row = await uow.session.get(TransitRow, transit_id)
            if row is None or row.game_id != game_id or row.returned:
                raise RuleError(f"There are no forces en route with number #{transit_id}; /kanly list shows them.")
            view = _transit_view(row, await _names(uow.session, game_id))
            await uow.session.delete(row)
            await uow.session.flush()
            await uow.record(game_id, "KanlyTransitArrived", actor, {"id": transit_id}, source_id)
            return RegistryChange(game_view(game), f"No longer en route: {view.line}.")

    async def registries(self, game_id: int) -> Registries:
        async with self._read() as session:
            return await registries_of(session, await load_game(session, game_id))


async def export_registries(session: AsyncSession, game_id: int) -> dict[str, Any]:
    names = await _names(session, game_id)
    embargoes = [{"by": names.get(r.by_id), "on": names.get(r.on_id), "since": utc(r.since).isoformat()}
                 for r in await _embargo_rows(session, game_id)]
    kanly = [{"between": [names.get(r.first_id), names.get(r.second_id)], "since": utc(r.since).isoformat()}
             for r in await _kanly_rows(session, game_id)]
    transit = [{"id": t.id, "owner": names.get(t.owner_id), "target": names.get(t.target_id), "fee": t.guild_fee,
                "what": t.description, "returned": t.returned}
               for t in await _transit_rows(session, game_id, en_route=False)]
    return {"embargoes": embargoes, "kanly": kanly, "kanly_transit": transit}
