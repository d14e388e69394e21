"""A bot process's deadline scheduler alone, for test_lease_takeover.py: ``python lease_worker.py URL SCHEMA NAME
TTL_SECONDS``. The real Clerk on the database (system clock), the real ``DeadlineScheduler`` with the ``deadlines``
lease held as NAME; it prints ``{"leading": true|false}`` on stdout each time that changes (after the pass that
changed it), and runs until it is killed."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Sequence
from datetime import timedelta

from bot.actions.commands import App
from bot.actions.outbox import Outgoing
from bot.discord.scheduler import DEADLINE_LEASE, DeadlineScheduler
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker


class Reporting(DeadlineScheduler):
    shown: bool | None = None

    async def tick(self) -> float:
        delay = await super().tick()
        if self.leading != self.shown:
            self.shown = self.leading
            print(json.dumps({"leading": self.leading}), flush=True)
        return delay


async def main(url: str, schema: str, name: str, ttl: float) -> None:
    engine = make_engine(url, connect_args={"server_settings": {"search_path": schema}}) if schema \
        else make_engine(url)
    clerk = Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(1))

    async def deliver(_out: Sequence[Outgoing]) -> None:
        return None

    scheduler = Reporting(App(clerk), deliver, lease=clerk.lease(DEADLINE_LEASE, name, timedelta(seconds=ttl)))
    await scheduler.run()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
