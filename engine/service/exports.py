"""The game export (docs/export.md): a JSON document of the game, its players, rounds and events."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from engine.service.clock import utc
from engine.service.ledger import game_players, load_game
from engine.service.rounds import factions_of
from engine.service.uow import ServiceBase
from engine.store.models import Event
from engine.store.models.landsdraad import Round

EXPORT_VERSION = 1

class ExportService(ServiceBase):
    async def export(self, game_id: int, *, include_events: bool = True) -> dict[str, Any]:
        async with self._read() as session:
            game = await load_game(session, game_id)
            players = await game_players(session, game_id)
            query = select(Round).where(Round.game_id == game_id).order_by(Round.number)
            rounds = (await session.execute(query)).scalars()
            round_docs: list[dict[str, Any]] = []
            for rnd in rounds:
                closed = rnd.status == "closed"
                factions = await factions_of(session, rnd.id)
                round_docs.append({
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
            doc: dict[str, Any] = {
                "export_version": EXPORT_VERSION,
                "game": {"name": game.name, "ruleset": game.ruleset, "round": game.current_round,
                         "status": game.status, "ended_at": utc(game.ended_at).isoformat() if game.ended_at else None,
                         "end_game_penalty": game.settings.get("end_game_penalty_applied"),
                         "settings": {k: v for k, v in game.settings.items() if k != "end_game_penalty_applied"}},
                "players": [
                    {
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
                    for p in players
                ],
                "rounds": round_docs,
            }
            for ruleset in self.backend.rulesets:  # each ruleset's sections (Ruleset.exports)
                for section in ruleset.exports:
                    doc.update(await section(session, game_id))
            if include_events:
                log = select(Event).where(Event.game_id == game_id).order_by(Event.seq)
                events = (await session.execute(log)).scalars()
                doc["events"] = [{"seq": e.seq, "kind": e.kind, "actor": e.actor, "at": utc(e.at).isoformat(),
                                  "source_id": e.source_id, "payload": e.payload} for e in events]
            return doc
