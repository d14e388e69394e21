"""One of two bot processes sharing one database (tests/service/test_two_processes.py drives two of these).

It builds the real service (Clerk on the given database) and the real deadline scheduler, then reads one JSON
command per line on stdin and answers one JSON line on stdout, so the test can start the same step in both
processes at the same instant (it writes the command to both, then reads both answers):

- ``cast``: cast the ballots of ``users`` in ``game`` (received a second before ``deadline``).
- ``race``: cast the first ``before`` of them, then close what is due at ``deadline`` + 1 s (``close_due``, as
  the scheduler does) while casting the rest.
- ``close``: ``close_due`` at ``deadline`` + 1 s.
- ``tick``: one pass of the deadline scheduler (with the ``deadlines`` lease, ``ttl`` seconds) at ``at``.
- ``register``: this process's entry in the ``processes`` table (unsharded) at ``at``, as a start writes it;
  ``registered`` false when it found another live process on its shards (a start would then wait and look again).
- ``unregister``: remove it, as a clean stop does.

Every answer lists the ERROR records Clerk logged meanwhile (a failed close is logged, not raised).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from datetime import datetime, timedelta
from typing import Any

from bot.actions.commands import App
from bot.actions.messages import close_due
from bot.actions.outbox import Outgoing
from bot.discord.scheduler import DEADLINE_LEASE, DeadlineScheduler
from engine.core.errors import ClerkError
from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.processes import ProcessRegistry, Shards
from engine.store.database import make_engine, make_sessionmaker


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(self.format(record))


def announcements(out: list[Outgoing]) -> int:
    """The round results among the messages (each carries its chart, ``round-<n>.png``)."""
    return sum(1 for o in out if o.file is not None and o.file[0].startswith("round-"))


class Waits(Exception):
    """A start found another live process on its shards and would wait to see whether it renews its entry."""


async def waits(seconds: float) -> None:
    raise Waits


class Worker:
    def __init__(self, app: App, clock: ManualClock, name: str) -> None:
        self.app = app
        self.clock = clock
        self.name = name
        self.scheduler: DeadlineScheduler | None = None
        self.delivered: list[Outgoing] = []
        self.registry = ProcessRegistry(app.clerk.backend.sessions, clock, name, Shards())

    async def cast(self, game: int, users: list[int], received: datetime) -> dict[str, Any]:
        acked: list[int] = []
        refused: dict[str, str] = {}
        for user in users:
            try:
                await self.app.clerk.landsdraad.ballots.cast_ballot(game, user_id=user,
                                                                    command=parse_ballot("Vote: Aye"),
                                                                    received_at=received,
                                                                    source_id=f"{self.name}:{game}:{user}")
                acked.append(user)
            except ClerkError as error:
                refused[str(user)] = str(error)
        return {"acked": acked, "refused": refused}

    async def close(self, deadline: datetime) -> int:
        return announcements(await close_due(self.app, deadline + timedelta(seconds=1)))

    async def run(self, command: dict[str, Any]) -> dict[str, Any]:
        op = command["op"]
        if op == "register":
            self.clock.set(datetime.fromisoformat(command["at"]))
            try:
                await self.registry.register(waits)
            except Waits:
                return {"registered": False}
            return {"registered": True}
        if op == "unregister":
            await self.registry.remove()
            return {}
        if op == "tick":
            at = datetime.fromisoformat(command["at"])
            self.clock.set(at)
            if self.scheduler is None:
                lease = self.app.clerk.lease(DEADLINE_LEASE, self.name, timedelta(seconds=command["ttl"]))
                self.scheduler = DeadlineScheduler(self.app, self._deliver, lease=lease)
            await self.scheduler.tick()
            return {"leading": self.scheduler.leading}
        deadline = datetime.fromisoformat(command["deadline"])
        self.clock.set(deadline + timedelta(seconds=1))
        game, users = command["game"], command.get("users", [])
        if op == "cast":
            return await self.cast(game, users, deadline - timedelta(seconds=1))
        if op == "close":
            return {"announcements": await self.close(deadline)}
        if op == "race":
            before = command["before"]
            first = await self.cast(game, users[:before], deadline - timedelta(seconds=1))
            rest, closed = await asyncio.gather(self.cast(game, users[before:], deadline - timedelta(seconds=1)),
                                                self.close(deadline))
            return {"acked": first["acked"] + rest["acked"], "refused": first["refused"] | rest["refused"],
                    "announcements": closed}
        raise ValueError(f"unknown op {op}")

    async def _deliver(self, out: Any) -> None:
        self.delivered += out


async def main(url: str, schema: str, name: str) -> None:
    errors = Errors()
    logging.getLogger("clerk").addHandler(errors)
    kwargs: dict[str, Any] = {"connect_args": {"server_settings": {"search_path": schema}}} if schema else {}
    engine = make_engine(url, **kwargs)
    clock = ManualClock()
    worker = Worker(App(Clerk(make_sessionmaker(engine), clock, RandomDice(1))), clock, name)
    loop = asyncio.get_running_loop()
    print(json.dumps({"ready": name}), flush=True)
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command = json.loads(line)
            if command["op"] == "quit":
                break
            answer = await worker.run(command)
            answer["errors"], errors.seen = errors.seen, []
            print(json.dumps(answer), flush=True)
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
