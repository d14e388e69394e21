"""The health endpoint of the real bot on the fake Discord (``start_health``, as ``python -m bot run`` starts it with
``health_port`` set): healthy once connected and past the scheduler's first pass; the commands, ballots and Discord
errors of a game counted in /metrics; a gateway drop counted, and healthy again after the RESUME; 503 once the bot
is closed. The state transitions one by one are tests/test_health.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fakediscord import HANG, TOKEN, FakeDiscord
from fakediscord.wiring import ErrorLog

from bot.actions.outbox import Outgoing, ToUser
from bot.discord.health import start_health
from bot.discord.run import main
from bot.settings import Settings

from .clerkbot import Harness

SAMPLE = re.compile(r"^(\S+(?:\{.*\})?) (\S+)$")


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def metrics(base: str) -> dict[str, float]:
    status, text = await get(base + "/metrics")
    assert status == 200
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            found = SAMPLE.match(line)
            assert found is not None, line
            out[found.group(1)] = float(found.group(2))
    return out


async def test_the_running_bot_reports_its_health_and_counts(clerk_bot: Harness) -> None:
    h = clerk_bot
    health = await start_health(h.bot, h.engine, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{health.port}"
    try:
        status, body = await get(base + "/healthz")
        assert (status, json.loads(body)["status"]) == (200, "ok")
        before = await metrics(base)

        await h.new_game(deadline="24h")
        await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
        h.bob.accepts_dms = False  # Discord answers 403 (50007) to a DM to a member whose DMs are closed
        await h.bot.courier.deliver([Outgoing(ToUser(h.bob.id), "hello bob")])
        await h.settle()

        after = await metrics(base)

        def grew(name: str) -> Any:
            return after.get(name, 0) - before.get(name, 0)

        assert grew('clerk_commands_total{command="round open"}') == 1
        assert grew('clerk_commands_total{command="player add"}') == 2
        assert grew('clerk_ballots_recorded_total{kind="crisis",ruleset="landsdraad"}') == 1
        assert grew('clerk_discord_errors_total{code="403"}') >= 1
        assert after["clerk_games_running"] == 1
        assert after["clerk_deadlines_pending"] >= 1  # round 1 closes in 24 h
        assert after["clerk_gateway_connected"] == 1 and after["clerk_scheduler_lag_seconds"] == 0

        await h.fake.reconnect()  # op 7: discord.py disconnects, then RESUMEs
        await h.fake.wait_for(lambda: h.bot.gateway.connected(), "the gateway to be up again")
        assert (await metrics(base))["clerk_gateway_disconnects_total"] == 1
        assert (await get(base + "/healthz"))[0] == 200

        await h.stop()
        status, body = await get(base + "/healthz")
        assert status == 503 and "gateway" in json.loads(body)["failed"]
        await h.start()  # the fixture stops it again
    finally:
        await health.stop()


async def test_main_serves_the_endpoint_when_health_port_is_set(fake: FakeDiscord, tmp_path: Path) -> None:
    with socket.socket() as probe:  # a free port (the settings take 1 to 65535, not 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}", health_port=port)
    running = asyncio.create_task(main(settings))
    try:
        await fake.wait_for(lambda: fake.identifies and fake.commands.get(None), "the bot to connect and sync")
        status, body = await get(f"http://127.0.0.1:{port}/healthz")
        assert status in (200, 503)  # 503 until the scheduler's first pass, which may not have ended yet
        assert set(json.loads(body)["checks"]) == {"gateway", "database", "scheduler"}
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    with pytest.raises(aiohttp.ClientConnectionError):  # closed with the bot
        await get(f"http://127.0.0.1:{port}/healthz")


async def test_main_with_the_health_port_taken_exits_1_in_one_line(fake: FakeDiscord, tmp_path: Path,
                                                                   errors: ErrorLog) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}",
                            health_port=port)
        assert await asyncio.wait_for(main(settings), HANG) == 1
    assert [r.getMessage() for r in errors.records] == [
        f"cannot start the health endpoint on 127.0.0.1:{port} (health_host, health_port): Address already in use"]
    errors.records.clear()
    assert fake.identifies == 0  # it stopped before connecting
