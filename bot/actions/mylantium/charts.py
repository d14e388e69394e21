"""Pictures for the Republic of Mylantium, each with its alt text (the same in words): the Primary's and the General
Election's totals by where the votes came from (Faction Votes, Charisma, the Independent Vote), and the Approval
Rating and Revolutionary Fervor over the turns. Pure functions of their input (PNG bytes for ``Outgoing.file``),
drawn with the shared helpers of bot/actions/drawing.py and off the event loop by its ``drawn``.

Secrecy (rules-spec §2.2.7): the results are drawn only from a closed election's result, which is public; which
Faction chose what is not drawn (the result card does not say it either). Approval and Fervor are public."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.drawing import (
    GRID,
    INK,
    MUTED,
    RULE,
    TEXT,
    WIDE_DPI,
    WIDE_SIZE,
    Bar,
    Segment,
    clean,
    count,
    figure,
    heading,
    legend,
    png,
    stacked_bars,
    words,
)
from engine.mylantium.model import Party
from engine.service.mylantium.views import HistoryView, MylElectionView

FACTION_VOTES = "#4263EB"
CHARISMA = "#F59F00"
INDEPENDENT = "#8CE99A"
SOURCES = (("faction_votes", "Faction Votes", FACTION_VOTES, None), ("charisma", "Charisma", CHARISMA, None),
           ("independent", "Independent Vote", INDEPENDENT, "//"))
"""Where an election's votes come from, and how each is drawn."""
APPROVAL = "#2B8A3E"
FERVOR = "#C92A2A"


def _segments(line: Mapping[str, Any], sources: tuple[tuple[str, str, str, str | None], ...]) -> tuple[Segment, ...]:
    return tuple(Segment(int(line.get(key, 0)), color, str(int(line.get(key, 0))), hatch)
                 for key, _, color, hatch in sources)


def _sum_text(line: Mapping[str, Any], sources: tuple[tuple[str, str, str, str | None], ...]) -> str:
    return f"{line.get('total', 0)} = " + " + ".join(f"{int(line.get(key, 0))}" for key, *_ in sources)


def election_png(e: MylElectionView) -> bytes:
    """A closed Primary or General Election as a 1000 × 500 PNG: one stacked bar per candidate (the Primary) or
    per party (the General Election), coloured by where the votes came from, the total beside it."""
    r: Mapping[str, Any] = e.result or {}
    fig = figure(WIDE_SIZE, WIDE_DPI)
    sources: tuple[tuple[str, str, str, str | None], ...] = SOURCES
    if e.stage == "primary":
        sources = SOURCES[:2]
        nominees = r.get("nominees", {})
        ties = r.get("ties", {})
        bars = []
        for party in Party:
            for line in (x for x in r.get("lines", []) if x["party"] == party.value):
                chosen = nominees.get(party.value) == line["name"] and not ties.get(party.value)
                after = _sum_text(line, sources) + ("   nominee" if chosen else "")
                if line["name"] in ties.get(party.value, []):
                    after += "   tied"
                bars.append(Bar(f"{line['name']} ({party.title})", _segments(line, sources), after, bold=chosen))
        heading(fig, f"{e.game.name}: the Primary of turn {e.turn}",
                "Faction Votes + Charisma per candidate; the Independent Vote votes only in the General Election")
        if not bars:
            fig.text(0.5, 0.45, "No candidates ran.", fontsize=14, color=MUTED, ha="center", **TEXT)
    else:
        lines = r.get("lines", {})
        winner = r.get("winner")
        bars = []
        for party in Party:
            line = lines.get(party.value, {})
            nominee = r.get("nominees", {}).get(party.value) or "no nominee"
            after = _sum_text(line, sources) + ("   wins" if party.value == winner else "")
            bars.append(Bar(f"{party.title} ({nominee})", _segments(line, sources), after, bold=party.value == winner))
        incumbent = Party(r["incumbent"]) if r.get("incumbent") else None
        split = (f"Independent Vote {r.get('independent', 0)} (half the Faction Votes in play); the incumbent "
                 f"{incumbent.title}s get {r.get('approval', 0)}% of it") if incumbent else ""
        heading(fig, f"{e.game.name}: the General Election of turn {e.turn}", split)
    stacked_bars(fig, bars, rect_=(0.34, 0.17, 0.62, 0.58))
    legend(fig, [(name, color, hatch) for _, name, color, hatch in sources])
    return png(fig)


