"""Issue 8, PostgreSQL: two bot processes share one database. Two real OS processes
(``two_processes_worker.py``: the real service, ``close_due`` and deadline scheduler) are given each step at the
same instant:

- both close the same round at its deadline, for several games: one RoundClosed event and one announcement each,
  and the one that comes second finds it closed (no error logged);
- both cast ballots into one game while both close it: every ballot acknowledged is counted in the result, every
  other one was refused, none is lost (and with no close racing, N ballots in, N counted);
- both run the deadline scheduler's pass with the ``deadlines`` lease: exactly one does the timed work at a time,
  and when it dies the other takes over once the lease has expired.

Runs on SQLite (a file) and on PostgreSQL (its own schema, ``clerk_lease_…``) when TEST_POSTGRES_URL is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import upgrade
from engine.store.models import Event

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "")
ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("two_processes_worker.py")
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GAMES, PLAYERS = 7, 6
USERS = [100 + n for n in range(PLAYERS)]
HALF = PLAYERS // 2
TTL = 15


@pytest.fixture(params=[pytest.param("sqlite", id="sqlite"), pytest.param(
    "postgresql", id="postgresql",
    marks=pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped"))])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A migrated database both processes use: (url, schema); the schema is empty on SQLite."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
        asyncio.run(_schema(url, "", "migrate"))
        yield url, ""
        return
    schema = f"clerk_lease_{uuid.uuid4().hex[:12]}"
    asyncio.run(_schema(POSTGRES_URL, schema, "create"))
    try:
        yield POSTGRES_URL, schema
    finally:
        asyncio.run(_schema(POSTGRES_URL, schema, "drop"))


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
        game = await clerk.create_game(guild_id=900, channel_id=1000 + k, name=f"g{k}", ruleset="landsdraad",
                                       moderator_role_id=None, actor=1)
        for user in USERS:
            await clerk.add_player(game.id, user_id=user, name=f"p{user}", diplomacy=3, command=2, intrigue=1,
                                   roll=2, faction=None, actor=1)
        deadline = START + timedelta(days=1, minutes=k)
        await clerk.open_round(game.id, crisis=f"crisis {k}", deadline=deadline, actor=1)
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
    def __init__(self, url: str, schema: str, name: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.name = name
        self.popen = subprocess.Popen([sys.executable, str(WORKER), url, schema, name], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)

    def send(self, command: dict[str, Any]) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(json.dumps(command) + "\n")
        self.popen.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.popen.stdout is not None
        line = self.popen.stdout.readline()
        assert line, f"worker {self.name} exited with {self.popen.wait(10)}"
        found: dict[str, Any] = json.loads(line)
        assert found.get("errors", []) == [], f"{self.name} logged errors: {found['errors']}"
        return found

    def stop(self) -> None:
        """End the process as a crash would: no release of the lease, nothing more sent."""
        if self.popen.stdin is not None:
            self.popen.stdin.close()
        assert self.popen.wait(20) == 0


def together(processes: list[Process], commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give each process its command at the same instant; their answers."""
    for process, command in zip(processes, commands, strict=True):
        process.send(command)
    return [process.answer() for process in processes]


def test_two_processes_close_each_round_once_count_every_ballot_and_share_the_deadline_lease(
        shared: tuple[str, str]) -> None:
    url, schema = shared
    games = asyncio.run(_games(url, schema))
    a, b = Process(url, schema, "a"), Process(url, schema, "b")
    processes = [a, b]
    try:
        for process in processes:
            assert process.answer() == {"ready": process.name}
        acked: dict[int, set[int]] = {}
        refused: dict[int, dict[str, str]] = {}
        announced: dict[int, int] = {}
        for k, (game, deadline) in enumerate(games):
            common = {"game": game, "deadline": deadline.isoformat()}
            if k == 0:  # N ballots in, N counted: both cast, then both close
                answers = together(processes, [{"op": "cast", "users": USERS[:HALF], **common},
                                               {"op": "cast", "users": USERS[HALF:], **common}])
                answers += together(processes, [{"op": "close", **common}] * 2)
            else:  # ballots still arriving while both close the round
                before = (k - 1) % (HALF + 1)
                answers = together(processes, [{"op": "race", "users": USERS[:HALF], "before": before, **common},
                                               {"op": "race", "users": USERS[HALF:], "before": before, **common}])
            acked[game] = {u for answer in answers for u in answer.get("acked", [])}
            refused[game] = {u: why for answer in answers for u, why in answer.get("refused", {}).items()}
            announced[game] = sum(answer.get("announcements", 0) for answer in answers)

        # The lease: a alone first, then both at the same instants; a dies; b takes over once a's lease expired.
        base = games[-1][1] + timedelta(hours=1)
        ticks = [{"op": "tick", "at": (base + timedelta(seconds=5 * j)).isoformat(), "ttl": TTL} for j in range(8)]
        leading = {"a": [together([a], [ticks[0]])[0]["leading"]], "b": [None]}
        for j in range(1, 4):
            first, second = together(processes, [ticks[j]] * 2)
            leading["a"].append(first["leading"])
            leading["b"].append(second["leading"])
        a.stop()
        for j in range(4, 8):
            leading["b"].append(together([b], [ticks[j]])[0]["leading"])
        b.send({"op": "quit"})
        b.stop()
    finally:
        for process in processes:
            if process.popen.poll() is None:
                process.popen.kill()
                process.popen.wait()

    closed = asyncio.run(_closed(url, schema))
    for game, _ in games:
        assert len(closed.get(game, [])) == 1, f"game {game}: {len(closed.get(game, []))} RoundClosed events"
        assert announced[game] == 1, f"game {game}: announced {announced[game]} times"
        counted = {w["user_id"] for w in closed[game][0]["weights"] if w["ballot"] is not None}
        assert counted == acked[game], f"game {game}: acknowledged {sorted(acked[game])}, counted {sorted(counted)}"
        assert acked[game] | {int(u) for u in refused[game]} == set(USERS)
        assert all("closed" in why for why in refused[game].values()), refused[game]
    assert acked[games[0][0]] == set(USERS)
    # a held the lease from its first pass and kept it; b did no timed work until a's lease ran out (15 s after
    # a's last renewal at the 4th pass: the 7th pass).
    assert leading == {"a": [True, True, True, True], "b": [None, False, False, False, False, False, True, True]}
