"""A Motion of Repeal before it is moved (``/motion preview``, moderators): the two Standing Votes the Repeal would
compare, whether the Statute would fall, and by how much either side would have to change to turn it (R4-17, P4-05).

It runs ``repeal.repeal`` itself on the board as it is (the board is a value: nothing is changed), so the preview
counts exactly as the Motion would; a Repeal the player may not move now is still counted as the board stands."""

from __future__ import annotations

from dataclasses import dataclass

from engine.convocate.board import Board
from engine.convocate.repeal import repeal
from engine.convocate.votes import standing_vote
from engine.core.errors import RuleError


@dataclass(frozen=True)
class RepealPreview:
    statute: str
    controller: str
    mover: str
    convocant: str
    mover_votes: int
    controller_votes: int
    counted_after: bool
    """The count is the one after the mover's Convocant is activated (this game's ruling), not before."""
    refused: str | None = None
    """Why the player may not move it now; then the votes are the board's as it stands, before any activation."""

    @property
    def destroyed(self) -> bool:
        """Greater than the controller's destroys the Statute; a tie goes to the controller."""
        return self.refused is None and self.mover_votes > self.controller_votes

    @property
    def to_turn(self) -> int:
        """Destroyed: the Standing Vote the controller would need more to keep it (a tie keeps it). Kept: the
        Standing Vote the mover would need more to destroy it."""
        if self.mover_votes > self.controller_votes:
            return self.mover_votes - self.controller_votes
        return self.controller_votes - self.mover_votes + 1


def preview_repeal(board: Board, player: str, name: str, convocant: str) -> RepealPreview:
    statute = board.statute(name)
    after = board.rulings.repeal_count == "after"
    try:
        _, done = repeal(board, player, name, convocant)
    except RuleError as refused:
        return RepealPreview(statute.name, statute.controller, player, convocant,
                             standing_vote(board, player).total, standing_vote(board, statute.controller).total,
                             counted_after=False, refused=str(refused))
    return RepealPreview(statute.name, statute.controller, player, done.access.convocant, done.mover_votes,
                         done.controller_votes, counted_after=after)
