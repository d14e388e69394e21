"""The Forecast chart and the final-score table as PNGs (issue 4): valid PNGs of the expected size, opaque,
byte-identical for the same input, nothing drawn into the margins (no label clipped at an edge), and the edge
cases: nobody in play, no players, a Pot of 0, a penalised Pot with fractional VP, long and odd names."""

from __future__ import annotations

import io
import struct
import warnings
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from matplotlib.image import imread

from bot.actions.landsdraad import charts
from engine.landsdraad.victory import (
    CHANCELLOR,
    DEFAULT_PERCENTAGES,
    Award,
    Category,
    FinalScores,
    Holdings,
    Table,
    final_scores,
    forecast,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def size(png: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which always comes first."""
    assert png[:8] == PNG_MAGIC
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def pixels(png: bytes) -> np.ndarray:
    return imread(io.BytesIO(png), format="png")


def assert_clean_margins(png: bytes, *, left: int, right: int, bottom: int) -> None:
    """The picture is opaque and its margins are plain white: no label runs off or into an edge."""
    img = pixels(png)
    assert img.shape[2] == 3 or (img[:, :, 3] == 1).all()
    white = (img[:, :, :3] == 1).all(axis=2)
    assert white[:, :left].all(), "something drawn in the left margin"
    assert white[:, img.shape[1] - right:].all(), "something drawn in the right margin"
    assert white[img.shape[0] - bottom:, :].all(), "something drawn in the bottom margin"


def tv3_s07() -> Table:
    """TV3-S07's totals with 10 players: 150 votes, 150 Force points, 30 Planets, 150 Assets, 120000 MS of
    income, 300 Shares, 300000 MS of wealth; Pot 3000."""
    return Table(tuple(Holdings(i, f"Player {i}", votes=15, units={"militia": 15}, planets=3, assets={"ore_mine": 15},
                                income=12000, stock=30, wealth=30000) for i in range(10)), joined=10)


def players(n: int, name: str = "Player {i}") -> Table:
    return Table(tuple(Holdings(i, name.format(i=i), votes=10 + i, units={"standard": i}, planets=1 + i % 3,
                                assets={"gem_mine": i % 2}, income=100 * i, stock=i, wealth=500 * i,
                                goals=80 * (i % 2), prestige=i) for i in range(n)), joined=n)


def test_forecast_png_is_a_1200_by_675_png_and_deterministic() -> None:
    f = forecast(tv3_s07())
    png = charts.forecast_png(f, title="Forecast for round 3")
    assert size(png) == (1200, 675)
    assert charts.forecast_png(f, title="Forecast for round 3") == png
    assert b"matplotlib" not in png  # no Software chunk: the bytes depend on the input only
    assert charts.forecast_png(f, title="Forecast for round 4") != png
    assert_clean_margins(png, left=30, right=20, bottom=10)


def test_forecast_labels_read_as_the_rules_do() -> None:
    """R3-08 through TV3-S07: the VP of each category and what one unit is worth."""
    lines = {line.category: line for line in forecast(tv3_s07()).lines}
    assert charts.rate_text(lines[Category.VOTES]) == "3 VP per vote"
    assert charts.rate_text(lines[Category.PLANETS]) == "10 VP per Planet"
    assert charts.rate_text(lines[Category.INCOME]) == "1 VP = 400 MS of income per round"
    assert charts.rate_text(lines[Category.WEALTH]) == "1 VP = 1000 MS of wealth"
    assert charts.singular_text(forecast(tv3_s07())) == "22 awards, 30–90 VP each"


def test_rate_text_when_nothing_is_in_play_or_not_scored_or_one_ms_is_worth_more_than_a_vp() -> None:
    nobody = {line.category: line for line in forecast(Table((), joined=0)).lines}
    assert charts.rate_text(nobody[Category.VOTES]) == "nothing in play yet"
    crisis = Table((Holdings(1, "a", stock=5, income=30),), joined=10,
                   percentages={**DEFAULT_PERCENTAGES, Category.STOCK: 0})
    lines = {line.category: line for line in forecast(crisis).lines}
    assert charts.rate_text(lines[Category.STOCK]) == "not scored"
    assert charts.rate_text(lines[Category.INCOME]) == "10 VP per MS"  # 300 VP over 30 MS: not "1 VP = 0 MS"


@pytest.mark.parametrize("table", [
    pytest.param(Table((), joined=0), id="no players"),
    pytest.param(Table((Holdings(1, "a"), Holdings(2, "b")), joined=2), id="nothing in play"),
    pytest.param(Table((Holdings(1, "a", votes=3),), joined=4, penalty=100), id="pot of 0"),
    pytest.param(Table((Holdings(1, "a", votes=7, income=1, wealth=3),), joined=1, penalty=33,
                       percentages={**DEFAULT_PERCENTAGES, Category.STOCK: 0, Category.MILITARY: 20}),
                 id="penalised pot, fractions"),
    pytest.param(Table((Holdings(1, "a", votes=1),), joined=50, weights={a: 0 for a in Award}),
                 id="no singular awards"),
])
def test_forecast_png_edge_cases(table: Table) -> None:
    f = forecast(table)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        png = charts.forecast_png(f, title="Forecast for a game with a very long name indeed, " * 3)
    assert size(png) == (1200, 675)
    assert_clean_margins(png, left=30, right=20, bottom=10)


def test_vp_text_shows_fractions_to_one_decimal_rounded_down() -> None:
    penalised = forecast(Table((), joined=1, penalty=33))  # Pot 804; Votes 15% = 120.6 VP
    assert penalised.lines[0].vp == Fraction(603, 5)
    assert charts.vp_text(penalised.lines[0].vp) == "120.6"
    assert charts.vp_text(Fraction(1206, 10)) == "120.6"
    assert charts.vp_text(Fraction(2, 3)) == "0.6"
    assert charts.vp_text(Fraction(450)) == "450"
    assert charts.percent_of(Fraction(0), Fraction(0)) == "0%"


@cache
def table_png(n: int) -> bytes:
    """One render per size, shared by the tests (each costs 0.1 to 0.5 s)."""
    return charts.scores_png(final_scores(players(n)), title="Final scores")


def table_height(n: int) -> int:
    return charts.TABLE_TITLE + charts.TABLE_HEADER + charts.TABLE_ROW * max(n, 1) + charts.TABLE_FOOTER


@pytest.mark.parametrize("n", [0, 1, 3, 12, 30])
def test_scores_png_size_grows_with_the_players(n: int) -> None:
    png = table_png(n)
    assert size(png) == (1380, table_height(n))
    assert_clean_margins(png, left=charts.TABLE_MARGIN, right=charts.TABLE_MARGIN, bottom=4)


def test_scores_png_is_deterministic() -> None:
    png = charts.scores_png(final_scores(players(3)), title="Final scores")
    assert png == table_png(3)
    assert b"matplotlib" not in png
    assert charts.scores_png(final_scores(players(3), majority_winner=2), title="Final scores") != png


def test_scores_png_with_long_odd_names_and_a_penalised_pot() -> None:
    names = ["Feyd-Rautha Harkonnen of Giedi Prime, na-Baron", "$x$ and $y$", "Tleilax 🐛 Bene 漢字", "",
             "W" * 40]
    table = Table(tuple(Holdings(i, n, votes=5 + i, income=7) for i, n in enumerate(names)), joined=9, penalty=33)
    scores = final_scores(table)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Glyph missing", no mathtext
        png = charts.scores_png(scores, title="Final scores 🏆 of a game with a long name " * 4)
    assert size(png) == (1380, table_height(len(names)))
    assert_clean_margins(png, left=charts.TABLE_MARGIN, right=charts.TABLE_MARGIN, bottom=4)


def test_twenty_character_names_and_the_chancellor_title_fit_their_columns() -> None:
    """A name of ~20 characters is never cut; "Chancellor of the Landsdraad" is never cut; longer names are."""
    fig = charts._figure((14, 2), charts.TABLE_DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    cols = charts._columns()
    texts = charts._row(ax, cols, 0, 10, ["1", "Feyd-Rautha Harkonne", CHANCELLOR, *["0"] * (len(cols) - 3)],
                        bold={1})
    long = charts._row(ax, cols, 0, 20, ["1", "W" * 40, "x" * 60, *["0"] * (len(cols) - 3)], bold={1})
    for j in (1, 2):
        charts._fit(texts[j], cols[j][1] - 2 * charts.CELL_PAD)
        charts._fit(long[j], cols[j][1] - 2 * charts.CELL_PAD)
    assert texts[1].get_text() == "Feyd-Rautha Harkonne" and texts[2].get_text() == CHANCELLOR
    assert long[1].get_text().endswith("…") and long[1].get_text().startswith("WWWW")
    assert long[1].get_window_extent().width <= cols[1][1] - 2 * charts.CELL_PAD


def test_clean_replaces_what_dejavu_sans_cannot_draw() -> None:
    assert charts._clean("Jessica – Atreides · é…") == "Jessica – Atreides · é…"
    assert charts._clean("Tleilax 🐛 漢") == "Tleilax ? ?"


def test_scores_rows_are_drawn_in_order_of_place() -> None:
    """The engine gives rows by total; the table ranks by place even if handed another order."""
    scores = final_scores(players(3))
    shuffled = FinalScores(scores.pot, tuple(reversed(scores.rows)), scores.unawarded)
    assert charts.scores_png(shuffled, title="Final scores") == table_png(3)


def test_the_final_table_says_the_pot_was_cut_by_the_end_game_penalty() -> None:
    """Issue 17: after an End Game vote the chart's Pot is the reduced one, and it says so (R0-61)."""
    scores = final_scores(players(3))
    assert "penalty" not in charts.scores_subtitle(scores)
    assert charts.scores_subtitle(scores, 25).startswith(f"Pot {charts.vp_text(scores.pot)} VP (after the End Game "
                                                         "penalty of 25%)  ·  3 players")
    plain = charts.scores_png(scores, title="Final scores")
    assert charts.scores_png(scores, title="Final scores", penalty=25) != plain
