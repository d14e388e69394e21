"""1,000 games of 20 players (20,000 players, round 1 open in each): start to ready (three interleaved pairs with the
bare bot, as bench/startup.py) and the resident memory of each bot process, idle and after every player has DMed
once (Clerk: every player has voted; both unpaced, the 20,000 DMs written to the gateway back to back).

``many-long`` (``run_long``): the same 1,000 games as long ones, each played through the service to round 7 (six
rounds opened, voted by every player and closed, each result marked posted; ``World._long_game``), since the work at
a start that looks at each game past round 5 (the majority's look, ``majorities_at_start``) does nothing in round 1.
Start to ready and the start's work done (the scheduler's first pass), three pairs as above; and the SQL statements
a start makes, counted in this process (the same bot's start, ``make_bot``, on the same database) with 1 long game
and with all of them: what each game adds."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from bench.procs import UNPACED, ProcFake, World, start_fake
from bench.separate import started
from bench.startup import PAIRS, TITLE, start_rows, starts
from bench.wire import READY, _connect, _disconnect, point_at
from bot.actions.commands import App
from bot.discord import make_bot
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.store.database import make_engine, make_sessionmaker

GAMES = 1000
PLAYERS = 20
MEMORY_BUDGET = 150
"""MB: Clerk's target with 1,000 games of 20 players after every player voted."""
LONG_CLOSED = 6
"""``many-long``: the rounds closed in each game (round 7 open): past round 5, where the majority counts (R3-20)."""


async def _after_voting(fake: ProcFake, world: World, kind: str) -> tuple[float, float, float]:
    """(idle MB, MB once every player's DM is answered, seconds the DMs took)."""
    child = await started(fake, world, kind, UNPACED)
    try:
        idle = child.rss_mb()
        before = len(fake.sent)
        start = time.perf_counter()
        ids = await fake.dm_burst([(u, "Vote: Aye" if kind == "clerk" else "hello") for u in world.everyone])
        await fake.wait_for(lambda: len(fake.sent) - before >= len(ids), f"{len(ids)} replies", timeout=900)
        took = time.perf_counter() - start
        await child.settled()
        return idle, child.rss_mb(), took
    finally:
        await child.stop()


async def run(games: int = GAMES, pairs: int = PAIRS) -> list[str]:
    fake = await start_fake()
    try:
        world = World(fake, games, PLAYERS)
        await world.setup()
        got = await starts(fake, world, pairs)
        bare = await _after_voting(fake, world, "bare")
        clerk = await _after_voting(fake, world, "clerk")
    finally:
        await fake.stop()
    players = games * PLAYERS
    ok = clerk[1] < MEMORY_BUDGET
    idle_ratio = clerk[0] / bare[0]
    return [TITLE.replace("Start-up", f"Start-up and memory with {games:,} games of {PLAYERS}"),
            *start_rows(games, got),
            f"  resident memory after {players:,} DMs, one per player: Clerk {clerk[1]:.0f} MB "
            f"(every player voted, {players / clerk[2]:.0f} receipts/s), the bare bot {bare[1]:.0f} MB",
            f"  target: idle <= 1.5x the bare bot: {idle_ratio:.2f}x, {'ok' if idle_ratio <= 1.5 else 'OVER'}; "
            f"after voting < {MEMORY_BUDGET} MB: {clerk[1]:.0f} MB, {'ok' if ok else 'OVER'}"]


async def start_statements(fake: ProcFake, url: str) -> int:
    """The SQL statements one start of Clerk makes on ``url``, from before it connects until its start's work is done
    (the scheduler's first pass, and the receipts owed beside the first messages): the bot of ``make_bot`` started in
    this process on the fake, each statement counted on every engine (``before_cursor_execute``)."""
    seen = 0

    def count(*_args: Any) -> None:
        nonlocal seen
        seen += 1

    engine = make_engine(url)
    point_at(fake)
    event.listen(Engine, "before_cursor_execute", count)
    try:
        bot = make_bot(App(Clerk(make_sessionmaker(engine), SystemClock(), RandomDice(5))), guild_ready_timeout=READY)
        task = await _connect(bot)
        try:
            await bot.warmed_up()
            owing = getattr(bot, "_recovering", None)
            if owing is not None:
                await owing
            return seen
        finally:
            event.remove(Engine, "before_cursor_execute", count)
            await _disconnect(bot, task)
    finally:
        if event.contains(Engine, "before_cursor_execute", count):
            event.remove(Engine, "before_cursor_execute", count)
        await engine.dispose()


async def run_long(games: int = GAMES, pairs: int = PAIRS) -> list[str]:
    """``many-long``: start to ready and the start's work with ``games`` long games, and the statements a start makes
    with 1 long game and with ``games``."""
    fake = await start_fake()
    try:
        began = time.perf_counter()
        world = World(fake, games, PLAYERS, closed=LONG_CLOSED)
        await world.setup()
        built = time.perf_counter() - began
        got = await starts(fake, world, pairs)
        one = World(fake, 1, PLAYERS, closed=LONG_CLOSED)
        await one.setup()
        await start_statements(fake, one.url)  # each first: the process's compiled statements are made once
        await start_statements(fake, world.url)
        few, many = await start_statements(fake, one.url), await start_statements(fake, world.url)
    finally:
        await fake.stop()
    per_game = (many - few) / (games - 1) if games > 1 else 0.0
    return [TITLE.replace("Start-up", f"Start-up with {games:,} LONG games of {PLAYERS} (round "
                          f"{LONG_CLOSED + 1} open, {LONG_CLOSED} closed and voted; built in {built:.0f} s)"),
            *start_rows(games, got),
            f"  SQL statements of a start (counted in the benchmark's process, the same bot's start on the same "
            f"database): 1 long game {few}, {games:,} long games {many}: {per_game:.2f} a game"]


if __name__ == "__main__":
    print("\n".join(asyncio.run(run(50, 1))))
