"""Pictures for Landsdraad victory points: the Forecast as a bar chart and the final scores as a table, both PNG
bytes for ``Outgoing.file``. Pure functions of their input: the same input gives byte-identical PNGs.

matplotlib is imported inside the functions (importing it costs about half a second), and only through
``Figure`` and the Agg canvas: no pyplot, no global state, no display. Everything is drawn in DejaVu Sans, the
font matplotlib ships, on an opaque white card that reads on Discord's light and dark themes alike."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from bot.actions.drawing import BACKGROUND, INK, MUTED, RULE, legend
from bot.actions.drawing import TEXT as _TEXT
from bot.actions.drawing import clean as _clean
from bot.actions.drawing import disc as _disc
from bot.actions.drawing import figure as _figure
from bot.actions.drawing import fit as _fit
from bot.actions.drawing import inches as _inches
from bot.actions.drawing import png as _png
from bot.actions.drawing import rect as _rect
from bot.actions.drawing import room_for_labels as _room_for_labels
from engine.landsdraad.victory import (
    UNIT,
    Category,
    FinalScores,
    Forecast,
    ForecastLine,
    ScoreRow,
    one_decimal,
    two_decimals,
)
from engine.service.landsdraad.views import ResultView

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.text import Text  # matplotlib is heavy: imported when a chart is drawn

BAR = "#5865F2"
ZEBRA = "#F2F3F5"
HEADER = "#DADDE3"
MEDALS = {1: "#F0B232", 2: "#C4C9D0", 3: "#DDA77A"}
"""Gold, silver and bronze discs behind places 1 to 3 (shared places share the colour)."""

FORECAST_SIZE = (8.0, 4.5)
FORECAST_DPI = 150
"""1200 × 675 px: Discord's embed shape, sharp when enlarged."""

TABLE_DPI = 100


def vp_text(x: Fraction | int) -> str:
    """``450`` for whole numbers, else one decimal rounded down (``337.5``), as the Forecast's text does."""
    if Fraction(x).denominator == 1:
        return str(int(x))
    return one_decimal(Fraction(x))


def rate_text(line: ForecastLine) -> str:
    """What one unit is worth: ``3.0 VP per vote``, ``1 VP = 400 MS of income``; or why there is no rate."""
    if not line.vp:
        return "not scored"
    rate = line.rate
    if rate is None:
        return "nothing in play yet"
    if line.per_vp:  # Income and Wealth: how many MS buy one VP (R3-08); 0 when one MS is worth a VP or more
        return line.rate_text()
    unit = "MS" if line.category in (Category.INCOME, Category.WEALTH) else UNIT[line.category]
    return f"{two_decimals(rate)} VP per {unit}"


def percent_of(part: Fraction, pot: Fraction) -> str:
    return f"{vp_text(part * 100 / pot)}%" if pot else "0%"


def singular_text(forecast: Forecast) -> str:
    worths = sorted(vp for _, vp in forecast.singular if vp)
    if not worths:
        return "no singular awards"
    count = f"{len(worths)} award" + ("s" if len(worths) != 1 else "")
    if worths[0] == worths[-1]:
        return f"{count}, {vp_text(worths[0])} VP each"
    return f"{count}, {vp_text(worths[0])}–{vp_text(worths[-1])} VP each"


MS_STEP = 1000
"""Income and Wealth are weighed by the thousand MS: one MS is worth a sliver of a VP."""
ONE_MORE = {Category.VOTES: "a vote", Category.MILITARY: "a Force point", Category.PLANETS: "a Planet",
            Category.ASSETS: "an Asset", Category.INCOME: f"{MS_STEP:,} MS of income", Category.STOCK: "a Share",
            Category.WEALTH: f"{MS_STEP:,} MS of wealth"}
"""What "one more of each thing" is on the Forecast chart."""


def one_more(line: ForecastLine) -> Fraction | None:
    """The VP that one more of the category's thing is worth at today's rate (``MS_STEP`` MS for Income and
    Wealth): the rate the Forecast shows, so a player sees where their next purchase counts most, and never
    more than the whole category. None when nothing is in play or the category is not scored."""
    if line.rate is None or not line.vp:
        return None
    return min(line.rate * (MS_STEP if line.category in (Category.INCOME, Category.WEALTH) else 1), line.vp)


