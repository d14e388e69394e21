"""Issue 8, PostgreSQL: two bot processes share one database. Two real OS processes, this one and
``two_processes_worker.py`` (each the real service, ``close_due`` and deadline scheduler, on its own engine), are
given each step at the same instant:

- both close the same round at its deadline, for several games: one RoundClosed event and one announcement each,
  and the one that comes second finds it closed (no error logged);
- both cast ballots into one game while both close it: every ballot acknowledged is counted in the result, every
  other one was refused, none is lost (and with no close racing, N ballots in, N counted);
- both run the deadline scheduler's pass with the ``deadlines`` lease: exactly one does the timed work at a time,
  and when it dies the other takes over once the lease has expired;
- both start at the same instant on the same shards (both unsharded): one writes its entry in the ``processes``
  table, the other finds it (and would wait to see it renewed, then refuse: test_processes.py); once the first
  stops cleanly, the other starts (play-test V3.1).

Runs on SQLite (a file) and on PostgreSQL (its own schema, ``clerk_lease_…``) when TEST_POSTGRES_URL is set.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fakediscord.waiting import HANG
from sqlalchemy import select, text
from two_processes_worker import Errors, Worker

from bot.actions.commands import App
from engine.landsdraad.close_weights import entries_of
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import upgrade
from engine.store.models import Event

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("two_processes_worker.py")
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GAMES, PLAYERS = 3, 6
USERS = [100 + n for n in range(PLAYERS)]
HALF = PLAYERS // 2
TTL = 15


@pytest.fixture(params=[pytest.param("sqlite", id="sqlite"), pytest.param(
    "postgresql", id="postgresql",
    marks=pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped"))])
async def shared(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, str]]:
    """A migrated database both processes use: (url, schema); the schema is empty on SQLite."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
        await _schema(url, "", "migrate")
        yield url, ""
        return
    schema = f"clerk_lease_{uuid.uuid4().hex[:12]}"
    await _schema(POSTGRES_URL, schema, "create")
    try:
        yield POSTGRES_URL, schema
    finally:
        await _schema(POSTGRES_URL, schema, "drop")


def _engine(url: str, schema: str) -> Any:
    return make_engine(url, connect_args={"server_settings": {"search_path": schema}}) if schema else make_engine(url)


async def _schema(url: str, schema: str, action: str) -> None:
    if action in ("create", "drop"):
        admin = make_engine(url)
        async with admin.begin() as connection:
            sql = f'CREATE SCHEMA "{schema}"' if action == "create" else f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'
            await connection.execute(text(sql))
        await admin.dispose()
    if action != "drop":
        engine = _engine(url, schema)
        await upgrade(engine)
        await engine.dispose()


async def _games(url: str, schema: str) -> list[tuple[int, datetime]]:
    """GAMES games of PLAYERS players, each with round 1 open until its own deadline (a minute apart)."""
    engine = _engine(url, schema)
    clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RandomDice(1))
    games = []
    for k in range(GAMES):
        game = await clerk.games.create_game(guild_id=900, channel_id=1000 + k, name=f"g{k}", ruleset="landsdraad",
                                             moderator_role_id=None, actor=1)
        for user in USERS:
            await clerk.landsdraad.ledger.add_player(game.id, user_id=user, name=f"p{user}", diplomacy=3,
                                                     command=2, intrigue=1, roll=2, faction=None, actor=1)
        deadline = START + timedelta(days=1, minutes=k)
        await clerk.landsdraad.rounds.open_round(game.id, crisis=f"crisis {k}", deadline=deadline, actor=1)
        games.append((game.id, deadline))
    await engine.dispose()
    return games


async def _closed(url: str, schema: str) -> dict[int, list[dict[str, Any]]]:
    """The RoundClosed events' payloads, by game."""
    engine = _engine(url, schema)
    async with engine.connect() as connection:
        rows = (await connection.execute(select(Event.game_id, Event.payload).where(Event.kind == "RoundClosed")))
        found: dict[int, list[dict[str, Any]]] = {}
        for game_id, payload in rows.all():
            found.setdefault(game_id, []).append(payload)
    await engine.dispose()
    return found


class Process:
    """The other process: ``two_processes_worker.py`` run by this Python, talking JSON lines."""

    def __init__(self, url: str, schema: str, name: str) -> None:
        self.args = [str(WORKER), url, schema, name]
        self.name = name

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, *self.args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert await self.answer() == {"ready": self.name, "errors": []}

    def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(command) + "\n").encode())

    async def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), HANG)
        assert line, f"worker {self.name} exited with {await self.process.wait()}"
        found: dict[str, Any] = json.loads(line)
        found.setdefault("errors", [])
        return found

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.send({"op": "quit"})
        await self.process.stdin.drain()
        self.process.stdin.close()
        assert await asyncio.wait_for(self.process.wait(), HANG) == 0


