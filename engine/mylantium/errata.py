"""Corrections after the fact (issue 19): a closed General Election counted again under a corrected Approval Rating.

The election is resolved by the function its close used (``elections.general``: R1-01..R1-05, P1-01, P1-02, P1-16)
from what the close recorded: each party's Faction Votes, its nominee's Charisma, the Faction Votes in play, the
incumbent party. ``general`` reads the Faction Votes only as sums (per party chosen, and in all), so the recorded
sums are given to it as one block each; the Independent Vote and its split are computed again at the corrected
approval."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.mylantium.elections import Candidate, GeneralResult, general
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.settings import DEFAULT, Rules

APPROVAL_MIN, APPROVAL_MAX = 0, 100


@dataclass(frozen=True)
class ClosedGeneral:
    """What a General Election's close recorded and posted."""

    turn: int
    faction_votes: Mapping[Party, int]
    """The Faction Votes of the Factions that chose each party."""
    in_play: int
    """F: every Faction in play's votes, chosen or not (R1-04)."""
    charisma: Mapping[Party, int]
    """Each party's nominee's Charisma (0: no nominee running)."""
    incumbent: Party
    approval: int
    posted: Mapping[Party, int]
    """Each party's total as posted."""
    winner: Party
    rounding: str = DEFAULT.rounding
    """The ``independent_rounding`` the close counted with."""


@dataclass(frozen=True)
class GeneralRecount:
    turn: int
    closed: ClosedGeneral
    corrected: GeneralResult
    rounding: str = DEFAULT.rounding
    """The ``independent_rounding`` it was counted again with (the game's setting now)."""
    stated: Mapping[Party, int] | None = None
    """The totals the latest erratum posted for it said, if one was posted: the players' last word on it."""

    @property
    def totals(self) -> dict[Party, int]:
        return {p: line.total for p, line in self.corrected.lines.items()}

    @property
    def differs(self) -> bool:
        """The election comes out differently from what the players last read: the card, or its latest erratum."""
        return self.totals != dict(self.stated if self.stated is not None else self.closed.posted)

    @property
    def restores(self) -> bool:
        """An erratum was posted and the election now comes out as first posted: that erratum no longer holds."""
        return self.stated is not None and self.totals == dict(self.closed.posted)

    @property
    def outcome_changed(self) -> bool:
        return self.corrected.winner is not self.closed.winner


def corrected_approval(recorded: int, change: int) -> int:
    """The approval a close would have read had it been ``change`` off: kept within 0..100, as every change is."""
    return max(APPROVAL_MIN, min(APPROVAL_MAX, recorded + change))


def recount_general(closed: ClosedGeneral, approval: int, rules: Rules = DEFAULT) -> GeneralRecount:
    """``closed`` resolved again at ``approval``, by ``general``."""
    codes = list(FactionCode)
    chosen = {codes[i]: party for i, party in enumerate(Party)}
    votes = {code: closed.faction_votes.get(party, 0) for code, party in chosen.items()}
    votes[codes[len(chosen)]] = closed.in_play - sum(votes.values())  # in play, chose neither party
    nominees = {party: Candidate(f"{party.title} nominee", codes[0], party, closed.charisma[party])
                if closed.charisma.get(party) else None for party in Party}
    result = general(nominees, chosen, votes, closed.incumbent, approval, rules)
    return GeneralRecount(closed.turn, closed, result, rules.rounding)