def forecast_png(forecast: Forecast, *, title: str) -> bytes:
    """The Forecast (R3-08) as a 1200 × 675 PNG: what one more of each thing is worth if the game ended now
    (a vote, a Force point, a Planet, an Asset, a Share, a thousand MS of income or of wealth), one bar each on
    the same VP scale, longest first, with the category's share of the Pot beside it; categories with nothing in
    play say what waits for the first one. The Pot and the singular awards in the subtitle."""
    fig = _figure(FORECAST_SIZE, FORECAST_DPI)
    singular = sum((vp for _, vp in forecast.singular), Fraction(0))
    heading = fig.text(0.035, 0.93, _clean(title), fontsize=16, fontweight="bold", color=INK, va="center", **_TEXT)
    _fit(heading, 0.93 * fig.bbox.width)
    _fit(fig.text(0.035, 0.855, f"What one more of each is worth if the game ended now  ·  Pot "
                  f"{vp_text(forecast.pot)} VP", fontsize=10.5, color=MUTED, va="center", **_TEXT),
         0.93 * fig.bbox.width)
    _fit(fig.text(0.035, 0.035, f"Besides: singular awards {vp_text(singular)} VP in all "
                  f"({singular_text(forecast)}).", fontsize=10, color=MUTED, va="center", **_TEXT),
         0.93 * fig.bbox.width)

    ranked = sorted(forecast.lines, key=lambda line: (one_more(line) is None, -(one_more(line) or 0)))
    ax = fig.add_axes((0.25, 0.1, 0.72, 0.68))
    ax.set_axis_off()
    ax.set_ylim(len(ranked) - 0.4, -0.6)
    ax.set_xlim(0, 1)
    values = [float(one_more(line) or 0) for line in ranked]
    ax.barh(range(len(ranked)), values, height=0.62, color=BAR)
    ax.axvline(0, color=RULE, linewidth=1)
    labels = []
    for y, line in enumerate(ranked):
        worth = one_more(line)
        ax.text(-0.22 / 0.72, y, _clean(ONE_MORE[line.category]), transform=ax.get_yaxis_transform(),
                fontsize=11, color=INK, va="center_baseline", ha="left", **_TEXT)
        share = f"{line.category.label} {vp_text(line.vp)} VP ({percent_of(line.vp, forecast.pot)})"
        if worth is not None:
            whole = "  (the whole category)" if worth == line.vp else ""
            text, color = f"  +{two_decimals(worth)} VP{whole}   ·  {share}", INK
        elif line.vp:
            text, color = f"  nothing in play yet: the first takes all  ·  {share}", MUTED
        else:
            text, color = f"  not scored  ·  {share}", MUTED
        labels.append(ax.text(values[y], y, text, fontsize=10.5, color=color, va="center_baseline", ha="left",
                              **_TEXT))
    ax.set_xlim(0, _room_for_labels(ax, values, labels))
    return _png(fig)


Column = tuple[str, float, str, Callable[[ScoreRow], str]]
"""Header, width in px at 100 dpi, alignment, and the cell text."""


def _columns() -> list[Column]:
    cols: list[Column] = [
        ("#", 40, "center", lambda r: str(r.place)),
        ("Player", 216, "left", lambda r: r.name),
        ("Title", 244, "left", lambda r: r.title or "–"),
    ]
    for c in Category:
        cols.append((c.label, 78, "right", _category_cell(c)))
    cols += [
        ("Singular", 86, "right", lambda r: str(sum(vp for _, vp in r.singular))),
        ("Goals", 64, "right", lambda r: str(r.goals)),
        ("Prestige", 84, "right", lambda r: str(r.prestige)),
        ("Total", 64, "right", lambda r: str(r.total)),
    ]
    return cols


def _category_cell(category: Category) -> Callable[[ScoreRow], str]:
    return lambda r: str(r.categories.get(category, 0))


TABLE_MARGIN = 18
TABLE_TITLE = 74
TABLE_HEADER = 32
TABLE_ROW = 28
TABLE_FOOTER = 40
CELL_PAD = 8


def scores_subtitle(scores: FinalScores, penalty: int = 0) -> str:
    """``Pot 1350 VP (after the End Game penalty of 25%)  ·  4 players  ·  shared place 2``."""
    rows = scores.rows
    shared = sorted({r.place for r in rows if sum(1 for s in rows if s.place == r.place) > 1})
    after = f" (after the End Game penalty of {penalty}%)" if penalty else ""
    sub = f"Pot {vp_text(scores.pot)} VP{after}  ·  {len(rows)} player" + ("s" if len(rows) != 1 else "")
    if shared:
        sub += "  ·  shared place" + ("s " if len(shared) > 1 else " ") + ", ".join(map(str, shared))
    return sub


