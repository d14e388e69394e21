"""Party alignment and realignment (R1-10..R1-14): the window at the start of the Election Round, once a turn,
and the locks computed once from a snapshot (P1-03, P1-04)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.core.errors import RuleError
from engine.mylantium.model import Faction, FactionCode, Party


class Window(Enum):
    """Where the turn is, for realignment (R1-11): only at the start of the Election Round, before the Primary."""

    OPEN = "open"
    PRIMARY_OPENED = "primary opened"
    NOT_ELECTION = "not election"


@dataclass(frozen=True)
class Snapshot:
    """The locks of one Election Round (P1-04), by Faction, with the reason for each."""

    locks: Mapping[FactionCode, str] = field(default_factory=dict)

    def reason(self, code: FactionCode) -> str | None:
        return self.locks.get(code)


def take_snapshot(factions: Iterable[Faction], president: FactionCode | None) -> Snapshot:
    """R1-12 at the start of the Election Round: (a) the largest National Faction Vote of each party is locked,
    every tied Faction with it (P1-03); (b) so is the Faction that controlled the Presidency during the previous
    turn's Business Phase."""
    playing = [f for f in factions if f.in_play]
    locks: dict[FactionCode, str] = {}
    for party in Party:
        members = [f for f in playing if f.party is party]
        if not members:
            continue
        top = max(f.votes for f in members)
        tied = [f for f in members if f.votes == top]
        for f in tied:
            shared = f", tied with the {', '.join(o.code.plural for o in tied if o is not f)}" if len(tied) > 1 else ""
            locks[f.code] = (f"it has the largest National Faction Vote of the {party.title}s ({top}{shared}), so "
                             "it cannot leave its party")
    if president is not None and any(f.code is president for f in playing):
        locks.setdefault(president, "it controlled the Presidency during the previous turn's Business Phase")
    return Snapshot(locks)


def check_realign(faction: Faction, target: Party, snapshot: Snapshot, window: Window, realigned: bool) -> None:
    """Raise RuleError with the reason when ``faction`` may not realign to ``target`` now (R1-11, R1-12)."""
    if not faction.in_play:
        raise RuleError(f"The {faction.code.plural} have withdrawn from the game.")
    if target is faction.party:
        raise RuleError(f"The {faction.code.plural} are already {target.title}s.")
    if window is Window.PRIMARY_OPENED:
        raise RuleError("A Faction may realign only at the start of the Election Round, before the Primary; the "
                        "Primary has opened.")
    if window is Window.NOT_ELECTION:
        raise RuleError("A Faction may realign only at the start of an Election Round, before the Primary; "
                        "no Election Round has started.")
    if realigned:
        raise RuleError("A Faction may realign only once a turn, and yours already has.")
    reason = snapshot.reason(faction.code)
    if reason is not None:
        raise RuleError(f"The {faction.code.plural} cannot realign: {reason}.")