def election_alt(e: MylElectionView) -> str:
    """The election chart in words: each bar's total and its parts, and who won."""
    r: Mapping[str, Any] = e.result or {}
    if e.stage == "primary":
        parts = []
        for party in Party:
            for line in (x for x in r.get("lines", []) if x["party"] == party.value):
                parts.append(f"{line['name']} ({party.title}) {count(int(line['total']), 'vote')}: "
                             f"{line['faction_votes']} Faction Votes and {line['charisma']} Charisma")
        text = f"Bar chart of the Primary of turn {e.turn} in {e.game.name}. " + ("; ".join(parts) or
                                                                                "No candidates ran") + "."
        for party in Party:
            tie = r.get("ties", {}).get(party.value)
            nominee = r.get("nominees", {}).get(party.value)
            if tie:
                text += f" {party.title}s tied: {words(list(tie))}."
            elif nominee:
                text += f" {party.title} nominee: {nominee}."
        return text
    lines = r.get("lines", {})
    parts = []
    for party in Party:
        line = lines.get(party.value, {})
        nominee = r.get("nominees", {}).get(party.value) or "no nominee"
        parts.append(f"{party.title}s ({nominee}) {count(int(line.get('total', 0)), 'vote')}: "
                     f"{line.get('faction_votes', 0)} Faction Votes, {line.get('charisma', 0)} Charisma and "
                     f"{line.get('independent', 0)} of the Independent Vote")
    text = f"Bar chart of the General Election of turn {e.turn} in {e.game.name}. " + "; ".join(parts) + "."
    if r.get("winner"):
        text += f" The {Party(r['winner']).title}s win" + (" the tie." if r.get("tie") else ".")
    return text


def history_png(h: HistoryView) -> bytes:
    """The Approval Rating (0–100%) and Revolutionary Fervor over the turns as a 1000 × 500 PNG: two panels over
    the same turns, each point labelled with its value."""
    fig = figure(WIDE_SIZE, WIDE_DPI)
    heading(fig, f"{h.game.name}: approval and Fervor over the turns",
            f"At the end of each turn (turn {h.turn} so far); start: before the first change")
    turns = [t for t, _ in h.approval]
    short = len(turns) > 8  # "turn 12" under each of many points would run together: the numbers alone then
    names = ["start" if t == 0 else (str(t) if short else f"turn {t}") for t in turns]
    every = max(1, -(-len(turns) // 12))  # at most a dozen values written along each line
    panels = ((fig.add_axes((0.12, 0.47, 0.84, 0.3)), h.approval, "Approval", APPROVAL, "%", (0, 100)),
              (fig.add_axes((0.12, 0.1, 0.84, 0.3)), h.fervor, "Fervor", FERVOR, "",
               (0, max([v for _, v in h.fervor] + [4]) * 1.25)))
    for ax, points, label, color, unit, (low, high) in panels:
        values = [v for _, v in points]
        ax.set_xlim(-0.4, len(turns) - 0.6)
        ax.set_ylim(low, high)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        for side in ("left", "bottom"):
            ax.spines[side].set_color(RULE)
        ax.grid(axis="y", color=GRID, linewidth=1)
        ax.set_axisbelow(True)
        ax.tick_params(colors=MUTED, labelsize=10.5)
        ax.set_xticks(range(len(turns)))
        ax.set_xticklabels(names if ax is panels[1][0] else [""] * len(turns), fontsize=11, color=INK,
                           family="DejaVu Sans")
        for tick in ax.get_yticklabels():
            tick.set_fontfamily("DejaVu Sans")
        if unit:
            ax.set_yticks([0, 50, 100])
            ax.set_yticklabels(["0%", "50%", "100%"], family="DejaVu Sans")
        else:
            from matplotlib.ticker import MaxNLocator  # matplotlib is heavy: imported when a chart is drawn

            ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
        ax.plot(range(len(values)), values, color=color, linewidth=2.5, marker="o", markersize=7, clip_on=False)
        for x, v in enumerate(values):
            if x % every and x != len(values) - 1:
                continue
            ax.annotate(f"{v}{unit}", (x, v), xytext=(0, 8), textcoords="offset points", ha="center",
                        fontsize=11.5, fontweight="bold", color=color, family="DejaVu Sans",
                        annotation_clip=False)
        ax.text(-0.105, 0.5, clean(label), transform=ax.transAxes, rotation=90, fontsize=13, fontweight="bold",
                color=color, va="center", ha="center", **TEXT)
    if short:
        fig.text(0.96, 0.015, "turn", fontsize=11, color=MUTED, ha="right", va="bottom", **TEXT)
    return png(fig)


def history_alt(h: HistoryView) -> str:
    """The history chart in words: each measure, turn by turn."""

    def series(points: tuple[tuple[int, int], ...], unit: str) -> str:
        return ", ".join(("start" if t == 0 else f"turn {t}") + f" {v}{unit}" for t, v in points)

    return (f"Line chart of {h.game.name}'s Approval Rating and Revolutionary Fervor at the end of each turn "
            f"(turn {h.turn} so far). Approval: {series(h.approval, '%')}. Fervor: {series(h.fervor, '')}.")
