"""Corrections after the fact (issue 19): a closed crisis round counted again under the corrected ledger.

The round is resolved by the same function its close used (``crisis.resolve``: R0-13..R0-18), from what the close
recorded (every voter's V(p) and ballot, the temporary factions and their rolls), with the weights a correction
changes. What was posted is compared with the result of that count; nothing recorded is rewritten.

A holding moved by a transfer is worth to its holder what ``votes.holding_votes`` says (its votes and the Diplomacy
bonus it earns, R0-03..R0-06); the bonus counts per holding, so a holding's worth does not depend on the others."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.landsdraad.crisis import CrisisResult, resolve
from engine.landsdraad.factions import TempFaction
from engine.landsdraad.model import Elector, Option, Planet, Tier, quality_of
from engine.landsdraad.tally import Tally
from engine.landsdraad.votes import holding_votes


@dataclass(frozen=True)
class Voter:
    """One active player at a round's close, as the ``RoundClosed`` event recorded them."""

    user_id: int
    name: str
    votes: int
    ballot: Option | None


@dataclass(frozen=True)
class ClosedRound:
    """What a close read and what it posted."""

    number: int
    voters: tuple[Voter, ...]
    factions: tuple[TempFaction, ...]
    rolls: Mapping[str, int]
    posted: Tally


@dataclass(frozen=True)
class WeightChange:
    """A correction's effect on one voter's V(p) in one closed round."""

    round: int
    user_id: int
    votes: int
    """The change (negative: fewer votes)."""
    why: str


@dataclass(frozen=True)
class Recount:
    """A closed round counted again under the corrected ledger."""

    round: int
    posted: Tally
    corrected: Tally
    changes: tuple[WeightChange, ...]
    ballots: Mapping[int, Option | None]
    """The ballot of each voter a change names (moderators only: the notice may show them)."""
    outcome: CrisisResult | None = None
    """The corrected close itself (its temporary factions' votes and options), for the disclosure check."""
    weights: Mapping[int, int] = field(default_factory=dict)
    """Every voter's corrected V(p), by user id (moderators only)."""
    stated: Tally | None = None
    """The corrected totals of the latest erratum posted for the round; None if none was (the result card is then
    the players' last word on it)."""

    @property
    def differs(self) -> bool:
        """The round would have come out differently: its AYE, NAY or ABSTAIN total is not the one posted."""
        return self.posted != self.corrected

    @property
    def standing(self) -> Tally:
        """What the players last read of the round: the latest erratum's totals, else the posted ones."""
        return self.stated if self.stated is not None else self.posted

    @property
    def stale(self) -> bool:
        """What the players last read of the round is not what it comes out as now: an erratum is owed."""
        return self.standing != self.corrected

    @property
    def restores(self) -> bool:
        """The round comes out as first posted again, but an erratum said otherwise (a later correction undid the
        one it was posted for): the erratum owed withdraws it (docs/rulings.md)."""
        return self.stated is not None and not self.differs and self.stale

    @property
    def outcome_changed(self) -> bool:
        """Passed where it was posted as failed, or the reverse (R0-18)."""
        return self.posted.passed != self.corrected.passed


def holding_worth(diplomacy: int, kind: str, grade: str | None, votes: int, homeworld: bool) -> int:
    """What one Elector or planet adds to the V(p) of a holder with ``diplomacy`` (R0-03..R0-06)."""
    if kind == "elector":
        return holding_votes(diplomacy, electors=(Elector("", Tier(grade or ""), votes),))
    return holding_votes(diplomacy, planets=(Planet("", quality_of(grade or ""), homeworld),))


def holder_in(round_number: int, sender: int, recipient: int | None, since: int) -> int:
    """Who holds what a transfer moves in a round's close: the recipient from the transfer's round on (a transfer
    made during a round counts in that round's close, which reads V(p) at the end, R0-15), the sender before;
    ``recipient`` None (cancelled, or it moves something else): the sender."""
    return recipient if recipient is not None and round_number >= since else sender


def recount(closed: ClosedRound, changes: Iterable[WeightChange], stated: Tally | None = None) -> Recount:
    """``closed`` resolved again with ``changes`` (those of other rounds are ignored). A weight never falls below 0
    (V(p) cannot be negative); a change for someone who did not vote in that round (not active) is dropped.
    ``stated``: the totals of the latest erratum posted for the round, if any."""
    mine = tuple(c for c in changes if c.round == closed.number)
    delta: dict[int, int] = {}
    for c in mine:
        delta[c.user_id] = delta.get(c.user_id, 0) + c.votes
    weights = {v.user_id: max(0, v.votes + delta.get(v.user_id, 0)) for v in closed.voters}
    ballots = {v.user_id: v.ballot for v in closed.voters if v.ballot is not None}
    outcome = resolve(weights, ballots, closed.factions, closed.rolls)
    kept = tuple(c for c in mine if c.user_id in weights)
    named = {c.user_id for c in kept}
    return Recount(closed.number, closed.posted, outcome.tally, kept,
                   {v.user_id: v.ballot for v in closed.voters if v.user_id in named}, outcome, weights, stated)


def consequences(rounds: Sequence[ClosedRound], changes: Sequence[WeightChange],
                 touched: Iterable[int] | None = None, stated: Mapping[int, Tally] | None = None) -> list[Recount]:
    """The closed rounds that come out otherwise with ``changes`` than the players last read (``Recount.stale``:
    than posted, or than the latest erratum said), in round order. ``touched``: the rounds one correction changes;
    all that ``changes`` names if None. ``stated``: the latest erratum's totals of each round that has one; those
    rounds are always asked about too, since a correction that undoes the one an erratum was posted for makes its
    round come out as posted, changing no weight there."""
    said = stated or {}
    asked = (set(touched) if touched is not None else {c.round for c in changes}) | set(said)
    found = (recount(r, changes, said.get(r.number)) for r in sorted(rounds, key=lambda r: r.number)
             if r.number in asked)
    return [r for r in found if r.stale]
