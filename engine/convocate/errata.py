"""Corrections after the fact (issue 19): a resolved Motion of Repeal counted again with the Standing Votes a
correction changes, by the resolution it used (``repeal.destroys``, P4-05), compared with what was announced."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.convocate.repeal import destroys


@dataclass(frozen=True)
class ClosedRepeal:
    """What a Repeal's resolution recorded (``RepealMoved``)."""

    motion: int
    turn: int
    statute: str
    mover: str
    controller: str
    mover_votes: int
    controller_votes: int
    destroyed: bool


@dataclass(frozen=True)
class RepealRecount:
    closed: ClosedRepeal
    mover_votes: int
    controller_votes: int

    @property
    def destroyed(self) -> bool:
        return destroys(self.mover_votes, self.controller_votes)

    @property
    def differs(self) -> bool:
        """Either Standing Vote is not the one announced."""
        return (self.mover_votes, self.controller_votes) != (self.closed.mover_votes, self.closed.controller_votes)

    @property
    def outcome_changed(self) -> bool:
        return self.destroyed != self.closed.destroyed


def recount_repeal(closed: ClosedRepeal, changes: Mapping[str, int]) -> RepealRecount:
    """``closed`` with each player's Standing Vote changed by ``changes`` (by player name; never below 0)."""
    return RepealRecount(closed, max(0, closed.mover_votes + changes.get(closed.mover, 0)),
                         max(0, closed.controller_votes + changes.get(closed.controller, 0)))
