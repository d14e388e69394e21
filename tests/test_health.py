"""The health endpoint (bot/discord/health.py) on 127.0.0.1, port 0, with every state it reads flipped by the test
and the clock moved by hand; the metrics text; the JSON log lines (bot/logs.py); the settings that switch them on."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.commands import App, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.errors import logged
from bot.discord.health import (
    DEADLINES,
    GAMES,
    STALE,
    Gateway,
    Health,
    Probes,
    SchedulerState,
    count_discord_errors,
)
from bot.logs import FIELDS, JsonFormatter, note
from bot.metrics import BALLOTS, COMMANDS, DISCORD_ERRORS, METRICS, Metrics, ballot_recorded, command_run
from bot.settings import ConfigError, load_settings
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_sessionmaker

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)$')
"""One sample line of the Prometheus text exposition format: ``name{label="value",...} value``."""


@dataclass
class World:
    """What the endpoint reads, as the test sets it."""

    clock: ManualClock
    connected: bool = True
    database: str = "up"  # "up", "down" (raises), "hangs" (never answers)
    scheduler: SchedulerState = field(default_factory=lambda: SchedulerState(None, 0.0, 0))

    async def select_one(self) -> None:
        if self.database == "down":
            raise OSError("connection refused")
        if self.database == "hangs":
            await asyncio.Event().wait()  # cut off by the endpoint's timeout

    def passed(self, sleeps_for: float) -> None:
        """The scheduler finished a pass now and sleeps ``sleeps_for`` seconds."""
        self.scheduler = SchedulerState(self.clock.now(), sleeps_for, self.scheduler.passes + 1)


@pytest.fixture
async def served() -> AsyncIterator[tuple[World, Health, str]]:
    world = World(ManualClock(START))

    async def counts() -> dict[Any, float]:
        return {GAMES: 2.0, DEADLINES: 1.0}

    probes = Probes(gateway=lambda: world.connected, disconnects=lambda: 3, database=world.select_one,
                    scheduler=lambda: world.scheduler, clock=world.clock.now, counts=counts)
    health = Health(probes, db_timeout=0.05)
    port = await health.start("127.0.0.1", 0)
    assert port != 0
    try:
        yield world, health, f"http://127.0.0.1:{port}"
    finally:
        await health.stop()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def healthz(base: str) -> tuple[int, dict[str, Any]]:
    status, body = await get(base + "/healthz")
    return status, json.loads(body)


async def test_healthz_is_200_only_while_gateway_database_and_scheduler_are_all_well(
        served: tuple[World, Health, str]) -> None:
    world, _, base = served
    status, body = await healthz(base)
    assert status == 503 and body["failed"] == ["scheduler"] and body["checks"]["scheduler"] == "no pass yet"

    world.passed(sleeps_for=60)
    status, body = await healthz(base)
    assert (status, body["status"]) == (200, "ok")
    assert body["checks"] == {"gateway": "connected", "database": "answers", "scheduler": "recent"}

    world.connected = False
    status, body = await healthz(base)
    assert status == 503 and body["failed"] == ["gateway"]
    world.connected = True

    world.database = "down"
    status, body = await healthz(base)
    assert status == 503 and body["failed"] == ["database"]
    assert body["checks"]["database"] == "error: connection refused"
    world.database = "hangs"
    status, body = await healthz(base)
    assert status == 503 and body["checks"]["database"] == "did not answer SELECT 1 within 0.05 s"
    world.database = "up"
    assert (await healthz(base))[0] == 200


async def test_healthz_fails_when_the_schedulers_next_pass_is_overdue_past_the_limit(
        served: tuple[World, Health, str]) -> None:
    world, _, base = served
    world.passed(sleeps_for=5)
    world.clock.advance(timedelta(seconds=5) + STALE)  # due 5 s after the pass; exactly STALE late is still fine
    assert (await healthz(base))[0] == 200
    world.clock.advance(timedelta(seconds=1))
    status, body = await healthz(base)
    assert status == 503 and body["failed"] == ["scheduler"]
    assert body["checks"]["scheduler"] == "last pass 61 s overdue"

    world.passed(sleeps_for=5)  # it ran again
    assert (await healthz(base))[0] == 200

    world.connected, world.database = False, "down"  # every failing check is named
    world.clock.advance(timedelta(hours=1))
    assert (await healthz(base))[1]["failed"] == ["gateway", "database", "scheduler"]


def samples(text: str) -> dict[str, float]:
    """Every sample of a metrics text by its name and labels; fails on a line that is not one."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        found = SAMPLE.match(line)
        assert found is not None, f"not a sample line: {line!r}"
        out[line.rsplit(" ", 1)[0]] = float(found.group(4))
    return out


