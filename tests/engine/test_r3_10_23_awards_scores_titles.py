"""R3-10..R3-23: singular awards, final score, ranking, titles, and the Majority Victory check."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.landsdraad.victory import (
    ALIASES,
    CHANCELLOR,
    Award,
    Category,
    Holdings,
    Table,
    final_scores,
    majority_holder,
    places,
    prestige_pool,
    singular_awards,
    title_for,
    weathervane,
)


def table(players: list[Holdings], joined: int = 10, **kw: object) -> Table:
    return Table(players=tuple(players), joined=joined, **kw)  # type: ignore[arg-type]


def test_TV3_S04_a_shared_one_percent_award() -> None:
    """TV3-S04 / R3-11: 30 VP shared by two tied players: 15 each."""
    t = table([Holdings(1, "a", heroes=2), Holdings(2, "b", heroes=2), Holdings(3, "c", heroes=1)])
    scores = final_scores(t)
    got = {r.name: dict(r.singular).get(Award.JUSTICE_LEAGUE) for r in scores.rows}
    assert got == {"a": 15, "b": 15, "c": None}


def test_TV3_S05_own_all_with_no_sole_owner_disappears() -> None:
    """TV3-S05 / R3-12 / R3-14: 3 Soostone in play, owned 2 and 1: nobody gets Bright Shiny; its 30 VP are lost."""
    t = table([Holdings(1, "a", assets={"soostone": 2}), Holdings(2, "b", assets={"soostone": 1})],
              luxuries_in_play={"soostone": 3})
    assert singular_awards(t)[Award.BRIGHT_SHINY] == []
    assert Award.BRIGHT_SHINY in final_scores(t).unawarded
    assert ALIASES["easily distracted"] is Award.BRIGHT_SHINY          # P3-13


def test_TV3_S06_titles_for_ten_players() -> None:
    """TV3-S06 / R3-19: Baron 300 … Prince 600 in steps of 50."""
    t = table([])
    expected = {300: "Baron", 350: "Viscount", 400: "Count", 450: "Marquis", 500: "Duke", 550: "Archduke",
                600: "Prince"}
    for score, title in expected.items():
        assert title_for(score, t) == title
        assert title_for(score - 1, t) != title
    assert title_for(299, t) is None and title_for(10_000, t) == "Prince"


def test_P3_07_titles_for_any_number_of_players() -> None:
    """P3-07 (R3-19, A3-10): threshold_k = B·(6+k)/6 with B = Pot/N, compared exactly as 6·N·Score ≥ Pot·(6+k),
    never a rounded threshold. N = 7: Pot 2400, B = 342.86 (Baron), Viscount 400, Count 457.14, Marquis 514.29,
    Duke 571.43, Archduke 628.57, Prince 685.71: 342 is no Baron (rounding B down would make it one), 457 is a
    Viscount (rounding half up would make it a Count)."""
    t = table([], joined=7)
    assert t.pot == 2400
    expected = {342: None, 343: "Baron", 399: "Baron", 400: "Viscount", 457: "Viscount", 458: "Count",
                514: "Count", 515: "Marquis", 571: "Marquis", 572: "Duke", 628: "Duke", 629: "Archduke",
                685: "Archduke", 686: "Prince"}
    assert {score: title_for(score, t) for score in expected} == expected


def test_P3_07_titles_use_the_final_penalised_pot() -> None:
    """P3-07: "Pot here is the final, possibly penalised, Pot". N = 10 after an End Game vote at 20%: Pot 2400,
    so Baron 240 … Prince 480 in steps of 40 (not TV3-S06's 300 … 600): 300 is a Viscount here."""
    t = table([], penalty=20)
    assert t.pot == 2400
    expected = {239: None, 240: "Baron", 279: "Baron", 280: "Viscount", 320: "Count", 360: "Marquis", 400: "Duke",
                440: "Archduke", 479: "Archduke", 480: "Prince", 300: "Viscount"}
    assert {score: title_for(score, t) for score in expected} == expected


def test_R3_14_unawarded_singular_vp_are_not_redistributed() -> None:
    """R3-14: "Unawarded Singular VP are not redistributed." N = 10 (1% = 30 VP): only Spice Baron has a winner (a
    owns 2 of the 3 Spice in play, so not all of it); the other 21 awards (24% of the Pot, 720 VP) go to nobody,
    and a's award stays 30 VP."""
    t = table([Holdings(1, "a", assets={"spice": 2}), Holdings(2, "b")], luxuries_in_play={"spice": 3})
    scores = final_scores(t)
    rows = {r.name: r for r in scores.rows}
    assert rows["a"].singular == ((Award.SPICE_BARON, 30),) and rows["b"].singular == ()
    assert set(scores.unawarded) == set(Award) - {Award.SPICE_BARON}
    assert sum(vp for r in scores.rows for _, vp in r.singular) == 30


def test_TV3_S08_illustrative_totals() -> None:
    """TV3-S08: 20% of a 3000 Pot plus 80 goal VP is 680 ("nearly 700")."""
    t = table([Holdings(1, "a", stock=20, goals=80), Holdings(2, "b", stock=80)], percentages={Category.STOCK: 100},
              weights={})
    row = next(r for r in final_scores(t).rows if r.name == "a")
    assert row.categories[Category.STOCK] + row.goals == 680


@pytest.mark.parametrize(
    ("in_play", "owners", "winner"),
    [(5, {1: 5}, 1), (3, {1: 3}, 1), (3, {1: 2, 2: 1}, None), (3, {1: 2}, None), (0, {}, None)],
)
def test_TV3_I04_own_all_luxury_awards(in_play: int, owners: dict[int, int], winner: int | None) -> None:
    """TV3-I04 / R3-12 / P3-04: only a sole owner of all in play, and only if at least one is in play."""
    players = [Holdings(p, str(p), assets={"spice": owners.get(p, 0)}) for p in (1, 2)]
    t = table(players, luxuries_in_play={"spice": in_play})
    assert singular_awards(t)[Award.CONTROLS_THE_SPICE] == ([winner] if winner else [])


def test_TV3_I04_combined_with_spice_baron() -> None:
    t = table([Holdings(1, "a", assets={"spice": 3}), Holdings(2, "b")], luxuries_in_play={"spice": 3})
    row = next(r for r in final_scores(t).rows if r.name == "a")
    assert dict(row.singular)[Award.SPICE_BARON] + dict(row.singular)[Award.CONTROLS_THE_SPICE] == 60


def test_TV3_I05_most_awards_at_zero_and_tied() -> None:
    """TV3-I05 / P3-03: a maximum of 0 gives nothing; ties share floor(S/k)."""
    nobody = table([Holdings(i, str(i)) for i in (1, 2, 3)])
    assert singular_awards(nobody)[Award.JUSTICE_LEAGUE] == []
    tied = table([Holdings(1, "a", assets={"spice": 2}), Holdings(2, "b", assets={"spice": 2}),
                  Holdings(3, "c", assets={"spice": 1})])
    assert singular_awards(tied)[Award.SPICE_BARON] == [1, 2]
    shock = table([Holdings(1, "a", units={"upgraded": 2, "elite": 1}), Holdings(2, "b", units={"elite": 1})])
    row = next(r for r in final_scores(shock).rows if r.name == "a")
    assert dict(row.singular)[Award.SHOCK_TROOPS] == 30


def test_TV3_I07_majority_excludes_temporary_factions() -> None:
    """TV3-I07 / R3-20 / P3-10: 51 of 100 player votes is a majority, whatever the factions hold; 50 is not."""
    assert majority_holder({1: 51, 2: 30, 3: 19}) == 1
    assert majority_holder({1: 50, 2: 30, 3: 20}) is None


def test_TV3_I09_total_forces_with_upgraded_units() -> None:
    """TV3-I09: 5 militia, 4 standard, 3 upgraded, 2 elite: 39 forces, 14 units, 5 upgraded+elite."""
    p = Holdings(1, "a", units={"militia": 5, "standard": 4, "upgraded": 3, "elite": 2})
    assert p.forces == 39
    assert p.award_measure(Award.CANNON_FODDER) == 14 and p.award_measure(Award.SHOCK_TROOPS) == 5


def test_TV3_I12_percentages_not_summing_to_100() -> None:
    """TV3-I12 / P3-15: 90% scores and leaves Stock unawarded; 115% waits for the moderator's confirmation."""
    below = {Category.VOTES: 15, Category.MILITARY: 10, Category.PLANETS: 10, Category.ASSETS: 10,
             Category.INCOME: 10, Category.STOCK: 0, Category.WEALTH: 10}
    t = table([Holdings(1, "a", stock=5)], percentages=below)
    assert t.total_percent() == 90
    assert final_scores(t).rows[0].categories[Category.STOCK] == 0
    above = {**below, Category.VOTES: 20, Category.MILITARY: 15, Category.PLANETS: 15, Category.STOCK: 10}
    t2 = table([Holdings(1, "a")], percentages=above)
    assert t2.total_percent() == 115
    with pytest.raises(RuleError, match="confirms"):
        final_scores(t2)
    assert final_scores(t2, confirmed=True).rows


def test_TV3_I13_weathervane_counting() -> None:
    """TV3-I13 / R3-13: the winning side is Aye if passed, else Nay; abstentions never score; an unresolved
    crisis is not counted (so it is simply not passed in)."""
    crises = [(True, {1: "aye", 2: "nay", 3: "abstain"}), (False, {1: "nay", 2: "nay", 3: "aye"}),
              (False, {1: "aye", 2: "nay", 3: "nay"})]
    counts = weathervane(crises)
    assert counts == {1: 2, 2: 2, 3: 1}
    t = table([Holdings(p, str(p), weathervane=n) for p, n in counts.items()])
    assert singular_awards(t)[Award.WEATHERVANE] == [1, 2]
    assert dict(next(r for r in final_scores(t).rows if r.player == 1).singular)[Award.WEATHERVANE] == 15


def test_TV3_I14_ranking_with_equal_scores() -> None:
    """TV3-I14 / P3-06: 1, 1, 3, 3, 5."""
    assert places({1: 500, 2: 500, 3: 450, 4: 450, 5: 300}) == {1: 1, 2: 1, 3: 3, 4: 3, 5: 5}


def test_chancellor_only_for_a_majority_victory() -> None:
    """R3-18 / P3-16: the title goes to the Majority Victory winner; otherwise nobody gets it."""
    t = table([Holdings(1, "a", votes=60), Holdings(2, "b", votes=40)], joined=2)
    plain = final_scores(t)
    assert all(r.title != CHANCELLOR for r in plain.rows)
    won = final_scores(t, majority_winner=1)
    assert next(r for r in won.rows if r.player == 1).title == CHANCELLOR
    assert dict(next(r for r in won.rows if r.player == 1).singular)[Award.UNOPPOSED_CHANCELLOR] == 42


def test_prestige_pool() -> None:
    """R3-16: 20 VP per player who joined."""
    assert prestige_pool(10) == 200


def test_full_three_player_final_score() -> None:
    """R3-17 end to end, N = 3: Pot = 1000 + 600 = 1600; each 1% award is 16 VP.

    A: votes 30, militia 10 + standard 2 (16 forces), 2 planets, assets weapons_factory 2 + spice 2,
       income 3000, stock 4, wealth 10000, 1 hero, 2 seizures, goals 40, prestige 5.
    B: votes 20, standard 4 (12 forces), 3 planets, assets ore_mine 1 + gem_mine 1, income 1000, stock 4,
       wealth 5000, 0 heroes, goals 80.
    C: votes 10, elite 2 (10 forces), 1 planet, assets agricultural_fief 1 + spice 1, income 0, stock 0,
       wealth 5000, 1 hero, goals 0, prestige 10. Spice in play: 3.

    Votes (15% = 240; Q = 60): A 120, B 80, C 40.   Military (160; Q = 38): A floor(67.37) = 67,
    B floor(50.53) = 50, C floor(42.1) = 42.   Planets (160; Q = 6): A floor(53.3) = 53, B 80, C floor(26.7) = 26.
    Assets (160; Q = 8): A 80, B 40, C 40.   Income (160; Q = 4000): A 120, B 40, C 0.
    Stock (160; Q = 8): A 80, B 80, C 0.   Wealth (160; Q = 20000): A 80, B 40, C 40.
    Proportional: A 600, B 410, C 188.
    Singular: First Among Equals (2% = 32) A; Unopposed Chancellor: 30 of 60 is not a majority: nobody;
    Spice Baron A 16; He Who Controls the Spice: nobody owns all 3; CHOAM Director A and B tie: 8 each;
    Feudal Overlord B 16; Cannon Fodder A 16 (12 units); Shock Troops C 16; Industrial Titan A 16;
    Grain Barge C 16; Mountain King B 16; Justice League A and C tie: 8 each; All Your Base A 16.
    A: 32 + 16 + 8 + 16 + 16 + 8 + 16 = 112; B: 8 + 16 + 16 = 40; C: 16 + 16 + 8 = 40.
    Totals: A 600 + 112 + 40 + 5 = 757; B 410 + 40 + 80 = 530; C 188 + 40 + 0 + 10 = 238.
    Titles (B = 1600/3 = 533.3, step 88.9): A 757 → Marquis (800 would be Duke? 6·3·757 = 13626 ≥ 1600·9 = 14400?
    no; ≥ 1600·8 = 12800 yes → Count… see the assertion), B 530 → none (< 533.3), C none."""
    a = Holdings(1, "A", votes=30, units={"militia": 10, "standard": 2}, planets=2,
                 assets={"weapons_factory": 2, "spice": 2}, income=3000, stock=4, wealth=10000, heroes=1,
                 counters={"seizures": 2}, goals=40, prestige=5)
    b = Holdings(2, "B", votes=20, units={"standard": 4}, planets=3, assets={"ore_mine": 1, "gem_mine": 1},
                 income=1000, stock=4, wealth=5000, goals=80)
    c = Holdings(3, "C", votes=10, units={"elite": 2}, planets=1, assets={"agricultural_fief": 1, "spice": 1},
                 income=0, stock=0, wealth=5000, heroes=1, prestige=10)
    t = Table(players=(a, b, c), joined=3, luxuries_in_play={"spice": 3})
    scores = final_scores(t)
    rows = {r.name: r for r in scores.rows}
    assert {n: [r.categories[k] for k in Category] for n, r in rows.items()} == {
        "A": [120, 67, 53, 80, 120, 80, 80], "B": [80, 50, 80, 40, 40, 80, 40], "C": [40, 42, 26, 40, 0, 0, 40]}
    assert sum(vp for _, vp in rows["A"].singular) == 112
    assert dict(rows["B"].singular) == {Award.CHOAM_DIRECTOR: 8, Award.FEUDAL_OVERLORD: 16, Award.MOUNTAIN_KING: 16}
    assert dict(rows["C"].singular) == {Award.SHOCK_TROOPS: 16, Award.GRAIN_BARGE: 16, Award.JUSTICE_LEAGUE: 8}
    assert [(r.name, r.total, r.place) for r in scores.rows] == [("A", 757, 1), ("B", 530, 2), ("C", 238, 3)]
    # Thresholds: 6·N·score ≥ Pot·(6+k) → 18·757 = 13626 ≥ 1600·(6+k) for k ≤ 2 (12800): Count.
    assert [r.title for r in scores.rows] == ["Count", None, None]
    assert Award.UNOPPOSED_CHANCELLOR in scores.unawarded and Award.CONTROLS_THE_SPICE in scores.unawarded
