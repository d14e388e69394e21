"""A card owed with its write, and the chart that goes with it, drawn off the event loop (``bot/actions/drawing.py``)
once the write has committed: a chart cannot be drawn in the write's transaction (tens of milliseconds of CPU, in a
worker thread, with the write lock held), so the card is owed there without it (``AnswerWith``), and the chart is
added to the card's row, not queued yet, when it is drawn (``clerk.outbox.amend``); a chart that failed to draw
leaves the card as it was owed (docs/reliability.md).

A kill between the write's commit and that amendment leaves the card owed without its chart. The card carries a
marker (``extra[CHART]``, ``ChartKind.marker``): which chart, of which game, and a digest of what the chart is drawn
from as the write read it. At the next start, before the outgoing queue resumes, each such card still owed without a
file has its chart drawn again from what its ruleset reads now (``Front.charts``, ``charts_at_start``) and added to
its row, when the digest says that is unchanged (every chart is a pure function of what it is drawn from, so it is
the chart the card would have carried); otherwise it is posted without it, as before."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from bot.actions.commands import App
from bot.actions.drawing import Picture
from bot.actions.outbox import CHART, AnswerWith, Outgoing
from bot.actions.wire import with_file
from engine.service.owed import OwedRow

log = logging.getLogger("clerk.charts")
D = TypeVar("D")


@dataclass(frozen=True)
class ChartKind(Generic[D]):
    """A chart a ruleset's card carries, drawn after its write (``Front.charts``): how it is read again at start,
    what of it the chart is drawn from, and how it is drawn."""

    name: str
    """The kind in the card's marker (``forecast``, ``scores``, ``history``): unique among the fronts."""
    read: Callable[[App, int], Awaitable[D | None]]
    """What the chart is drawn of in a game, as it stands now (None: nothing to draw)."""
    drawn_from: Callable[[D], object]
    """All that ``draw`` reads of it (the drawing's and its alt text's input), whose ``repr`` the marker's digest
    is taken of: the same digest, the same chart."""
    draw: Callable[[D], Awaitable[Picture]]
    """The chart, drawn off the event loop, with its alt text (no file when it could not be drawn)."""

    def marker(self, game_id: int, data: D) -> dict[str, str]:
        """The ``extra`` of a card whose chart is drawn of ``data`` (read in its write's transaction) after the
        commit."""
        return {CHART: f"{self.name}:{game_id}:{self.digest(data)}"}

    def digest(self, data: D) -> str:
        return hashlib.sha256(repr(self.drawn_from(data)).encode()).hexdigest()[:20]


async def charts_at_start(app: App, rows: Sequence[OwedRow]) -> list[OwedRow]:
    """``rows`` (what the last run left owed, about to be queued again) with each card still owed without its chart
    (a kill between its write's commit and the chart's amendment) given it, drawn again from what its ruleset reads
    now (``ChartKind.read``) and added to its row (``clerk.outbox.amend``), when that is what the card's write read
    (the digest in its marker). A chart that cannot be drawn so is left out, as before: the card goes as owed."""
    kinds = {kind.name: kind for front in app.fronts for kind in front.charts}
    out: list[OwedRow] = []
    for row in rows:
        marker = (row.owed.body.get("extra") or {}).get(CHART)
        if marker is not None and "file" not in row.owed.body:
            row = await _chart_again(app, kinds, row, str(marker))
        out.append(row)
    return out


async def _chart_again(app: App, kinds: dict[str, ChartKind[Any]], row: OwedRow, marker: str) -> OwedRow:
    name, game, digest = marker.split(":")
    kind = kinds.get(name)
    try:
        data = await kind.read(app, int(game)) if kind is not None else None
        if kind is None or data is None or kind.digest(data) != digest:
            log.warning("the %s chart of game %s owed before the last stop is not drawn again: what it is drawn from "
                        "has changed since its card was owed; the card is posted without it", name, game)
            return row
        picture = await kind.draw(data)
        if picture.file is None:
            return row
        amended = await app.clerk.outbox.amend(row, with_file(row.owed.body, picture.file, picture.alt))
    except Exception:
        log.exception("drawing the %s chart of game %s again at start failed; the card is posted without it", name,
                      game)
        return row
    if amended is None:
        return row
    log.info("the %s chart of game %s, owed without it before the last stop, is drawn and added to its card", name,
             game)
    return amended


async def charted(app: App, answered: AnswerWith[Any], out: list[Outgoing], item: Outgoing,
                  chart: Picture) -> list[Outgoing]:
    """``out`` (what ``answered.out`` returned) with ``item``, one of its messages, given ``chart``'s file and alt
    text; when ``item`` was owed with the write, its row is amended first, so what is posted, now or after a restart,
    is the card with its chart."""
    if chart.file is None:
        return out
    new = replace(item, file=chart.file, alt=chart.alt)
    row = answered.owed_row(item)
    if row is not None:
        amended = await app.clerk.outbox.amend(row, with_file(row.owed.body, chart.file, chart.alt))
        if amended is None:  # owed no longer (never so before it is queued): left as it was owed
            return out
        answered.swap(item, new, amended)
    return [new if o is item else o for o in out]
