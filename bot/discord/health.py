"""The health endpoint (off unless ``health_port`` is set in config.toml; on 127.0.0.1 unless ``health_host`` says
otherwise), an aiohttp server beside the bot in its event loop:

- ``GET /healthz``: 200 ``{"status": "ok", ...}`` only while the gateway is connected, the database answers a
  ``SELECT 1`` within ``DB_TIMEOUT``, and the deadline scheduler's last pass is recent (its next pass is at most
  ``STALE`` overdue); otherwise 503 with ``"failed"`` naming each check that failed and ``"checks"`` saying why.
- ``GET /metrics``: the counters of ``bot.metrics`` and gauges measured at the scrape (gateway, scheduler lag, games
  running, deadlines pending), in the Prometheus text exposition format.

Every state is read through ``Probes``, so a test flips it (and moves the clock) without a Discord or a sleep."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.metrics import METRICS, Family, Labels, Metrics, discord_error
from engine.store.models import Game

if TYPE_CHECKING:
    from aiohttp import web

    from bot.discord.client import ClerkBot

log = logging.getLogger("clerk.health")

DB_TIMEOUT = 2.0
"""Seconds the database has to answer ``SELECT 1`` before /healthz says it does not."""
STALE = timedelta(seconds=60)
"""How far past its planned wake the scheduler's next pass may be before /healthz fails (it sleeps at most 60 s, or
5 s with the deadline lease, and is woken earlier by any new deadline)."""

GATEWAY = Family("clerk_gateway_connected", "1 while the Discord gateway is connected (every shard), else 0.", "gauge")
LAG = Family("clerk_scheduler_lag_seconds",
             "How far the deadline scheduler's next pass is overdue (0 while on time; -1 before its first pass).",
             "gauge")
DISCONNECTS = Family("clerk_gateway_disconnects_total", "Times a gateway connection (a shard's) went down.")
PASSES = Family("clerk_scheduler_passes_total", "Passes of the deadline scheduler.", "counter")
GAMES = Family("clerk_games_running", "Games that have not ended (all servers, this database).", "gauge")
DEADLINES = Family("clerk_deadlines_pending",
                   "Open rounds, elections and other timed votes with a pending deadline, and reminders due.", "gauge")


@dataclass
class SchedulerState:
    """What the scheduler last did: when its last pass ended (None: none yet), how long it then meant to sleep,
    how many passes so far."""

    last_pass_at: datetime | None
    sleeps_for: float
    passes: int


@dataclass
class Probes:
    gateway: Callable[[], bool]
    disconnects: Callable[[], int]
    database: Callable[[], Awaitable[object]]
    """Runs a cheap query (``SELECT 1``); raises if the database does not answer."""
    scheduler: Callable[[], SchedulerState]
    clock: Callable[[], datetime]
    counts: Callable[[], Awaitable[dict[Family, float]]] | None = None
    """Gauges read from the database at a scrape (games running, deadlines pending)."""


def lag(state: SchedulerState, now: datetime) -> float | None:
    """Seconds the scheduler's next pass is overdue (0 when on time); None before its first pass."""
    if state.last_pass_at is None:
        return None
    due = state.last_pass_at + timedelta(seconds=state.sleeps_for)
    return max(0.0, (now - due).total_seconds())


