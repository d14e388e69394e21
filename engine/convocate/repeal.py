"""The Motion of Repeal (R4-17; P4-05, P4-06): every player's card-less Motion against a Statute they do not
control. Standing Vote is counted after the mover is activated; more than the controller's destroys the Statute,
and a tie goes to the controller. Only those two players count."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.convocate.access import Access, access
from engine.convocate.board import Board, Phase, Statute
from engine.convocate.motions import Box, MotionCard
from engine.convocate.votes import standing_vote
from engine.core.errors import RuleError

REPEAL = MotionCard("Motion of Repeal", morality=None, moved="Count Standing Vote; destroy the Statute if the mover's "
                    "is greater than its controller's.", seconded="none")
"""No card, no Morality, no Seconded box: it cannot be seconded."""
assert REPEAL.box is Box.NONE


@dataclass(frozen=True)
class Repealed:
    statute: Statute
    mover: str
    access: Access
    mover_votes: int
    controller_votes: int

    @property
    def destroyed(self) -> bool:
        return destroys(self.mover_votes, self.controller_votes)


def destroys(mover_votes: int, controller_votes: int) -> bool:
    """P4-05: the mover's Standing Vote greater than the controller's destroys the Statute; ties go to the
    controller (also what a Repeal counted again after a correction reads, ``errata``)."""
    return mover_votes > controller_votes


def repeal(board: Board, player: str, name: str, convocant: str) -> tuple[Board, Repealed]:
    """R4-17: in the player's own Action Phase, against a Statute they do not control, with a Convocant that has
    access (the lockout included). A failed repeal still activates the mover."""
    me = board.player(player)
    if not board.in_phase(player, Phase.ACTION):
        raise RuleError(f"You move a Motion of Repeal in your own Action Phase; it is {board.when()}.")
    statute = board.statute(name)
    if statute.controller == player:
        raise RuleError(f"You control {statute.name}; a Motion of Repeal is against a Statute you do not control. "
                        "You may destroy your own in your Admin Phase.")
    if board.rulings.repeals_per_turn == "one" and me.repealed_turn == board.turn:
        raise RuleError("You have already moved a Motion of Repeal this turn (this game's ruling: one a turn per "
                        "player).")
    how = access(board, player, convocant)
    before = (standing_vote(board, player).total, standing_vote(board, statute.controller).total)
    board = board.activate(board.card(how.convocant)).with_player(replace(me, repealed_turn=board.turn))
    after = (standing_vote(board, player).total, standing_vote(board, statute.controller).total)
    mine, theirs = after if board.rulings.repeal_count == "after" else before
    result = Repealed(statute, player, how, mine, theirs)
    if result.destroyed:
        board = board.without_statute(statute.name)
    return board, result
