"""``python -m bot run``'s async main: migrations, the bot on the fake Discord, and a clear exit on a bad token."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from fakediscord import HANG, TOKEN, FakeDiscord
from fakediscord.wiring import ErrorLog

from bot.discord.run import main
from bot.settings import Settings


async def test_main_migrates_connects_and_syncs_the_commands(fake: FakeDiscord, tmp_path: Path) -> None:
    settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")
    before = asyncio.all_tasks()  # the fake Discord's own
    running = asyncio.create_task(main(settings))
    try:
        await fake.wait_for(lambda: fake.identifies and fake.commands.get(None), "the bot to connect and sync")
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await _cancel_leftovers(before)
    assert (tmp_path / "clerk.db").exists()


async def _cancel_leftovers(before: set[asyncio.Task[object]]) -> None:
    """Cancel, again until they end, the tasks ``main`` left when cancelled mid-start. Known defect (issue 20 notes,
    2026-12-02): in a full run, now and then a task of the bot swallows the one cancellation pytest-asyncio's loop
    close sends (a ``suppress(CancelledError)`` around awaiting a subtask also swallows its own), and the loop's
    close then waits for ever (faulthandler's stack: ``_cancel_all_tasks``). Cancelling the leftovers until they end
    keeps that from hanging the suite; a task still running after HANG fails the test with its name. Seen left after
    ``main`` was cancelled, even alone: ``clerk-owe-unanswered`` (``ClerkBot._owe_unanswered``), discord.py's
    ``_delay_ready``, and SQLAlchemy's ``AsyncAdapt_aiosqlite_connection._terminate_graceful_close`` (the pool
    terminating a connection the cancellation interrupted), which ends only when cancelled again."""
    me = asyncio.current_task()
    for _ in range(20):
        left = [task for task in asyncio.all_tasks() - before if task is not me and not task.done()]
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.wait(left, timeout=HANG / 20)
    still = [task.get_name() for task in asyncio.all_tasks() - before if task is not me and not task.done()]
    assert not still, f"tasks that do not end when cancelled: {still}"


async def test_main_with_a_token_discord_refuses_exits_1(fake: FakeDiscord, tmp_path: Path, errors: ErrorLog) -> None:
    settings = Settings(token="not-the-token", database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")

    assert await asyncio.wait_for(main(settings), HANG) == 1
    assert [r.getMessage() for r in errors.records] == [
        "Discord refused the token in DISCORD_TOKEN (check it in the developer portal)"]
    errors.records.clear()
