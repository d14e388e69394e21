"""The ``weights`` of a ``RoundClosed`` event: every active player at the close, their V(p) read then and their
ballot (R0-15; docs/export.md). The one reader of both forms it has been stored in, and the writer of the new one.

- **rows** (closes before 2026-12-03): a list of ``{"user_id", "name", "votes", "ballot"}``, one per player.
- **columns** (since): ``{"user_id": [...], "name": [...], "votes": [...], "ballot": [...]}``, the players in the
  same order (the order they joined), one list a field. The same facts; its JSON is about a third of the time to
  write and half the size (a close of 10,000 voters, docs/performance-history.md), and the close makes it from the rows
  of its query without an object per player.

Everything that reads a close's weights reads them here (``rows_of``); the export writes them as rows whichever
form is stored (``exported``), so the export and ``console --from`` are the same as before."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

FIELDS = ("user_id", "name", "votes", "ballot")
"""An entry's fields, in the order of a column form's lists."""


def columns(user_ids: Sequence[int], names: Sequence[str], votes: Sequence[int],
            ballots: Sequence[str | None]) -> dict[str, Sequence[Any]]:
    """The stored form of the players at a close, one sequence a field (of equal length, in the players' order)."""
    if not len(user_ids) == len(names) == len(votes) == len(ballots):
        raise ValueError("the columns of a close's weights must be of one length")
    return {"user_id": user_ids, "name": names, "votes": votes, "ballot": ballots}


def rows_of(payload: Mapping[str, Any]) -> Iterator[tuple[Any, Any, Any, Any]]:
    """Each player in ``payload["weights"]`` (either form; none if the close recorded none) as ``(user_id, name,
    votes, ballot)``, in the recorded order, the values as stored (a very old entry may lack its ``user_id``:
    None)."""
    weights = payload.get("weights")
    if not weights:
        return iter(())
    if isinstance(weights, Mapping):
        lists = [weights.get(f) or () for f in FIELDS]
        if len({len(c) for c in lists}) != 1:
            raise ValueError("a close's weights have columns of different lengths")
        return zip(*lists, strict=True)
    return ((w.get("user_id"), w.get("name"), w.get("votes"), w.get("ballot")) for w in weights)


def entries_of(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``payload["weights"]`` in the rows form (either form stored): a list of ``{"user_id", "name", "votes",
    "ballot"}``, as the export writes it."""
    weights = payload.get("weights")
    if isinstance(weights, list):
        return weights
    return [dict(zip(FIELDS, row, strict=True)) for row in rows_of(payload)]


def exported(payload: dict[str, Any]) -> dict[str, Any]:
    """A ``RoundClosed`` payload as the export writes it: its weights as rows (docs/export.md)."""
    if not isinstance(payload.get("weights"), Mapping):
        return payload
    return {**payload, "weights": entries_of(payload)}
