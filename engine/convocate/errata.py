"""Corrections after the fact (issue 19): a resolved Motion of Repeal counted again, by the resolution it used
(``repeal.destroys``, P4-05), from its own count card by card as recorded (the lines ``/why repeal`` shows), with the
corrected card's part changed where it counted then; and under the rulings ``repeal_count`` and ``committed_cards`` as
they are now, from the count its resolution kept under each setting of them (``repeal.counts_by_ruling``).

A card's part is read from the Repeal's count, never from the board when the correction is made: a card readied (or
a permanent on the Map) then counts its corrected Vote; a card activated then, such as the mover, counts 0 whatever
its Vote. What the lines cannot show (a change of where a card stands, who controls it, whether it is readied, or a
card that counted nothing then with Vote 0) is not guessed: the Repeal is named as one to judge by hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.convocate.repeal import destroys, variant_key
from engine.convocate.votes import SEAT_LINES, Line

Count = tuple[tuple[Line, ...], tuple[Line, ...]]
"""The mover's and the controller's Standing Vote as counted, line by line."""
COUNTS_NOTHING = ("activated", "off the Map", "Vote suppressed")
"""The notes of a line that added 0 whatever the card's Vote (``votes._card_line``)."""
UNSEEN = ("controller", "at", "readied", "on_map", "suppressed", "face", "faces", "sovereignty")
"""The fields of a card whose change the lines of a count cannot follow (a Seat's +1, who counts the card, whether
it counted at all)."""


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
    lines: Count | None = None
    """The count as the resolution made it, line by line (None: resolved before Clerk kept the lines)."""
    lines_by_ruling: Mapping[str, Count] | None = None
    """``variant_key`` -> the count line by line under that setting of the two rulings (None: not kept)."""

    @property
    def ruled(self) -> tuple[str, str | None]:
        return self.count, self.committed

    def count_under(self, ruled: tuple[str, str | None]) -> Count | None:
        """The count line by line under ``ruled``; None when Clerk did not keep it."""
        if ruled == self.ruled and self.lines is not None:
            return self.lines
        if self.lines_by_ruling is None or ruled[1] is None:
            return None
        return self.lines_by_ruling.get(variant_key(ruled[0], ruled[1]))


@dataclass(frozen=True)
class CardCorrection:
    """What ``/card set ... since:T`` recorded (``CardChanged``)."""

    card: str
    since: int
    vote: tuple[int, int] | None
    """The card's Vote before and after the correction (None: recorded before Clerk kept it)."""
    controllers: tuple[str | None, ...] = ()
    """Who controlled the card before and after the correction."""
    changed: tuple[str, ...] = ()
    """The fields the correction changed."""


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


@dataclass(frozen=True)
class Unrecounted:
    """A resolved Repeal Clerk cannot count again, and why (the moderators judge it by hand)."""

    closed: ClosedRepeal
    reason: str


def recount_repeal(closed: ClosedRepeal, corrections: Sequence[CardCorrection] = (),
                   rulings: tuple[str, str] | None = None) -> RepealRecount | Unrecounted:
    """``closed`` counted again with ``corrections`` (those that reach it, oldest first), under ``rulings``
    (``repeal_count``, ``committed_cards``) when given and the Repeal kept its count under them; else as it was
    counted at the resolution."""
    (mover, controller), ruled = (closed.mover_votes, closed.controller_votes), closed.ruled
    if rulings is not None and closed.by_ruling is not None and variant_key(*rulings) in closed.by_ruling:
        (mover, controller), ruled = closed.by_ruling[variant_key(*rulings)], rulings
    if not corrections:
        return RepealRecount(closed, mover, controller, ruled)
    count = closed.count_under(ruled)
    if count is None:
        theirs = [c.card for c in corrections if {closed.mover, closed.controller} & set(c.controllers)]
        if not theirs:
            return RepealRecount(closed, mover, controller, ruled)
        return Unrecounted(closed, "it was resolved before Clerk kept its count card by card under these rulings, so "
                                   f"the correction of {theirs[0]} cannot be placed in it")
    for c in corrections:
        found = corrected(count, closed, c)
        if isinstance(found, str):
            return Unrecounted(closed, found)
        count = found
    return RepealRecount(closed, sum(x.votes for x in count[0]), sum(x.votes for x in count[1]), ruled)


def corrected(count: Count, closed: ClosedRepeal, c: CardCorrection) -> Count | str:
    """``count`` with the corrected card's part changed where it counted: a counted line by the change of the card's
    Vote (never below 0), a line that added nothing (activated, off the Map, suppressed) left at 0. A string says
    why the count cannot show the correction."""
    sides = [list(count[0]), list(count[1])]
    # a Seat's +1 or 0 line is not its Vote: only the Seat's own line moves (play-test C5.6)
    own = [(side, i) for side, lines in enumerate(sides) for i, line in enumerate(lines)
           if line.source.casefold() == c.card.casefold() and line.note not in SEAT_LINES]
    if not own and not {closed.mover, closed.controller} & set(c.controllers):
        return count  # neither player's card: it counts for neither, before or after
    if c.vote is None:
        return f"the correction of {c.card} was recorded before Clerk kept the card's Vote before and after it"
    unseen = [f for f in c.changed if f in UNSEEN]
    if unseen:
        return (f"the correction of {c.card} changes its {', '.join(unseen)}, which the count card by card does "
                "not show")
    before, after = c.vote
    if before == after:
        return count
    if not own:
        if before == 0:
            return (f"{c.card} added nothing to the count, with Vote 0, and the count does not show whether it was "
                    "readied")
        return count  # not on the Map then, or another player's: it counted nothing and still does not
    for side, i in own:
        line = sides[side][i]
        if line.note not in COUNTS_NOTHING:
            sides[side][i] = replace(line, votes=max(0, line.votes + after - before))
    return tuple(sides[0]), tuple(sides[1])
