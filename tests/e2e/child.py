"""The bot as its own OS process (``python -m bot run``) against the fake Discord in the test's process, so a test can
SIGKILL it at any instant and start it again on the same SQLite file."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakediscord import TOKEN, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


class ChildBot:
    def __init__(self, fake: FakeDiscord, database: Path, workdir: Path, **env: str) -> None:
        self.fake = fake
        self.database = database
        self.workdir = workdir
        self.extra_env = env
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0

    @property
    def log(self) -> Path:
        return self.workdir / "bot.log"

    async def start(self, timeout: float = 20.0) -> None:
        """Start ``python -m bot run`` and wait until it has connected (IDENTIFY) and read READY."""
        identifies = self.fake.identifies
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "CLERK_"))}
        env.update(DISCORD_TOKEN=TOKEN, DATABASE_URL=f"sqlite+aiosqlite:///{self.database}",
                   CLERK_TEST_DISCORD_API=self.fake.api_base, CLERK_TEST_DISCORD_GATEWAY=self.fake.gateway_url,
                   PYTHONPATH=str(ROOT), **self.extra_env)
        log = self.log.open("ab")
        self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=env,
                                                         cwd=self.workdir, stdout=log, stderr=log)
        log.close()
        try:
            await self.fake.wait_for(lambda: self.fake.identifies > identifies or self.proc.returncode is not None,
                                     "the bot process to connect", timeout=timeout)
        except AssertionError:
            self.kill_now()
            raise
        assert self.proc.returncode is None, f"the bot exited with {self.proc.returncode}:\n{self.log.read_text()}"
        await asyncio.sleep(0.1)  # past READY/GUILD_CREATE (guild_ready_timeout is 0.05 s in test mode)
        self.starts += 1

    def kill_now(self) -> None:
        """SIGKILL: no clean-up, no flush, nothing the bot can do about it."""
        if self.proc is not None and self.proc.returncode is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.kills += 1

    async def kill(self) -> None:
        self.kill_now()
        if self.proc is not None:
            await self.proc.wait()
            assert self.proc.returncode == -signal.SIGKILL

    async def stop(self) -> None:
        """End of the test: SIGTERM (or SIGKILL after 5 s)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            await self.kill()

    def errors(self) -> list[str]:
        """ERROR lines the bot logged (its log is kept in the test's tmp_path)."""
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text().splitlines() if " ERROR " in line]
