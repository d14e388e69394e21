"""The honest set-up (issue 20): the fake Discord in the benchmark's own process, each bot a process of its own on
127.0.0.1 (Clerk as ``python -m bot run``, the bare discord.py bot as ``python bench/barebot.py``), so that neither
bot's figures include the fake's work. The benchmark's process drives the fake and keeps the time; the bots only
answer."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from fakediscord import TOKEN, FakeDiscord, User
from sqlalchemy import insert

from bench.common import migrated_sqlite, scratch_dir
from bot.discord.scheduler import FIRST_PASS
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.models import Player

ROOT = Path(__file__).resolve().parents[1]
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
UNPACED = 100_000
"""``CLERK_TEST_RATE_LIMIT`` for the unpaced runs (both bots alike)."""
TICKS = os.sysconf("SC_CLK_TCK")
BYTECODE = "bytecode cached, as at every start of a deployed bot but its first; one untimed start of each bot first"
"""How the bots' processes start, as printed: a bot installed by pip (the Dockerfile) or run by ``make run`` reads
the modules' bytecode from ``__pycache__``; a bot started with ``PYTHONDONTWRITEBYTECODE`` set and no cache (as on the
CI machine) compiles every module it imports at every start, about 1 s of CPU for Clerk and 0.3 s for the bare bot,
which is no deployment's start and hides part of the difference between them."""


class ProcFake(FakeDiscord):
    """The fake Discord, telling the benchmark when a bot has identified on the gateway."""

    def __init__(self) -> None:
        super().__init__()
        self.identified = asyncio.Event()

    async def _identify(self, conn: Any, data: dict[str, Any]) -> None:
        await super()._identify(conn, data)
        self.identified.set()


@dataclass
class World:
    """A migrated SQLite file with ``games`` Landsdraad games of ``players`` players each (round 1 open), and the
    fake's users and channels for them; written by this process before a bot starts, then left to the bot."""

    fake: ProcFake
    games: int
    players: int
    workdir: Path = field(default_factory=scratch_dir)
    users: list[list[User]] = field(default_factory=list)

    async def setup(self) -> None:
        self.url = await migrated_sqlite(self.workdir / "clerk.db")
        engine = make_engine(self.url)
        clerk = Clerk(make_sessionmaker(engine), ManualClock(START), RandomDice(5))
        try:
            for g in range(self.games):
                channel = self.fake.add_channel(f"game{g}")
                game = await clerk.games.create_game(guild_id=self.fake.guild_id, channel_id=channel.id,
                                                     name=f"game{g}", ruleset="landsdraad", moderator_role_id=None,
                                                     actor=self.fake.owner.id)
                users = [self.fake.add_user(f"g{g}p{i}") for i in range(self.players)]
                rows: list[dict[str, Any]] = [
                    {"game_id": game.id, "user_id": u.id, "name": u.name, "faction": None, "diplomacy": 3,
                     "command": 2, "intrigue": 2, "roll": 2, "diplomacy_max": 3, "intrigue_max": 2,
                     "misc_votes": 0, "active": True} for u in users]
                async with engine.begin() as conn:
                    await conn.execute(insert(Player), rows)
                await clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None,
                                                         actor=self.fake.owner.id)
                self.users.append(users)
        finally:
            await engine.dispose()

    @property
    def everyone(self) -> list[User]:
        return [u for game in self.users for u in game]


@dataclass
class Child:
    """One bot process; ``started`` is when it was spawned (``time.perf_counter``)."""

    name: str
    proc: asyncio.subprocess.Process
    started: float
    log: Path

    def rss_mb(self) -> float:
        """Resident memory now (VmRSS), in MB."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def cpu(self) -> float:
        """CPU seconds (user + system) the process has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    async def settled(self, quiet: float = 0.3, timeout: float = 60) -> None:
        """Wait until the process has used no CPU for ``quiet`` seconds (its start-up work, such as Clerk's import
        of the charts' library in a worker thread, is done), so that a burst measures a running bot."""
        end = time.monotonic() + timeout
        last = self.cpu()
        while time.monotonic() < end:
            await asyncio.sleep(quiet)
            now = self.cpu()
            if now == last:
                return
            last = now

    def profile_from_now(self) -> None:
        """The bot's profile (``CLERK_TEST_PROFILE``) drops what it recorded so far (the start-up) and starts afresh."""
        self.proc.send_signal(signal.SIGUSR1)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


