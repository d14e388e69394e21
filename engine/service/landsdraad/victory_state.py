"""Reading what victory scoring needs from the store: tracked holdings, planets and votes from the ledger, goals,
prestige, the Weathervane count from the closed rounds, the game's percentages and weights, and the Table the
pure scoring (engine/landsdraad/victory.py) takes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import ParseError
from engine.landsdraad.close_weights import rows_of
from engine.landsdraad.victory import (
    ALIASES,
    ASSET_KINDS,
    COUNTERS,
    DEFAULT_PERCENTAGES,
    LUXURIES,
    UNIT_KINDS,
    Award,
    Category,
    Holdings,
    Table,
    weathervane,
)
from engine.service.landsdraad.ledger import game_players
from engine.service.landsdraad.victory_views import TrackView
from engine.service.landsdraad.views import PlayerView
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import PrestigeAward, Round, VictoryGoal, VictoryHoldings, VictoryState

ECONOMY = ("income", "stock", "wealth", "heroes")
TRACKED = (*UNIT_KINDS, *ASSET_KINDS, *ECONOMY, *COUNTERS)
"""Every column of ``victory_holdings`` a moderator sets."""
LUXURY_MAX = 5
"""R3-12: each Luxury Good comes from at most 5 locations."""

COUNTER_LABELS = {
    "seizures": "successful Seizure attacks", "raids": "successful Raid attacks",
    "house_raids": "successful House Raid attacks", "assassinations": "successful Assassinations (Heroes and Electors)",
    "electors_bribed": "Electors bribed", "troop_movements": "Troop Movements uncovered",
}
COUNTER_ONE = {
    "seizures": "successful Seizure attack", "raids": "successful Raid attack",
    "house_raids": "successful House Raid attack", "assassinations": "successful Assassination (Heroes and Electors)",
    "electors_bribed": "Elector bribed", "troop_movements": "Troop Movement uncovered",
}
"""``COUNTER_LABELS`` for a count of one."""


def counter_text(count: int, kind: str) -> str:
    """``1 successful Raid attack``, ``3 successful Raid attacks``."""
    return f"{count} {(COUNTER_ONE if count == 1 else COUNTER_LABELS)[kind]}"


def pretty(kind: str) -> str:
    """``sapho_juice`` -> ``sapho juice``."""
    return kind.replace("_", " ")


def award_slug(award: Award) -> str:
    return award.name.lower()


def parse_category(text: str) -> Category:
    wanted = text.strip().lower()
    for c in Category:
        if c.value == wanted:
            return c
    raise ParseError(text, "a category: " + ", ".join(c.value for c in Category))


def parse_award(text: str) -> Award:
    wanted = " ".join(text.strip().lower().replace("_", " ").split())
    for a in Award:
        if wanted in (a.title.lower(), award_slug(a).replace("_", " ")):
            return a
    if wanted in ALIASES:
        return ALIASES[wanted]
    raise ParseError(text, "a singular award: " + ", ".join(a.title for a in Award))


async def victory_row(session: AsyncSession, game_id: int) -> VictoryState | None:
    found = await session.execute(select(VictoryState).where(VictoryState.game_id == game_id))
    return found.scalar_one_or_none()


async def victory_row_for_update(session: AsyncSession, game_id: int) -> VictoryState:
    row = await victory_row(session, game_id)
    if row is None:
        row = VictoryState(game_id=game_id, percentages={}, weights={}, luxuries={}, penalty=0)
        session.add(row)
        await session.flush()
    return row


def percentages_of(row: VictoryState | None) -> dict[Category, int]:
    changed = row.percentages if row else {}
    return {c: int(changed.get(c.value, DEFAULT_PERCENTAGES[c])) for c in Category}


def weights_of(row: VictoryState | None) -> dict[Award, int]:
    changed = row.weights if row else {}
    return {a: int(changed.get(award_slug(a), a.default_weight)) for a in Award}


def luxuries_of(row: VictoryState | None) -> dict[str, int]:
    recorded = row.luxuries if row else {}
    return {good: int(recorded.get(good, 0)) for good in LUXURIES}


async def tracks(session: AsyncSession, game_id: int) -> dict[int, VictoryHoldings]:
    rows = await session.execute(select(VictoryHoldings).where(VictoryHoldings.game_id == game_id))
    return {r.player_id: r for r in rows.scalars()}


async def track_for_update(session: AsyncSession, game_id: int, player_id: int) -> VictoryHoldings:
    found = await session.execute(select(VictoryHoldings).where(VictoryHoldings.player_id == player_id))
    row = found.scalar_one_or_none()
    if row is None:
        row = VictoryHoldings(game_id=game_id, player_id=player_id, **{k: 0 for k in TRACKED})
        session.add(row)
        await session.flush()
    return row


def value(row: VictoryHoldings | None, kind: str) -> int:
    return int(getattr(row, kind)) if row is not None else 0


async def owned_luxuries(session: AsyncSession, game_id: int) -> dict[str, int]:
    """How many locations of each Luxury Good the players own (inactive players' too: they are still in play)."""
    columns = [func.coalesce(func.sum(getattr(VictoryHoldings, good)), 0) for good in LUXURIES]
    found = (await session.execute(select(*columns).where(VictoryHoldings.game_id == game_id))).one()
    return {good: int(n) for good, n in zip(LUXURIES, found, strict=True)}


async def joined(session: AsyncSession, game_id: int) -> int:
    """N for the Pot: every player who ever joined, active or not (P3-01), but not one removed during set-up, before
    the first round opened: a moderator's mistake (the wrong member, a player added twice) who never joined the game
    (play-test Y1, docs/rulings.md)."""
    found = await session.execute(select(func.count()).select_from(Player).where(Player.game_id == game_id))
    return int(found.scalar_one()) - await removed_in_setup(session, game_id)


async def removed_since(session: AsyncSession, game_id: int) -> int:
    """How many of the players who joined were removed since (``/player remove``); still in ``joined`` (P3-01)."""
    found = await session.execute(select(func.count()).select_from(Player).where(Player.game_id == game_id,
                                                                                 Player.removed.is_(True)))
    return int(found.scalar_one()) - await removed_in_setup(session, game_id)


async def removed_in_setup(session: AsyncSession, game_id: int) -> int:
    """How many players are removed and were removed (the last time) before the game's first round opened: they
    never played a round, so they never joined for the Pot (R3-01: "each player adds 200 VP to it when they join")
    and the prestige pool. A player brought back with ``/player add`` is not removed, and counts again."""
    gone = set((await session.execute(select(Player.user_id).where(
        Player.game_id == game_id, Player.removed.is_(True)))).scalars())
    if not gone:
        return 0
    rows = (await session.execute(select(Event.seq, Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.kind.in_(("PlayerRemoved", "RoundOpened"))).order_by(Event.seq))).all()
    first_open = next((int(seq) for seq, kind, _ in rows if kind == "RoundOpened"), None)
    last_removal: dict[int, int] = {}
    for seq, kind, payload in rows:
        if kind == "PlayerRemoved" and isinstance(payload, dict) and payload.get("user_id") is not None:
            last_removal[int(payload["user_id"])] = int(seq)
    return sum(1 for user in gone if user in last_removal
               and (first_open is None or last_removal[user] < first_open))


async def goal_totals(session: AsyncSession, game_id: int) -> dict[int, int]:
    rows = await session.execute(select(VictoryGoal.player_id, func.sum(VictoryGoal.vp))
                                 .where(VictoryGoal.game_id == game_id, VictoryGoal.achieved.is_(True))
                                 .group_by(VictoryGoal.player_id))
    return {int(p): int(v) for p, v in rows.all()}


async def prestige_totals(session: AsyncSession, game_id: int) -> dict[int, int]:
    rows = await session.execute(select(PrestigeAward.player_id, func.sum(PrestigeAward.vp))
                                 .where(PrestigeAward.game_id == game_id).group_by(PrestigeAward.player_id))
    return {int(p): int(v) for p, v in rows.all()}


async def weathervane_counts(session: AsyncSession, game_id: int, players: Iterable[PlayerView]) -> dict[int, int]:
    """R3-13 from the closed rounds' ``RoundClosed`` events: the outcome and every active player's counted ballot
    (null: none, so abstained). A void round (its crisis pre-empted by End Game) has no such event; one the
    moderators voided after its close (``/round void``) has one, and is left out all the same."""
    by_user = {p.user_id: p.id for p in players}
    void = set((await session.execute(select(Round.number).where(Round.game_id == game_id,
                                                                 Round.status == "void"))).scalars())
    events = await session.execute(select(Event.payload).where(Event.game_id == game_id,
                                                               Event.kind == "RoundClosed").order_by(Event.seq))
    crises: list[tuple[bool, Mapping[int, str | None]]] = []
    for payload in events.scalars():
        if payload.get("round") in void:
            continue
        result: dict[str, Any] = payload.get("result") or {}
        ballots = {by_user[int(user_id)]: ballot for user_id, _, _, ballot in rows_of(payload)
                   if user_id is not None and int(user_id) in by_user}
        crises.append((result.get("outcome") == "passed", ballots))
    return weathervane(crises)


def holdings_of(p: PlayerView, row: VictoryHoldings | None, *, weathervane: int, goals: int,
                prestige: int) -> Holdings:
    return Holdings(
        player=p.id, name=p.name, votes=p.votes,
        units={k: value(row, k) for k in UNIT_KINDS},
        planets=sum(1 for h in p.holdings if h.kind == "planet"),
        assets={k: value(row, k) for k in ASSET_KINDS},
        income=value(row, "income"), stock=value(row, "stock"), wealth=value(row, "wealth"),
        heroes=value(row, "heroes"), counters={k: value(row, k) for k in COUNTERS},
        weathervane=weathervane, goals=goals, prestige=prestige,
    )


def track_view(h: Holdings, p: PlayerView) -> TrackView:
    return TrackView(user_id=p.user_id, name=p.name, active=p.active, units=dict(h.units), assets=dict(h.assets),
                     income=h.income, stock=h.stock, wealth=h.wealth, heroes=h.heroes, counters=dict(h.counters),
                     planets=h.planets, votes=h.votes, weathervane=h.weathervane, goals=h.goals,
                     prestige=h.prestige, removed=p.removed)


class Snapshot:
    """Everything about a game's victory state at one moment: each player's Holdings (active or not), and the
    Table of the players in play (P3-01)."""

    def __init__(self, game: Game, players: list[PlayerView], holdings: dict[int, Holdings], joined: int,
                 state: VictoryState | None, penalty: int) -> None:
        self.game = game
        self.players = players
        self.holdings = holdings
        self.state = state
        self.table = Table(
            players=tuple(holdings[p.id] for p in players if p.active), joined=joined,
            percentages=percentages_of(state), weights=weights_of(state), luxuries_in_play=luxuries_of(state),
            penalty=penalty,
        )

    def player(self, user_id: int) -> PlayerView | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def track(self, p: PlayerView) -> TrackView:
        return track_view(self.holdings[p.id], p)


async def snapshot(session: AsyncSession, game: Game, *, penalty: int | None = None) -> Snapshot:
    """The game as it stands. ``penalty``: the End Game penalty (R3-04); by default the one applied when the game
    ended by an End Game vote, else 0."""
    players = await game_players(session, game.id)
    rows = await tracks(session, game.id)
    vanes = await weathervane_counts(session, game.id, players)
    goals = await goal_totals(session, game.id)
    prestige = await prestige_totals(session, game.id)
    holdings = {p.id: holdings_of(p, rows.get(p.id), weathervane=vanes.get(p.id, 0), goals=goals.get(p.id, 0),
                                  prestige=prestige.get(p.id, 0)) for p in players}
    if penalty is None:
        penalty = int(game.settings.get("end_game_penalty_applied") or 0)
    return Snapshot(game, players, holdings, await joined(session, game.id), await victory_row(session, game.id),
                    penalty)
