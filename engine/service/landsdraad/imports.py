"""A Landsdraad set-up file applied: its players and holdings, through ``/player add`` and ``/holding add``'s own
use cases in one transaction (``engine.service.imports``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.importing import Record
from engine.service.imports import Imports, Step
from engine.service.landsdraad.ledger import LedgerService


async def import_records(ledger: LedgerService, game_id: int, *, filename: str, records: Sequence[Record],
                         users: Mapping[str, tuple[int, str]], actor: int | None,
                         source_id: str | None) -> dict[str, int]:
    """``users``: each ``user``/``player`` cell of the file -> (user id, name)."""
    steps: list[Step] = []
    for r in records:
        uid, name = users[str(r.get("user") if r.kind == "player" else r.get("player"))]
        if r.kind == "player":
            async def add(source: str | None, r: Record = r, uid: int = uid, name: str = name) -> object:
                return await ledger.add_player(game_id, user_id=uid, name=str(r.get("name") or name),
                                               diplomacy=r.get("diplomacy"), command=r.get("command"),
                                               intrigue=r.get("intrigue"), roll=r.get("roll"),
                                               faction=r.get("faction"), actor=actor, source_id=source)
            steps.append(Step(r.line, r.kind, add))
        else:
            async def give(source: str | None, r: Record = r, uid: int = uid) -> object:
                kind = str(r.get("kind"))
                grade = r.get("tier") if kind == "elector" else r.get("quality")
                return await ledger.add_holding(game_id, user_id=uid, kind=kind, name=str(r.get("name")),
                                                grade=None if grade is None else str(grade), votes=r.get("votes"),
                                                homeworld=bool(r.get("homeworld")), actor=actor, source_id=source)
            steps.append(Step(r.line, r.kind, give))
    return await Imports(ledger.backend).apply(game_id, filename=filename, steps=steps, actor=actor,
                                               source_id=source_id)
