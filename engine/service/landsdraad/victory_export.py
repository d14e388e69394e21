"""The victory parts of the export (docs/export.md): ``victory`` (settings, tracked holdings, goals, prestige),
``forecast`` (as it stands now) and ``final_scores`` (once the game is scored)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.landsdraad.victory import Category, forecast, one_decimal, prestige_pool
from engine.service.clock import utc
from engine.service.landsdraad.victory_scoring import exact, load_final
from engine.service.landsdraad.victory_state import luxuries_of, percentages_of, snapshot, weights_of
from engine.service.ledger import load_game
from engine.store.models import Player
from engine.store.models.landsdraad import PrestigeAward, VictoryGoal


async def export_victory(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``victory``: percentages, weights, Luxury Goods in play, N, the prestige pool and awards, the announced
    majority holder, and each player's tracked holdings with their goals (secret to that player, P3-09)."""
    game = await load_game(session, game_id)
    snap = await snapshot(session, game)
    state = snap.state
    names = {p.id: p.name for p in snap.players}
    goals = (await session.execute(select(VictoryGoal).where(VictoryGoal.game_id == game_id)
                                   .order_by(VictoryGoal.player_id, VictoryGoal.number))).scalars().all()
    query = select(PrestigeAward, Player.name).join(Player, Player.id == PrestigeAward.player_id)
    awards = (await session.execute(query.where(PrestigeAward.game_id == game_id).order_by(PrestigeAward.id))).all()
    holdings = []
    for p in snap.players:
        t = snap.track(p)
        holdings.append({
            "name": p.name, "active": p.active, "votes": t.votes, "planets": t.planets,
            "units": dict(t.units), "forces": snap.holdings[p.id].forces, "assets": dict(t.assets),
            "income": t.income, "stock": t.stock, "wealth": t.wealth, "heroes": t.heroes,
            "counters": dict(t.counters), "weathervane": t.weathervane, "prestige": t.prestige,
            "goals": [{"number": g.number, "description": g.description, "vp": g.vp, "achieved": g.achieved}
                      for g in goals if g.player_id == p.id],
        })
    return {"victory": {
        "percentages": {c.value: v for c, v in percentages_of(state).items()},
        "weights": {a.title: w for a, w in weights_of(state).items()},
        "luxuries_in_play": luxuries_of(state),
        "joined": snap.table.joined,
        "prestige_pool": prestige_pool(snap.table.joined),
        "prestige": [{"player": name, "vp": a.vp, "reason": a.reason, "at": utc(a.at).isoformat()}
                     for a, name in awards],
        "majority_holder": names.get(state.majority_player_id) if state and state.majority_player_id else None,
        "holdings": holdings,
    }}


async def export_forecast(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``forecast``: the Pot and what each category and singular award is worth now (R3-08); no goals."""
    game = await load_game(session, game_id)
    snap = await snapshot(session, game)
    f = forecast(snap.table)
    return {"forecast": {
        "round": game.current_round,
        "pot": exact(f.pot),
        "penalty": snap.table.penalty,
        "categories": {line.category.value: {"vp": exact(line.vp), "total": line.total,
                                             "rate": one_decimal(line.rate) if line.rate is not None else None,
                                             "ms_per_vp": line.per_vp, "text": line.text()} for line in f.lines},
        "singular": [{"award": a.title, "vp": exact(vp)} for a, vp in f.singular],
    }}


async def export_final_scores(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``final_scores``: null until the game is scored; then one entry per player in play, best first."""
    game = await load_game(session, game_id)
    view = await load_final(session, game)
    if view is None:
        return {"final_scores": None}
    return {"final_scores": [
        {"name": r.name, "categories": {c.value: r.categories.get(c, 0) for c in Category},
         "singular": [{"award": a.title, "vp": vp} for a, vp in r.singular], "goals": r.goals,
         "prestige": r.prestige, "total": r.total, "place": r.place, "title": r.title}
        for r in view.rows
    ], "final": {"pot": exact(view.pot), "penalty": view.penalty, "ended_by": view.ended_by,
                 "chancellor": view.chancellor, "unawarded": [a.title for a in view.unawarded]}}
