"""What start-up leaves out (issue 20): ``python -m bot run`` imports neither matplotlib (the first chart does, in the
drawing thread), nor aiohttp's server (only a health endpoint needs it), nor SQLAlchemy's PostgreSQL dialect (only a
database on PostgreSQL); the command line's garbage-collector pause ends before the command runs; and the test-only
``CLERK_TEST_RATE_LIMIT`` is read strictly; the dataclasses' methods compiled at one start are kept for the next
(bot/dataclass_code.py) and make the same classes. No timings here (docs/performance.md has them)."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot import dataclass_code
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
        assert "exec" in vars(dataclasses)  # the imports' dataclasses take their methods from the cache
        with pytest.raises(SystemExit):  # argparse: --help prints and exits before any command runs
            main(["--help"], ready=lambda: seen.append(gc.isenabled()))
        assert seen == []  # no command ran, so nothing was announced
        imported()
        assert gc.isenabled()
        assert "exec" not in vars(dataclasses)  # and after them compile their own again
    finally:
        dataclass_code.stop()
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


_CLASS = """
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Seat:
    name: str
    votes: int = 3
    tags: tuple[str, ...] = field(default_factory=tuple)

@dataclass(order=True)
class Rank:
    score: int
    who: str = "nobody"
"""


def _made(source: str) -> dict[str, object]:
    module = types.ModuleType("clerk_test_made")
    sys.modules[module.__name__] = module  # dataclasses reads the module of a class's annotations
    try:
        exec(compile(source, "made.py", "exec"), vars(module))
    finally:
        del sys.modules[module.__name__]
    return vars(module)


def _behaviour(made: dict[str, object]) -> list[object]:
    seat, rank = made["Seat"], made["Rank"]
    assert callable(seat) and callable(rank)
    a, b = seat("ann"), seat("ann", 3, ())
    try:
        setattr(a, "votes", 4)  # noqa: B010 (a frozen dataclass refuses it)
        frozen = False
    except AttributeError:
        frozen = True
    annotations = repr(getattr(seat, "__init__").__annotations__)  # noqa: B009 (mypy: an object's __init__)
    return [repr(a), a == b, hash(a) == hash(b), frozen, repr(rank(2)), rank(1) < rank(2, "bob"), seat("x", 1) == a,
            annotations]


def test_the_dataclasses_kept_methods_make_the_same_classes(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache = tmp_path / "code.bin"
    plain = _behaviour(_made(_CLASS))
    dataclass_code.start(cache)
    try:
        first = _behaviour(_made(_CLASS))
    finally:
        assert dataclass_code.stop() > 0  # compiled, then written
    assert "exec" not in vars(dataclasses)  # the builtin again
    dataclass_code.start(cache)
    try:
        again = _behaviour(_made(_CLASS))
        twice = _behaviour(_made(_CLASS))  # the same texts again in one start: compiled, and not new
    finally:
        assert dataclass_code.stop() == 0  # every method from the cache
    assert plain == first == again == twice
    cache.write_bytes(b"not a cache")
    dataclass_code.start(cache)
    try:
        assert _behaviour(_made(_CLASS)) == plain  # a cache that cannot be read is ignored
    finally:
        assert dataclass_code.stop() > 0


def test_the_kept_methods_are_written_only_where_bytecode_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    dataclass_code.start(tmp_path / "code.bin")
    try:
        _made(_CLASS)
    finally:
        dataclass_code.stop()
    assert not (tmp_path / "code.bin").exists()
