"""A crisis round's ballots and its resolution (R0-11..R0-19, P0-03, P0-04, P0-15)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import chain

from engine.core.durations import format_utc_seconds
from engine.core.errors import RuleError
from engine.landsdraad.factions import TempFaction
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally, tally


@dataclass(frozen=True)
class RoundWindow:
    """What a ballot must be checked against: the round's number, whether it is open, its deadline."""

    number: int
    open: bool
    deadline: datetime | None


@dataclass(frozen=True)
class BallotAccepted:
    """Event: a ballot was recorded. ``replaced`` is the option it replaced (None for a first ballot)."""

    option: Option
    declared: int | None
    replaced: Option | None
    received_at: datetime

    @property
    def is_revote(self) -> bool:
        return self.replaced is not None


def accept_ballot(
    window: RoundWindow, previous: Option | None, option: Option, declared: int | None, received_at: datetime
) -> BallotAccepted:
    """R0-11/R0-12: accepted from the round's start until the deadline (``received_at < deadline``, P0-15).
    A repeated Vote acts as a Revote and a Revote with no ballot acts as a Vote (P0-03)."""
    if not window.open:
        raise RuleError(f"Round {window.number} is closed; ballots are no longer accepted.")
    if window.deadline is not None and received_at >= window.deadline:
        kept = f" Your ballot ({previous.label}) stands." if previous else " You have no ballot, so you abstain."
        raise RuleError(
            f"Your ballot is too late: round {window.number} closed for ballots at "
            f"{format_utc_seconds(window.deadline)}, and your message arrived at {format_utc_seconds(received_at)} "
            f"(a ballot must arrive before the deadline).{kept}"
        )
    if declared is not None and declared < 0:
        raise RuleError("a vote count cannot be negative.")
    return BallotAccepted(option=option, declared=declared, replaced=previous, received_at=received_at)


@dataclass(frozen=True)
class FactionVote:
    name: str
    votes: int
    option: Option
    roll: int | None


@dataclass(frozen=True)
class CrisisResult:
    tally: Tally
    factions: tuple[FactionVote, ...]

    @property
    def passed(self) -> bool:
        return self.tally.passed


def resolve(
    weights: Mapping[int, int],
    ballots: Mapping[int, Option],
    factions: Sequence[TempFaction],
    rolls: Mapping[str, int],
) -> CrisisResult:
    """R0-15..R0-18. ``weights`` are the active players' V(p) read now; a player without a ballot abstains;
    a ballot from someone not in ``weights`` (no longer active) does not count. Each d6 faction uses its
    roll from ``rolls`` (made once, after the ballots lock, P0-04)."""
    faction_votes = tuple(FactionVote(f.name, f.votes, f.vote(rolls.get(f.name)), rolls.get(f.name)) for f in factions)
    # A generator, not a list: 100,000 voters' blocks held at once cost more in the garbage collector's passes than
    # the adding up (bench/tally.py).
    blocks = chain(((w, ballots.get(pid)) for pid, w in weights.items()),
                   ((fv.votes, fv.option) for fv in faction_votes))
    return CrisisResult(tally=tally(blocks), factions=faction_votes)
