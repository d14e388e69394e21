"""The health endpoint of the real bot on the fake Discord (``start_health``, as ``python -m bot run`` starts it with
``health_port`` set): healthy once connected and past the scheduler's first pass; the commands, ballots and Discord
errors of a game counted in /metrics; a gateway drop counted, and healthy again after the RESUME; 503 once the bot
is closed. The state transitions one by one are tests/test_health.py."""

from __future__ import annotations

import json
import re
from typing import Any

import aiohttp

from bot.actions.outbox import Outgoing, ToUser
from bot.discord.health import start_health

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
