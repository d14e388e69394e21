"""The game export (docs/export.md): a JSON document of the game, each ruleset's sections (``Ruleset.exports``, in
the order of the rulesets), the rows of the game's state tables (``state``, ``engine/service/game_copy.py``: what
``console --from`` restores) and the events."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from engine.service.clock import utc
from engine.service.dice import export_dice
from engine.service.game_copy import EXPORT_VERSION, dump_state
from engine.service.ledger import load_game
from engine.service.uow import ServiceBase
from engine.store.models import Event

__all__ = ["EXPORT_VERSION", "ExportService"]


class ExportService(ServiceBase):
    async def export(self, game_id: int, *, include_events: bool = True) -> dict[str, Any]:
        async with self._read() as session:
            game = await load_game(session, game_id)
            doc: dict[str, Any] = {
                "export_version": EXPORT_VERSION,
                "exported_at": utc(self.clock.now()).isoformat(),
                "game": {"name": game.name, "ruleset": game.ruleset, "round": game.current_round,
                         "status": game.status, "ended_at": utc(game.ended_at).isoformat() if game.ended_at else None,
                         "end_game_penalty": game.settings.get("end_game_penalty_applied"),
                         "settings": {k: v for k, v in game.settings.items() if k != "end_game_penalty_applied"}},
            }
            for ruleset in self.backend.rulesets:  # each ruleset's sections (Ruleset.exports)
                for section in ruleset.exports:
                    doc.update(await section(session, game_id))
            doc["state"] = await dump_state(session, game_id, self.backend.rulesets)
            doc.update(await export_dice(session, game_id))  # the revealed seeds only (docs/dice.md)
            if include_events:
                log = select(Event).where(Event.game_id == game_id).order_by(Event.seq)
                events = (await session.execute(log)).scalars()
                readable = self.backend.ruleset(game.ruleset).exported
                doc["events"] = [{"seq": e.seq, "kind": e.kind, "actor": e.actor, "at": utc(e.at).isoformat(),
                                  "source_id": e.source_id, "payload": readable(e.kind, e.payload)} for e in events]
            return doc
