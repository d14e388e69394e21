"""A crisis round's close before it happens (``/round preview``, moderators only): the tally of what is already
certain (every ballot, the fixed factions, the factions already rolled), the exact odds over every face of the d6
factions not yet rolled, and the smallest change that would turn the result.

The odds are exact: each unrolled faction adds its votes to Aye, to Nay or to neither, on so many of its six faces,
and the close passes or fails on Aye against Nay alone (R0-18). So the unrolled factions are folded one at a time into
a count of face combinations for each margin (their Aye less their Nay): at most twice their votes plus one margins,
however many factions there are. Each margin is judged by the close's own ``Tally.passed``; the tests check the whole
against ``crisis.resolve`` on every face combination. What one faction's roll decides is read by taking that faction
back out of the count (an exact division), so it costs no more than the count itself."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

from engine.landsdraad.crisis import resolve
from engine.landsdraad.factions import TempFaction
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally

FACES = 6

Counts = dict[int, int]
"""Margin (Aye less Nay of the unrolled factions) -> on how many face combinations it comes out."""


@dataclass(frozen=True)
class OptionOdds:
    """One option of an unrolled faction's table: the faces that give it, and the chance the crisis passes if the
    faction rolls one of them (every other unrolled faction still rolled)."""

    option: Option
    faces: tuple[int, ...]
    passes: Fraction

    @property
    def faces_text(self) -> str:
        """``5-6``, ``4``, ``1, 3`` (a table's faces need not be a run)."""
        f = self.faces
        if len(f) > 1 and f == tuple(range(f[0], f[-1] + 1)):
            return f"{f[0]}-{f[-1]}"
        return ", ".join(map(str, f))


@dataclass(frozen=True)
class FactionOdds:
    name: str
    votes: int
    table: str
    options: tuple[OptionOdds, ...]

    @property
    def decides(self) -> bool:
        """Its roll changes the odds (some option gives a different chance of passing than another)."""
        return len({o.passes for o in self.options}) > 1


@dataclass(frozen=True)
class Preview:
    known: Tally
    """What is certain now: every player's weight read now and their ballot (none: abstain), the fixed factions and
    the d6 factions whose roll is already set."""
    factions: tuple[FactionOdds, ...]
    """The d6 factions not yet rolled, in the round's order."""
    combinations: int
    """6 to the number of unrolled factions: every face combination, each as likely as the next."""
    passing: int
    """How many of them pass."""
    lowest: int
    highest: int
    """The smallest and the largest Aye-less-Nay margin over every combination (the known tally's, if none roll)."""
    counts: tuple[tuple[int, int], ...] = ()
    """(margin the unrolled factions add, on how many combinations), for ``passes_with_more``."""

    @property
    def passes(self) -> Fraction:
        return Fraction(self.passing, self.combinations)

    @property
    def fails(self) -> Fraction:
        return 1 - self.passes

    @property
    def certain(self) -> bool:
        return self.passing in (0, self.combinations)

    @property
    def unrolled_votes(self) -> int:
        return sum(f.votes for f in self.factions)

    def passes_with_more(self, aye: int = 0, nay: int = 0) -> Fraction:
        """The chance it passes with ``aye`` votes more on Aye and ``nay`` more on Nay (a player without a ballot
        voting, say), counted by the close's test on that tally."""
        known = Tally(self.known.aye + aye, self.known.nay + nay, self.known.abstain)
        return Fraction(Passing(dict(self.counts)).at_least(threshold(known)), self.combinations)

    def more_aye_to_pass(self) -> int:
        """The fewest Aye votes more (a new Aye ballot, or Abstain or no ballot turned Aye) with which it passes
        whatever the rolls; 0 if it already does."""
        return max(0, 1 - self.lowest)

    def more_nay_to_fail(self) -> int:
        """The fewest Nay votes more with which it fails whatever the rolls (a tie fails); 0 if it already does."""
        return max(0, self.highest)

    def more_aye_to_pass_at_all(self) -> int:
        """The fewest Aye votes more with which it passes on at least one roll; 0 if it already can."""
        return max(0, 1 - self.highest)

    def more_nay_to_fail_at_all(self) -> int:
        """The fewest Nay votes more with which it fails on at least one roll; 0 if it already can."""
        return max(0, self.lowest)


def passes_with(known: Tally, margin: int) -> bool:
    """The close's own test (``Tally.passed``) on the known tally with the unrolled factions' margin added: their
    surplus on the Aye side, or their shortfall on the Nay side."""
    return Tally(known.aye + max(margin, 0), known.nay + max(-margin, 0), known.abstain).passed


def steps_of(faction: TempFaction) -> Counts:
    """The margin a faction adds (+votes for Aye, -votes for Nay, 0 for Abstain) -> on how many of its faces."""
    assert faction.table is not None
    steps: Counts = {}
    for option, faces in faction.table.odds().items():
        delta = faction.votes if option is Option.AYE else -faction.votes if option is Option.NAY else 0
        steps[delta] = steps.get(delta, 0) + faces
    return steps


def fold(counts: Counts, steps: Counts) -> Counts:
    """``counts`` with one more faction rolled: every margin shifted by each of its steps."""
    out: Counts = {}
    for margin, n in counts.items():
        for delta, k in steps.items():
            out[margin + delta] = out.get(margin + delta, 0) + n * k
    return out


def unfold(counts: Counts, steps: Counts) -> Counts:
    """``counts`` with one faction taken back out: the exact inverse of ``fold`` (a division by the faction's three
    terms, solved from the top margin down, or from the bottom up when it never votes Aye)."""
    votes = max(abs(d) for d in steps)
    aye, abstain, nay = steps.get(votes, 0) if votes else 0, steps.get(0, 0), steps.get(-votes, 0) if votes else 0
    out: Counts = {}
    if aye:
        for m in range(max(counts), min(counts) - 1, -1):  # counts[m] = aye·w[m-v] + abstain·w[m] + nay·w[m+v]
            rest = counts.get(m, 0) - abstain * out.get(m, 0) - nay * out.get(m + votes, 0)
            out[m - votes], left = divmod(rest, aye)
            assert left == 0, "unfold of a faction that was not folded in"
    elif nay:
        for m in range(min(counts), max(counts) + 1):
            rest = counts.get(m, 0) - abstain * out.get(m, 0)
            out[m + votes], left = divmod(rest, nay)
            assert left == 0, "unfold of a faction that was not folded in"
    else:
        out = {m: n // abstain for m, n in counts.items()}
    return {m: n for m, n in out.items() if n}


def threshold(known: Tally) -> int:
    """The smallest margin of the unrolled factions with which the close's ``Tally.passed`` passes. It reads only
    Aye against Nay, so every larger margin passes and every smaller one fails; both sides are checked here."""
    cut = known.nay - known.aye + 1
    if not passes_with(known, cut) or passes_with(known, cut - 1):
        raise AssertionError("the crisis test is no longer Aye against Nay; preview.py must count another way")
    return cut


class Passing:
    """How many combinations of ``counts`` reach a margin, for any margin, by a binary search on running totals."""

    def __init__(self, counts: Counts) -> None:
        self.margins = sorted(counts)
        self.above = [*list(accumulate(reversed([counts[m] for m in self.margins])))[::-1], 0]
        """``above[i]``: the combinations with margin ``margins[i]`` or more."""

    def at_least(self, margin: int) -> int:
        return self.above[bisect_left(self.margins, margin)]


def preview(weights: Mapping[int, int], ballots: Mapping[int, Option], factions: Sequence[TempFaction],
            rolls: Mapping[str, int]) -> Preview:
    """The close as ``round_close.close`` would make it now, without rolling: the players, the fixed factions and
    the d6 factions in ``rolls`` go through ``crisis.resolve`` as at the close; the others are counted over every
    face."""
    settled = [f for f in factions if not f.rolls or f.name in rolls]
    unrolled = [f for f in factions if f.rolls and f.name not in rolls]
    known = resolve(weights, ballots, settled, rolls).tally
    counts: Counts = {0: 1}
    for faction in unrolled:
        counts = fold(counts, steps_of(faction))
    cut = threshold(known)
    odds: list[FactionOdds] = []
    for faction in unrolled:
        assert faction.table is not None
        steps = steps_of(faction)
        others = Passing(unfold(counts, steps))
        per_face = Fraction(1, FACES ** (len(unrolled) - 1))
        options = []
        for option in (Option.AYE, Option.NAY, Option.ABSTAIN):
            faces = tuple(face for face in range(1, FACES + 1) if faction.table.option_for(face) is option)
            if faces:
                delta = faction.votes if option is Option.AYE else -faction.votes if option is Option.NAY else 0
                options.append(OptionOdds(option, faces, others.at_least(cut - delta) * per_face))
        odds.append(FactionOdds(faction.name, faction.votes, faction.table.describe(), tuple(options)))
    base = known.aye - known.nay
    return Preview(known=known, factions=tuple(odds), combinations=FACES ** len(unrolled),
                   passing=Passing(counts).at_least(cut), lowest=base + min(counts), highest=base + max(counts),
                   counts=tuple(sorted(counts.items())))
