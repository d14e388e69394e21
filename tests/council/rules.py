"""The council's pure rules: a yes/no vote of seated members, each ballot carrying the member's weight; yes carries
only with more weight than no. The state is read back from the council's events (``fold``), so the ruleset needs no
table of its own. No discord, sqlalchemy, asyncio, clock or I/O here."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.core.errors import ParseError

SEATED, OPENED, BALLOT, REMINDED, CLOSED = ("CouncilSeated", "CouncilOpened", "CouncilBallot", "CouncilReminded",
                                            "CouncilClosed")
KINDS = (SEATED, OPENED, BALLOT, REMINDED, CLOSED)
"""The events the council appends (``events.kind``), each with a JSON payload."""

_FORM = re.compile(r"^council\s*:\s*(?P<answer>.*?)\s*(?:#(?P<game>\S+))?$", re.IGNORECASE)
_ANSWERS = {"yes": True, "aye": True, "no": False, "nay": False}


def looks_like(text: str) -> bool:
    """Is this DM meant for the council (``Council: ...``)?"""
    return _FORM.match(text.strip()) is not None


def parse_ballot(text: str) -> tuple[bool, str | None]:
    """``Council: yes`` / ``Council: no`` (``#game`` at the end picks a game) -> (yes?, game name or None)."""
    found = _FORM.match(text.strip())
    if found is None:
        raise ParseError(text, "a council ballot reads `Council: yes` or `Council: no`")
    answer = found["answer"].strip().lower()
    if answer not in _ANSWERS:
        raise ParseError(text, "a council ballot reads `Council: yes` or `Council: no`",
                         problem=f"“{found['answer'].strip() or 'nothing'}” is neither yes nor no")
    return _ANSWERS[answer], found["game"]


@dataclass(frozen=True)
class Tally:
    yes: int
    no: int
    abstained: tuple[str, ...] = ()
    """The members who did not vote, by name."""

    @property
    def carried(self) -> bool:
        """Yes wins only with more weight than no (a tie fails)."""
        return self.yes > self.no


def tally(weights: Mapping[int, int], names: Mapping[int, str], ballots: Mapping[int, bool]) -> Tally:
    """The sum of the weights of the yes ballots against that of the no ballots; a member's last ballot counts."""
    yes = sum(weights[u] for u, v in ballots.items() if v and u in weights)
    no = sum(weights[u] for u, v in ballots.items() if not v and u in weights)
    return Tally(yes, no, tuple(sorted(names[u] for u in weights if u not in ballots)))


@dataclass
class Vote:
    number: int
    question: str
    deadline: datetime | None
    opened: datetime | None = None
    ballots: dict[int, bool] = field(default_factory=dict)
    reminded: bool = False
    result: Tally | None = None
    """Set when it closed."""

    @property
    def open(self) -> bool:
        return self.result is None

    def reminder_due(self, before: timedelta) -> datetime | None:
        """When its one reminder is due (``before`` the deadline), or None: sent already, closed, no deadline, or
        opened less than ``before`` ahead of it (no reminder for a vote that short)."""
        if not self.open or self.reminded or self.deadline is None:
            return None
        if self.opened is not None and self.deadline - self.opened <= before:
            return None
        return self.deadline - before


@dataclass
class Council:
    weights: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    votes: list[Vote] = field(default_factory=list)

    @property
    def current(self) -> Vote | None:
        """The open vote, if any."""
        return self.votes[-1] if self.votes and self.votes[-1].open else None

    def vote(self, number: int) -> Vote | None:
        return next((v for v in self.votes if v.number == number), None)


def fold(events: Iterable[tuple[str, Mapping[str, Any]]]) -> Council:
    """The council as its events (in order) leave it."""
    council = Council()
    for kind, p in events:
        if kind == SEATED:
            council.weights[int(p["user_id"])] = int(p["weight"])
            council.names[int(p["user_id"])] = str(p["name"])
        elif kind == OPENED:
            deadline = datetime.fromisoformat(p["deadline"]) if p.get("deadline") else None
            opened = datetime.fromisoformat(p["opened"]) if p.get("opened") else None
            council.votes.append(Vote(int(p["number"]), str(p["question"]), deadline, opened))
        elif kind in (BALLOT, REMINDED, CLOSED):
            vote = council.vote(int(p["number"]))
            if vote is None:
                continue
            if kind == BALLOT:
                vote.ballots[int(p["user_id"])] = bool(p["yes"])
            elif kind == REMINDED:
                vote.reminded = True
            else:
                vote.result = Tally(int(p["yes"]), int(p["no"]), tuple(p.get("abstained", ())))
    return council
