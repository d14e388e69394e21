"""Victory points (document 003, rules-spec §3): the Pot, proportional categories, the Forecast, singular
awards, goals and prestige, final score, ranking and titles, and the Majority Victory check. Exact
arithmetic: integers and Fractions, floors per player per category (P3-14)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from engine.core.errors import RuleError
from engine.core.rounding import floor

BASE_POT = 1000
POT_PER_PLAYER = 200
GOAL_VP = 80
PRESTIGE_PER_PLAYER = 20


class Category(Enum):
    VOTES = "votes"
    MILITARY = "military"
    PLANETS = "planets"
    ASSETS = "assets"
    INCOME = "income"
    STOCK = "stock"
    WEALTH = "wealth"

    @property
    def label(self) -> str:
        return self.value.capitalize()


DEFAULT_PERCENTAGES: dict[Category, int] = {
    Category.VOTES: 15, Category.MILITARY: 10, Category.PLANETS: 10, Category.ASSETS: 10,
    Category.INCOME: 10, Category.STOCK: 10, Category.WEALTH: 10,
}
UNIT = {
    Category.VOTES: "vote", Category.MILITARY: "Force point", Category.PLANETS: "Planet",
    Category.ASSETS: "Asset", Category.INCOME: "MS of income", Category.STOCK: "Share", Category.WEALTH: "MS",
}
"""What one unit of each category is, for the Forecast (P3-12: Military counts Force points)."""

LUXURIES = ("spice", "soostone", "sapho_juice", "semuta")
ASSET_KINDS = ("weapons_factory", "agricultural_fief", "manufacturing_facility", "space_port", "gem_mine",
               "ore_mine", *LUXURIES)
"""The Primary Assets (R3-06); each Luxury Good location is an asset of its kind."""

UNIT_KINDS = ("militia", "standard", "upgraded", "elite")
FORCE_POINTS = {"militia": 1, "standard": 3, "upgraded": 4, "elite": 5}
COUNTERS = ("seizures", "raids", "house_raids", "assassinations", "electors_bribed", "troop_movements")


class Award(Enum):
    """The 22 singular awards (R3-10): (name, default weight in % of the Pot)."""

    UNOPPOSED_CHANCELLOR = ("Unopposed Chancellor", 3)
    FIRST_AMONG_EQUALS = ("First Among Equals", 2)
    WEATHERVANE = ("Weathervane", 1)
    SPICE_BARON = ("Spice Baron", 1)
    CONTROLS_THE_SPICE = ("He Who Controls the Spice", 1)
    BRIGHT_SHINY = ("Bright Shiny", 1)
    STAINED_LIPS = ("Stained Lips", 1)
    VERY_SOOTHING_MUSIC = ("Very Soothing Music", 1)
    CHOAM_DIRECTOR = ("CHOAM Director", 1)
    FEUDAL_OVERLORD = ("Feudal Overlord", 1)
    CANNON_FODDER = ("Cannon Fodder", 1)
    SHOCK_TROOPS = ("Shock Troops", 1)
    INDUSTRIAL_TITAN = ("Industrial Titan", 1)
    GRAIN_BARGE = ("Grain Barge", 1)
    MOUNTAIN_KING = ("Mountain King", 1)
    JUSTICE_LEAGUE = ("Justice League", 1)
    ALL_YOUR_BASE = ("All Your Base Are Belong To Us", 1)
    JOLLY_ROGER = ("Jolly Roger", 1)
    UNINVITED_GUEST = ("Uninvited Guest", 1)
    MASTER_OF_ASSASSINS = ("Master of Assassins", 1)
    MASTER_OF_CORRUPTION = ("Master of Corruption", 1)
    SPYMASTER = ("Spymaster", 1)

    @property
    def title(self) -> str:
        return self.value[0]

    @property
    def default_weight(self) -> int:
        return self.value[1]


OWN_ALL = {Award.CONTROLS_THE_SPICE: "spice", Award.BRIGHT_SHINY: "soostone", Award.STAINED_LIPS: "sapho_juice",
           Award.VERY_SOOTHING_MUSIC: "semuta"}
"""R3-12: awards for owning all of one Luxury Good in play."""
ALIASES = {"easily distracted": Award.BRIGHT_SHINY}
"""P3-13: the prose's name for the Soostone award."""

TITLES = ("Baron", "Viscount", "Count", "Marquis", "Duke", "Archduke", "Prince")
CHANCELLOR = "Chancellor of the Landsdraad"


