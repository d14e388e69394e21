"""The Motion of Repeal (R4-17; P4-05, P4-06): every player's card-less Motion against a Statute they do not
control. Standing Vote is counted after the mover is activated; more than the controller's destroys the Statute,
and a tie goes to the controller. Only those two players count."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.convocate.access import Access, access
from engine.convocate.board import Board, Phase, Statute
from engine.convocate.motions import Box, MotionCard
from engine.convocate.votes import Line, line_step, standing_vote
from engine.core.derivation import Derivation, Step
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
    mover_lines: tuple[Line, ...] = ()
    """The mover's Standing Vote as counted, line by line (``/why repeal``)."""
    controller_lines: tuple[Line, ...] = ()

    @property
    def destroyed(self) -> bool:
        """Greater than the controller's; ties go to the controller."""
        return destroys(self.mover_votes, self.controller_votes)


def destroys(mover_votes: int, controller_votes: int) -> bool:
    """R4-17 / P4-06: the mover's Standing Vote must be greater than the controller's; a tie keeps the Statute (also
    what a Repeal counted again after a correction reads, ``errata``)."""
    return mover_votes > controller_votes


COUNTED = {"after": "after the mover's Convocant is activated", "before": "before the mover's Convocant is activated"}


def repeal_explained(statute: str, mover: str, controller: str, convocant: str, count: str,
                     mover_lines: tuple[Line, ...], controller_lines: tuple[Line, ...],
                     events: tuple[int, ...] = ()) -> Derivation:
    """The count of a Motion of Repeal (``/why repeal``) from the two Standing Votes as counted: each line, the
    totals and the verdict (``destroys``, the rule ``Repealed.destroyed`` applies)."""
    mine, theirs = sum(line.votes for line in mover_lines), sum(line.votes for line in controller_lines)
    when = COUNTED.get(count, COUNTED["after"])
    steps: list[Step] = [Step(f"{mover} moves it with {convocant}; the Standing Votes are counted {when}",
                              "the Standing Votes are counted after the mover is activated (a game may rule "
                              "before)", rule_id="R4-17, P4-05", events=events)]
    for who, lines in ((mover, mover_lines), (controller, controller_lines)):
        steps += [line_step(line, {}) for line in lines]
        counted = " + ".join(str(line.votes) for line in lines if line.votes) or "0"
        steps.append(Step(f"{who}'s Standing Vote: {counted} = **{sum(line.votes for line in lines)}**",
                          "the Standing Vote is the sum, read from the board when needed", rule_id="R4-04",
                          events=events))
    gone = destroys(mine, theirs)
    verdict = (f"{mine} > {theirs}: {statute} is repealed" if gone else
               f"{mine} {'=' if mine == theirs else '<'} {theirs}: {statute} stays"
               + (" (a tie goes to the controller)" if mine == theirs else ""))
    steps.append(Step(verdict, "more than the controller's Standing Vote destroys the Statute; a tie goes to the "
                      "controller", rule_id="R4-17, P4-06", events=events))
    return Derivation(f"The Motion of Repeal against {statute}",
                      f"{mover} {mine}, {controller} {theirs}: " + ("repealed" if gone else "not repealed"),
                      tuple(steps), (mine, theirs))


def lines_json(counted: Repealed) -> dict[str, list[list[object]]]:
    """How a Repeal's event keeps its count line by line (``/why repeal``, ``errata``)."""
    return {"mover": [[x.source, x.votes, x.note] for x in counted.mover_lines],
            "controller": [[x.source, x.votes, x.note] for x in counted.controller_lines]}


def lines_of(data: Any) -> tuple[Line, ...]:
    """One side of ``lines_json`` read back."""
    return tuple(Line(str(source), int(votes), str(note)) for source, votes, note in data or ())


RECOUNTED_BY = ("repeal_count", "committed_cards")
"""The rulings a Repeal's count reads (P4-05, P4-08): a change of either may change a resolved Repeal."""
VARIANTS = tuple((count, committed) for count in ("after", "before") for committed in ("out", "locations-count"))
"""Every setting of the two: (``repeal_count``, ``committed_cards``)."""


def variant_key(count: str, committed: str) -> str:
    """``after/out``: how a Repeal's event keeps the count under one setting of the two rulings."""
    return f"{count}/{committed}"


def counts_by_ruling(board: Board, player: str, name: str, convocant: str) -> dict[str, Repealed]:
    """The count ``repeal`` makes on ``board`` under each setting of ``repeal_count`` and ``committed_cards``
    (``VARIANTS``), the other rulings as they are: what a change of either ruling after the Repeal, or a correction
    of a card, is recounted from (``errata``), counted by ``repeal`` itself."""
    found: dict[str, Repealed] = {}
    for count, committed in VARIANTS:
        ruled = replace(board, rulings=replace(board.rulings, repeal_count=count, committed_cards=committed))
        found[variant_key(count, committed)] = repeal(ruled, player, name, convocant)[1]
    return found


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
    before = (standing_vote(board, player), standing_vote(board, statute.controller))
    board = board.activate(board.card(how.convocant)).with_player(replace(me, repealed_turn=board.turn))
    after = (standing_vote(board, player), standing_vote(board, statute.controller))
    mine, theirs = after if board.rulings.repeal_count == "after" else before
    result = Repealed(statute, player, how, mine.total, theirs.total, mine.lines, theirs.lines)
    if result.destroyed:
        board = board.without_statute(statute.name)
    return board, result
