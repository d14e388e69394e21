"""A bulk set-up (``/game import``) as one transaction: each record is the ruleset's own one-by-one use case (the
same events as ``/player add`` and the like), run as a savepoint of the batch (``ServiceBase._batch``). Every record
the service refuses is named with its line, and then nothing is written; a redelivery of the command counts once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from engine.core.errors import GameClosed, ParseError, RuleError
from engine.core.importing import ImportRefused
from engine.service.uow import ServiceBase


@dataclass(frozen=True)
class Step:
    line: int
    kind: str
    run: Callable[[str | None], Awaitable[object]]
    """The record's use case, given its own source id (``<the command's>/<n>``)."""


class Imports(ServiceBase):
    async def apply(self, game_id: int, *, filename: str, steps: Sequence[Step], actor: int | None,
                    source_id: str | None) -> dict[str, int]:
        """Run every step in one transaction; ImportRefused (nothing written) if any is refused. Returns how many
        records of each kind were imported, as the ``GameImported`` event records."""
        counts: dict[str, int] = {}
        async with self._batch(game_id, source_id) as uow:
            problems: list[str] = []
            for n, step in enumerate(steps, 1):
                try:
                    await step.run(f"{source_id}/{n}" if source_id is not None else None)
                except GameClosed:
                    raise  # the whole game is closed: one line says so, not one per record
                except (RuleError, ParseError) as refused:  # a value the use case could not read, too (I4.3)
                    problems.append(f"line {step.line} ({step.kind}): {' '.join(str(refused).split())}")
                else:
                    counts[step.kind] = counts.get(step.kind, 0) + 1
            if problems:
                raise ImportRefused(filename, problems)
            await uow.record(game_id, "GameImported", actor, {"file": filename, "records": counts}, source_id)
        return counts
