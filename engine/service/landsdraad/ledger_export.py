"""The export's ``players`` (each player's votes, their breakdown, attributes and holdings) and ``rounds`` (each
crisis round with its factions and result): Landsdraad's first sections of the game export (docs/export.md), given
for every game, as the document always had them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.service.clock import utc
from engine.service.landsdraad.ledger import game_players
from engine.service.landsdraad.round_state import factions_of
from engine.service.landsdraad.views import PlayerView
from engine.store.models.landsdraad import Round


def player_doc(p: PlayerView) -> dict[str, Any]:
    return {
        "name": p.name,
        "faction": p.faction,
        "active": p.active,
        "votes": p.votes,
        "base_vote": p.breakdown.base,
        "breakdown": {"base": p.breakdown.base, "electors": p.breakdown.electors,
                      "planets": p.breakdown.planets, "misc": p.breakdown.misc,
                      "diplomacy_bonus": p.breakdown.bonus},
        "attributes": {"diplomacy": p.diplomacy, "command": p.command, "intrigue": p.intrigue,
                       "roll": p.roll},
        "holdings": [{"kind": h.kind, "name": h.name, "grade": h.grade, "votes": h.votes,
                      "homeworld": h.homeworld} for h in p.holdings],
    }


async def round_docs(session: AsyncSession, game_id: int) -> list[dict[str, Any]]:
    query = select(Round).where(Round.game_id == game_id).order_by(Round.number)
    docs: list[dict[str, Any]] = []
    for rnd in (await session.execute(query)).scalars():
        closed = rnd.status == "closed"
        factions = await factions_of(session, rnd.id)
        docs.append({
            "number": rnd.number,
            "crisis": rnd.crisis,
            "status": rnd.status,
            "opened_at": utc(rnd.opened_at).isoformat(),
            "deadline": utc(rnd.deadline).isoformat() if rnd.deadline else None,
            "closed_at": utc(rnd.closed_at).isoformat() if rnd.closed_at else None,
            "result": dict(rnd.result) if rnd.result else None,
            "factions": [
                {"name": f.name, "votes": f.votes, "stance": f.stance, "table": f.table,
                 "vote": f.vote if closed else None, "roll": f.roll if closed else None}
                for f in factions
            ],
        })
    return docs


async def export_players_and_rounds(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``players`` and ``rounds``."""
    players = await game_players(session, game_id)
    return {"players": [player_doc(p) for p in players], "rounds": await round_docs(session, game_id)}
