"""End-to-end fixtures: the fake Discord, a real Clerk on a fresh SQLite file (migrations applied, a ManualClock;
PostgreSQL instead with CLERK_TEST_BACKEND=postgresql),
and the real bot connected to the fake. A test fails if discord.py or Clerk logged an ERROR, or if the bot used
a route the fake does not know."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:  # pytest puts tests/ there already, unless tests/ becomes a package
    sys.path.insert(0, TESTS)

from databases import E2E_BACKEND, migrated_copy  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.wiring import ErrorLog, point_discord_at  # noqa: E402

from bot.plugins import NO_PLUGINS, Plugins  # noqa: E402
from engine.service.clock import ManualClock  # noqa: E402

from .clerkbot import START, Harness  # noqa: E402


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def errors() -> Iterator[ErrorLog]:
    """ERROR records of discord.py and Clerk; the test fails if any are left at the end (clear what you expect)."""
    with ErrorLog("discord", "clerk") as log:
        yield log
    assert not log.records, f"ERRORs were logged:\n{log.report()}"


@pytest.fixture
async def fake(clock: ManualClock, monkeypatch: pytest.MonkeyPatch, errors: ErrorLog) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(clock.now)
    await server.start()
    point_discord_at(server, monkeypatch)
    try:
        yield server
    finally:
        await server.stop()
    assert not server.problems(), "\n".join(server.problems())


@pytest.fixture(scope="session")
def migrated_database(sqlite_template: Path) -> Path:
    """One database with the migrations applied; each test gets a copy (saves migrating per test)."""
    return sqlite_template


@pytest.fixture
def plugins() -> Plugins:
    """The rulesets the bot plays besides the shipped ones: none, unless a test module overrides this fixture
    (``tests/e2e/test_council.py``)."""
    return NO_PLUGINS


@pytest.fixture
async def clerk_bot(fake: FakeDiscord, clock: ManualClock, tmp_path: Path, migrated_database: Path,
                    postgres_schema: str | None, errors: ErrorLog, plugins: Plugins) -> AsyncIterator[Harness]:
    """On SQLite; on PostgreSQL with CLERK_TEST_BACKEND=postgresql (tests/conftest.py)."""
    async for harness in _bot(E2E_BACKEND, fake, clock, tmp_path, migrated_database, postgres_schema, errors,
                              plugins):
        yield harness


@pytest.fixture
async def sqlite_bot(fake: FakeDiscord, clock: ManualClock, tmp_path: Path, migrated_database: Path,
                     errors: ErrorLog) -> AsyncIterator[Harness]:
    """On SQLite whatever CLERK_TEST_BACKEND says: for what only SQLite has (the backup of a database file)."""
    async for harness in _bot("sqlite", fake, clock, tmp_path, migrated_database, None, errors):
        yield harness


async def _bot(backend: str, fake: FakeDiscord, clock: ManualClock, tmp_path: Path, migrated_database: Path,
               postgres_schema: str | None, errors: ErrorLog, plugins: Plugins = NO_PLUGINS
               ) -> AsyncIterator[Harness]:
    database = await migrated_copy(backend, tmp_path, migrated_database, postgres_schema)
    harness = Harness(fake, database.url, clock, database.options, plugins)
    harness.errors = errors
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


@pytest.fixture(scope="session", autouse=True)
def charts_loaded() -> None:
    """One small chart drawn per test process before any bot starts: the first chart (the Forecast at a round's
    opening) otherwise imports matplotlib and reads its font inside the bot's event loop, which on a loaded
    machine takes longer than the 3 s an interaction may wait for its answer."""
    from bot.actions.landsdraad import charts

    fig = charts._figure((1.0, 1.0), 50)
    fig.text(0.5, 0.5, "Clerk", **charts._TEXT)
    fig.text(0.5, 0.2, "Clerk", weight="bold", **charts._TEXT)
    assert charts._png(fig).startswith(b"\x89PNG")
