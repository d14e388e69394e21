"""What the Mylantium services return to the front ends: plain frozen data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.mylantium.approval import Change
from engine.mylantium.model import Faction, FactionCode, Party
from engine.mylantium.revolution import CalledOff, Chain
from engine.service.announcements import POST_TOKEN
from engine.service.views import GameView


@dataclass(frozen=True)
class MylFactionView:
    code: FactionCode
    player: str
    user_id: int
    party: Party
    vp: int
    treasury: int
    in_play: bool
    votes: Mapping[str, int]
    """Faction Votes by territory (R1-02)."""
    per: Mapping[str, int] = field(default_factory=dict)
    entered: Mapping[str, int] = field(default_factory=dict)
    candidate: str | None = None
    realigned_turn: int | None = None

    @property
    def national(self) -> int:
        return sum(self.votes.values())

    @property
    def title(self) -> str:
        return self.code.plural


@dataclass(frozen=True)
class CandidateView:
    name: str
    faction: FactionCode
    party: Party
    charisma: int
    running: bool
    discarded: bool
    renamed_from: str | None = None
    """The name it had, when ``/candidate set rename:`` has just corrected it."""


@dataclass(frozen=True)
class TerritoryView:
    name: str
    buildings: Mapping[str, int]
    names: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class UnitView:
    name: str
    territory: str
    maintenance: int
    cost: int
    status: str


@dataclass(frozen=True)
class GovernmentView:
    """The government page (the document's "government's homepage"): PUBLIC (rules-spec §2.2.7)."""

    game: GameView
    turn: int
    stage: str
    approval: int
    approval_default: bool
    fervor: int
    president: FactionCode | None
    incumbent: Party | None
    factions: tuple[MylFactionView, ...]
    candidates: tuple[CandidateView, ...]
    territories: tuple[TerritoryView, ...]
    units: tuple[UnitView, ...]
    in_play: Mapping[str, Any]
    independent: int
    revolution: str | None = None
    setting_up: bool = False
    """Turn 1 before its Election Round starts: the moderators are setting the Republic up (docs/commands.md)."""

    @property
    def faction_votes(self) -> int:
        """``F``: the Faction Votes of the Factions in play."""
        return sum(f.national for f in self.factions if f.in_play)

    @property
    def total_vp(self) -> int:
        return sum(f.vp for f in self.factions if f.in_play)


@dataclass(frozen=True)
class MylElectionView:
    game: GameView
    turn: int
    stage: str
    status: str
    opened_at: datetime
    deadline: datetime | None
    chosen: tuple[str, ...]
    """Factions that have sent a choice (not what they chose)."""
    waiting: tuple[str, ...]
    result: Mapping[str, Any] | None = None
    already_closed: bool = False
    held_left: timedelta | None = None
    """While a chain of Revolutions suspends play: the time the deadline had left when it began (held)."""
    running: tuple[CandidateView, ...] = ()
    """When a Primary opens: the candidates running in it, for its opening card (play-test M5.2); else empty."""

    @property
    def title(self) -> str:
        return "Primary" if self.stage == "primary" else "General Election"

    @property
    def closing(self) -> int:
        """Which close its result is: 1, or more for a result closed again after ``/election reopen``."""
        return int((self.result or {}).get("closing", 1))

    @property
    def post_token(self) -> str | None:
        """The close's own token (``result.post_token``), which its card's nonce carries
        (``engine.service.announcements.announcement_nonce``); None for one closed by a Clerk from before tokens."""
        token = (self.result or {}).get(POST_TOKEN)
        return str(token) if token else None


@dataclass(frozen=True)
class ChoiceReceipt:
    game: GameView
    turn: int
    stage: str
    faction: FactionCode
    choice: str
    replaced: str | None
    votes: int
    deadline: datetime | None
    duplicate: bool = False


@dataclass(frozen=True)
class RealignReceipt:
    game: GameView
    faction: FactionCode
    old: Party
    new: Party
    discarded: str | None
    duplicate: bool = False


@dataclass(frozen=True)
class HappeningView:
    id: int
    turn: int
    text: str
    note: str | None


@dataclass(frozen=True)
class HeldElection:
    """The open election while a chain suspends play (its deadline held), or as it resumes."""

    title: str
    deadline: datetime
    """The deadline stored now: while held, the one it had when the chain began; once resumed, the moved one."""
    left: timedelta | None
    """While held, the time it had left when the chain began; None once play resumes."""


@dataclass(frozen=True)
class ChainView:
    game: GameView
    number: int
    chain: Chain
    factions: tuple[Faction, ...]
    users: Mapping[FactionCode, int]
    deadline: datetime | None
    pledged: tuple[FactionCode, ...] = ()
    """Who has sent a contribution to the current attempt (not how much: MOD, P1-19)."""
    disclosed: tuple[tuple[FactionCode, str, int], ...] = ()
    """For the moderators: the contributions the attempt just resolved gives away (Faction, fund, amount)."""
    new_attempts: int = 0
    """How many attempts this step added or finished (for announcing only what is new)."""
    first_new: int = 1
    """The number of the first attempt this step touched."""
    resumed: str | None = None
    """What that attempt had already announced: None (nothing), ``coup`` (its Vanguard, and the coup offer) or
    ``contributions`` (everything up to the contributions)."""
    fervor: int | None = None
    """The Republic's Revolutionary Fervor now, after this step (a put-down attempt's card says what it rose to)."""
    called_off: CalledOff | None = None
    """The attempt this step called off (its Vanguard no longer at 0 VP), if any."""
    election: HeldElection | None = None
    """The open election with a deadline, if any: held while the chain runs, resumed once it is over."""


@dataclass(frozen=True)
class BusinessView:
    game: GameView
    turn: int
    approval_start: int
    approval_changes: tuple[Change, ...]
    approval_end: int
    approval_raw: int
    fervor_changes: tuple[Change, ...]
    fervor_end: int
    lost: Mapping[FactionCode, int]
    vp: Mapping[FactionCode, int]
    total_vp: int
    chain: ChainView | None
    collapse: bool = False


@dataclass(frozen=True)
class PledgeReceipt:
    game: GameView
    faction: FactionCode
    to_crt: int
    to_vanguard: int
    treasury: int
    deadline: datetime | None
    replaced: tuple[int, int] | None
    vanguard: FactionCode
    duplicate: bool = False


@dataclass(frozen=True)
class VpChange:
    """A moderator's change of a Faction's VP, and the chain it may have started (R1-40)."""

    faction: MylFactionView
    chain: ChainView | None
    collapse: bool = False
    decided: Chain | None = None
    """The chain that ended the game, when the change was made in a reopened game it had decided (no check)."""
    rejoined: str | None = None
    """The name of a removed player this change brought back with their Faction."""
    idle_candidate: str | None = None
    """Their Candidate, who stopped running at the removal and still does not run."""
    choice_dropped: str | None = None
    """The candidate the Faction had chosen in the open Primary, dropped because a correction of its party made
    that choice one it may not make (secret: told to its player and the moderator only)."""
    handed: tuple[int, str, int, str] | None = None
    """``user:`` handed the Faction to another member: (old user id, old name, new user id, new name)."""
    party_changed: bool = False
    """``party:`` corrected the Faction's party (a party is public: the channel is told)."""


@dataclass(frozen=True)
class HistoryView:
    """The Approval Rating and Revolutionary Fervor over the turns (PUBLIC, rules-spec §2.2.7): each measure as
    ``(turn, value)`` points, ``turn`` 0 being the value before its first change and each later point the value
    at the end of that turn (so far, for the current one)."""

    game: GameView
    turn: int
    approval: tuple[tuple[int, int], ...]
    fervor: tuple[tuple[int, int], ...]


def history_points(changes: list[tuple[int, int, int]], now: int, turn: int) -> tuple[tuple[int, int], ...]:
    """The points of one measure from its changes ``(turn, delta, value)`` in the order they were made: the value
    before the first change at turn 0, then the value at the end of each turn 1..``turn`` (``now`` when there is
    no change at all)."""
    start = changes[0][2] - changes[0][1] if changes else now
    points = [(0, start)]
    value = start
    for t in range(1, max(turn, 1) + 1):
        for when, _, after in changes:
            if when == t:
                value = after
        points.append((t, value))
    return tuple(points)


@dataclass(frozen=True)
class ChoiceAgain:
    """A Faction's player told that an election they chose in (or were asked to) is open again: their own choice."""

    user_id: int
    faction: FactionCode
    choice: str | None
    """What their Faction chose, told to its player only; None: nothing yet."""


@dataclass(frozen=True)
class Reopened:
    """``/election reopen``: the election open again, what its close had decided (withdrawn) and what else the
    reopening undid or left."""

    election: MylElectionView
    withdrawn: Mapping[str, Any]
    """The result withdrawn, as its close recorded it (with any nominee the moderators named since)."""
    shown: str
    """How the withdrawn result was shown to the players: ``full``, ``coarse`` or ``held`` (never posted)."""
    link: str | None
    """The withdrawn result's card, when Clerk kept where it went and it was posted."""
    reason: str | None
    deadline_was: datetime | None
    """The deadline it had when it closed."""
    president: tuple[FactionCode, FactionCode] | None
    """(the Faction the close gave the Presidency to, the one that holds it again), when the close changed it."""
    happenings_since: int
    """Happenings recorded since the close: they stay."""
    players: tuple[ChoiceAgain, ...]


@dataclass(frozen=True)
class RoundCalledOff:
    """``/election cancel``: the Election Round started too early, taken back."""

    game: GameView
    turn: int
    """The turn whose Election Round was called off."""
    turn_now: int
    """The turn the game is in now: the one before, after its Business Phase, or still the first, being set up."""
    locks: Mapping[str, str]
    """The locks the start had taken, withdrawn (Faction -> why)."""
    relabelled: int
    """Changes of VP, approval or Fervor (and Revolutions) made since the start, counted in ``turn_now`` again."""
    reason: str | None
