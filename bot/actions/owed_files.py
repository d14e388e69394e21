"""A card owed with its write, and the chart that goes with it, drawn off the event loop (``bot/actions/drawing.py``)
once the write has committed: a chart cannot be drawn in the write's transaction (tens of milliseconds of CPU, in a
worker thread, with the write lock held), so the card is owed there without it (``AnswerWith``), and the chart is
added to the card's row, not queued yet, when it is drawn (``clerk.outbox.amend``). A kill between the write's
commit and that amendment posts the card at the next start without its chart (its text says the same); a chart that
failed to draw leaves the card as it was owed (docs/reliability.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.actions.commands import App
from bot.actions.drawing import Picture
from bot.actions.outbox import AnswerWith, Outgoing
from bot.actions.wire import with_file


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
