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
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from fakediscord import TOKEN, FakeDiscord, User
from sqlalchemy import insert, select

from bench.common import migrated_sqlite, scratch_dir
from bot.discord.scheduler import FIRST_PASS
from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.announcements import posted_marker
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.victory_scoring import MAJORITY_AFTER_ROUND
from engine.store.database import make_engine, make_sessionmaker
from engine.store.models import Player
from engine.store.models.landsdraad import Holding

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
    """A migrated SQLite file with ``games`` Landsdraad games of ``players`` players each, and the fake's users and
    channels for them; written by this process before a bot starts, then left to the bot. With ``closed`` 0, round 1
    is open in each game (the players written in bulk). With ``closed`` rounds, each game is a long one played as a
    bot plays it (``_long_game``): ``closed`` rounds opened, voted by every player (the service's ballot batch) and
    closed through the service, each result marked posted as the bot marks a card it posted, then the next round
    open; in every tenth game one player holds a majority, told once at the close of round 5 (``check_majority``), so
    the start finds nothing to tell in any game, as nearly always."""

    fake: ProcFake
    games: int
    players: int
    closed: int = 0
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
                if self.closed and g % 10 == 0 and rows:
                    rows[0]["misc_votes"] = 20 * len(rows)  # more than all the others' votes together
                async with engine.begin() as conn:
                    await conn.execute(insert(Player), rows)
                if self.closed:
                    await self._long_game(clerk, engine, game.id, g, users)
                await clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None,
                                                         actor=self.fake.owner.id)
                self.users.append(users)
        finally:
            await engine.dispose()

    async def _long_game(self, clerk: Clerk, engine: Any, game_id: int, g: int, users: list[User]) -> None:
        """``closed`` rounds of ``game_id``, each opened, voted by every player and closed through the service."""
        owner = self.fake.owner.id
        async with engine.begin() as conn:  # a homeworld for each player, an elector for every other one
            await conn.execute(insert(Holding), [
                {"game_id": game_id, "player_id": pid, "kind": kind, "name": f"{kind}-{g}-{i}",
                 "grade": "average", "votes": 4 if kind == "elector" else 0, "homeworld": kind == "planet"}
                for i, pid in enumerate(await _player_ids(conn, game_id))
                for kind in (("planet", "elector") if i % 2 else ("planet",))])
        for n in range(1, self.closed + 1):
            clock = clerk.clock
            assert isinstance(clock, ManualClock)
            await clerk.landsdraad.rounds.open_round(game_id, crisis=f"Crisis {n}?", deadline=None, actor=owner)
            clock.advance(STEP)
            await asyncio.gather(*[clerk.landsdraad.ballots.cast_ballot(
                game_id, user_id=u.id, command=parse_ballot(LONG_BALLOTS[(i + n) % len(LONG_BALLOTS)]),
                received_at=clock.now(), source_id=f"msg:{g}:{n}:{i}") for i, u in enumerate(users)])
            await clerk.landsdraad.rounds.close_round(game_id, actor=owner)
            await clerk.announcements.mark_posted(posted_marker("round", game_id, n), message_id=10**17 + g * 1000 + n)
            if n == MAJORITY_AFTER_ROUND and g % 10 == 0:
                await clerk.landsdraad.victory.check_majority(game_id, actor=None)
            clock.advance(STEP)
        if clock.now() > datetime.now(UTC) - timedelta(days=2):  # the bots' clock is the real one
            raise RuntimeError("the long games' ledgers reach the bots' last day: a start would take every ballot "
                               "for one a kill left without its receipt (recovery.LOOK_BACK)")

    @property
    def everyone(self) -> list[User]:
        return [u for game in self.users for u in game]


LONG_BALLOTS = ("Vote: Aye", "Vote: Nay", "Vote: Abstain")
STEP = timedelta(minutes=1)
"""The world's clock between a long game's opening, ballots and close: 1,000 games of six rounds end 8.3 days after
``START``, long before the bots' (real) now. (With an hour, they reached into 2027: every ballot of the last day's
games and the future's was taken at start for one whose receipt a kill had lost, 52,520 receipts owed at a start.)"""


async def _player_ids(conn: Any, game_id: int) -> list[int]:
    return list((await conn.execute(select(Player.id).where(Player.game_id == game_id).order_by(Player.id)))
                .scalars())


@dataclass
class Child:
    """One bot process; ``started`` is when it was spawned (``time.perf_counter``)."""

    name: str
    proc: asyncio.subprocess.Process
    started: float
    log: Path
    log_from: int = 0
    """The log's size at the spawn: the bots of one kind share a log (appended), so what this one wrote is after it."""

    def logged(self) -> str:
        """What this process has written to its log."""
        with self.log.open("rb") as f:
            f.seek(self.log_from)
            return f.read().decode(errors="replace")

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
        log_from = out.tell()
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(sys.executable, *args,
                                                    env=_env(fake, database, rate_limit, profile,
                                                             reply=kind == "bare-reply"),
                                                    cwd=workdir, stdout=out, stderr=out)
    return Child(kind, proc, started, log, log_from)


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
    """Clerk's deadline scheduler has done its first pass (the line it logs then, among what this process logged:
    before 2026-12-07 an earlier start's line in the shared log answered at once)."""
    await fake.wait_for(lambda: FIRST_PASS in child.logged(), "the scheduler's first pass", timeout=120)


async def start_fake() -> ProcFake:
    fake = ProcFake()
    await fake.start()
    return fake