async def test_metrics_text_parses_and_has_the_counters_and_gauges(served: tuple[World, Health, str]) -> None:
    world, _, base = served
    world.passed(sleeps_for=10)
    world.clock.advance(timedelta(seconds=12.5))
    command_run("round status")
    ballot_recorded("landsdraad", "crisis")
    await count_discord_errors(None, None, SimpleNamespace(response=SimpleNamespace(status=403)))  # type: ignore[arg-type]
    await count_discord_errors(None, None, SimpleNamespace(response=SimpleNamespace(status=200)))  # type: ignore[arg-type]

    async with aiohttp.ClientSession() as session, session.get(base + "/metrics") as response:
        assert response.status == 200
        assert response.content_type == "text/plain"
        text = await response.text()
    found = samples(text)

    assert found['clerk_commands_total{command="round status"}'] >= 1
    assert found['clerk_ballots_recorded_total{kind="crisis",ruleset="landsdraad"}'] >= 1
    assert found['clerk_discord_errors_total{code="403"}'] >= 1
    assert 'clerk_discord_errors_total{code="200"}' not in found
    assert found["clerk_scheduler_lag_seconds"] == 2.5
    assert found["clerk_scheduler_passes_total"] == 1
    assert found["clerk_gateway_connected"] == 1
    assert found["clerk_gateway_disconnects_total"] == 3
    assert found["clerk_games_running"] == 2
    assert found["clerk_deadlines_pending"] == 1
    for name in ("clerk_commands_total", "clerk_scheduler_lag_seconds", "clerk_games_running"):
        assert f"# TYPE {name} " in text and f"# HELP {name} " in text


def test_counters_count_per_label_and_label_values_are_escaped() -> None:
    metrics = Metrics()
    metrics.inc(COMMANDS, command="vote")
    metrics.inc(COMMANDS, command="vote")
    metrics.inc(COMMANDS, command='odd "name"\\\n')
    assert metrics.value(COMMANDS, command="vote") == 2
    text = metrics.render()
    assert 'clerk_commands_total{command="vote"} 2' in text.splitlines()
    assert 'clerk_commands_total{command="odd \\"name\\"\\\\\\n"} 1' in text.splitlines()
    samples(text)  # every line still parses
    assert metrics.value(BALLOTS) == 0 and "# TYPE clerk_ballots_recorded_total counter" in text


def test_the_hooks_count_in_the_process_counters() -> None:
    before = METRICS.value(DISCORD_ERRORS, code="429"), METRICS.value(BALLOTS, ruleset="mylantium", kind="pledge")
    METRICS.inc(DISCORD_ERRORS, code="429")
    ballot_recorded("mylantium", "pledge")
    after = METRICS.value(DISCORD_ERRORS, code="429"), METRICS.value(BALLOTS, ruleset="mylantium", kind="pledge")
    assert after == (before[0] + 1, before[1] + 1)


def test_gateway_is_connected_only_while_every_connection_it_has_seen_is_up() -> None:
    """From the events discord.py dispatches (``ClerkBot.dispatch``): one connection, then shards."""
    gateway = Gateway()
    assert not gateway.connected()  # before READY
    gateway.saw("connect", (), sharded=False)  # connected, not yet identified: not up
    assert not gateway.connected()
    gateway.saw("ready", (), sharded=False)
    assert gateway.connected()
    gateway.saw("message", (object(),), sharded=False)
    gateway.saw("disconnect", (), sharded=False)
    assert not gateway.connected() and gateway.disconnects == 1
    gateway.saw("resumed", (), sharded=False)
    assert gateway.connected()

    shards = Gateway()
    shards.saw("shard_ready", (0,), sharded=True)
    shards.saw("shard_ready", (1,), sharded=True)
    shards.saw("ready", (), sharded=True)
    assert shards.connected()
    shards.saw("disconnect", (), sharded=True)  # discord.py sends it beside shard_disconnect; the shard's counts
    assert shards.connected()
    shards.saw("shard_disconnect", (1,), sharded=True)
    assert not shards.connected()
    shards.saw("shard_disconnect", (1,), sharded=True)  # said twice; one drop
    assert shards.disconnects == 1
    shards.saw("shard_resumed", (1,), sharded=True)
    assert shards.connected()


def json_line(record: logging.LogRecord) -> dict[str, Any]:
    return json.loads(JsonFormatter().format(record))  # type: ignore[no-any-return]


