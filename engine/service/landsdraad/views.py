"""What the Landsdraad services return to the front ends: players and their votes, rounds, ballots, results."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.landsdraad.votes import VoteBreakdown
from engine.service.dice import SealView
from engine.service.views import GameView


@dataclass(frozen=True)
class HoldingView:
    kind: str
    name: str
    grade: str | None
    """An Elector's tier or a planet's quality; None for a Homeworld entered without a quality."""
    votes: int
    homeworld: bool


@dataclass(frozen=True)
class PlayerView:
    id: int
    user_id: int
    name: str
    faction: str | None
    diplomacy: int
    command: int
    intrigue: int
    roll: int
    misc: int
    active: bool
    breakdown: VoteBreakdown
    holdings: tuple[HoldingView, ...] = ()
    removed: bool = False
    """A moderator removed them (``/player remove``); they are inactive too."""
    diplomacy_max: int = 0
    intrigue_max: int = 0
    """The highest Diplomacy and Intrigue held, which the base vote counts (they never fall)."""
    renamed: tuple[tuple[str, str | None, str | None], ...] = ()
    """What ``/player set`` just changed of their public name and faction: ``(field, was, now)`` (play-test Y9)."""

    @property
    def votes(self) -> int:
        return self.breakdown.total

    @property
    def state(self) -> str:
        """What a roster says after their name: `` (removed)``, `` (inactive)`` or nothing."""
        return " (removed)" if self.removed else "" if self.active else " (inactive)"


@dataclass(frozen=True)
class FactionView:
    name: str
    votes: int
    stance: str
    table: str | None
    roll: int | None = None
    vote: str | None = None
    sealed: str | None = None
    """The seal of a face the moderator set for it (docs/dice.md), posted before the close."""
    preset: bool = False
    """The moderator set its face (``/faction add roll:``), whether or not a seal is known: a rehearsal copy keeps
    the face but not the live game's dice record with its seal (play-test I4.8)."""


@dataclass(frozen=True)
class RoundView:
    game: GameView
    number: int
    crisis: str
    status: str
    deadline: datetime | None
    in_play: int
    factions: tuple[FactionView, ...] = ()
    paused_left: timedelta | None = None
    """Time the deadline had left when a moderator paused the round (the deadline is then None)."""
    seal: SealView | None = None
    """The commitment of the round's dice seed (docs/dice.md); its seed and salt once the round has closed."""
    base_seal: SealView | None = None
    """The commitment of the game's seed for the base d3 rolls, if Clerk rolled any (revealed at the game's end)."""
    void_was: str | None = None
    """A round the moderators voided (``/round void``): ``open`` or ``closed``, what it was then; None for any other
    round (a round the game's end made void included)."""
    void_reason: str | None = None


@dataclass(frozen=True)
class BallotReceipt:
    game: GameView
    round_number: int
    option: str
    declared: int | None
    votes: int
    replaced: str | None
    deadline: datetime | None
    duplicate: bool = False
    current: str | None = None
    """For a duplicate: the player's ballot as it stands now (it may have changed since)."""
    paused_left: timedelta | None = None
    """Set while the moderators have paused the round's deadline: the time left when it resumes."""


@dataclass(frozen=True)
class StatusView:
    round: RoundView
    voted: tuple[str, ...]
    waiting: tuple[str, ...]
    result: ResultView | None = None
    """Set when the round is closed."""


@dataclass(frozen=True)
class Disclosure:
    """What the disclosure check found at the close (docs/rulings.md): for the moderators only."""

    mode: str
    """The ``disclosure`` setting at the close: post, coarsen or hold."""
    exposed: tuple[tuple[str, str], ...]
    """(player, option) of each player whose ballot the totals give away."""
    ruled_out: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    """(player, votes, options) of each player whose ballot the totals give away in part: they show the player did
    not vote these options, though more than one is left. Only warns (the ``mode`` is then ``post``)."""
    partial: bool = False
    """Only the quick check ran (a very large electorate)."""
    held: bool = False
    released: bool = False


@dataclass(frozen=True)
class ResultView:
    round: RoundView
    outcome: str
    aye: int
    nay: int
    abstain: int
    in_play: int
    needed: int
    factions: tuple[FactionView, ...] = field(default_factory=tuple)
    already_closed: bool = False
    adjutant: str | None = None
    """Who held the Adjutant General's office at round end (R0-34)."""
    income_penalty: int = 0
    """MS docked from every player's income this round because there was no AG (R0-34), else 0."""
    expired: tuple[str, ...] = ()
    """Player votes of the round that expired unpassed at its end (R0-43)."""
    elections_closed: tuple[int, ...] = ()
    """AG elections that closed with the round (after No Confidence, R0-35)."""
    due_at: datetime | None = None
    """The deadline a round closed by its timer was due at; set when it closed late (the bot was offline)."""
    disclosure: Disclosure | None = None
    """Set when the totals give a ballot away."""
    post_token: str | None = None
    """The close's own token, which its card's nonce carries (``engine.service.announcements.announcement_nonce``);
    None for a round closed by a Clerk from before tokens."""

    @property
    def shown(self) -> str:
        """How the result may be shown to players: ``full``, ``coarse`` (passed or failed and the margin's band) or
        ``held`` (nothing until a moderator releases it)."""
        d = self.disclosure
        if d is None or d.released or d.mode == "post":
            return "full"
        return "held" if d.held else "coarse"
