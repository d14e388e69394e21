"""The crisis tally (R0-13..R0-19): votes in play, AYE/NAY/ABS, threshold, passed or failed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.derivation import Step
from engine.landsdraad.model import Option


@dataclass(frozen=True)
class Tally:
    aye: int
    nay: int
    abstain: int

    @property
    def in_play(self) -> int:
        """VIP: every active player's V(p) plus every temporary faction's votes (R0-17)."""
        return self.aye + self.nay + self.abstain

    @property
    def effective(self) -> int:
        """E = AYE + NAY: abstentions excluded (R0-18)."""
        return self.aye + self.nay

    @property
    def needed(self) -> int:
        """T = floor(E/2) + 1 (R0-18)."""
        return self.effective // 2 + 1

    @property
    def passed(self) -> bool:
        """AYE >= T, the same as AYE > NAY; a tie or E = 0 fails (R0-18)."""
        return self.aye >= self.needed


def tally(blocks: Iterable[tuple[int, Option | None]]) -> Tally:
    """Sum weighted blocks. Each block (a player or a faction) votes all its weight one way (R0-14);
    ``None`` (no ballot) abstains (R0-13)."""
    sums = {Option.AYE: 0, Option.NAY: 0, Option.ABSTAIN: 0}
    for weight, option in blocks:
        if weight < 0:
            raise ValueError(f"a block's weight cannot be negative: {weight}")
        sums[option or Option.ABSTAIN] += weight
    return Tally(aye=sums[Option.AYE], nay=sums[Option.NAY], abstain=sums[Option.ABSTAIN])


@dataclass(frozen=True)
class Block:
    """One block of a tally with what ``tally_explained`` says of it: who cast it, the events it rests on, and who
    may see how it voted (None: anyone, as a Temporary Faction's vote; a player's ballot: that player)."""

    who: str
    weight: int
    option: Option | None
    events: tuple[int, ...] = ()
    seen_by: frozenset[str] | None = None
    faction: bool = False


def tally_explained(blocks: Sequence[Block], events: tuple[int, ...] = ()) -> tuple[Tally, tuple[Step, ...]]:
    """``tally`` of ``blocks`` and its steps: each block (a player's one only to them), the sums on each option
    (with names for the moderators, factions and the players' part for everyone), VIP, E, T and the outcome.
    ``events`` are those the tally itself read (the round's close)."""
    result = tally((b.weight, b.option) for b in blocks)
    steps: list[Step] = []
    for b in blocks:
        if b.faction:
            continue
        if b.option is None:
            steps.append(Step(f"{b.who}: {b.weight} votes, no ballot, so they abstain", "a player with no ballot "
                              "at the deadline abstains", "R0-13", b.events, b.seen_by))
        else:
            steps.append(Step(f"{b.who}: {b.weight} votes, all for {b.option.label}", "all of a player's votes go "
                              "to their ballot's option, weighed at the close", "R0-14", b.events, b.seen_by))
    sums = {Option.AYE: result.aye, Option.NAY: result.nay, Option.ABSTAIN: result.abstain}
    for option, total in sums.items():
        mine = [b for b in blocks if (b.option or Option.ABSTAIN) is option]
        named = " + ".join(f"{b.who} {b.weight}" for b in mine) or "nothing"
        steps.append(Step(f"{option.label}: {named} = {total}", "each option's total is the sum of the votes on it",
                          "R0-18", events, frozenset()))
        factions = [f"{b.who} {b.weight}" for b in mine if b.faction]
        players = sum(b.weight for b in mine if not b.faction)
        parts = " + ".join([*factions, f"the players {players}"])
        steps.append(Step(f"{option.label}: {parts} = {total}", "each option's total is the sum of the votes on it",
                          "R0-18", events, stand_in=True))
    steps.append(Step(f"Votes in play: Aye {result.aye} + Nay {result.nay} + Abstain {result.abstain} = "
                      f"{result.in_play}", "every active player's votes and every temporary faction's", "R0-17",
                      events))
    steps.append(Step(f"Counted: Aye {result.aye} + Nay {result.nay} = {result.effective} (abstentions left out); "
                      f"needed to pass: {result.effective} ÷ 2 rounded down + 1 = {result.needed}",
                      "a measure needs more than half of the Aye and Nay votes", "R0-18", events))
    outcome = "passed" if result.passed else "failed"
    compare = "≥" if result.passed else "<"
    steps.append(Step(f"Aye {result.aye} {compare} {result.needed} needed: {outcome}",
                      "it passes if and only if Aye reaches the threshold (a tie fails)", "R0-18", events))
    return result, tuple(steps)