@dataclass(frozen=True)
class Holdings:
    """One player's measures at the end of play (or now, for a Forecast) and their game-long counters."""

    player: int
    name: str
    votes: int = 0
    units: Mapping[str, int] = field(default_factory=dict)
    planets: int = 0
    assets: Mapping[str, int] = field(default_factory=dict)
    income: int = 0
    stock: int = 0
    wealth: int = 0
    heroes: int = 0
    counters: Mapping[str, int] = field(default_factory=dict)
    weathervane: int = 0
    goals: int = 0
    prestige: int = 0

    @property
    def forces(self) -> int:
        """Total Forces (R3-06): 1·militia + 3·standard + 4·upgraded + 5·elite."""
        return sum(FORCE_POINTS[k] * self.units.get(k, 0) for k in UNIT_KINDS)

    def measure(self, category: Category) -> int:
        """q_{p,k} (R3-06); negative income or wealth counts as 0 (P3-02)."""
        return {
            Category.VOTES: self.votes,
            Category.MILITARY: self.forces,
            Category.PLANETS: self.planets,
            Category.ASSETS: sum(self.assets.get(k, 0) for k in ASSET_KINDS),
            Category.INCOME: max(self.income, 0),
            Category.STOCK: self.stock,
            Category.WEALTH: max(self.wealth, 0),
        }[category]

    def award_measure(self, award: Award) -> int:
        """The count a "most" award compares (R3-10)."""
        a, u, c = self.assets, self.units, self.counters
        return {
            Award.FIRST_AMONG_EQUALS: self.votes,
            Award.WEATHERVANE: self.weathervane,
            Award.SPICE_BARON: a.get("spice", 0),
            Award.CHOAM_DIRECTOR: self.stock,
            Award.FEUDAL_OVERLORD: self.planets,
            Award.CANNON_FODDER: sum(u.get(k, 0) for k in UNIT_KINDS),
            Award.SHOCK_TROOPS: u.get("upgraded", 0) + u.get("elite", 0),
            Award.INDUSTRIAL_TITAN: a.get("weapons_factory", 0) + a.get("manufacturing_facility", 0),
            Award.GRAIN_BARGE: a.get("agricultural_fief", 0) + a.get("space_port", 0),
            Award.MOUNTAIN_KING: a.get("gem_mine", 0) + a.get("ore_mine", 0),
            Award.JUSTICE_LEAGUE: self.heroes,
            Award.ALL_YOUR_BASE: c.get("seizures", 0),
            Award.JOLLY_ROGER: c.get("raids", 0),
            Award.UNINVITED_GUEST: c.get("house_raids", 0),
            Award.MASTER_OF_ASSASSINS: c.get("assassinations", 0),
            Award.MASTER_OF_CORRUPTION: c.get("electors_bribed", 0),
            Award.SPYMASTER: c.get("troop_movements", 0),
        }[award]


@dataclass(frozen=True)
class Table:
    """Everything scoring needs. ``joined`` is N for the Pot: every player who ever joined (P3-01);
    ``players`` are the players in play at the end (P3-01: withdrawn players take no share)."""

    players: tuple[Holdings, ...]
    joined: int
    percentages: Mapping[Category, int] = field(default_factory=lambda: dict(DEFAULT_PERCENTAGES))
    weights: Mapping[Award, int] = field(default_factory=lambda: {a: a.default_weight for a in Award})
    luxuries_in_play: Mapping[str, int] = field(default_factory=dict)
    penalty: int = 0
    """The End Game penalty in percent, 0 if the game did not end by an End Game vote (R3-04)."""

    @property
    def pot(self) -> Fraction:
        return pot(self.joined, self.penalty)

    def total_percent(self) -> int:
        return sum(self.percentages.values()) + sum(self.weights.values())


def pot(joined: int, penalty: int = 0) -> Fraction:
    """R3-01 and R3-04: 1000 + 200·N, times (100 − penalty)/100 after an enacted End Game."""
    if not 0 <= penalty <= 100:
        raise RuleError(f"The End Game penalty is a percentage from 0 to 100, not {penalty}.")
    return Fraction(BASE_POT + POT_PER_PLAYER * joined) * (100 - penalty) / 100


def category_vp(table: Table, category: Category) -> Fraction:
    """R3-05: CP_k = Pot × pct_k / 100."""
    return table.pot * table.percentages.get(category, 0) / 100


def proportional(table: Table, category: Category) -> dict[int, int]:
    """R3-07: floor(CP_k × q / Q_k) per player; Q_k = 0 gives everyone 0."""
    return {player: floor(share) for player, share in exact_shares(table, category).items()}


def exact_shares(table: Table, category: Category) -> dict[int, Fraction]:
    """R3-07 before the floor: CP_k × q / Q_k per player, exactly; Q_k = 0 gives everyone 0."""
    total = sum(p.measure(category) for p in table.players)
    cp = category_vp(table, category)
    return {p.player: cp * p.measure(category) / total if total else Fraction(0) for p in table.players}