def test_json_log_lines_have_the_game_the_command_and_the_error_id(caplog: pytest.LogCaptureFixture) -> None:
    token = FIELDS.set(None)
    try:
        note(command="round close", game="sirius", game_id=7)
        with caplog.at_level(logging.ERROR, logger="clerk.errors"):
            try:
                raise ValueError("boom")
            except ValueError:
                error_id = logged("/%s failed for %s", "round close", "alice")
        line = json_line(caplog.records[-1])
        assert line["level"] == "ERROR" and line["logger"] == "clerk.errors"
        assert line["message"] == f"[error {error_id}] /round close failed for alice"
        assert (line["error_id"], line["command"], line["game"], line["game_id"]) == (error_id, "round close",
                                                                                     "sirius", 7)
        assert "ValueError: boom" in line["exception"]
        datetime.fromisoformat(line["time"])

        note(command=None, game=None, game_id=None)  # a DM, say: no command, no game
        record = logging.LogRecord("clerk.discord", logging.WARNING, __file__, 1, "plain %s", ("line",), None)
        line = json_line(record)
        assert line["message"] == "plain line" and not {"command", "game", "game_id", "error_id"} & set(line)
    finally:
        FIELDS.reset(token)


def test_the_error_id_of_a_line_logged_without_the_field_is_read_from_its_text() -> None:
    record = logging.LogRecord("clerk.discord", logging.ERROR, __file__, 1, "[error %s] /vote failed", ("0a1b2c3d",),
                               None)
    assert json_line(record)["error_id"] == "0a1b2c3d"


async def test_dispatch_counts_the_command_and_notes_it_for_the_log(db_engine: AsyncEngine) -> None:
    app = App(Clerk(make_sessionmaker(db_engine), ManualClock(START), RandomDice(1)))
    ctx = Ctx(actor=Actor(id=1, name="mod", manages_server=True), place=Place(guild_id=10, channel_id=20),
              source_id="i-1", at=START)
    await dispatch(app, ctx, "game new", {"ruleset": "landsdraad", "name": "sirius"})
    game = await app.clerk.games.game_in_channel(20)
    assert game is not None
    before = METRICS.value(COMMANDS, command="round status")

    async def run() -> dict[str, Any]:
        await dispatch(app, replace(ctx, source_id="i-2"), "round status", {})
        return dict(FIELDS.get() or {})

    fields = await asyncio.create_task(run())  # its own context, as each interaction's task has
    assert METRICS.value(COMMANDS, command="round status") == before + 1
    assert fields == {"command": "round status", "game": "sirius", "game_id": game.id}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_settings_switch_the_endpoint_and_json_logs_on(tmp_path: Path) -> None:
    defaults = load_settings(write(tmp_path, ""), env={})
    assert (defaults.health_port, defaults.health_host, defaults.log_format) == (None, "127.0.0.1", "text")
    on = load_settings(write(tmp_path, 'health_port = 8080\nhealth_host = "0.0.0.0"\nlog_format = "json"\n'), env={})
    assert (on.health_port, on.health_host, on.log_format) == (8080, "0.0.0.0", "json")


@pytest.mark.parametrize(("line", "said"), [
    ("health_port = 0", "health_port must be a port number from 1 to 65535, not 0"),
    ('health_port = "8080"', "health_port must be a port number from 1 to 65535, not '8080'"),
    ("health_port = true", "health_port must be a port number from 1 to 65535, not True"),
    ('health_host = ""', "health_host must be an address to listen on"),
    ('log_format = "xml"', "log_format must be \"text\" or \"json\", not 'xml'"),
])
def test_bad_health_and_log_settings_say_what_is_accepted(tmp_path: Path, line: str, said: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(said)):
        load_settings(write(tmp_path, line + "\n"), env={})


async def test_the_containers_healthcheck_exits_0_only_on_200(served: tuple[World, Health, str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from bot.healthcheck import main as healthcheck

    world, health, _ = served
    monkeypatch.setenv("CLERK_CONFIG", str(write(tmp_path, "")))
    assert await asyncio.to_thread(healthcheck) == 1
    assert "health_port is not set" in capsys.readouterr().err

    monkeypatch.setenv("CLERK_CONFIG", str(write(tmp_path, f'health_port = {health.port}\nhealth_host = "0.0.0.0"\n')))
    assert await asyncio.to_thread(healthcheck) == 1  # no scheduler pass yet: 503
    assert '"failed": ["scheduler"]' in capsys.readouterr().err
    world.passed(sleeps_for=5)
    assert await asyncio.to_thread(healthcheck) == 0
    assert '"status": "ok"' in capsys.readouterr().out
