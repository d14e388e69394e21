"""A Landsdraad set-up file applied: its players and holdings, through ``/player add`` and ``/holding add``'s own
use cases in one transaction (``engine.service.imports``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.errors import RuleError
from engine.core.importing import Record
from engine.service.imports import Imports, Step
from engine.service.landsdraad.ledger import LedgerService


async def import_records(ledger: LedgerService, game_id: int, *, filename: str, records: Sequence[Record],
                         users: Mapping[str, tuple[int, str]], actor: int | None,
                         source_id: str | None) -> dict[str, int]:
    """``users``: each ``user``/``player`` cell of the file -> (user id, name)."""
    steps: list[Step] = []
    in_game = {p.user_id: p.name for p in await ledger.players(game_id)}
    added = {users[str(r.get("user"))][0]: r for r in records if r.kind == "player"}
    named = {str(r.get("name") or users[str(r.get("user"))][1]).lower(): (r.line, str(r.get("user")))
             for r in records if r.kind == "player"}
    named.update({name.lower(): (0, f"<@{uid}>") for uid, name in in_game.items() if name.lower() not in named})
    first_named: dict[str, tuple[int, str, int]] = {}  # a name in lower case -> its first line, user cell and id
    for r in records:
        uid, name = users[str(r.get("user") if r.kind == "player" else r.get("player"))]
        if r.kind == "player":
            shown = str(r.get("name") or name)
            first = first_named.setdefault(shown.lower(), (r.line, str(r.get("user")), uid))

            async def add(source: str | None, r: Record = r, uid: int = uid, name: str = name,
                          first: tuple[int, str, int] = first) -> object:
                if first[2] != uid:  # two players of one name could not be told apart (play-test I1.5)
                    raise RuleError(f"the name “{r.get('name') or name}” is already the player's of line {first[0]} "
                                    f"({first[1]}); players' names must differ (case does not matter), as players "
                                    "name each other in forms. Give one of them another `name`.")
                return await ledger.add_player(game_id, user_id=uid, name=str(r.get("name") or name),
                                               diplomacy=r.get("diplomacy"), command=r.get("command"),
                                               intrigue=r.get("intrigue"), roll=r.get("roll"),
                                               faction=r.get("faction"), actor=actor, source_id=source)
            steps.append(Step(r.line, r.kind, add))
        else:
            async def give(source: str | None, r: Record = r, uid: int = uid, name: str = name) -> object:
                if uid not in in_game:
                    _not_a_player(r, uid, name, added, named)
                kind = str(r.get("kind"))
                grade = r.get("tier") if kind == "elector" else r.get("quality")
                return await ledger.add_holding(game_id, user_id=uid, kind=kind, name=str(r.get("name")),
                                                grade=None if grade is None else str(grade), votes=r.get("votes"),
                                                homeworld=bool(r.get("homeworld")), actor=actor, source_id=source)
            steps.append(Step(r.line, r.kind, give))
    return await Imports(ledger.backend).apply(game_id, filename=filename, steps=steps, actor=actor,
                                               source_id=source_id)


def _not_a_player(r: Record, uid: int, name: str, added: Mapping[int, Record],
                  named: Mapping[str, tuple[int, str]]) -> None:
    """Why a holding's ``player`` is no player of the game when its line is applied: named, with what Clerk
    understood (play-test I4.4). Nothing when they were added on an earlier line of the file."""
    cell = str(r.get("player"))
    player = added.get(uid)
    if player is not None and player.line < r.line:
        return
    if player is not None:
        raise RuleError(f"{cell} is not a player yet: they are added on line {player.line}. Put players before "
                        "their holdings.")
    same = named.get(cell.lstrip("@").lower())
    if same is not None and same[1] != cell:
        where = f" (line {same[0]})" if same[0] else ""
        raise RuleError(f"{cell} is the member {name}, who is not a player; the player named “{cell.lstrip('@')}”"
                        f"{where} is {same[1]}: write that.")
    raise RuleError(f"{cell} ({name}) is not a player; add them with a player line before their holdings, or "
                    "/player add.")