@dataclass(frozen=True)
class ForecastLine:
    category: Category
    vp: Fraction
    """The category's share of the Pot."""
    total: int
    """Q_k: how much of it is in play."""

    @property
    def rate(self) -> Fraction | None:
        """VP per unit, exactly (None when nothing is in play)."""
        return self.vp / self.total if self.total else None

    @property
    def per_vp(self) -> int | None:
        """For Income and Wealth: units (MS) per VP, truncated (R3-08)."""
        if self.category not in (Category.INCOME, Category.WEALTH) or not self.vp or not self.total:
            return None
        per = floor(Fraction(self.total) / self.vp)
        return per if per >= 1 else None

    def text(self) -> str:
        """``Votes – 2.88 VP per vote (300 VP over 104 votes)``; ``Income – 1 VP = 333 MS of income per round (300 VP
        over 100000 MS)``. The rate to two decimals (R3-08 as ruled in docs/rulings.md) and what it comes from, so a
        player's own share (floor(VP × theirs / total), R3-07) can be worked out exactly."""
        if self.rate is None:
            return f"{self.category.label} – nothing in play yet ({whole_or_decimal(self.vp)} VP waiting)"
        return f"{self.category.label} – {self.rate_text()} ({self.basis()})"

    def rate_text(self) -> str:
        """``2.88 VP per vote``; ``1 VP = 333 MS of income per round`` (Income and Wealth, R3-08)."""
        assert self.rate is not None
        if self.per_vp is not None:
            what = "MS of income per round" if self.category is Category.INCOME else "MS of wealth"
            return f"1 VP = {self.per_vp} {what}"
        return f"{two_decimals(self.rate)} VP per {UNIT[self.category]}"

    def basis(self) -> str:
        """``300 VP over 104 votes``: the category's share of the Pot and how much of it is in play."""
        unit = UNIT[self.category]
        units = unit if unit.startswith("MS") or self.total == 1 else f"{unit}s"
        return f"{whole_or_decimal(self.vp)} VP over {self.total} {units}"


def whole_or_decimal(x: Fraction) -> str:
    """``120`` for a whole number, else one decimal rounded down."""
    return str(x.numerator) if x.denominator == 1 else one_decimal(x)


def one_decimal(x: Fraction) -> str:
    """A rate to one decimal place, rounded down (display only; scoring never uses it, R3-08)."""
    tenths = floor(x * 10)
    return f"{tenths // 10}.{tenths % 10}"


def two_decimals(x: Fraction) -> str:
    """A non-negative rate to two decimals, rounded half up, exact ones without trailing zeros (``4``, ``7.2``,
    ``2.88``; ``1.30`` for 1.2985). Display only: scoring never uses it (R3-08)."""
    hundredths = floor(x * 100 + Fraction(1, 2))
    text = f"{hundredths // 100}.{hundredths % 100:02d}"
    return text.rstrip("0").rstrip(".") if Fraction(hundredths, 100) == x else text


def down_to_hundredths(x: Fraction) -> str:
    """``67.36…`` (rounded down to two decimals, ``…`` when more digits follow), ``67.5`` or ``120``: a share
    before the floor of R3-07, for the player's own /score."""
    if x.denominator == 1:
        return str(x.numerator)
    hundredths = floor(x * 100)
    text = f"{hundredths // 100}.{hundredths % 100:02d}".rstrip("0")
    return text + ("…" if Fraction(hundredths, 100) != x else "")


@dataclass(frozen=True)
class Forecast:
    pot: Fraction
    lines: tuple[ForecastLine, ...]
    singular: tuple[tuple[Award, Fraction], ...]


def forecast(table: Table) -> Forecast:
    """R3-08: what everything is worth if the game ended now."""
    lines = tuple(ForecastLine(c, category_vp(table, c), sum(p.measure(c) for p in table.players))
                  for c in Category)
    singular = tuple((a, table.pot * table.weights.get(a, 0) / 100) for a in Award)
    return Forecast(table.pot, lines, singular)


def most(table: Table, award: Award) -> list[int]:
    """R3-11 / P3-03: everyone with the maximum, if that maximum is at least 1."""
    if not table.players:
        return []
    best = max(p.award_measure(award) for p in table.players)
    return [p.player for p in table.players if best >= 1 and p.award_measure(award) == best]


def majority_holder(votes: Mapping[int, int]) -> int | None:
    """R3-10/R3-20 / P3-10: the player with 2·V(p) > Σ V(q), players only (temporary factions never count)."""
    total = sum(votes.values())
    return next((p for p, v in votes.items() if 2 * v > total), None)


