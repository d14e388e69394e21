"""The bot as its own OS process (``python -m bot run``) against the fake Discord in the test's process, so a test can
SIGKILL it at any instant and start it again on the same SQLite file."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakediscord import HANG, TOKEN, FakeDiscord

from bot.discord.scheduler import FIRST_PASS

ROOT = Path(__file__).resolve().parents[2]


class ChildBot:
    def __init__(self, fake: FakeDiscord, database: Path, workdir: Path, *, paths: tuple[Path, ...] = (),
                 **env: str) -> None:
        self.fake = fake
        self.paths = paths
        """More folders on the child's PYTHONPATH (besides the project's): where a ruleset that config.toml names
        (``rulesets = [...]``, in ``workdir``) is imported from."""
        self.database = database
        self.workdir = workdir
        self.extra_env = env
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0

    @property
    def log(self) -> Path:
        return self.workdir / "bot.log"

    def ready_lines(self) -> int:
        """How many times the bot logged that its deadline scheduler's first pass is done (once per start)."""
        return self.log.read_text().count(FIRST_PASS) if self.log.exists() else 0

    async def start(self) -> None:
        """Start ``python -m bot run`` and wait until it has connected and its deadline scheduler's first pass is
        done (the line the bot logs then): the results a kill left unannounced have been posted by then."""
        ready = self.ready_lines()
        proc = await self.launch()
        try:
            await self.fake.wait_for(lambda: self.ready_lines() > ready or proc.returncode is not None,
                                     "the bot process to connect and finish its first deadline pass")
        except AssertionError:
            self.kill_now()
            raise
        assert proc.returncode is None, f"the bot exited with {proc.returncode}:\n{self.log.read_text()}"

    async def launch(self) -> asyncio.subprocess.Process:
        """Start ``python -m bot run`` and return at once (to kill it during its start-up work)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "CLERK_"))}
        env.update(DISCORD_TOKEN=TOKEN, DATABASE_URL=f"sqlite+aiosqlite:///{self.database}",
                   CLERK_TEST_DISCORD_API=self.fake.api_base, CLERK_TEST_DISCORD_GATEWAY=self.fake.gateway_url,
                   PYTHONPATH=os.pathsep.join(str(p) for p in (ROOT, *self.paths)), **self.extra_env)
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", env=env,
                                                             cwd=self.workdir, stdout=log, stderr=log)
        self.starts += 1
        return self.proc

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
        """End of the test: SIGTERM (or SIGKILL if it has not stopped after ``HANG``)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), HANG)
        except TimeoutError:
            await self.kill()

    def errors(self) -> list[str]:
        """ERROR lines the bot logged (its log is kept in the test's tmp_path)."""
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text().splitlines() if " ERROR " in line]
