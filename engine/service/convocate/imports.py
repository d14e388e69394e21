"""A Convocate set-up file applied: its players and cards, through ``/convocate player`` and ``/card add``'s own
use cases in one transaction (``engine.service.imports``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

from engine.core.errors import RuleError
from engine.core.importing import Record
from engine.service.convocate.board import ConvocateBoardService as BoardService
from engine.service.imports import Imports, Step


async def import_records(board: BoardService, game_id: int, *, filename: str, records: Sequence[Record],
                         users: Mapping[str, tuple[int, str]], actor: int,
                         source_id: str | None, seated: Mapping[int, str] | None = None) -> dict[str, int]:
    """``users``: each user cell of the file (``user``, ``controller``, ``owner``) -> (user id, name). Players and
    cards go on in the order of the file; then each player's ``homeworld``, once its card is on the board.
    ``seated``: the players at the table before (user id -> name), read before the import's transaction (by the
    caller when the import is a step of a transaction of its own: ``clerk.followed``)."""
    joining: set[int] = set()
    if seated is None:
        seated = {s.user_id: s.player for s in (await board.board(game_id)).standings}
    steps = [Step(r.line, r.kind, _step(board, game_id, r, users, actor, seated, joining)) for r in records]
    steps += [Step(r.line, "homeworld", _homeworld(board, game_id, r, users, actor)) for r in records
              if r.kind == "player" and r.get("homeworld") is not None]
    counts = await Imports(board.backend).apply(game_id, filename=filename, steps=steps, actor=actor,
                                                source_id=source_id)
    counts.pop("homeworld", None)
    return counts


def _user(users: Mapping[str, tuple[int, str]], cell: object) -> int | None:
    return users[str(cell)][0] if cell is not None else None


def _step(board: BoardService, game_id: int, r: Record, users: Mapping[str, tuple[int, str]], actor: int,
          seated: Mapping[int, str], joining: set[int]) -> Callable[[str | None], Awaitable[object]]:
    async def run(source: str | None) -> object:
        if r.kind == "player":
            uid, name = users[str(r.get("user"))]
            if uid in seated:  # a set-up file seats new players; /convocate player changes one
                raise RuleError(f"{seated[uid]} is already at the table; change them with /convocate player.")
            joining.add(uid)
            return await board.set_player(game_id, user_id=uid, name=str(r.get("name") or name),
                                          sovereignty_name=r.get("sovereignty"), order=r.get("order"),
                                          homeworld=None, temp=None, actor=actor, source_id=source)
        for field in ("controller", "owner"):
            cell = r.get(field)
            if cell is not None and users[str(cell)][0] not in seated and users[str(cell)][0] not in joining:
                raise RuleError(f"its {field} {users[str(cell)][1]} is not at the table; seat them first (a player "
                                "line earlier in the file, or /convocate player).")
        return await board.add_card(game_id, actor=actor, moderator=True, kind=str(r.get("kind")),
                                    name=str(r.get("name")), controller=_user(users, r.get("controller")),
                                    owner=_user(users, r.get("owner")), vote=r.get("vote"),
                                    pallarch=bool(r.get("pallarch")), at=r.get("at"), morality=r.get("morality"),
                                    penalty=r.get("penalty"), sovereignty_name=r.get("sovereignty"),
                                    faces=r.get("faces"), readied=r.get("readied"), source_id=source)
    return run


def _homeworld(board: BoardService, game_id: int, r: Record, users: Mapping[str, tuple[int, str]],
               actor: int) -> Callable[[str | None], Awaitable[object]]:
    async def run(source: str | None) -> object:
        uid, name = users[str(r.get("user"))]
        return await board.set_player(game_id, user_id=uid, name=str(r.get("name") or name), sovereignty_name=None,
                                      order=None, homeworld=str(r.get("homeworld")), temp=None, actor=actor,
                                      source_id=source)
    return run