def singular_awards(table: Table) -> dict[Award, list[int]]:
    """Who wins each singular award (an empty list: nobody, and its VP disappear, R3-14)."""
    winners: dict[Award, list[int]] = {}
    for award in Award:
        if award is Award.UNOPPOSED_CHANCELLOR:
            holder = majority_holder({p.player: p.votes for p in table.players})
            winners[award] = [holder] if holder is not None else []
        elif award in OWN_ALL:
            good = OWN_ALL[award]
            in_play = table.luxuries_in_play.get(good, 0)
            owners = [p.player for p in table.players if in_play >= 1 and p.assets.get(good, 0) >= in_play]
            winners[award] = owners if len(owners) == 1 else []
        else:
            winners[award] = most(table, award)
    return winners


@dataclass(frozen=True)
class ScoreRow:
    player: int
    name: str
    categories: dict[Category, int]
    singular: tuple[tuple[Award, int], ...]
    goals: int
    prestige: int
    total: int
    place: int
    title: str | None
    exact: dict[Category, Fraction] = field(default_factory=dict)
    """Each proportional category's share before its floor (CP_k × q / Q_k, R3-07), where it is known (a
    projected score; final scores read back from the store keep only the floors)."""


@dataclass(frozen=True)
class FinalScores:
    pot: Fraction
    rows: tuple[ScoreRow, ...]
    unawarded: tuple[Award, ...]


def places(scores: Mapping[int, int]) -> dict[int, int]:
    """R3-18 / P3-06: standard competition ranking, 1, 1, 3."""
    ordered = sorted(scores.values(), reverse=True)
    return {p: ordered.index(s) + 1 for p, s in scores.items()}


def title_for(score: int, table: Table) -> str | None:
    """R3-19 / P3-07: the highest k with 6·N·Score ≥ Pot·(6+k); Baron = Pot/N, Prince = 2·Pot/N."""
    n = table.joined
    earned = [name for k, name in enumerate(TITLES) if 6 * n * score >= table.pot * (6 + k)]
    return earned[-1] if earned else None


def check_percentages(table: Table, confirmed: bool = False) -> None:
    """P3-15: never normalise; above 100 in all, scoring waits for the moderator's confirmation."""
    total = table.total_percent()
    if total > 100 and not confirmed:
        raise RuleError(f"The categories and awards add up to {total}% of the Pot, more than 100%. Scoring waits "
                        "until a moderator confirms.")


def final_scores(table: Table, *, majority_winner: int | None = None, confirmed: bool = False) -> FinalScores:
    """R3-17..R3-19: per player the seven categories, the singular awards, goals and prestige; places; titles.
    "Chancellor of the Landsdraad" goes only to a Majority Victory winner (P3-16)."""
    check_percentages(table, confirmed)
    exact = {c: exact_shares(table, c) for c in Category}
    by_category = {c: {player: floor(share) for player, share in exact[c].items()} for c in Category}
    winners = singular_awards(table)
    won: dict[int, list[tuple[Award, int]]] = {p.player: [] for p in table.players}
    for award, who in winners.items():
        if who:
            each = floor(table.pot * table.weights.get(award, 0) / 100 / len(who))
            for winner in who:
                won[winner].append((award, each))
    totals = {p.player: sum(by_category[c][p.player] for c in Category) + sum(vp for _, vp in won[p.player])
              + p.goals + p.prestige for p in table.players}
    ranked = places(totals)
    rows = []
    for p in sorted(table.players, key=lambda h: (-totals[h.player], h.name)):
        title = CHANCELLOR if p.player == majority_winner else title_for(totals[p.player], table)
        rows.append(ScoreRow(p.player, p.name, {c: by_category[c][p.player] for c in Category},
                             tuple(won[p.player]), p.goals, p.prestige, totals[p.player], ranked[p.player], title,
                             {c: exact[c][p.player] for c in Category}))
    return FinalScores(table.pot, tuple(rows), tuple(a for a, who in winners.items() if not who))


def weathervane(crises: Iterable[tuple[bool, Mapping[int, str | None]]]) -> dict[int, int]:
    """R3-13: for each resolved crisis (passed, {player: counted ballot}), 1 to each player whose ballot
    matched the winning side (Aye if passed, else Nay); abstentions and no ballot never score."""
    counts: dict[int, int] = {}
    for passed, ballots in crises:
        winning = "aye" if passed else "nay"
        for player, ballot in ballots.items():
            counts.setdefault(player, 0)
            if ballot == winning:
                counts[player] += 1
    return counts


def prestige_pool(joined: int) -> int:
    """R3-16: the guideline pool is 20·N."""
    return PRESTIGE_PER_PLAYER * joined
