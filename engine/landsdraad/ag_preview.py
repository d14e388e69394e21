"""An Adjutant General election before it closes (``/ag preview``, moderators): who would win now, how a tie at the
top is broken, and what each other candidate needs to win (R0-31, P0-06, P0-21).

The standings are ``adjutant.tally_ag``'s, the ones the close takes. A tie goes to the candidate whose *last* ballot
came earliest; a new or changed ballot is stamped when it is cast, so a candidate who draws level by a new ballot
loses that tie to the one it caught up with, and must lead outright to win."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from engine.landsdraad.adjutant import AgBallot, tally_ag


@dataclass(frozen=True)
class Chase:
    """What a candidate behind the winner needs."""

    candidate: int
    votes: int
    to_tie: int
    """More votes (ballots, or weight in a weighted election) to draw level with the best of the others."""
    tie_goes_to: int
    """Who wins that tie: the best of the others, whose last ballot is earlier than a ballot cast now."""
    to_win: int
    """More votes to lead outright, which wins."""
    moved: int | None
    """Unweighted: the fewest ballots moved from the winner to this candidate that make it lead outright (None if
    moving every one of them does not, or in a weighted election, where it depends on whose ballots move)."""


@dataclass(frozen=True)
class AgPreview:
    standings: tuple[tuple[int, int, datetime], ...]
    """(candidate, votes, last ballot time), in the order the close ranks them."""
    winner: int | None
    tied: tuple[int, ...]
    """The candidates level at the top (two or more), the winner first, in the order the tie rule ranks them."""
    chases: tuple[Chase, ...]
    newcomer_to_win: int
    """Votes a candidate with no ballot yet needs to win (to lead outright)."""
    waiting: int
    """Active players who have not cast a ballot."""
    waiting_votes: int
    """Their votes (their number in an unweighted election, their V(p) in a weighted one)."""
    weighted: bool


def _moved(votes: int, leader: int, others: int) -> int | None:
    """The fewest ballots moved from the leader (``leader`` ballots) to a candidate (``votes``) with which the
    candidate has more than the leader and more than ``others`` (the best of the rest)."""
    for m in range(1, leader + 1):
        if votes + m > leader - m and votes + m > others:
            return m
    return None


def ag_preview(ballots: Iterable[AgBallot], voters: Mapping[int, int], weighted: bool) -> AgPreview:
    """``voters``: every active player who may vote, and their weight (1 each unless the election is weighted).
    The ballots are the election's, as the close reads them."""
    ballots = tuple(ballots)
    standings = tuple(tally_ag(ballots, dict(voters) if weighted else None))
    voted = {b.voter for b in ballots}
    waiting = [pid for pid in voters if pid not in voted]
    waiting_votes = sum(voters[pid] if weighted else 1 for pid in waiting)
    top = standings[0][1] if standings else 0
    tied = tuple(c for c, n, _ in standings if n == top) if standings else ()
    chases = []
    for i, (candidate, votes, _) in enumerate(standings[1:], start=1):
        rest = [s for j, s in enumerate(standings) if j != i]
        best = rest[0]
        second = rest[1][1] if len(rest) > 1 else 0
        moved = None if weighted else _moved(votes, best[1], second)
        chases.append(Chase(candidate, votes, to_tie=best[1] - votes, tie_goes_to=best[0],
                            to_win=best[1] - votes + 1, moved=moved))
    return AgPreview(standings=standings, winner=standings[0][0] if standings else None,
                     tied=tied if len(tied) > 1 else (), chases=tuple(chases), newcomer_to_win=top + 1,
                     waiting=len(waiting), waiting_votes=waiting_votes, weighted=weighted)