def scores_png(scores: FinalScores, *, title: str, penalty: int = 0) -> bytes:
    """The final table (R3-17..R3-19) as a PNG, one row per player in order of place: place, name, title, the
    seven categories, the singular awards together, goals, prestige and total. Names longer than the column are
    cut with an ellipsis; the width is fixed (1380 px) and the height grows by 28 px a player."""
    cols = _columns()
    rows = sorted(scores.rows, key=lambda r: r.place)
    width = 2 * TABLE_MARGIN + int(sum(w for _, w, _, _ in cols))
    height = TABLE_TITLE + TABLE_HEADER + TABLE_ROW * max(len(rows), 1) + TABLE_FOOTER
    fig = _figure(_inches(width, height, TABLE_DPI), TABLE_DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)  # pixels, y downwards

    x0 = TABLE_MARGIN
    heading = ax.text(x0, 30, _clean(title), fontsize=17, fontweight="bold", color=INK, va="center", **_TEXT)
    _fit(heading, width - 2 * x0)
    _fit(ax.text(x0, 56, scores_subtitle(scores, penalty), fontsize=11, color=MUTED, va="center", **_TEXT),
         width - 2 * x0)

    top = TABLE_TITLE
    ax.add_patch(_rect(x0, top, width - 2 * x0, TABLE_HEADER, HEADER))
    _row(ax, cols, x0, top + TABLE_HEADER / 2, [h for h, *_ in cols], bold=set(range(len(cols))))
    y = top + TABLE_HEADER
    for i, r in enumerate(rows):
        ax.add_patch(_rect(x0, y, width - 2 * x0, TABLE_ROW, ZEBRA if i % 2 else BACKGROUND))
        if r.place in MEDALS:
            ax.add_patch(_disc(x0 + cols[0][1] / 2, y + TABLE_ROW / 2, 11, MEDALS[r.place]))
        texts = _row(ax, cols, x0, y + TABLE_ROW / 2, [get(r) for *_, get in cols], bold={1, len(cols) - 1})
        for j in (1, 2):  # name and title: cut to fit their column
            _fit(texts[j], cols[j][1] - 2 * CELL_PAD)
        y += TABLE_ROW
    if not rows:
        ax.text(x0 + CELL_PAD, y + TABLE_ROW / 2, "No players in play.", fontsize=11, color=MUTED,
                va="center", **_TEXT)
        y += TABLE_ROW
    ax.add_patch(_rect(x0, y, width - 2 * x0, 1, RULE))
    note = "Singular: all singular awards won (shared awards split, rounded down)."
    if scores.unawarded:
        n = len(scores.unawarded)
        note += f"  {n} award{'s' if n != 1 else ''} not won by anyone; {'their' if n != 1 else 'its'} VP are lost."
    ax.text(x0, y + TABLE_FOOTER / 2, note, fontsize=9.5, color=MUTED, va="center", **_TEXT)
    return _png(fig)


def _row(ax: Axes, cols: list[Column], x0: float, y: float, cells: list[str], *, bold: set[int]) -> list[Text]:
    texts = []
    x = x0
    for j, ((_, w, align, _), cell) in enumerate(zip(cols, cells, strict=True)):
        tx = {"left": x + CELL_PAD, "right": x + w - CELL_PAD, "center": x + w / 2}[align]
        texts.append(ax.text(tx, y, _clean(cell), fontsize=11, color=INK, va="center_baseline", ha=align,
                             fontweight="bold" if j in bold else "normal", **_TEXT))
        x += w
    return texts


RESULT_SIZE = (10.0, 5.0)
RESULT_DPI = 100
"""1000 × 500 px."""
PLAYERS_COLOR = {"aye": "#2E9E5B", "nay": "#D83C3E", "abstain": "#80848E"}
FACTIONS_COLOR = {"aye": "#9ED9B5", "nay": "#F2A7A8", "abstain": "#C9CCD1"}
RESULT_OPTIONS = (("aye", "Aye"), ("nay", "Nay"), ("abstain", "Abstain"))


def result_shares(result: ResultView) -> list[tuple[str, str, int, int]]:
    """(option, label, players' votes, factions' votes) for Aye, Nay and Abstain: the factions' part is the sum of
    the temporary factions that voted that way, the players' part the rest of the total."""
    totals = {"aye": result.aye, "nay": result.nay, "abstain": result.abstain}
    factions = {option: sum(f.votes for f in result.factions if (f.vote or "abstain") == option) for option in totals}
    return [(option, name, max(totals[option] - factions[option], 0), min(factions[option], totals[option]))
            for option, name in RESULT_OPTIONS]