class Health:
    def __init__(self, probes: Probes, metrics: Metrics = METRICS, *, db_timeout: float = DB_TIMEOUT) -> None:
        self.probes = probes
        self.metrics = metrics
        self.db_timeout = db_timeout
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on (the one the system chose, for port 0)."""

    async def check(self) -> tuple[bool, dict[str, Any]]:
        """(healthy, the body of /healthz)."""
        checks: dict[str, str] = {}
        checks["gateway"] = "connected" if self.probes.gateway() else "not connected to the Discord gateway"
        try:
            await asyncio.wait_for(self.probes.database(), timeout=self.db_timeout)
            checks["database"] = "answers"
        except TimeoutError:
            checks["database"] = f"did not answer SELECT 1 within {self.db_timeout:g} s"
        except Exception as error:
            checks["database"] = "error: " + " ".join(str(error).split())[:200]
        state = self.probes.scheduler()
        late = lag(state, self.probes.clock())
        if late is None:
            checks["scheduler"] = "no pass yet"
        elif late > STALE.total_seconds():
            checks["scheduler"] = f"last pass {late:.0f} s overdue"
        else:
            checks["scheduler"] = "recent"
        good = {"gateway": "connected", "database": "answers", "scheduler": "recent"}
        failed = [name for name, said in checks.items() if said != good[name]]
        body: dict[str, Any] = {"status": "failing" if failed else "ok", "checks": checks}
        if failed:
            body["failed"] = failed
        return not failed, body

    async def metrics_text(self) -> str:
        state = self.probes.scheduler()
        late = lag(state, self.probes.clock())
        none: Labels = ()
        gauges: list[tuple[Family, dict[Labels, float]]] = [
            (GATEWAY, {none: 1.0 if self.probes.gateway() else 0.0}),
            (DISCONNECTS, {none: float(self.probes.disconnects())}),
            (LAG, {none: -1.0 if late is None else late}),
            (PASSES, {none: float(state.passes)}),
        ]
        if self.probes.counts is not None:
            try:
                counts = await asyncio.wait_for(self.probes.counts(), timeout=self.db_timeout)
            except Exception as error:  # the database is down: /healthz says so; the counters are still worth having
                log.warning("/metrics could not read the counts from the database: %s", error)
                counts = {}
            gauges += [(family, {none: value}) for family, value in counts.items()]
        return self.metrics.render(gauges)

    async def _healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web  # aiohttp's server, only with a health_port (about 20 ms of imports at start-up)

        healthy, body = await self.check()
        return web.Response(status=200 if healthy else 503, text=json.dumps(body), content_type="application/json")

    async def _metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        return web.Response(text=await self.metrics_text(), content_type="text/plain",
                            headers={"X-Content-Type-Options": "nosniff"}, charset="utf-8")

    def application(self) -> web.Application:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (port 0: any free one); return the port."""
        from aiohttp import web

        self._runner = web.AppRunner(self.application(), access_log=None)
        await self._runner.setup()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))  # bound here, so the port the system chose for port 0 is known
        except OSError:
            sock.close()
            await self.stop()
            raise
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        log.info("health endpoint on http://%s:%s/healthz and /metrics", host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class Gateway:
    """Whether the bot's gateway connection is up, from discord.py's events (``ClerkBot.dispatch`` shows each to
    ``saw`` as discord.py dispatches it, without a task of its own): ``ready`` and ``resumed`` bring a connection up,
    ``disconnect`` takes it down; with shards, per shard (``shard_ready``, ``shard_resumed``, ``shard_disconnect``),
    and the bot is connected only while every shard it has seen is."""

    def __init__(self) -> None:
        self.up: dict[int | None, bool] = {}
        self.disconnects = 0
        """How many times a connection (a shard's) went down."""

    def connected(self) -> bool:
        return bool(self.up) and all(self.up.values())

    def saw(self, event: str, args: tuple[Any, ...], *, sharded: bool) -> None:
        if sharded and event in ("shard_ready", "shard_resumed", "shard_disconnect") and args:
            self.changed(int(args[0]), event != "shard_disconnect")
        elif not sharded and event in ("ready", "resumed", "disconnect"):
            self.changed(None, event != "disconnect")

    def changed(self, shard: int | None, up: bool) -> None:
        if self.up.get(shard) != up:
            log.log(logging.INFO if up else logging.WARNING, "gateway %s%s", "connected" if up else "disconnected",
                    "" if shard is None else f" (shard {shard})")
        if self.up.get(shard) and not up:
            self.disconnects += 1
        self.up[shard] = up


async def count_discord_errors(session: object, context: object, params: aiohttp.TraceRequestEndParams) -> None:
    """An aiohttp trace hook on discord.py's session (``ClerkBot``): every answer of Discord with status 400 or
    above counts once in ``clerk_discord_errors_total{code}`` (a 429 that discord.py then retries counts too)."""
    if params.response.status >= 400:
        discord_error(params.response.status)


async def start_health(bot: ClerkBot, engine: AsyncEngine, host: str, port: int) -> Health:
    """The endpoint of a running bot: its gateway events, its database, its scheduler, the clerk's clock."""
    scheduler = bot.scheduler

    async def select_one() -> None:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def counts() -> dict[Family, float]:
        async with engine.connect() as connection:
            running = await connection.scalar(select(func.count()).select_from(Game).where(Game.status != "ended"))
        return {GAMES: float(running or 0),
                DEADLINES: float(len(await bot.app.clerk.next_deadlines()))}

    probes = Probes(gateway=lambda: bot.gateway.connected() and not bot.is_closed(),
                    disconnects=lambda: bot.gateway.disconnects, database=select_one,
                    scheduler=lambda: SchedulerState(scheduler.last_pass_at, scheduler.sleeps_for, scheduler.passes),
                    clock=bot.app.clerk.clock.now, counts=counts)
    health = Health(probes)
    await health.start(host, port)
    return health
