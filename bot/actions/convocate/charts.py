"""Pictures for the Convocate, each with its alt text (the same in words): the board as /board shows it, the Standing
Vote per player (one stacked bar, a segment per card that counts, coloured by kind) over the Galactic Factors'
track (−4 to +4). A pure function of the board (PNG bytes for ``Outgoing.file``), drawn with the shared helpers of
bot/actions/drawing.py and off the event loop by its ``drawn``.

Secrecy (rules-spec §4.2.9): everything drawn is read from the public board (Standing Vote, control, Factors);
hands are never drawn."""

from __future__ import annotations

from bot.actions.drawing import (
    BACKGROUND,
    INK,
    MUTED,
    TEXT,
    Bar,
    Segment,
    clean,
    count,
    figure,
    fit,
    heading,
    inches,
    legend,
    png,
    rect,
    stacked_bars,
    words,
)
from engine.convocate.board import signed
from engine.convocate.votes import Line
from engine.service.convocate.views import BoardView

KINDS = (("Characters and Ground Units", "#4263EB"), ("Homeworlds", "#F59F00"), ("Locations", "#37B24D"),
         ("Convocate Seats", "#AE3EC9"), ("Seat bonus", "#E599F7"), ("other permanents", "#868E96"),
         ("temporary", "#FFD43B"))
COLOR = dict(KINDS)
TRACK = range(-4, 5)
TRACK_CELL = "#F1F3F5"
TRACK_ON = "#1C7ED6"
TRACK_OFF_SIDE = {-1: "#FFE3E3", 1: "#D3F9D8"}

WIDTH = 1000
DPI = 100
TITLE = 105
ROW = 52
LEGEND = 40
FACTORS_TITLE = 46
FACTOR_ROW = 40
FOOTER = 22


def kind_of(line: Line) -> str:
    """Which legend entry a Standing Vote line belongs to (engine/convocate/votes.py writes its note)."""
    if line.source == "temporary effects":
        return "temporary"
    if line.note.startswith("active Seat"):
        return "Seat bonus"
    return {"readied": "Characters and Ground Units", "Homeworld": "Homeworlds", "Location": "Locations",
            "Convocate Seat": "Convocate Seats"}.get(line.note, "other permanents")


def _after(view: BoardView, player: str, total: int, negative: int) -> str:
    text = str(total).replace("-", "−")
    if negative:
        text += f" = {total - negative} − {-negative} temporary"
    if view.control == player:
        text += "   political control"
    elif player in view.tied:
        text += "   tied for the most"
    return text


def board_png(view: BoardView) -> bytes:
    """The board as a PNG 1000 px wide: the Standing Vote per player in turn order (the player with political
    control in bold), then each Galactic Factor on its −4..+4 track; the height grows with the players and
    Factors."""
    players = view.standings
    factors = view.board.factors
    height = TITLE + ROW * max(len(players), 1) + LEGEND + FACTORS_TITLE + FACTOR_ROW * max(len(factors), 1) + FOOTER
    fig = figure(inches(WIDTH, height, DPI), DPI)
    heading(fig, f"{view.game.name}: the Convocate", "Standing Vote per player, by the cards that count",
            at=(1 - 40 / height, 1 - 78 / height))
    bars = []
    used: set[str] = set()
    for s in players:
        segments = []
        negative = 0
        for line in s.vote.lines:
            if line.votes < 0:
                negative += line.votes
            if line.votes <= 0:
                continue
            kind = kind_of(line)
            used.add(kind)
            segments.append(Segment(line.votes, COLOR[kind], f"{line.source} {line.votes}"))
        bars.append(Bar(f"{s.player} ({s.sovereignty})", tuple(segments), _after(view, s.player, s.vote.total,
                                                                                   negative),
                        bold=view.control == s.player))
    top = TITLE
    bottom = top + ROW * max(len(players), 1)
    stacked_bars(fig, bars, rect_=(0.27, 1 - bottom / height, 0.69, (bottom - top) / height), label_size=13,
                 text_size=12)
    if not players:
        fig.text(0.5, 1 - (top + ROW / 2) / height, "No players at the table yet.", fontsize=13, color=MUTED,
                 ha="center", va="center", **TEXT)

    legend(fig, [(name, color, None) for name, color in KINDS if name in used], y=1 - (bottom + LEGEND) / height,
           size=11)
    y = bottom + LEGEND + FACTORS_TITLE
    fig.text(0.035, 1 - (y - 14) / height, "Galactic Factors", fontsize=14, fontweight="bold", color=INK,
             va="center", **TEXT)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(height, 0)  # pixels, y downwards
    x0, cell, gap = 270, 60, 4
    for i, value in enumerate(TRACK):  # the scale above the first track
        ax.text(x0 + i * (cell + gap) + cell / 2, y + 2, signed(value), fontsize=10.5, color=MUTED, ha="center",
                va="bottom", **TEXT)
    for row, (name, value) in enumerate(factors):
        cy = y + 6 + row * FACTOR_ROW
        label = ax.text(x0 - 14, cy + (FACTOR_ROW - 8) / 2, clean(name), fontsize=13, fontweight="bold",
                        color=INK, ha="right", va="center", **TEXT)
        fit(label, x0 - 14 - 35)
        for i, step in enumerate(TRACK):
            side = (step > 0) - (step < 0)
            color = TRACK_ON if step == value else TRACK_OFF_SIDE.get(side, TRACK_CELL)
            ax.add_patch(rect(x0 + i * (cell + gap), cy, cell, FACTOR_ROW - 8, color))
            if step == value:
                ax.text(x0 + i * (cell + gap) + cell / 2, cy + (FACTOR_ROW - 8) / 2, signed(value), fontsize=13,
                        fontweight="bold", color=BACKGROUND, ha="center", va="center", **TEXT)
    if not factors:
        ax.text(x0, y + 6 + FACTOR_ROW / 2, "No Galactic Factors on the board.", fontsize=12, color=MUTED,
                va="center", **TEXT)
    return png(fig)


def board_alt(view: BoardView) -> str:
    """The board chart in words: each player's Standing Vote and what makes it up, who has political control, and
    each Galactic Factor's value."""
    parts = []
    for s in view.standings:
        counted = [f"{line.source} {line.votes}".replace("-", "−") for line in s.vote.lines if line.votes]
        parts.append(f"{s.player} {count(s.vote.total, 'vote')}" + (f" ({', '.join(counted)})" if counted else ""))
    text = (f"Bar chart of the Standing Vote in {view.game.name}: " + ("; ".join(parts) or "no players yet") + ". ")
    if view.control is not None:
        text += f"{view.control} has political control. "
    elif view.tied:
        text += f"Nobody has political control: {words(list(view.tied))} are tied. "
    else:
        text += "Nobody has political control. "
    factors = [f"{name} {signed(value)}" for name, value in view.board.factors]
    return text + "Galactic Factors on the −4 to +4 track: " + (", ".join(factors) or "none") + "."
