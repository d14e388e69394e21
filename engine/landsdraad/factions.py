"""Temporary Factions (R0-16, P0-04): a fixed option or a d6 table rolled once at resolution."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.errors import ParseError, RuleError
from engine.landsdraad.ballot import OPTION_WORDS
from engine.landsdraad.model import Option

TABLE_ACCEPTED = "a table covering each face 1-6 once, such as `1-3 nay, 4 abstain, 5-6 aye`"
STANCES = ("aye", "nay", "abstain", "d6")
_ENTRY = re.compile(r"^\s*(\d)\s*(?:-\s*(\d))?\s*[:=]?\s*([a-z]+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class DieTable:
    """Face (1..6) -> option."""

    faces: tuple[Option, Option, Option, Option, Option, Option]

    def option_for(self, roll: int) -> Option:
        if roll not in range(1, 7):
            raise RuleError(f"a d6 roll must be 1 to 6, not {roll}.")
        return self.faces[roll - 1]

    def odds(self) -> dict[Option, int]:
        """How many of the six faces give each option."""
        counts: dict[Option, int] = {}
        for option in self.faces:
            counts[option] = counts.get(option, 0) + 1
        return counts

    def describe(self) -> str:
        """The table the way moderators write it: ``1-3 nay, 4 abstain, 5-6 aye``."""
        runs: list[str] = []
        start = 1
        for face in range(2, 8):
            if face == 7 or self.faces[face - 1] != self.faces[start - 1]:
                span = f"{start}" if start == face - 1 else f"{start}-{face - 1}"
                runs.append(f"{span} {self.faces[start - 1].value}")
                start = face
        return ", ".join(runs)


def parse_table(text: str) -> DieTable:
    faces: dict[int, Option] = {}
    for chunk in (c for c in re.split(r"[,;/]", text) if c.strip()):
        entry = _ENTRY.match(" ".join(chunk.split()))  # collapsed: the adjacent \s* cannot share a long run
        if not entry:
            problem = f"“{chunk.strip()}” is not `face option` or `from-to option`"
            raise ParseError(text, TABLE_ACCEPTED, problem=problem)
        low = int(entry[1])
        high = int(entry[2]) if entry[2] else low
        option = OPTION_WORDS.get(entry[3].lower())
        if option is None:
            raise ParseError(text, TABLE_ACCEPTED, problem=f"“{entry[3]}” is not aye, nay or abstain")
        if not 1 <= low <= high <= 6:
            raise ParseError(text, TABLE_ACCEPTED, problem=f"“{chunk.strip()}” is not within faces 1 to 6")
        for face in range(low, high + 1):
            if face in faces:
                raise ParseError(text, TABLE_ACCEPTED, problem=f"face {face} is given twice")
            faces[face] = option
    missing = [f for f in range(1, 7) if f not in faces]
    if missing:
        raise ParseError(text, TABLE_ACCEPTED, problem="no option for face " + ", ".join(map(str, missing)))
    return DieTable((faces[1], faces[2], faces[3], faces[4], faces[5], faces[6]))


@dataclass(frozen=True)
class TempFaction:
    """A Temporary Faction: its votes and either a fixed option or a d6 table."""

    name: str
    votes: int
    fixed: Option | None = None
    table: DieTable | None = None

    def __post_init__(self) -> None:
        if self.votes <= 0:
            raise RuleError(f"a temporary faction needs more than 0 votes (got {self.votes}).")
        if (self.fixed is None) == (self.table is None):
            raise RuleError("a temporary faction has either a fixed stance or a d6 table.")

    @property
    def rolls(self) -> bool:
        return self.table is not None

    def vote(self, roll: int | None) -> Option:
        if self.fixed is not None:
            return self.fixed
        assert self.table is not None
        if roll is None:
            raise RuleError(f"{self.name} votes by a d6 roll, and no roll was given.")
        return self.table.option_for(roll)


def make_faction(name: str, votes: int, stance: str, table: str | None) -> TempFaction:
    """A faction from moderator input: stance aye/nay/abstain, or d6 with a table."""
    word = stance.strip().lower()
    if word == "d6":
        if not table:
            raise RuleError("a d6 faction needs a table, such as `1-3 nay, 4 abstain, 5-6 aye`.")
        return TempFaction(name, votes, table=parse_table(table))
    option = OPTION_WORDS.get(word)
    if option is None:
        raise ParseError(stance, "a stance of `aye`, `nay`, `abstain` or `d6` (with a table)")
    if table:
        raise RuleError(f"a faction with the fixed stance {option.label} takes no table; use stance d6 for a roll.")
    return TempFaction(name, votes, fixed=option)


def faction_option_map(faction: TempFaction) -> Mapping[int, Option]:
    if faction.table is None:
        return {}
    return {face: faction.table.option_for(face) for face in range(1, 7)}
