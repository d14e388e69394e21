"""The Adjutant General election (R0-30..R0-35, P0-06, P0-08, P0-21) and the no-AG penalty (R0-34, P0-22)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.core.derivation import Derivation, Step
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


Standings = list[tuple[int, int, datetime]]


def _tally(ballots: Iterable[AgBallot], weights: Mapping[int, int] | None,
           counted: list[tuple[AgBallot, int]] | None = None) -> Standings:
    """The count ``tally_ag`` and ``tally_ag_explained`` share; ``counted`` (when given) gets each ballot and what
    it counted, in order."""
    counts: dict[int, int] = {}
    last: dict[int, tuple[datetime, int]] = {}
    for received, b in enumerate(ballots):
        worth = 1 if weights is None else weights.get(b.voter, 0)
        counts[b.candidate] = counts.get(b.candidate, 0) + worth
        last[b.candidate] = max(last.get(b.candidate, (b.cast_at, received)), (b.cast_at, received))
        if counted is not None:
            counted.append((b, worth))
    return sorted(((c, n, last[c][0]) for c, n in counts.items()), key=lambda t: (-t[1], last[t[0]], t[0]))


def tally_ag(ballots: Iterable[AgBallot], weights: Mapping[int, int] | None = None) -> Standings:
    """(candidate, votes, last ballot time), leader first: most votes, then the earliest *last* ballot (R0-31).
    Each ballot counts 1 (P0-06); a game that plays the AG election weighted passes each voter's V(p).
    ``ballots`` come in the order they were received (each as last stamped): two stamped with the same instant were
    still received one before the other, and the one received first came first."""
    return _tally(ballots, weights)


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M:%S UTC")


def tally_ag_explained(subject: str, ballots: Iterable[AgBallot], names: Mapping[int, str],
                       weights: Mapping[int, int] | None = None, ballot_events: Mapping[int, tuple[int, ...]]
                       | None = None, events: tuple[int, ...] = ()) -> tuple[Standings, Derivation]:
    """``tally_ag`` and its ``Derivation``, from the same count: each ballot (public, R0-30; weighted, its step
    shows the voter's V(p), which only that voter may see: P0-14), the standings, the tie-break (R0-31) and the
    winner. ``names``: player id -> name; ``ballot_events``: voter id -> the events of their ballot; ``events``:
    those of the close."""
    counted: list[tuple[AgBallot, int]] = []
    standings = _tally(ballots, weights, counted)
    found = ballot_events or {}
    steps: list[Step] = []
    for b, worth in counted:
        voter, candidate = names.get(b.voter, f"player {b.voter}"), names.get(b.candidate, f"player {b.candidate}")
        if weights is None:
            steps.append(Step(f"{voter}'s ballot for {candidate} (cast {_when(b.cast_at)}) counts 1",
                              "each active player's ballot counts one", "P0-06", found.get(b.voter, ())))
        else:
            steps.append(Step(f"{voter}'s ballot for {candidate} (cast {_when(b.cast_at)}) counts {worth}, "
                              f"{voter}'s votes", "this game weighs each AG ballot by the voter's votes V(p)",
                              "P0-06", found.get(b.voter, ()), frozenset({voter})))
    shown = ", ".join(f"{names.get(c, c)} {n} (last ballot {_when(at)})" for c, n, at in standings)
    if not standings:
        steps.append(Step("No ballots were cast, so no Adjutant General is elected", "no ballots: no AG",
                          "R0-31", events))
        return standings, Derivation(subject, "no AG elected", tuple(steps), value=(), note="")
    steps.append(Step(f"Standings: {shown}", "most votes first", "R0-31", events))
    top = [t for t in standings if t[1] == standings[0][1]]
    winner = names.get(standings[0][0], str(standings[0][0]))
    if len(top) > 1:
        tied = " and ".join(str(names.get(c, c)) for c, _, _ in top)
        when = (f"was received first (the next carries the same time, {_when(standings[0][2])})"
                if top[1][2] == top[0][2] else f"came earliest ({_when(standings[0][2])})")
        steps.append(Step(f"{tied} tie at {standings[0][1]}; {winner}'s last ballot {when}, so {winner} wins",
                          "among tied candidates, the one whose last ballot came earliest wins", "R0-31"))
    steps.append(Step(f"{winner} is elected Adjutant General", "the candidate with the most votes wins", "R0-31",
                      events))
    value = tuple((names.get(c, str(c)), n) for c, n, _ in standings)
    return standings, Derivation(subject, f"{winner} elected with {standings[0][1]}", tuple(steps), value=value)


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
