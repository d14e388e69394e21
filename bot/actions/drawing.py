"""Charts are drawn off the event loop, one at a time, in a thread of their own: drawing a PNG (and the first
import of matplotlib) takes from a fraction of a second to several on a busy machine, and while the loop is
blocked the Discord adapter can neither defer an interaction within its 3 s nor take other votes. One thread
keeps matplotlib's shared font cache used by one drawing at a time.

Every drawing function is a pure function of its arguments (the same input gives byte-identical PNGs,
tests/test_charts.py), so the last drawings, up to ``KEPT_BYTES`` of them, are kept by their arguments: a board, a
history or a Forecast asked for again unchanged is not drawn again (about 0.1 s of CPU each, more on a busy
machine)."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.figure import Figure  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.patches import Patch  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.text import Text  # matplotlib is heavy: imported when a chart is drawn

log = logging.getLogger("clerk.charts")
P = ParamSpec("P")
T = TypeVar("T")

_DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clerk-charts")

KEPT_BYTES = 4 * 1024 * 1024
"""How much of the drawings is kept, in bytes: a Forecast is 90-130 KB, a round's result 25-50 KB."""
_kept: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
"""The last drawings by their arguments, each with its size, the most recently used last. Used on the event loop
only."""


def _size(drawing: object) -> int:
    """The bytes a drawing holds: a PNG, or a tuple such as (file name, PNG)."""
    if isinstance(drawing, bytes | str):
        return len(drawing)
    if isinstance(drawing, tuple):
        return sum(_size(part) for part in drawing)
    return 0


