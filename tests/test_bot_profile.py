"""The test-only profile of the bot's main thread (``CLERK_TEST_PROFILE``, bot/discord/run.py): read strictly, written
when the bot stops, started afresh at SIGUSR1 (so that a benchmark leaves out the start-up), and summed up per DM by
bench/profiles.py (docs/performance.md). No timings here."""

from __future__ import annotations

import asyncio
import os
import pstats
import signal
import sys
from pathlib import Path

import pytest

from bot.discord.run import PROFILE_RESTARTED, MainThreadProfile, profile_for_tests

ROOT = Path(__file__).resolve().parents[1]


def before_the_signal() -> int:
    return sum(range(100))


def after_the_signal() -> int:
    return sum(range(200))


def functions(path: Path) -> set[str]:
    return {name for _, _, name in pstats.Stats(str(path)).stats}  # type: ignore[attr-defined]


def test_the_profile_setting_names_a_file_in_a_directory_that_exists(tmp_path: Path) -> None:
    assert profile_for_tests({}) is None
    assert profile_for_tests({"CLERK_TEST_PROFILE": str(tmp_path / "clerk.prof")}) == tmp_path / "clerk.prof"
    for bad in ("", "  ", str(tmp_path / "missing" / "clerk.prof")):
        with pytest.raises(SystemExit, match="CLERK_TEST_PROFILE must name a file in a directory that exists"):
            profile_for_tests({"CLERK_TEST_PROFILE": bad})


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGUSR1")
def test_the_profile_is_written_at_the_end_and_starts_afresh_at_sigusr1(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "clerk.prof"
    profile = MainThreadProfile(path)

    async def work() -> int:
        before_the_signal()
        os.kill(os.getpid(), signal.SIGUSR1)
        while profile.restarts == 0:  # the loop runs the handler at its next turn
            await asyncio.sleep(0)
        return after_the_signal()

    with caplog.at_level("WARNING", logger="clerk"):
        assert asyncio.run(profile.run(work())) == sum(range(200))
    seen = functions(path)
    assert "after_the_signal" in seen
    assert "before_the_signal" not in seen, "what came before the signal was dropped"
    assert f"{PROFILE_RESTARTED} 1" in caplog.text


def test_the_bench_sums_up_the_profiles_per_dm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))  # bench/ is beside tests/, not installed
    from bench.profiles import DMS_FILE, report

    async def work() -> int:
        return after_the_signal()

    asyncio.run(MainThreadProfile(tmp_path / "clerk-e2e-1.prof").run(work()))
    asyncio.run(MainThreadProfile(tmp_path / "clerk-e2e-2.prof").run(work()))
    (tmp_path / DMS_FILE).write_text("clerk-e2e-1.prof 3\nclerk-e2e-2.prof 5\n")
    lines = report(tmp_path, top=3)
    assert lines[0].startswith("clerk e2e: 2 block(s), 8 DMs, main thread ")
    assert any("after_the_signal" in line for line in lines)
