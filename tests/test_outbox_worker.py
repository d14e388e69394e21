"""The outgoing queue's worker (bot/discord/outbox_worker.py) with a stand-in for Discord: a send that fails for a
passing reason (a 429 discord.py gave up on, a 5xx) is tried again later and never dropped, and the other lanes go
on meanwhile; one Discord refuses for good is settled undeliverable; each row is settled once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.discord import outbox_worker
from bot.discord.outbox_worker import RETRY, SENT, UNDELIVERABLE, OutboxWorker
from bot.discord.pacing import Pacer
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.owed import NOTICE, Owed, OwedRow
from engine.store.database import make_sessionmaker


def owed(lane: str, text: str) -> Owed:
    return Owed(lane, None, NOTICE, "n-" + text, {"to": {"channel": 1}, "text": text})


async def test_a_passing_failure_is_tried_again_and_the_other_lanes_go_on(
        db_engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    # The lane's waits before each new try, 0.5 s then 1 s in production (BACKOFF), are 10 and 20 ms here: what is
    # checked is the order and the count of the tries, not their pace; the other lanes' sends were started before
    # the first retry's wait began (one dispatch), so the order does not depend on how long the waits are.
    monkeypatch.setattr(outbox_worker, "BACKOFF", tuple(t / 50 for t in outbox_worker.BACKOFF))
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(datetime(2026, 3, 1, tzinfo=UTC)), RandomDice(1))
    attempts: dict[str, int] = {}
    delivered: list[str] = []
    done = asyncio.Event()

    async def send(row: OwedRow) -> tuple[str, int | None]:
        text = str(row.owed.body["text"])
        attempts[text] = attempts.get(text, 0) + 1
        if text == "flaky" and attempts[text] < 3:
            return RETRY, None
        if text == "refused":
            return UNDELIVERABLE, None
        delivered.append(text)
        if len(delivered) == 3:
            done.set()
        return SENT, 1

    worker = OutboxWorker(clerk, Pacer(1000), send)
    worker.start()
    await worker.owe([owed("a", "flaky"), owed("a", "after flaky"), owed("b", "other lane"), owed("c", "refused")])
    await asyncio.wait_for(done.wait(), 30)
    await asyncio.wait_for(worker.drained(), 30)
    await worker.stop()

    assert delivered == ["other lane", "flaky", "after flaky"], "lane a waited for its first; lane b did not"
    assert attempts == {"flaky": 3, "after flaky": 1, "other lane": 1, "refused": 1}
    assert worker.retries == 2 and worker.waiting == 0
    for _ in range(200):  # the settles are group-committed beside the sends
        if not await clerk.outbox.owed():
            break
        await asyncio.sleep(0.01)
    assert await clerk.outbox.owed() == [], "each row settled: sent or undeliverable, none still owed"


async def test_a_receipt_queued_and_sent_goes_from_the_callers_task_when_a_slot_is_free(
        db_engine: AsyncEngine) -> None:
    """``queue_and_send`` (a DM ballot's receipt, owed in the ballot's transaction): the send runs in the caller's
    own task, which returns once it is sent; with every slot busy it only queues, and a task sends it later."""
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(datetime(2026, 3, 1, tzinfo=UTC)), RandomDice(1))
    senders: dict[str, asyncio.Task[object] | None] = {}
    hold = asyncio.Event()

    async def send(row: OwedRow) -> tuple[str, int | None]:
        text = str(row.owed.body["text"])
        senders[text] = asyncio.current_task()
        if text == "slow":
            await hold.wait()
        return SENT, 1

    worker = OutboxWorker(clerk, Pacer(1000), send, slots=1)
    worker.start()
    first, second, third = [row for row in await clerk.outbox.owe([owed("a", "receipt"), owed("b", "slow"),
                                                                    owed("c", "later")]) if row is not None]
    await worker.queue_and_send([first])
    assert senders == {"receipt": asyncio.current_task()}, "sent from this task, and done when it returned"
    worker.queue([second])  # takes the only slot, and holds it
    await worker.queue_and_send([third])
    assert "later" not in senders, "no slot free: queued only"
    hold.set()
    await asyncio.wait_for(worker.drained(), 30)
    assert senders["later"] not in (None, asyncio.current_task()), "sent by a task of the worker's"
    await worker.stop()