def _key(draw: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Hashable | None:
    """What a drawing is kept by, or None when an argument cannot be hashed (a view holding a dict)."""
    key = (draw, args, tuple(sorted(kwargs.items())))
    try:
        hash(key)
    except TypeError:
        return None
    return key


async def drawn(draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``draw(*args, **kwargs)`` in the chart thread; the caller's coroutine waits without blocking the loop. The
    same drawing asked for again is answered from the drawings kept (module docstring); a drawing that gave None (a
    chart that failed and was left out) is not kept, so it is tried again."""
    key = _key(draw, args, kwargs)
    if key is not None and key in _kept:
        _kept.move_to_end(key)
        kept: T = _kept[key][0]
        return kept
    result = await asyncio.get_running_loop().run_in_executor(_DRAWER, functools.partial(draw, *args, **kwargs))
    if key is not None and result is not None and key not in _kept:  # (another coroutine may have drawn it too)
        _kept[key] = (result, _size(result))
        while sum(size for _, size in _kept.values()) > KEPT_BYTES:
            _kept.popitem(last=False)
    return result


D = TypeVar("D")


@dataclass(frozen=True)
class Picture:
    """A drawn chart for ``Outgoing(file=..., alt=...)``: the file (None when drawing failed) and its alt text."""

    file: tuple[str, bytes] | None
    alt: str


async def picture(name: str, draw: Callable[[D], bytes], describe: Callable[[D], str], data: D) -> Picture:
    """``draw(data)`` off the loop as the file ``name``, with ``describe(data)`` as its alt text. A chart goes with a
    post that says the same in text, so a chart that fails is logged and left out: the post always goes."""
    try:
        return Picture((name, await drawn(draw, data)), describe(data))
    except Exception:
        log.exception("could not draw %s", name)
        return Picture(None, "")


# -- shared drawing helpers: every chart of every ruleset is drawn with these ----------------------------------
#
# matplotlib is imported inside the functions (importing it costs about half a second), and only through ``Figure``
# and the Agg canvas: no pyplot, no global state, no display. Everything is drawn in DejaVu Sans, the font
# matplotlib ships, on an opaque white card that reads on Discord's light and dark themes alike. The same input
# gives byte-identical PNGs.

FONT = "DejaVu Sans"
BACKGROUND = "#FFFFFF"
INK = "#1E1F22"
MUTED = "#5C5F66"
RULE = "#B5BAC1"
GRID = "#E3E5E8"
NO_METADATA: dict[str, str | None] = {"Software": None}
"""No "Software: matplotlib x.y" chunk: the PNG depends on the input only."""

TEXT: dict[str, Any] = {"family": FONT, "parse_math": False}
"""Every text: DejaVu Sans, and never mathtext (a "$" in a player's name is just a dollar sign)."""

WIDE_SIZE = (10.0, 5.0)
WIDE_DPI = 100
"""1000 × 500 px: the size of the round result and of every ruleset's result and history charts."""


def figure(size: tuple[float, float], dpi: int) -> Figure:
    """A figure of its own on an Agg canvas of its own: nothing shared, nothing shown."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.figure import Figure  # matplotlib is heavy: imported when a chart is drawn

    fig = Figure(figsize=size, dpi=dpi, facecolor=BACKGROUND)
    FigureCanvasAgg(fig)
    return fig


PNG_COMPRESSION = 1
"""zlib's fastest level: a Forecast is drawn in 78 ms instead of 111 at the default 6, and is 95 KB instead of 87
(measured 2026-12-06): a tenth more to upload for a third less of the drawing's CPU."""
# Those figures are matplotlib 3.11's. matplotlib is pinned at 3.10 now (pyproject.toml): 3.11 draws each glyph of a
# text with a few numpy operations in Python, which made every chart here, mostly text, about 1.7 times as slow. With
# 3.10 the glyphs' edges have more shades and the PNGs are larger: the golden Forecast 107 KB, one of a new game 130.


def png(fig: Figure) -> bytes:
    """Every savefig option given, so no rcParams setting elsewhere changes the picture."""
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi="figure", facecolor=BACKGROUND, edgecolor="none", transparent=False,
                bbox_inches=None, metadata=NO_METADATA, pil_kwargs={"compress_level": PNG_COMPRESSION})
    return out.getvalue()


def inches(width: int, height: int, dpi: int) -> tuple[float, float]:
    """Figure inches that Agg turns back into exactly ``width`` × ``height`` pixels (it truncates, and
    ``29 / 100 * 100`` is 28.999…)."""

    def exact(px: int) -> float:
        size = px / dpi
        while int(size * dpi) < px:
            size = math.nextafter(size, math.inf)
        return size

    return exact(width), exact(height)


def fit(text: Text, room: float) -> None:
    """Shorten ``text`` with an ellipsis until it fits ``room`` pixels."""
    full = text.get_text()
    if text.get_window_extent().width <= room:
        return
    lo, hi = 0, len(full)  # the longest prefix that fits, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        text.set_text(full[:mid].rstrip() + "…")
        if text.get_window_extent().width <= room:
            lo = mid
        else:
            hi = mid - 1
    text.set_text(full[:lo].rstrip() + "…")


def clean(text: str) -> str:
    """Characters DejaVu Sans (regular or bold) lacks, such as emoji and CJK, become "?" instead of an empty box
    and a "Glyph missing" warning."""
    have = _glyphs()
    return "".join(ch if ord(ch) in have or ch in "\n\t" else "?" for ch in text)


@cache
def _glyphs() -> frozenset[int]:
    from matplotlib import font_manager  # matplotlib is heavy: imported when a chart is drawn
    from matplotlib.ft2font import FT2Font  # matplotlib is heavy: imported when a chart is drawn

    faces = (font_manager.findfont(font_manager.FontProperties(family=FONT, weight=w), fallback_to_default=False)
             for w in ("normal", "bold"))
    return frozenset.intersection(*(frozenset(FT2Font(path).get_charmap()) for path in faces))


def disc(x: float, y: float, radius: float, color: str) -> Patch:
    from matplotlib.patches import Circle  # matplotlib is heavy: imported when a chart is drawn

    return Circle((x, y), radius, facecolor=color, edgecolor="none", linewidth=0)


def rect(x: float, y: float, w: float, h: float, color: str) -> Patch:
    from matplotlib.patches import Rectangle  # matplotlib is heavy: imported when a chart is drawn

    return Rectangle((x, y), w, h, facecolor=color, edgecolor="none", linewidth=0)


def room_for_labels(ax: Axes, values: list[float], labels: list[Text]) -> float:
    """The x-axis end that leaves every label room to the right of its bar (measured, not guessed)."""
    width = ax.get_window_extent().width
    top = max(values, default=0.0)
    if top <= 0:
        return 1.0
    end = top * 1.02
    for value, label in zip(values, labels, strict=True):
        free = width - label.get_window_extent().width - 4
        if value > 0 and free > 0:
            end = max(end, value * width / free)
    return end


def heading(fig: Figure, title: str, subtitle: str, *, size: float = 18, sub_size: float = 12,
            at: tuple[float, float] = (0.915, 0.835)) -> None:
    """The title (cut to fit) and one muted line under it, at the top left of a chart; ``at`` is where their
    middles are, as fractions of the height from the bottom (the defaults suit a 500 px card)."""
    fit(fig.text(0.035, at[0], clean(title), fontsize=size, fontweight="bold", color=INK, va="center", **TEXT),
        0.93 * fig.bbox.width)
    if subtitle:
        fit(fig.text(0.035, at[1], clean(subtitle), fontsize=sub_size, color=MUTED, va="center", **TEXT),
            0.93 * fig.bbox.width)


@dataclass(frozen=True)
class Segment:
    """One part of a stacked bar: its value, colour, and a word written inside it when it is wide enough."""

    value: int
    color: str
    inside: str = ""
    hatch: str | None = None


@dataclass(frozen=True)
class Bar:
    """One row of a stacked bar chart: its name on the left, its parts, and what is written after it."""

    label: str
    segments: tuple[Segment, ...]
    after: str
    bold: bool = False


def stacked_bars(fig: Figure, bars: list[Bar], *, rect_: tuple[float, float, float, float] = (0.22, 0.16, 0.74, 0.6),
                 label_size: float = 14, text_size: float = 12.5) -> Axes:
    """Horizontal stacked bars, one a row from the top: the name right-aligned left of the axis (cut to fit), each
    segment's word inside it where it fits, and ``after`` written beside the bar's end; the x-axis is stretched so
    every ``after`` fits. Negative segments are not drawn (say them in ``after``)."""
    ax = fig.add_axes(rect_)
    ax.set_axis_off()
    n = max(len(bars), 1)
    ax.set_ylim(n - 0.4, -0.6)
    ax.set_xlim(0, 1)
    ends = [float(sum(max(s.value, 0) for s in b.segments)) for b in bars]
    room = rect_[0] * fig.bbox.width - 0.035 * fig.bbox.width
    for y, bar in enumerate(bars):
        left = 0
        for s in bar.segments:
            if s.value <= 0:
                continue
            ax.barh([y], [s.value], left=[left], height=0.62, color=s.color, hatch=s.hatch,
                    edgecolor=BACKGROUND if s.hatch else "none", linewidth=0)
            left += s.value
        name = ax.text(-0.015, y, clean(bar.label), transform=ax.get_yaxis_transform(), fontsize=label_size,
                       fontweight="bold" if bar.bold else "normal", color=INK, va="center_baseline", ha="right",
                       **TEXT)
        fit(name, room)
    labels = [ax.text(end, y, "  " + clean(bar.after), fontsize=text_size, color=INK, va="center_baseline",
                      ha="left", **TEXT) for y, (end, bar) in enumerate(zip(ends, bars, strict=True))]
    ax.set_xlim(0, room_for_labels(ax, ends, labels))
    ax.axvline(0, color=RULE, linewidth=1)
    px = ax.get_window_extent().width / ax.get_xlim()[1]  # pixels per unit, now that the axis is final
    for y, bar in enumerate(bars):
        left = 0
        for s in bar.segments:
            if s.value <= 0:
                continue
            if s.inside:
                word = ax.text(left + s.value / 2, y, clean(s.inside), fontsize=text_size - 2, color=ink_on(s.color),
                               va="center_baseline", ha="center", **TEXT)
                if word.get_window_extent().width > s.value * px - 6:
                    word.remove()
            left += s.value
    return ax


def ink_on(color: str) -> str:
    """White on a dark fill, the usual ink on a light one (``#RRGGBB``), so a word inside a bar reads."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return BACKGROUND if 0.299 * r + 0.587 * g + 0.114 * b < 0.55 else INK


def legend(fig: Figure, items: list[tuple[str, str, str | None]], *, y: float = 0.02, size: float = 12) -> None:
    """A one-line legend at the bottom left: (label, colour, hatch) swatches; nothing when there are none."""
    if not items:
        return
    from matplotlib.patches import Patch as Swatch  # matplotlib is heavy: imported when a chart is drawn

    fig.legend(handles=[Swatch(facecolor=color, hatch=hatch, edgecolor=BACKGROUND if hatch else "none", label=label)
                        for label, color, hatch in items],
               loc="lower left", bbox_to_anchor=(0.03, y), ncol=len(items), frameon=False,
               prop={"family": FONT, "size": size})


def count(n: int, one: str, many: str | None = None) -> str:
    """``1 vote``, ``3 votes``: the number and the word that goes with it."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def words(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
