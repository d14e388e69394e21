"""The deadline scheduler's timed work owes what it posts in its writes' transactions (``bot.actions.outbox.TIMED``,
docs/reliability.md): each pass has an ``Answering`` of its own, which ``deliver`` is given with what the pass made
(and queues what was owed so instead of owing it again); what a pass owed before one of its tasks failed is delivered
all the same (committed with its write, it goes out now, not only at the next start). The end-to-end kill of a pass:
tests/e2e/test_owed_interactions.py."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pytest

from bot.actions.commands import App
from bot.actions.front import Front
from bot.actions.outbox import TIMED, Answering, Outgoing, ToChannel, not_owed
from bot.discord.scheduler import DeadlineScheduler
from engine.service import Clerk
from engine.service.owed import NOTICE, Owed, OwedRow

POSTED = Outgoing(ToChannel(7), "The offer to second is now with carol.")
ROW = OwedRow(1, Owed("channel:7", 7, NOTICE, "o-moved", {}))


async def passed_on(app: App, now: datetime) -> list[Outgoing]:
    """A task whose write owed ``POSTED`` (as ``AnswerWith.out`` records it once the write kept it)."""
    answering = TIMED.get()
    assert answering is not None, "a pass's timed work has the pass's Answering"
    answering.owed.append((POSTED, ROW))
    return [POSTED]


async def failing(app: App, now: datetime) -> list[Outgoing]:
    raise RuntimeError("the next task fails")


def scheduled(clerk: Clerk, *tasks: Any) -> tuple[DeadlineScheduler, list[tuple[list[Outgoing], list[Any]]]]:
    delivered: list[tuple[list[Outgoing], list[Any]]] = []

    async def deliver(out: Sequence[Outgoing], answering: Answering | None = None) -> None:
        delivered.append((list(out), list(answering.owed) if answering is not None else []))

    app = App(clerk, fronts=(Front("timed", due=tasks),))
    return DeadlineScheduler(app, deliver, answering=lambda: Answering(not_owed)), delivered


async def test_a_pass_gives_its_timed_work_an_answering_and_delivers_what_it_owed_with_it(clerk: Clerk) -> None:
    scheduler, delivered = scheduled(clerk, passed_on)
    await scheduler.tick()
    assert delivered == [([POSTED], [(POSTED, ROW)])], "delivered with what was owed already: queued, not owed again"
    assert TIMED.get() is None, "only for the pass"


async def test_what_a_pass_owed_before_a_task_failed_is_delivered_all_the_same(clerk: Clerk) -> None:
    scheduler, delivered = scheduled(clerk, passed_on, failing)
    with pytest.raises(RuntimeError, match="the next task fails"):
        await scheduler._read_and_do(clerk.clock.now())
    assert delivered == [([], [(POSTED, ROW)])]
    assert TIMED.get() is None
