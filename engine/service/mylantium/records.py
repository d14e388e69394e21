"""The Republic's setup rows found by name and turned into views: what the moderators' setup commands
(``MylantiumService``) share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from engine.core.errors import NotFoundError, RuleError
from engine.core.text import find_named, typed_back
from engine.mylantium.approval import incumbent_party
from engine.mylantium.elections import independent_vote
from engine.mylantium.model import FactionCode, Party, Territory, UnitStatus
from engine.service.ledger import game_view, load_game, require_running
from engine.service.mylantium.state import (
    COLUMNS,
    approval_of,
    base_of,
    candidate_rows,
    faction_rows,
    government_of,
    in_play_of,
    live_chain,
    player_names,
    require_mylantium,
    rules_of,
    stage_of,
    territory_of,
    territory_rows,
    unit_rows,
)
from engine.service.mylantium.views import CandidateView, GovernmentView, MylFactionView, TerritoryView, UnitView
from engine.service.uow import UnitOfWork
from engine.store.models import Game, Player
from engine.store.models.mylantium import MylCandidate, MylFaction, MylTerritory, MylUnit


def faction_view(row: MylFaction, player: Player | None, territories: Sequence[Territory],
                 candidates: Sequence[MylCandidate] = ()) -> MylFactionView:
    live = [c.name for c in candidates if c.faction_id == row.id and not c.discarded]
    return MylFactionView(FactionCode[row.code], player.name if player else "?", player.user_id if player else 0,
                          Party(row.party), row.vp, row.treasury, row.in_play,
                          base_of(row).by_territory(territories), dict(row.per), dict(row.entered),
                          live[0] if live else None, row.realigned_turn)


async def faction_views(uow_session: Any, game: Game) -> list[MylFactionView]:
    rows = await faction_rows(uow_session, game.id)
    players = await player_names(uow_session, game.id)
    territories = [territory_of(t) for t in await territory_rows(uow_session, game.id)]
    candidates = await candidate_rows(uow_session, game.id)
    return [faction_view(r, players.get(r.player_id), territories, candidates) for r in rows]


async def one_faction_view(session: Any, game: Game, row: MylFaction) -> MylFactionView:
    return next(v for v in await faction_views(session, game) if v.code.name == row.code)


def candidate_view(row: MylCandidate, factions: dict[int, MylFaction]) -> CandidateView:
    return CandidateView(row.name, FactionCode[factions[row.faction_id].code], Party(row.party), row.charisma,
                         row.running, row.discarded)


async def find_territory(uow: UnitOfWork, game: Game, name: str) -> MylTerritory:
    rows = await territory_rows(uow.session, game.id)
    if (found := _named(rows, name)) is not None:
        return found
    have = ", ".join(t.name for t in rows) or "none yet (add one with /territory add)"
    raise NotFoundError(f"{game.name} has no territory called {typed_back(name)}. Territories: {have}.")


async def find_unit(uow: UnitOfWork, game: Game, name: str) -> MylUnit:
    rows = await unit_rows(uow.session, game.id)
    if (found := _named(rows, name)) is not None:
        return found
    have = ", ".join(u.name for u in rows) or "none yet"
    raise NotFoundError(f"{game.name} has no military unit called {typed_back(name)}. Units: {have}.")


class _Named(Protocol):
    @property
    def name(self) -> str: ...


R = TypeVar("R", bound=_Named)


def _named(rows: Sequence[R], name: str) -> R | None:
    """The first row called ``name`` (case, spaces and markdown ignored: ``find_named``)."""
    return find_named(rows, name, lambda row: row.name)


def unit_status(text: str | None) -> UnitStatus:
    if text is None:
        return UnitStatus.ON_STATION
    try:
        return UnitStatus(text.strip().lower().replace(" ", "-"))
    except ValueError:
        raise RuleError(f"A unit is on-station, in-battle or elsewhere, not “{text}”.") from None


async def writable(uow: UnitOfWork, game_id: int) -> Game:
    game = await load_game(uow.session, game_id)
    require_mylantium(game)
    require_running(game)
    return game


def territory_view(row: MylTerritory) -> TerritoryView:
    return TerritoryView(row.name, {k.plural: int(getattr(row, c)) for k, c in COLUMNS.items()},
                         {k: tuple(v) for k, v in row.names.items()})


def unit_view(row: MylUnit) -> UnitView:
    return UnitView(row.name, row.territory, row.maintenance, row.cost, row.status)


async def government_in(session: Any, game_id: int) -> GovernmentView:
    """The government page, read in ``session``'s transaction (after a write of it: ``clerk.followed``)."""
    return await government_view(session, await load_game(session, game_id))


async def setup_in(session: Any, game_id: int) -> GovernmentView | None:
    """The government page as the set-up summary shows it, read in ``session``'s transaction (after a write of it:
    ``clerk.followed``), while the game is being set up (``GovernmentView.setting_up``); else None."""
    view = await government_view(session, await load_game(session, game_id))
    return view if view.setting_up else None


async def government_view(session: Any, game: Game) -> GovernmentView:
    gov = await government_of(session, game)
    factions = await faction_views(session, game)
    rows = await faction_rows(session, game.id)
    by_id = {r.id: r for r in rows}
    candidates = tuple(candidate_view(c, by_id) for c in await candidate_rows(session, game.id))
    president = FactionCode[gov.president] if gov.president else None
    incumbent = incumbent_party(president, {f.code: f.party for f in factions})
    f_total = sum(f.national for f in factions if f.in_play)
    chain = await live_chain(session, game.id)
    revolution = None
    if chain is not None:
        revolution = "the Brass Hats are deciding on a coup" if chain.waiting == "coup" else (
            "contributions are being collected")
    in_play = in_play_of(gov)
    return GovernmentView(
        game=game_view(game), turn=gov.turn,
        stage="the game has ended" if game.status == "ended" else await stage_of(session, gov),
        approval=approval_of(gov, game), approval_default=gov.approval is None, fervor=gov.fervor,
        president=president, incumbent=incumbent, factions=tuple(factions), candidates=candidates,
        territories=tuple(territory_view(t) for t in await territory_rows(session, game.id)),
        units=tuple(unit_view(u) for u in await unit_rows(session, game.id)),
        in_play={**in_play.__dict__, "unfunded_last_turn": gov.unfunded_last_turn},
        independent=independent_vote(f_total, rules_of(game)), revolution=revolution,
        setting_up=(game.status != "ended" and gov.turn == 1 and not gov.election_started
                    and not gov.business_closed))
