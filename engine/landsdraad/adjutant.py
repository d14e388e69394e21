"""The Adjutant General election (R0-30..R0-35, P0-06, P0-08, P0-21) and the no-AG penalty (R0-34, P0-22)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.core.errors import RuleError

MAX_ELECTION = timedelta(hours=96)
"""R0-32: an AG election lasts at most 96 hours; that is also the default."""
MAX_NO_CONFIDENCE_EXTENSION = timedelta(hours=24)
"""R0-35: after No Confidence the election closes at round end, extendable by at most 24 hours."""
NO_AG_PENALTY = 300
"""R0-34: MS docked from every player's income for a round that ends with no AG."""


@dataclass(frozen=True)
class AgBallot:
    """One active player's public ballot for a candidate (one per player, unweighted: P0-06)."""

    voter: int
    candidate: int
    cast_at: datetime


def cast_ag_ballot(previous: AgBallot | None, voter: int, candidate: int, at: datetime) -> AgBallot:
    """P0-21: a changed ballot is re-stamped; re-posting the same candidate keeps the old time."""
    if previous is not None and previous.candidate == candidate:
        return previous
    return AgBallot(voter, candidate, at)


def tally_ag(ballots: Iterable[AgBallot], weights: Mapping[int, int] | None = None) -> list[tuple[int, int, datetime]]:
    """(candidate, votes, last ballot time), leader first: most votes, then the earliest *last* ballot (R0-31).
    Each ballot counts 1 (P0-06); a game that plays the AG election weighted passes each voter's V(p)."""
    counts: dict[int, int] = {}
    last: dict[int, datetime] = {}
    for b in ballots:
        counts[b.candidate] = counts.get(b.candidate, 0) + (1 if weights is None else weights.get(b.voter, 0))
        last[b.candidate] = max(last.get(b.candidate, b.cast_at), b.cast_at)
    return sorted(((c, n, last[c]) for c, n in counts.items()), key=lambda t: (-t[1], t[2], t[0]))


def ag_winner(ballots: Iterable[AgBallot], weights: Mapping[int, int] | None = None) -> int | None:
    """R0-31: most ballots wins; among tied candidates, the one whose *last* ballot came *earliest*.
    No ballots: no AG."""
    standings = tally_ag(ballots, weights)
    return standings[0][0] if standings else None


def election_deadline(opened: datetime, requested: datetime | None) -> datetime:
    """R0-32: the moderator's deadline, at most 96 h after opening; 96 h by default."""
    latest = opened + MAX_ELECTION
    if requested is None:
        return latest
    if requested <= opened:
        raise RuleError("The election's deadline must be in the future.")
    if requested > latest:
        raise RuleError("An AG election lasts at most 96 hours; choose a deadline within 96 h.")
    return requested


def extend_after_no_confidence(round_end: datetime, requested: datetime) -> datetime:
    """R0-35: the replacement election closes at round end, extendable by at most 24 hours."""
    if requested > round_end + MAX_NO_CONFIDENCE_EXTENSION:
        raise RuleError("After No Confidence the election may be extended by at most 24 hours past the round's end.")
    if requested < round_end:
        raise RuleError("The election cannot close before the end of the round.")
    return requested


def net_income(incomes: Mapping[int, int], ag_in_office: bool) -> dict[int, int]:
    """R0-34 / P0-22: with no AG at round end, every player's income is 300 MS lower; it may go negative."""
    penalty = 0 if ag_in_office else NO_AG_PENALTY
    return {player: income - penalty for player, income in incomes.items()}
