"""Issue 21: with two processes on PostgreSQL, when the holder of the deadline lease died the other took over only
when the 60 s lease expired, so rounds closed over a minute late with "(the bot was offline)" while a process was
running. Now the waiting process watches the holder's liveness lock (engine/service/lease.py) and takes over the
moment PostgreSQL ends the dead holder's session. Here the lease's life is an hour, so only that can explain a
takeover; the test waits on the takeover itself (the other process reporting that it leads), a bound only catching a
hang. A round due just after the kill closes on time, not reported late."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from databases import POSTGRES_URL
from sqlalchemy import select, text

from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import upgrade
from engine.store.models import Event

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
WORKER = Path(__file__).with_name("lease_worker.py")
ROOT = Path(__file__).parents[2]
HOUR = 3600


@pytest.fixture
async def schema() -> AsyncIterator[str]:
    name = f"clerk_takeover_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES_URL)
    async with admin.begin() as connection:
        await connection.execute(text(f'CREATE SCHEMA "{name}"'))
    engine = make_engine(POSTGRES_URL, connect_args={"server_settings": {"search_path": name}})
    await upgrade(engine)
    await engine.dispose()
    try:
        yield name
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        await admin.dispose()


async def start(schema: str, name: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), POSTGRES_URL, schema, name, str(HOUR), stdout=asyncio.subprocess.PIPE,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


async def leading(process: asyncio.subprocess.Process) -> bool:
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)  # catches a hang only
    assert line, f"the worker exited with {await process.wait()}"
    found: dict[str, Any] = json.loads(line)
    return bool(found["leading"])


async def test_on_postgresql_the_other_process_takes_the_lease_over_the_moment_the_holder_is_killed(
        schema: str) -> None:
    a = await start(schema, "a")
    b: asyncio.subprocess.Process | None = None
    engine = make_engine(POSTGRES_URL, connect_args={"server_settings": {"search_path": schema}})
    try:
        assert await leading(a) is True
        b = await start(schema, "b")
        assert await leading(b) is False  # a holds it, for an hour

        clerk = Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(1))
        game = await clerk.games.create_game(guild_id=900, channel_id=1000, name="g", ruleset="landsdraad",
                                             moderator_role_id=None, actor=1)
        await clerk.landsdraad.rounds.open_round(game.id, crisis="c",
                                                 deadline=clerk.clock.now() + timedelta(seconds=2), actor=1)
        killed = time.monotonic()
        a.send_signal(signal.SIGKILL)
        await a.wait()
        assert await leading(b) is True
        took = time.monotonic() - killed
        print(f"\nlease takeover {took:.2f} s after the holder's SIGKILL (lease life {HOUR} s)")

        async def closed() -> list[dict[str, Any]]:
            async with engine.connect() as connection:
                rows = await connection.execute(select(Event.payload).where(Event.kind == "RoundClosed"))
                return [dict(p) for p in rows.scalars()]

        for _ in range(6000):  # the close at the deadline, by b (each look is a round trip; a bound for a hang)
            if found := await closed():
                break
            await asyncio.sleep(0.01)
        [payload] = found
        assert payload["by_deadline"] is True
        assert "due_at" not in payload["result"]  # closed on time: no "(the bot was offline)"
    finally:
        for process in (a, b):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
        await engine.dispose()
