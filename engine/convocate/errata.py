"""Corrections after the fact (issue 19): a resolved Motion of Repeal counted again with the Standing Votes a
correction changes, by the resolution it used (``repeal.destroys``, P4-05), compared with what was announced; and
under the rulings ``repeal_count`` and ``committed_cards`` as they are now, from the count its resolution kept under
each setting of them (``repeal.counts_by_ruling``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.convocate.repeal import destroys, variant_key


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
    count: str = "after"
    """``repeal_count`` at the resolution."""
    committed: str | None = None
    """``committed_cards`` at the resolution (None: not recorded, a Repeal from before Clerk kept it)."""
    by_ruling: Mapping[str, tuple[int, int]] | None = None
    """``variant_key`` -> (mover, controller) as ``repeal`` counted them under that setting of the two rulings;
    None for a Repeal resolved before Clerk kept them (it cannot be recounted under another ruling)."""

    @property
    def ruled(self) -> tuple[str, str | None]:
        return self.count, self.committed


@dataclass(frozen=True)
class RepealRecount:
    closed: ClosedRepeal
    mover_votes: int
    controller_votes: int
    ruled: tuple[str, str | None] = ("after", None)
    """(``repeal_count``, ``committed_cards``) it was counted under."""

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

    @property
    def ruling_changed(self) -> bool:
        """Counted under a setting of the two rulings other than the resolution's."""
        return self.ruled != self.closed.ruled


def recount_repeal(closed: ClosedRepeal, changes: Mapping[str, int],
                   rulings: tuple[str, str] | None = None) -> RepealRecount:
    """``closed`` with each player's Standing Vote changed by ``changes`` (by player name; never below 0), counted
    under ``rulings`` (``repeal_count``, ``committed_cards``) when given and the Repeal kept its count under them;
    else as it was counted at the resolution."""
    mover, controller, ruled = closed.mover_votes, closed.controller_votes, closed.ruled
    if rulings is not None and closed.by_ruling is not None and variant_key(*rulings) in closed.by_ruling:
        (mover, controller), ruled = closed.by_ruling[variant_key(*rulings)], rulings
    return RepealRecount(closed, max(0, mover + changes.get(closed.mover, 0)),
                         max(0, controller + changes.get(closed.controller, 0)), ruled)
