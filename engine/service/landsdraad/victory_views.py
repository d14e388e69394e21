"""What the victory services return to the front ends: plain frozen data (rules-spec §3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.landsdraad.victory import Award, Category, Forecast, ScoreRow
from engine.service.views import GameView


@dataclass(frozen=True)
class TrackView:
    """One player's tracked measures, with their planets (Homeworld included) and votes from the ledger."""

    user_id: int
    name: str
    active: bool
    units: Mapping[str, int]
    assets: Mapping[str, int]
    income: int
    stock: int
    wealth: int
    heroes: int
    counters: Mapping[str, int]
    planets: int
    votes: int
    weathervane: int
    goals: int
    """VP of the goals achieved."""
    prestige: int
    removed: bool = False
    """A moderator removed them (``/player remove``): not in play, like an inactive player."""


@dataclass(frozen=True)
class TrackChange:
    """What a tracking command changed: (field, old, new) for each field it set, and notes for the moderator."""

    game: GameView
    player: TrackView
    changes: tuple[tuple[str, int, int], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LuxuryView:
    good: str
    in_play: int
    owned: int


@dataclass(frozen=True)
class VpSettingsView:
    """The category percentages and award weights (each with its default), the Luxury Goods in play."""

    game: GameView
    percentages: tuple[tuple[Category, int, int], ...]
    weights: tuple[tuple[Award, int, int], ...]
    luxuries: tuple[LuxuryView, ...]
    joined: int
    pot: Fraction
    removed: int = 0
    """How many of those ``joined`` were removed since (``/player remove``): they still count for the Pot (P3-01)."""

    @property
    def total(self) -> int:
        return sum(p for _, p, _ in self.percentages) + sum(w for _, w, _ in self.weights)


@dataclass(frozen=True)
class GoalView:
    number: int
    user_id: int
    player: str
    description: str
    vp: int
    achieved: bool


@dataclass(frozen=True)
class PrestigeView:
    id: int
    user_id: int
    player: str
    vp: int
    reason: str


@dataclass(frozen=True)
class PrestigeReceipt:
    award: PrestigeView
    player_total: int
    awarded: int
    """Prestige awarded in the whole game, this award included."""
    pool: int
    """The 20·N guideline (R3-16)."""
    final: FinalView | None = None
    """The final scores, updated, when the award came after the game was scored."""

    @property
    def over(self) -> bool:
        return self.awarded > self.pool


@dataclass(frozen=True)
class GoalChange:
    goal: GoalView
    change: str
    """``added``, ``achieved``, ``not achieved`` or ``removed``."""
    final: FinalView | None = None


@dataclass(frozen=True)
class ForecastView:
    game: GameView
    round: int
    forecast: Forecast
    joined: int
    penalty: int
    total_percent: int


@dataclass(frozen=True)
class ProjectedScore:
    """One player's score if the game ended now; ``row`` is None for a player who is not in play."""

    game: GameView
    track: TrackView
    row: ScoreRow | None
    goals: tuple[GoalView, ...]
    pot: Fraction
    total_percent: int
    final: bool = False
    """The game has ended and been scored: ``row`` and ``pot`` are the stored final scores, not a projection."""


@dataclass(frozen=True)
class FinalView:
    game: GameView
    pot: Fraction
    rows: tuple[ScoreRow, ...]
    unawarded: tuple[Award, ...]
    ended_by: str
    """``moderator``, ``end game`` (an enacted End Game vote) or ``majority``."""
    chancellor: str | None
    penalty: int
    joined: int
    already: bool = False
    """The game had been scored before this call; these are the stored scores."""
    user_ids: Mapping[int, int] = field(default_factory=dict)
    """Player id -> Discord user id."""
    correction: tuple[str, ...] | None = None
    """Scored again after a reopening (``/game reopen``): what changed from the scores posted before, one line each
    (empty: nothing changed)."""


@dataclass(frozen=True)
class MajorityNotice:
    """R3-20: a player came to hold (``gained``) or stopped holding a majority of the votes players control."""

    game: GameView
    player: str
    user_id: int
    votes: int
    total: int
    gained: bool


@dataclass(frozen=True)
class PendingScores:
    """The game has ended but is not scored: the percentages add up to more than 100 (P3-15)."""

    game: GameView
    reason: str


FinalOrPending = FinalView | PendingScores