def bot_environ() -> dict[str, str]:
    """This process's environment for a bot's process: no Discord, database or Clerk settings of its own, and bytecode
    written and read (``BYTECODE``)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DATABASE_", "CLERK_")) and k != "PYTHONDONTWRITEBYTECODE"}


def _env(fake: FakeDiscord, database: str | None, rate_limit: int | None,
         profile: Path | None = None, reply: bool = False) -> dict[str, str]:
    env = bot_environ()
    if reply:
        env["CLERK_BARE_SEND"] = "reply"
    env.update(DISCORD_TOKEN=TOKEN, CLERK_TEST_DISCORD_API=fake.api_base, CLERK_TEST_DISCORD_GATEWAY=fake.gateway_url,
               PYTHONPATH=str(ROOT))
    if database is not None:
        env["DATABASE_URL"] = database
    if rate_limit is not None:
        env["CLERK_TEST_RATE_LIMIT"] = str(rate_limit)
    if profile is not None:
        env["CLERK_TEST_PROFILE"] = str(profile)
    return env


async def spawn(fake: ProcFake, kind: str, workdir: Path, database: str | None = None,
                rate_limit: int | None = None, python: tuple[str, ...] = (), profile: Path | None = None) -> Child:
    """Start ``clerk`` (``python -m bot run`` on ``database``), ``bare`` (bench/barebot.py) or ``bare-reply`` (the
    same, replying with discord.py's ``Message.reply``: ``CLERK_BARE_SEND=reply``); ``python``: options
    for the interpreter (``-X importtime``, a profiler's ``-m cProfile -o FILE``); ``profile``: the bot writes a
    cProfile of its main thread there when it stops (``CLERK_TEST_PROFILE``, both bots), restarted by ``SIGUSR1``
    (``Child.profile_from_now``)."""
    args = [*python, *(["-m", "bot", "run"] if kind == "clerk" else [str(ROOT / "bench" / "barebot.py")])]
    log = workdir / f"{kind}.log"
    fake.identified.clear()
    with log.open("ab") as out:
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(sys.executable, *args,
                                                    env=_env(fake, database, rate_limit, profile,
                                                             reply=kind == "bare-reply"),
                                                    cwd=workdir, stdout=out, stderr=out)
    return Child(kind, proc, started, log)


def answered(fake: FakeDiscord, before: int, message_id: int) -> bool:
    """Whether a bot has replied to ``message_id``, among what was sent since ``before``."""
    return any(s.reference == message_id and s.kind != "system" for s in fake.sent[before:])


async def dm_and_wait(fake: FakeDiscord, user: User, text: str) -> float:
    """DM the bot and wait for its reply; returns the ``perf_counter`` time of the reply."""
    before = len(fake.sent)
    mid = await fake.dm(user, text)
    await fake.wait_for(partial(answered, fake, before, mid), f"a reply to message {mid}", timeout=120)
    return time.perf_counter()


async def ready(fake: ProcFake, child: Child, user: User, text: str) -> float:
    """Seconds from the spawn to the reply to a DM sent as soon as the bot has identified on the gateway: start to
    ready, as a player sees it."""
    waiter = asyncio.ensure_future(fake.identified.wait())
    done, _ = await asyncio.wait({waiter, asyncio.ensure_future(child.proc.wait())}, timeout=120,
                                 return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        raise RuntimeError(f"{child.name} did not connect:\n{child.log.read_text()[-3000:]}")
    return await dm_and_wait(fake, user, text) - child.started


async def clerk_first_pass(fake: FakeDiscord, child: Child) -> None:
    """Clerk's deadline scheduler has done its first pass (the line it logs then)."""
    await fake.wait_for(lambda: FIRST_PASS in child.log.read_text(), "the scheduler's first pass", timeout=120)


async def start_fake() -> ProcFake:
    fake = ProcFake()
    await fake.start()
    return fake