def result_png(result: ResultView, *, title: str) -> bytes:
    """A round's result as a 1000 × 500 PNG: one horizontal bar per option, the players' votes in a strong colour
    and the temporary factions' share in a light one, with the numbers written beside each bar."""
    fig = _figure(RESULT_SIZE, RESULT_DPI)
    heading = fig.text(0.035, 0.915, _clean(title), fontsize=18, fontweight="bold", color=INK, va="center", **_TEXT)
    _fit(heading, 0.93 * fig.bbox.width)
    fig.text(0.035, 0.835, f"Needed to pass: {needed_text(result)}  ·  "
             f"{result.in_play} votes in play", fontsize=12, color=MUTED, va="center", **_TEXT)
    shares = result_shares(result)
    ax = fig.add_axes((0.16, 0.16, 0.80, 0.58))
    ax.set_axis_off()
    ys = list(range(len(shares)))
    ax.set_ylim(len(shares) - 0.4, -0.6)
    ax.barh(ys, [p for _, _, p, _ in shares], height=0.6, color=[PLAYERS_COLOR[o] for o, *_ in shares])
    ax.barh(ys, [f for *_, f in shares], left=[p for _, _, p, _ in shares], height=0.6,
            color=[FACTIONS_COLOR[o] for o, *_ in shares], hatch="//", edgecolor="#FFFFFF", linewidth=0)
    ax.axvline(0, color=RULE, linewidth=1)
    ax.set_xlim(0, 1)
    labels = []
    for y, (_, name, players, factions) in zip(ys, shares, strict=True):
        ax.text(-0.015, y, name, transform=ax.get_yaxis_transform(), fontsize=15, fontweight="bold", color=INK,
                va="center_baseline", ha="right", **_TEXT)
        detail = f"  {players + factions}" + (f"   (players {players}, factions {factions})" if factions else "")
        labels.append(ax.text(players + factions, y, detail, fontsize=13, color=INK, va="center_baseline",
                              ha="left", **_TEXT))
    ax.set_xlim(0, _room_for_labels(ax, [float(p + f) for _, _, p, f in shares], labels))
    if any(f for *_, f in shares):  # the two kinds of bar need telling apart only when factions voted
        legend(fig, [("players' ballots", PLAYERS_COLOR["abstain"], None),
                     ("temporary factions", FACTIONS_COLOR["abstain"], "//")])
    return _png(fig)


# -- alt text: each picture in words (Discord's attachment description) ------------------------------------------

def result_alt(result: ResultView, *, title: str) -> str:
    """The round chart in words: each option's total (and the factions' part of it), what was needed, the
    outcome (the title says it)."""
    parts = []
    for _, name, players, factions in result_shares(result):
        total = players + factions
        parts.append(f"{name} {total}" + (f" (players {players}, temporary factions {factions})" if factions else ""))
    return (f"Bar chart of {title}. " + ", ".join(parts) + f". Needed to pass: {needed_text(result)}; "
            f"{result.in_play} votes in play.")  # as the card says it (play-test T5.10)


def needed_text(result: ResultView) -> str:
    """What a round needed to pass and why, as the result card and its chart's alt text say it."""
    effective = result.aye + result.nay
    if effective == 0:  # T = 0 // 2 + 1 = 1 Aye, nobody cast one (R0-18; play-test T5.10)
        return f"{result.needed} Aye (nobody voted Aye or Nay; abstentions do not count)"
    return f"{result.needed} (a majority of Aye + Nay = {effective}; abstentions do not count)"


def forecast_alt(forecast: Forecast, *, title: str) -> str:
    """The Forecast chart in words: what one more of each thing is worth, largest first, then the rest."""
    worth = []
    waiting = []
    for line in sorted(forecast.lines, key=lambda x: -(one_more(x) or 0)):
        value = one_more(line)
        if value is not None:
            worth.append(f"{ONE_MORE[line.category]} +{two_decimals(value)} VP")
        elif line.vp:
            waiting.append(line.category.label)
    text = f"Bar chart of {title}: what one more of each is worth if the game ended now (Pot " \
           f"{vp_text(forecast.pot)} VP): " + (", ".join(worth) or "nothing is in play yet") + "."
    if waiting and worth:
        text += " Nothing in play yet in " + ", ".join(waiting) + ": the first one takes the whole category."
    singular = sum((vp for _, vp in forecast.singular), Fraction(0))
    return text + f" Singular awards: {vp_text(singular)} VP in all ({singular_text(forecast)})."


def scores_alt(scores: FinalScores, *, title: str) -> str:
    """The final table in words: each place, player and total."""
    rows = sorted(scores.rows, key=lambda r: r.place)
    listed = "; ".join(f"{r.place}. {r.name} {r.total} VP" for r in rows) or "no players in play"
    return f"Table of {title} (Pot {vp_text(scores.pot)} VP): {listed}."
