"""Tally at close with 1,000, 10,000 and 100,000 voters and temporary factions: the pure tally (R0-15..R0-18,
``engine.landsdraad.crisis.resolve``) and the whole close through the service and the store (read every weight and
ballot, roll the d6 factions, write the result and its event with every weight)."""

from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Select, and_, insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bench.common import Timing, backends, migrated
from engine.landsdraad.crisis import resolve
from engine.landsdraad.factions import make_faction
from engine.landsdraad.model import Option
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.ledger import active_players
from engine.store.collector import collector_paused
from engine.store.database import make_sessionmaker
from engine.store.models import Player
from engine.store.models.landsdraad import Ballot, Round

SIZES = (1_000, 10_000, 100_000)
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
OPTIONS = (Option.AYE, Option.NAY, Option.ABSTAIN)
FACTIONS = (("Pirates", 40, "d6", "1-3 nay, 4 abstain, 5-6 aye"), ("Guilds", 25, "aye", None),
            ("Clergy", 15, "nay", None), ("Nomads", 10, "d6", "1-2 aye, 3-6 nay"))


def pure(sizes: tuple[int, ...], rounds: int, every: dict[int, int]) -> list[Timing]:
    """The pure tally of each size, the sizes in turns (one tally of each a round; a size in ``every`` only every
    so many rounds), so that the host's speed, which drifts on a shared machine, weighs on every size alike: each
    size timed in a block of its own once read a tenfold step of 14.7x from a block the host ran fast."""
    rolls = {"Pirates": 5, "Nomads": 2}
    made = {n: ({i: 1 + i % 7 for i in range(n)},  # one in ten did not vote
                {i: OPTIONS[i % 3] for i in range(n) if i % 10}, [make_faction(*f) for f in FACTIONS]) for n in sizes}
    samples: dict[int, list[float]] = {n: [] for n in sizes}
    for turn in range(rounds):
        for n in sizes:
            if turn % every.get(n, 1):
                continue
            weights, ballots, factions = made[n]
            start = time.perf_counter()
            resolve(weights, ballots, factions, rolls)
            samples[n].append(time.perf_counter() - start)
    return [Timing(f"pure tally, {n:,} voters", samples[n]) for n in sizes]


async def _game(engine: AsyncEngine, clerk: Clerk, n: int) -> int:
    game = await clerk.games.create_game(guild_id=1, channel_id=n, name=f"bench{n}", ruleset="landsdraad",
                                         moderator_role_id=None, actor=1)
    async with engine.begin() as conn:
        await conn.execute(insert(Player), [
            {"game_id": game.id, "user_id": 10_000 + u, "name": f"p{u}", "faction": None, "diplomacy": 1 + u % 5,
             "command": 2, "intrigue": 2, "roll": 1 + u % 6, "diplomacy_max": 5, "intrigue_max": 2, "misc_votes": 0,
             "active": True} for u in range(n)])
    return game.id


async def _ballots(engine: AsyncEngine, game_id: int, received: datetime) -> None:
    async with engine.begin() as conn:
        found = await conn.execute(select(Round.id).where(Round.game_id == game_id, Round.status == "open"))
        rnd = found.scalar_one()
        players = (await conn.execute(select(Player.id).where(Player.game_id == game_id))).scalars().all()
        await conn.execute(insert(Ballot), [
            {"round_id": rnd, "player_id": p, "option": OPTIONS[p % 3].value, "declared": None, "revotes": 0,
             "received_at": received, "source_id": None} for p in players if p % 10])
        if engine.dialect.name == "postgresql":
            # What autovacuum does to a live database soon after such a bulk insert. Without statistics the
            # planner takes the tables for nearly empty and joins each player to every ballot of the round: at
            # 1,000 voters 58 ms instead of 0.7 for the query itself (EXPLAIN ANALYZE), in the read and the close
            # alike, which made the 1,000-voter figures meaningless and the tenfold steps wrong.
            await conn.execute(text("ANALYZE players, ballots"))


def _same_rows(game_id: int, round_id: int) -> Select[Any]:
    """The close's own query (``round_close.voters``): every active player of the game, in the order they joined,
    with their id, user id, name, V(p) added up by the database and their ballot in the open round (LEFT JOIN)."""
    return active_players(game_id, Ballot.option).outerjoin(
        Ballot, and_(Ballot.round_id == round_id, Ballot.player_id == Player.id))


async def plain_read(engine: AsyncEngine, game_id: int) -> float:
    """Seconds to read, as plain rows, what the close reads: the open round, then the close's own query of the
    voters (``_same_rows``), all fetched as SQLAlchemy rows (``.all()``), on the async engine: what a close
    written by hand on the project's stack would read, and nothing it would not."""
    start = time.perf_counter()
    async with engine.connect() as conn:
        rnd = (await conn.execute(select(Round.id).where(Round.game_id == game_id, Round.status == "open"))).scalar()
        assert rnd is not None
        rows = (await conn.execute(_same_rows(game_id, rnd))).all()
    assert len(rows) > 0
    return time.perf_counter() - start


async def driver_read(engine: AsyncEngine, game_id: int) -> float:
    """As ``plain_read``, but the rows are the DB-API cursor's own (tuples; asyncpg's records), as the close now
    fetches them: no SQLAlchemy ``Row``. Printed beside the plain read as the floor of reading those rows at all."""
    start = time.perf_counter()
    async with engine.connect() as conn:
        rnd = (await conn.execute(select(Round.id).where(Round.game_id == game_id, Round.status == "open"))).scalar()
        assert rnd is not None

        def fetch(sync: Connection) -> int:
            found = sync.execute(_same_rows(game_id, rnd))
            try:
                return len(found.cursor.fetchall())
            finally:
                found.close()

        assert await conn.run_sync(fetch) > 0
    return time.perf_counter() - start


