"""The players file of ``/game export format:csv``: the ``players`` section of the export (written by the
Landsdraad export, engine/service/landsdraad/ledger_export.py) with each player's vote breakdown
(``Front.export_files``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.outbox import Outgoing, reply
from bot.actions.spreadsheet import csv_bytes
from engine.service.views import GameView

PLAYER_COLUMNS = ("name", "user_id", "faction", "active", "votes", "base", "electors", "planets", "misc",
                  "diplomacy_bonus", "breakdown")


def players_csv(doc: dict[str, Any], user_ids: dict[str, int]) -> bytes:
    rows = []
    for p in doc.get("players", []):
        b = p.get("breakdown", {})
        rows.append({"name": p["name"], "user_id": user_ids.get(p["name"], ""), "faction": p.get("faction") or "",
                     "active": p.get("active"), "votes": p.get("votes"), "base": b.get("base"),
                     "electors": b.get("electors"), "planets": b.get("planets"), "misc": b.get("misc"),
                     "diplomacy_bonus": b.get("diplomacy_bonus"),
                     "breakdown": breakdown_text(b)})
    return csv_bytes(PLAYER_COLUMNS, rows)


def breakdown_text(b: dict[str, Any]) -> str:
    parts = [("base", b.get("base")), ("electors", b.get("electors")), ("planets", b.get("planets")),
             ("misc", b.get("misc")), ("diplomacy bonus", b.get("diplomacy_bonus"))]
    return " + ".join(f"{v} {k}" for k, v in parts if v)


def players_file(g: GameView, doc: dict[str, Any], names: Mapping[int, str]) -> list[Outgoing]:
    """The players file (``names``: user id -> name of every player of the game)."""
    user_ids = {name: user_id for user_id, name in names.items()}
    return [reply(f"The players of {g.name}.", ephemeral=True,
                  file=(f"{g.name}-players.csv", players_csv(doc, user_ids)))]