class Here:
    """This process, as the first of the two: the same ``Worker`` on its own engine."""

    def __init__(self, url: str, schema: str) -> None:
        self.engine = _engine(url, schema)
        self.clock = ManualClock()
        self.worker = Worker(App(Clerk(make_sessionmaker(self.engine), self.clock, RandomDice(1))), self.clock, "a")
        self.errors = Errors()

    async def run(self, command: dict[str, Any]) -> dict[str, Any]:
        logging.getLogger("clerk").addHandler(self.errors)
        try:
            answer = await self.worker.run(command)
        finally:
            logging.getLogger("clerk").removeHandler(self.errors)
        answer["errors"], self.errors.seen = self.errors.seen, []
        return answer


async def together(here: Here | None, there: Process | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Start a step in both processes at the same instant (or in one of them); their answers."""
    if there is not None:
        there.send(commands[-1])
    work = ([here.run(commands[0])] if here is not None else []) + ([there.answer()] if there is not None else [])
    answers = list(await asyncio.gather(*work))
    for answer in answers:
        assert answer["errors"] == [], f"errors were logged: {answer['errors']}"
    return answers


async def test_two_processes_close_each_round_once_count_every_ballot_and_share_the_deadline_lease(
        shared: tuple[str, str]) -> None:
    url, schema = shared
    games = await _games(url, schema)
    here, there = Here(url, schema), Process(url, schema, "b")
    await there.start()
    try:
        acked: dict[int, set[int]] = {}
        refused: dict[int, dict[str, str]] = {}
        announced: dict[int, int] = {}
        for k, (game, deadline) in enumerate(games):
            common = {"game": game, "deadline": deadline.isoformat()}
            if k == 0:  # N ballots in, N counted: both cast, then both close
                answers = await together(here, there, [{"op": "cast", "users": USERS[:HALF], **common},
                                                       {"op": "cast", "users": USERS[HALF:], **common}])
                answers += await together(here, there, [{"op": "close", **common}] * 2)
            else:  # ballots still arriving while both close the round
                before = (k - 1) * 2 % (HALF + 1)
                answers = await together(here, there, [
                    {"op": "race", "users": USERS[:HALF], "before": before, **common},
                    {"op": "race", "users": USERS[HALF:], "before": before, **common}])
            acked[game] = {u for answer in answers for u in answer.get("acked", [])}
            refused[game] = {u: why for answer in answers for u, why in answer.get("refused", {}).items()}
            announced[game] = sum(answer.get("announcements", 0) for answer in answers)

        # The processes' entries: both start at once, on the same shards; one runs; once it stops the other can.
        base = games[-1][1] + timedelta(hours=1)
        starts = await together(here, there, [{"op": "register", "at": base.isoformat()}] * 2)
        registered = [answer["registered"] for answer in starts]
        assert sorted(registered) == [False, True], registered
        first_here = registered[0]
        await together(here if first_here else None, None if first_here else there, [{"op": "unregister"}])
        again = await together(None if first_here else here, there if first_here else None,
                               [{"op": "register", "at": base.isoformat()}])
        assert again[0]["registered"]

        # The lease: a alone first, then both at the same instants; a dies; b takes over once a's lease expired.
        ticks = [{"op": "tick", "at": (base + timedelta(seconds=5 * j)).isoformat(), "ttl": TTL} for j in range(8)]
        leading: dict[str, list[bool | None]] = {"a": [(await together(here, None, [ticks[0]]))[0]["leading"]],
                                                 "b": [None]}
        for j in range(1, 4):
            first, second = await together(here, there, [ticks[j]] * 2)
            leading["a"].append(first["leading"])
            leading["b"].append(second["leading"])
        await here.engine.dispose()  # a stops as a crash would: its lease is not released
        for j in range(4, 8):
            leading["b"].append((await together(None, there, [ticks[j]]))[0]["leading"])
        await there.stop()
    finally:
        if there.process.returncode is None:
            there.process.kill()
            await there.process.wait()
        scheduler = here.worker.scheduler  # the "crash" left a's liveness connection open (PostgreSQL): close it
        if scheduler is not None and scheduler.lease is not None:
            await scheduler.lease.close()
        await here.engine.dispose()

    closed = await _closed(url, schema)
    for game, _ in games:
        assert len(closed.get(game, [])) == 1, f"game {game}: {len(closed.get(game, []))} RoundClosed events"
        assert announced[game] == 1, f"game {game}: announced {announced[game]} times"
        counted = {w["user_id"] for w in entries_of(closed[game][0]) if w["ballot"] is not None}
        assert counted == acked[game], f"game {game}: acknowledged {sorted(acked[game])}, counted {sorted(counted)}"
        assert acked[game] | {int(u) for u in refused[game]} == set(USERS)
        assert all("closed" in why for why in refused[game].values()), refused[game]
    assert acked[games[0][0]] == set(USERS)
    # a held the lease from its first pass and kept it; b did no timed work until a's lease ran out (15 s after
    # a's last renewal at the 4th pass: the 7th pass).
    assert leading == {"a": [True, True, True, True], "b": [None, False, False, False, False, False, True, True]}
