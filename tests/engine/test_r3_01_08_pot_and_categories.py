"""R3-01..R3-08: the Pot, the split, proportional categories (floor per player per category, P3-14) and the
Forecast."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.landsdraad.victory import (
    DEFAULT_PERCENTAGES,
    Award,
    Category,
    Holdings,
    Table,
    category_vp,
    forecast,
    pot,
    proportional,
)


def table(players: list[Holdings], joined: int = 10, **kw: object) -> Table:
    return Table(players=tuple(players), joined=joined, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("n", "pot_vp", "average"), [(5, 2000, 400), (10, 3000, 300), (20, 5000, 250)])
def test_TV3_S01_pot_size_and_average(n: int, pot_vp: int, average: int) -> None:
    """TV3-S01 / R3-01: Pot = 1000 + 200·N."""
    assert pot(n) == pot_vp and pot(n) / n == average


def test_TV3_S02_johns_income() -> None:
    """TV3-S02 (R3-05, R3-07, R3-08): 10 players; John 12,000 of 100,000 MS income; Income 10% of 3000 = 300 (R3-05:
    CP_k = Pot × pct_k / 100); John 36; 333 MS per VP."""
    players = [Holdings(1, "john", income=12000), Holdings(2, "rest", income=88000)]
    t = table(players)
    assert proportional(t, Category.INCOME)[1] == 36
    line = next(x for x in forecast(t).lines if x.category is Category.INCOME)
    assert (line.vp, line.per_vp) == (300, 333)
    assert line.text().startswith("Income – 1 VP = 333 MS of income per round")


@pytest.mark.parametrize(
    ("units", "forces", "vp"),
    [({"militia": 10, "standard": 5}, 25, 18), ({"elite": 6, "standard": 10, "militia": 20}, 80, 60)],
)
def test_TV3_S03_military_total_forces(units: dict[str, int], forces: int, vp: int) -> None:
    """TV3-S03 / P3-11 (R3-06's Military measure): Total Forces = militia + 3·standard + 4·upgraded + 5·elite;
    Q = 400 taken as given."""
    player = Holdings(1, "p", units=units)
    assert player.forces == forces
    rest = Holdings(2, "rest", units={"militia": 400 - forces})
    assert proportional(table([player, rest]), Category.MILITARY)[1] == vp


def test_TV3_S03_whole_table() -> None:
    assert Holdings(1, "all", units={"militia": 100, "standard": 100}).forces == 400


def test_TV3_S07_reading_the_example_forecast() -> None:
    """TV3-S07: with Pot 3000, the example's rates imply these totals (P3-12: Military per Force point)."""
    players = [Holdings(1, "all", votes=150, units={"militia": 150}, planets=30, assets={"gem_mine": 150},
                        income=120000, stock=300, wealth=300000)]
    lines = {x.category: x for x in forecast(table(players)).lines}
    assert lines[Category.VOTES].vp == 450 and lines[Category.VOTES].rate == 3
    assert lines[Category.VOTES].text() == "Votes – 3 VP per vote (450 VP over 150 votes)"
    assert lines[Category.MILITARY].text() .startswith("Military – 2 VP per Force point (300 VP over ")
    assert lines[Category.PLANETS].rate == 10 and lines[Category.ASSETS].rate == 2
    assert lines[Category.STOCK].rate == 1
    assert lines[Category.INCOME].per_vp == 400 and lines[Category.WEALTH].per_vp == 1000


def test_TV3_S09_default_percentages_sum() -> None:
    """TV3-S09 / R3-03: 75 proportional + 25 singular (22 awards: 3 + 2 + 20×1) = 100."""
    assert sum(DEFAULT_PERCENTAGES.values()) == 75
    assert len(Award) == 22 and sum(a.default_weight for a in Award) == 25
    assert table([]).total_percent() == 100


def test_TV3_I02_a_category_with_nothing_in_play() -> None:
    """TV3-I02 / R3-07 / R3-14: Q = 0 gives everyone 0; the 300 VP are not awarded."""
    t = table([Holdings(1, "a"), Holdings(2, "b"), Holdings(3, "c")])
    assert proportional(t, Category.STOCK) == {1: 0, 2: 0, 3: 0}
    line = next(x for x in forecast(t).lines if x.category is Category.STOCK)
    assert line.rate is None and "nothing in play" in line.text()


def test_R3_05_category_values_are_exact_rationals() -> None:
    """R3-05: CP_k = Pot × pct_k / 100, a rational, never rounded. With N = 1 and a 1% End Game penalty the Pot is
    1200 × 99/100 = 1188 and Votes (15%) is worth 178.2 VP exactly; at the default split the seven categories add up
    to 75% of the Pot (3000 × 75/100 = 2250 for N = 10)."""
    t = table([], joined=1, penalty=1)
    assert t.pot == 1188 and category_vp(t, Category.VOTES) == Fraction(891, 5)
    assert category_vp(t, Category.STOCK) == Fraction(594, 5)  # 10% of 1188
    assert sum(category_vp(table([]), c) for c in Category) == 2250
    assert category_vp(table([]), Category.INCOME) == 300  # TV3-S02
    zeroed = table([], percentages={**DEFAULT_PERCENTAGES, Category.STOCK: 0})
    assert category_vp(zeroed, Category.STOCK) == 0


def test_R3_06_the_seven_measures() -> None:
    """R3-06: q_{p,k} for each category. Votes V(p); Military the Total Forces (1·militia + 3·standard + 4·upgraded
    + 5·elite); Planets the planets controlled (the count the ledger gives, the Homeworld included: see
    test_a_whole_three_player_game_scored_by_hand); Assets the Primary Assets, each Luxury Good location one of
    them, Heroes not; Income and Wealth, negative counting as 0 (P3-02); Stock the CHOAM shares."""
    p = Holdings(1, "p", votes=25, units={"militia": 2, "standard": 1, "upgraded": 1, "elite": 1}, planets=3,
                 assets={"weapons_factory": 1, "agricultural_fief": 1, "manufacturing_facility": 1, "space_port": 1,
                         "gem_mine": 1, "ore_mine": 1, "spice": 1, "soostone": 1, "sapho_juice": 1, "semuta": 1},
                 income=-50, stock=4, wealth=-1, heroes=2)
    assert {c: p.measure(c) for c in Category} == {
        Category.VOTES: 25, Category.MILITARY: 2 + 3 + 4 + 5, Category.PLANETS: 3, Category.ASSETS: 10,
        Category.INCOME: 0, Category.STOCK: 4, Category.WEALTH: 0}
    rich = Holdings(2, "r", income=700, wealth=1200)
    assert (rich.measure(Category.INCOME), rich.measure(Category.WEALTH)) == (700, 1200)


def test_TV3_I08_end_game_penalty_applies_to_every_pot_award() -> None:
    """TV3-I08 / R3-04: Pot 2400; Income 240; John floor(28.8) = 28; a 1% award 24."""
    t = table([Holdings(1, "john", income=12000), Holdings(2, "rest", income=88000)], penalty=20)
    assert t.pot == 2400
    assert proportional(t, Category.INCOME)[1] == 28
    assert dict(forecast(t).singular)[Award.SPICE_BARON] == 24


def test_TV3_I15_negative_income_counts_as_zero() -> None:
    """TV3-I15 / P3-02: Q = 10000; A 180, B 0, C 120."""
    t = table([Holdings(1, "a", income=6000), Holdings(2, "b", income=-2000), Holdings(3, "c", income=4000)])
    assert proportional(t, Category.INCOME) == {1: 180, 2: 0, 3: 120}


def test_floor_is_per_player_per_category_on_exact_rationals() -> None:
    """P3-14: 1000 VP over three equal holders is 333 each, the 1 VP lost; never float drift."""
    t = table([Holdings(i, str(i), stock=1) for i in (1, 2, 3)], joined=0,
              percentages={Category.STOCK: 100})
    assert proportional(t, Category.STOCK) == {1: 333, 2: 333, 3: 333}
    assert isinstance(t.pot, Fraction)


def test_forecast_text_when_one_ms_is_worth_more_than_a_vp() -> None:
    """R3-08's inverse (MS per VP) only reads well when at least 1 MS buys a VP; otherwise the rate is shown."""
    line = next(x for x in forecast(table([Holdings(1, "a", income=30)])).lines if x.category is Category.INCOME)
    assert line.per_vp is None and line.text() == "Income – 10 VP per MS of income (300 VP over 30 MS of income)"
    empty = next(x for x in forecast(table([Holdings(1, "a")])).lines if x.category is Category.STOCK)
    assert empty.text() == "Stock – nothing in play yet (300 VP waiting)"


def test_shown_rates_and_shares_let_a_player_add_up_their_own_score() -> None:
    """Ruling on R3-08 (docs/rulings.md): two decimals, rounded half up, and the basis; /score shows the share
    before its floor (R3-07), so 25 votes of 104 read 72.11… rounded down to 72, not 25 × 2.8 = 70."""
    from bot.actions.landsdraad.victory_render import share_text
    from engine.landsdraad.victory import ForecastLine, ScoreRow, down_to_hundredths, two_decimals
    line = ForecastLine(Category.VOTES, Fraction(300), 104)
    assert line.text() == "Votes – 2.88 VP per vote (300 VP over 104 votes)"
    assert two_decimals(Fraction(2597, 2000)) == "1.30" and two_decimals(Fraction(4)) == "4"
    assert down_to_hundredths(Fraction(300 * 25, 104)) == "72.11…" and down_to_hundredths(Fraction(135, 2)) == "67.5"
    row = ScoreRow(1, "ann", {Category.VOTES: 72, Category.STOCK: 20}, (), 0, 0, 92, 1, None,
                   {Category.VOTES: Fraction(300 * 25, 104), Category.STOCK: Fraction(20)})
    assert share_text(row, Category.VOTES) == "72.11… VP, rounded down to 72 VP"
    assert share_text(row, Category.STOCK) == "20 VP"
