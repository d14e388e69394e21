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
    """Cancelled mid-start, ``main`` ends every task the bot started (the outstanding receipts' task, discord.py's
    guild wait, the database connection's close): none is left for the event loop's close to wait on."""
    settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")
    before = asyncio.all_tasks()  # the fake Discord's own
    running = asyncio.create_task(main(settings))
    try:
        await fake.wait_for(lambda: fake.identifies and fake.commands.get(None), "the bot to connect and sync")
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    assert running.cancelled()
    for _ in range(3):  # the callbacks of tasks that ended in the same step
        await asyncio.sleep(0)
    left = [f"{task.get_name()} ({task.get_coro().__qualname__})"  # type: ignore[union-attr]
            for task in asyncio.all_tasks() - before if task is not asyncio.current_task() and not task.done()]
    assert not left, f"tasks of the bot still running after main was cancelled: {left}"
    assert (tmp_path / "clerk.db").exists()


async def test_main_with_a_token_discord_refuses_exits_1(fake: FakeDiscord, tmp_path: Path, errors: ErrorLog) -> None:
    settings = Settings(token="not-the-token", database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")

    assert await asyncio.wait_for(main(settings), HANG) == 1
    assert [r.getMessage() for r in errors.records] == [
        "Discord refused the token in DISCORD_TOKEN (check it in the developer portal)"]
    errors.records.clear()
