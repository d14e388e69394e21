"""Player Majority Votes (R0-40..R0-44, P0-09, P0-19): one active player, one supporter."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from engine.core.errors import RuleError


class Subject(Enum):
    NO_CONFIDENCE = "no confidence"
    END_EMBARGO = "end embargo"
    AUDIT = "audit"
    END_KANLY = "end kanly"
    END_GAME = "end game"

    @property
    def title(self) -> str:
        return self.value.title()


class State(Enum):
    OPEN = "open"
    PASSED = "passed"
    """PASSED_PENDING: reached the majority, awaiting the moderator."""
    ENACTED = "enacted"
    VETOED = "vetoed"
    EXPIRED = "expired"


def needed(active: int) -> int:
    """R0-41: passes when supporters >= floor(A/2) + 1 (a majority of *all* active players)."""
    return active // 2 + 1


@dataclass(frozen=True)
class PlayerVote:
    """One subject-and-target tally (R0-44). ``target`` is a canonical key such as ``3`` or ``3:5``."""

    subject: Subject
    target: str | None
    state: State = State.OPEN
    supporters: frozenset[int] = field(default_factory=frozenset)

    def _evaluate(self, active: int) -> PlayerVote:
        if self.state is State.OPEN and len(self.supporters) >= needed(active):
            return replace(self, state=State.PASSED)
        return self

    def support(self, player: int, active: int) -> PlayerVote:
        if self.state is not State.OPEN:
            raise RuleError(f"This vote is already {self.state.value}; support can no longer change it.")
        return replace(self, supporters=self.supporters | {player})._evaluate(active)

    def withdraw(self, player: int) -> PlayerVote:
        """Withdrawing after the vote passed does not reverse it (P0-19)."""
        if self.state is not State.OPEN:
            raise RuleError(f"This vote is already {self.state.value}; withdrawing no longer changes it.")
        return replace(self, supporters=self.supporters - {player})

    def reevaluate(self, active: int) -> PlayerVote:
        """P0-19 / A0-13: when the number of active players changes, an open vote may pass at once."""
        return self._evaluate(active)

    def enact(self) -> PlayerVote:
        if self.state is not State.PASSED:
            raise RuleError("Only a vote that has passed can be enacted.")
        return replace(self, state=State.ENACTED)

    def veto(self) -> PlayerVote:
        if self.state is not State.PASSED:
            raise RuleError("Only a vote that has passed can be vetoed.")
        return replace(self, state=State.VETOED)

    def expire(self) -> PlayerVote:
        """R0-42/R0-43: an open vote expires at round end; a passed one still awaits the moderator."""
        return replace(self, state=State.EXPIRED) if self.state is State.OPEN else self


def vote_title(subject: Subject, target: str) -> str:
    """``No Confidence in Jenny``, ``End Embargo on Bob``, ``Audit of Bob, rounds 2 and 4``, ``End Game``."""
    if not target:
        return subject.title
    joiner = {Subject.NO_CONFIDENCE: " in ", Subject.END_EMBARGO: " on ", Subject.AUDIT: " of ",
              Subject.END_KANLY: " between "}.get(subject, ": ")
    return f"{subject.title}{joiner}{target}"
