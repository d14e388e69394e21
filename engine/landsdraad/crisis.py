"""A crisis round's ballots and its resolution (R0-11..R0-19, P0-03, P0-04, P0-15)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import chain

from engine.core.derivation import Derivation, Step
from engine.core.durations import format_utc_seconds
from engine.core.errors import RuleError
from engine.landsdraad.factions import TempFaction
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Block, Tally, tally, tally_explained


@dataclass(frozen=True)
class RoundWindow:
    """What a ballot must be checked against: the round's number, whether it is open, its deadline."""

    number: int
    open: bool
    deadline: datetime | None
    void: bool = False
    """The round is void (the moderators voided it, ``/round void``): it takes no ballot, and one cast in it no
    longer counts."""


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
    window: RoundWindow, previous: Option | None, option: Option, declared: int | None, received_at: datetime,
    game: str = "",
) -> BallotAccepted:
    """R0-11/R0-12: accepted from the round's start until the deadline (``received_at < deadline``, P0-15).
    A repeated Vote acts as a Revote and a Revote with no ballot acts as a Vote (P0-03). A ballot refused names the
    round of ``game``, its deadline, and what stands (P0-15; play-test P5.4)."""
    of = f" of {game}" if game else ""
    if window.void:
        had = " Your ballot in it no longer counts." if previous else ""
        raise RuleError(f"Round {window.number}{of} is void: the moderators voided it, so it takes no ballots and "
                        f"nothing in it counts.{had} If its crisis is put to the vote again as a new round, you vote "
                        "in that one.")
    if not window.open:
        kept = f" Your ballot ({previous.label}) stands." if previous else " You cast no ballot in it."
        deadline = f" (its deadline was {format_utc_seconds(window.deadline)})" if window.deadline else ""
        raise RuleError(f"Round {window.number}{of} is closed{deadline}; ballots are no longer accepted, and your "
                        f"message arrived at {format_utc_seconds(received_at)}.{kept}")
    if window.deadline is not None and received_at >= window.deadline:
        kept = f" Your ballot ({previous.label}) stands." if previous else " You have no ballot, so you abstain."
        raise RuleError(
            f"Your ballot is too late: round {window.number}{of} closed for ballots at "
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


def resolve_counted(
    players: Mapping[tuple[int, Option | None], int],
    factions: Sequence[TempFaction],
    rolls: Mapping[str, int],
) -> CrisisResult:
    """``resolve`` of the active players counted by (V(p) read now, ballot or None): how many players have each.
    Each block votes all its weight one way (R0-14), so the sums are those of ``resolve`` over the same players,
    with one step per kind of player instead of one per player (a close of 10,000 has a few dozen kinds)."""
    faction_votes = tuple(FactionVote(f.name, f.votes, f.vote(rolls.get(f.name)), rolls.get(f.name)) for f in factions)
    for weight, _ in players:
        if weight < 0:
            raise ValueError(f"a block's weight cannot be negative: {weight}")
    blocks = chain(((weight * count, option) for (weight, option), count in players.items()),
                   ((fv.votes, fv.option) for fv in faction_votes))
    return CrisisResult(tally=tally(blocks), factions=faction_votes)


@dataclass(frozen=True)
class Voter:
    """A player as the close read them: their name, V(p) then, their ballot, and the events of both."""

    name: str
    votes: int
    ballot: Option | None
    events: tuple[int, ...] = ()


def resolve_explained(subject: str, voters: Sequence[Voter], factions: Sequence[TempFaction],
                      rolls: Mapping[str, int], events: tuple[int, ...] = (),
                      faction_events: Mapping[str, tuple[int, ...]] | None = None
                      ) -> tuple[CrisisResult, Derivation]:
    """``resolve`` of the voters (by their order) and its ``Derivation``: each faction's vote (its roll), each
    player's block (seen by that player only: a crisis ballot is secret), then the tally's steps. ``events`` are
    those of the close; ``faction_events`` the one that added each faction."""
    weights = dict(enumerate(v.votes for v in voters))
    ballots = {n: v.ballot for n, v in enumerate(voters) if v.ballot is not None}
    result = resolve(weights, ballots, factions, rolls)
    found = faction_events or {}
    steps: list[Step] = []
    blocks: list[Block] = []
    for faction, fv in zip(factions, result.factions, strict=True):
        read = (*found.get(fv.name, ()), *events)
        if faction.table is not None:
            steps.append(Step(f"{fv.name} ({fv.votes} votes) rolled {fv.roll} on `{faction.table.describe()}`: "
                              f"{fv.option.label}", "a temporary faction on a d6 table votes as its one roll at "
                              "the close says", "R0-16", read))
        else:
            steps.append(Step(f"{fv.name} ({fv.votes} votes) votes {fv.option.label}, its fixed stance",
                              "a temporary faction casts all its votes for one option", "R0-16", read))
        blocks.append(Block(fv.name, fv.votes, fv.option, read, None, faction=True))
    blocks.extend(Block(v.name, v.votes, v.ballot, (*v.events, *events), frozenset({v.name})) for v in voters)
    counted, tally_steps = tally_explained(blocks, events)
    assert counted == result.tally  # the same blocks: the tally's steps are those of the result
    t = result.tally
    text = (f"{'passed' if t.passed else 'failed'}, Aye {t.aye}, Nay {t.nay}, Abstain {t.abstain} "
            f"({t.needed} needed of {t.in_play} in play)")
    value = ("passed" if t.passed else "failed", t.aye, t.nay, t.abstain, t.in_play, t.needed)
    return result, Derivation(subject, text, (*steps, *tally_steps), value=value)
