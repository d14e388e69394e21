"""``python -m bot run``'s async main: migrations, the bot on the fake Discord, and a clear exit on a bad token."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import socket
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from fakediscord import HANG, TOKEN, FakeDiscord
from fakediscord.wiring import ErrorLog

from bot.discord.run import main, retry_after
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

    # play-test 4.6: the token copied with "Bot " in front (discord.py adds it, so Discord sees "Bot Bot ...")
    assert await asyncio.wait_for(main(replace(settings, token=f"Bot {TOKEN}")), HANG) == 1
    assert [r.getMessage() for r in errors.records] == [
        "Discord refused the token in DISCORD_TOKEN: it begins with \"Bot \", which Clerk adds itself; give the token "
        "alone, as the developer portal shows it"]
    errors.records.clear()


async def test_a_start_that_cannot_reach_discord_says_so_in_one_line_and_tries_again(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Play-test V4.4: with Discord out of reach at start (no network yet at boot, DNS, an outage), ``python -m bot
    run`` stopped with an aiohttp traceback of 85 lines and stayed down where nothing started it again."""
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    live = discord.http.Route.BASE  # the fake's (the ``fake`` fixture)
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{dead}/api/v10")
    tries: list[int] = []

    def retry(attempt: int) -> float:
        tries.append(attempt)
        if attempt == 2:  # Discord is back before the third try
            monkeypatch.setattr(discord.http.Route, "BASE", live)
        return 0

    settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{tmp_path / 'clerk.db'}")
    running = asyncio.create_task(main(settings, guild_ready_timeout=0.05, retry=retry))
    try:
        await fake.wait_for(lambda: running.done() or fake.identifies, "the bot to connect after two failed tries")
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    assert tries == [1, 2]
    said = [r for r in caplog.records if r.name == "clerk" and "Discord" in r.getMessage()]
    assert [r.getMessage() for r in said] == [
        f"cannot reach Discord to log in (Cannot connect to host 127.0.0.1:{dead} ssl:default [Connect call failed "
        f"('127.0.0.1', {dead})]); trying again in 0 s"] * 2
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in said)


async def test_a_second_process_on_the_same_shards_stops_before_it_connects(
        fake: FakeDiscord, tmp_path: Path, migrated_database: Path, monkeypatch: pytest.MonkeyPatch,
        errors: ErrorLog) -> None:
    """Play-test V3.1: two processes on one database, both unsharded (``CLERK_INSTANCE`` a and b), each answered every
    DM and command. Now b finds a's entry in the ``processes`` table, sees a renew it, and exits 1 with one ERROR
    before it connects to Discord; a's clean stop removes its entry."""
    database = tmp_path / "clerk.db"
    shutil.copy(migrated_database, database)
    settings = Settings(token=TOKEN, database_url=f"sqlite+aiosqlite:///{database}", sync_commands=False)
    every = timedelta(seconds=0.5)  # a's renewals, which b waits to see (5 s in production)
    monkeypatch.setenv("CLERK_INSTANCE", "a")
    first = asyncio.create_task(main(settings, guild_ready_timeout=0.05, renew_every=every))
    try:
        await fake.wait_for(lambda: first.done() or fake.identifies, "a to connect")
        monkeypatch.setenv("CLERK_INSTANCE", "b")
        assert await asyncio.wait_for(main(settings, renew_every=every), HANG) == 1
        assert fake.identifies == 1, "b did not connect"
        [refusal] = [r.getMessage() for r in errors.records]
        errors.records.clear()
        assert refusal.startswith(f"cannot start: another Clerk process on this database reads the same Discord "
                                  f"shards: instance a (host {socket.gethostname()}, pid ")
        assert refusal.endswith("This one (instance b, unsharded) would answer every DM and command a second time. "
                                "Stop one of them, or give each process its own shards (SHARD_COUNT and SHARD_IDS; "
                                "docs/deploy.md, \"Several processes on one database\")")
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT instance, shard_count FROM processes").fetchall() == [("a", None)]
    finally:
        first.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await first
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM processes").fetchall() == [(0,)], "a's stop removed its entry"


def test_the_waits_before_trying_discord_again_grow_to_a_minute() -> None:
    assert [retry_after(n) for n in range(1, 7)] == [5, 10, 20, 40, 60, 60]