async def _collected(read: Awaitable[float]) -> float:
    """``read`` timed after a collection, as the close is: a full pass of the collector over what the set-up left
    (10,000 players and their ballots as ORM objects and rows) costs 50-100 ms, and lands in whichever of the read
    or the close happens to cross the threshold (docs/performance-history.md, close3); each starts from a collected
    heap. And with the collector paused while it reads, as the close pauses it (``engine.store.collector``, since
    2026-12-08): the reference gets what the close has. Before, at 100,000 voters the collector's passes over the
    rows being made were 150-220 ms of the plain read's 300-380 (60 of the driver's 160), at 10,000 2 ms."""
    gc.collect()
    with collector_paused():
        return await read


READS = 3
"""Plain reads (and driver's reads) timed before each close, each a sample of its own."""


async def round_ready(engine: AsyncEngine, clerk: Clerk, clock: ManualClock, game_id: int) -> list[float]:
    """A round opened with ``FACTIONS`` and every voter's ballot, a minute later; ``READS`` plain reads of its rows,
    each timed from a collected heap, as the close is. Every one is a sample: the reference is their median, the
    same statistic as the close's (until 2026-12-06 it was each turn's best of three against one close, a bias of
    the reads' spread against the close)."""
    await clerk.landsdraad.rounds.open_round(game_id, crisis="Tally bench", deadline=None, actor=1)
    for name, votes, stance, table in FACTIONS:
        await clerk.landsdraad.rounds.add_faction(game_id, name=name, votes=votes, stance=stance, table=table,
                                                  roll=None, actor=1)
    await _ballots(engine, game_id, clock.now())
    clock.advance(timedelta(minutes=1))
    return [await _collected(plain_read(engine, game_id)) for _ in range(READS)]


async def service(n: int, repeat: int, backend: str = "sqlite") -> tuple[Timing, Timing, Timing]:
    """The close of ``n`` voters through the service, and the plain read (and the driver's read) of the same rows
    just before each, ``READS`` of each, every one a sample. One untimed close first (``repeat`` + 1 rounds), and the
    reads before it untimed too: each size runs on an engine of its own, and its first close compiles every statement
    the close makes, which a running bot has done long before."""
    clock = ManualClock(START)
    samples, reads, drivers = [], [], []
    async with migrated(backend) as engine:
        clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(3))
        game_id = await _game(engine, clerk, n)
        for turn in range(repeat + 1):
            read = await round_ready(engine, clerk, clock, game_id)
            driver = [await _collected(driver_read(engine, game_id)) for _ in range(READS)]
            gc.collect()
            start = time.perf_counter()
            await clerk.landsdraad.rounds.close_round(game_id, actor=1)
            took = time.perf_counter() - start
            if turn:
                samples.append(took)
                reads += read
                drivers += driver
    return (Timing(f"close through the service, {n:,} voters", samples),
            Timing(f"plain read of the same rows, {n:,} voters", reads),
            Timing(f"  the driver's rows alone, {n:,} voters", drivers))


CLOSES = 5
"""Timed closes of 1,000 and of 10,000 voters (their median), each with ``READS`` plain reads just before it: with
three closes, one slowed by the machine (a collection, another process) moved the median by a tenth either way
between runs of the same code (2026-12-06)."""
CLOSES_100K = 3
"""Timed closes of 100,000 voters (their median; one until 2026-12-08, whose time alone made the tenfold step)."""


def scaling(timings: list[Timing]) -> str:
    steps = [b.median / a.median for a, b in itertools.pairwise(timings)]
    worst = max(steps)
    return (f"each tenfold step costs {', '.join(f'{s:.1f}x' for s in steps)} "
            f"(target <= 12x: {'ok' if worst <= 12 else 'OVER'})")


async def run(quick: bool = False) -> list[str]:
    pure_t = pure(SIZES, 20, {100_000: 4})
    ten = pure_t[1].median
    lines = ["Tally at close (4 temporary factions, 2 of them d6; one voter in ten did not vote)"]
    lines += [t.row() for t in pure_t]
    lines.append(f"  pure: 10,000 voters in {ten * 1e3:.1f} ms (target <= 100 ms: {'ok' if ten <= 0.1 else 'OVER'}); "
                 + scaling(pure_t))
    for backend in backends():
        got = [await service(n, 1 if quick else CLOSES_100K if n == 100_000 else CLOSES, backend) for n in SIZES]
        lines.append(f"  on {'SQLite (a file, WAL)' if backend == 'sqlite' else 'PostgreSQL (127.0.0.1)'}:")
        for close, read, driver in got:
            lines += [read.row(), driver.row(read), close.row(read)]
        close, read, driver = got[1]
        ratio = close.median / read.median
        lines.append(f"  10,000 voters: the close {ratio:.2f}x the plain read (target <= 1.3x: "
                     f"{'ok' if ratio <= 1.3 else 'OVER'}), {close.median / driver.median:.2f}x the driver's rows "
                     "alone; close: " + scaling([c for c, _, _ in got]))
    return lines


if __name__ == "__main__":
    import asyncio

    print("\n".join(asyncio.run(run())))
