"""What start-up leaves out (issue 20): ``python -m bot run`` imports neither matplotlib (the first chart does, in the
drawing thread), nor aiohttp's server (only a health endpoint needs it), nor SQLAlchemy's PostgreSQL dialect (only a
database on PostgreSQL); the command line's garbage-collector pause ends before the command runs; and the test-only
``CLERK_TEST_RATE_LIMIT`` is read strictly. No timings here (docs/performance.md has them)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import imported, main, start
from bot.discord.run import rate_limit_for_tests

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("matplotlib", "aiohttp.web", "sqlalchemy.dialects.postgresql", "alembic")


def test_the_bots_modules_leave_the_heavy_ones_for_later() -> None:
    probe = ("import sys, json, bot.__main__, bot.discord.run, bot.console.cli; "
             f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env,
                           cwd=ROOT)
    assert json.loads(found.stdout) == []


def test_the_collector_runs_again_once_the_command_is_imported(capsys: pytest.CaptureFixture[str]) -> None:
    was = gc.isenabled()
    seen: list[bool] = []
    try:
        start()
        assert not gc.isenabled()
        with pytest.raises(SystemExit):  # argparse: --help prints and exits before any command runs
            main(["--help"], ready=lambda: seen.append(gc.isenabled()))
        assert seen == []  # no command ran, so nothing was announced
        imported()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        if was:
            gc.enable()
    assert "python -m bot" in capsys.readouterr().out


@pytest.mark.parametrize(("value", "limit"), [(None, None), ("50", 50), ("100000", 100_000)])
def test_the_test_rate_limit_is_a_whole_number_of_requests(value: str | None, limit: int | None) -> None:
    assert rate_limit_for_tests({} if value is None else {"CLERK_TEST_RATE_LIMIT": value}) == limit


@pytest.mark.parametrize("value", ["0", "-3", "fast", "2.5", ""])
def test_a_bad_test_rate_limit_says_what_is_accepted(value: str) -> None:
    with pytest.raises(SystemExit, match="whole number of requests per second"):
        rate_limit_for_tests({"CLERK_TEST_RATE_LIMIT": value})


def test_the_benchmarks_start_the_bots_with_their_bytecode_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/procs.py: a bot process started with ``PYTHONDONTWRITEBYTECODE`` and no ``__pycache__`` compiles every
    module at every start (about 1 s of Clerk's CPU), which no deployment does; the benchmarks clear it for the bots
    (and their own settings), and the start-up figures come after one untimed start of each bot."""
    monkeypatch.syspath_prepend(str(ROOT))  # bench/ is beside tests/, not installed
    from bench.procs import bot_environ

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///elsewhere.db")
    monkeypatch.setenv("CLERK_TEST_RATE_LIMIT", "50")
    env = bot_environ()
    assert "PYTHONDONTWRITEBYTECODE" not in env and "DATABASE_URL" not in env and "CLERK_TEST_RATE_LIMIT" not in env
    assert env["PATH"] == os.environ["PATH"]
