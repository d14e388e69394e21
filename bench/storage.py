"""Storage floor: a raw sqlite3 upsert+commit, one bare SQLAlchemy-async + aiosqlite transaction (an upsert and a
commit, on the project's engine: WAL and its pragmas), and Clerk's DM ballot through the service and the store
(parse, the game's lock, the transaction with its event, and the receipt owed in the same transaction, as the DM
path owes it: its text and owed row made as ``bot.actions.landsdraad.dm_ballot`` and ``bot.discord.delivery`` make
them). The three take turns (bench.common)."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Column, Integer, MetaData, String, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from bench.common import interleaved, migrated, migrated_sqlite, postgres_url, scratch_dir
from bot.actions.landsdraad.render import receipt_text
from bot.actions.outbox import reply
from bot.actions.wire import encode
from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.views import BallotReceipt
from engine.service.owed import RECEIPT, Owed, OwedWith
from engine.store.database import apply_pragmas, make_engine, make_sessionmaker

PLAYERS = 20
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
CHOICES = ("Aye", "Nay", "Abstain")

meta = MetaData()
kv = Table("kv", meta, Column("k", Integer, primary_key=True), Column("v", String, nullable=False))

Op = Callable[[int], Awaitable[object]]


def raw_sqlite(path: Path) -> Op:
    db = sqlite3.connect(path, isolation_level=None)
    apply_pragmas(db, in_memory=False)
    db.execute("CREATE TABLE IF NOT EXISTS kv (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")

    async def op(i: int) -> None:
        db.execute("BEGIN")
        db.execute("INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
                   (i % PLAYERS, CHOICES[i % 3]))
        db.execute("COMMIT")

    return op


async def bare_sqlalchemy(engine: AsyncEngine) -> Op:
    async with engine.begin() as conn:
        await conn.run_sync(meta.create_all)

    insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert

    async def op(i: int) -> None:
        statement = insert(kv).values(k=i % PLAYERS, v=CHOICES[i % 3])
        async with engine.begin() as conn:
            await conn.execute(statement.on_conflict_do_update(index_elements=[kv.c.k],
                                                               set_={"v": statement.excluded.v}))

    return op


async def bench_game(clerk: Clerk, players: int) -> int:
    """A Landsdraad game of ``players`` players (user ids from 100) with its first round open; its id."""
    game = await clerk.games.create_game(guild_id=1, channel_id=2, name="bench", ruleset="landsdraad",
                                         moderator_role_id=None, actor=1)
    for u in range(players):
        await clerk.landsdraad.ledger.add_player(game.id, user_id=100 + u, name=f"p{u}", diplomacy=3, command=2,
                                                 intrigue=2, roll=2, faction=None, actor=1)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Bench the levy?", deadline=None, actor=1)
    return game.id


async def dm_ballot(clerk: Clerk, clock: ManualClock, game_id: int, user: int, message: int, choice: str,
                    received_at: datetime | None = None) -> None:
    """The DM ballot ``Vote: choice`` of ``user`` (Discord message ``message``), its receipt owed in the ballot's own
    transaction, its text and owed row made as the DM path makes them (``bot.actions.landsdraad.dm_ballot``,
    ``bot.discord.delivery``)."""
    command = parse_ballot(f"Vote: {choice}")

    def receipt_of(receipt: BallotReceipt) -> list[Owed]:
        item = reply(receipt_text(receipt, clock.now()))
        return [Owed(f"user:{user}", 3_000 + user, RECEIPT, "o" + secrets.token_hex(11),
                     encode(item, channel_id=3_000 + user, reply_to=message), source_id=f"msg:{message}")]

    answer = OwedWith(receipt_of)
    await clerk.landsdraad.ballots.cast_ballot(game_id, user_id=user, command=command,
                                               received_at=received_at or clock.now(), source_id=f"msg:{message}",
                                               answer=answer)
    assert len(answer.rows) == 1, "the receipt was not owed with the ballot"


async def clerk_ballot(engine: AsyncEngine) -> Op:
    clock = ManualClock(START)
    clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(1))
    game_id = await bench_game(clerk, PLAYERS)

    async def op(i: int) -> None:
        await dm_ballot(clerk, clock, game_id, 100 + i % PLAYERS, 10_000_000 + i, CHOICES[i % 3])

    return op


RAW, BARE, CLERK = ("raw sqlite3 upsert + commit", "bare SQLAlchemy-async upsert + commit",
                    "Clerk DM ballot, receipt owed with it")


async def run(n: int = 1000) -> list[str]:
    where = scratch_dir()
    bare_engine = make_engine(f"sqlite+aiosqlite:///{where / 'bare.db'}")
    clerk_engine = make_engine(await migrated_sqlite(where / "clerk.db"))
    try:
        ops = {RAW: raw_sqlite(where / "raw.db"), BARE: await bare_sqlalchemy(bare_engine),
               CLERK: await clerk_ballot(clerk_engine)}
        t = await interleaved(ops, n)
    finally:
        await bare_engine.dispose()
        await clerk_engine.dispose()
    ratio = t[CLERK].median / t[BARE].median
    verdict = "ok" if ratio <= 1 else "OVER the 1x target"
    lines = ["Storage floor (SQLite file, WAL, the project's pragmas; ratios to the bare SQLAlchemy transaction)",
             t[RAW].row(t[BARE]), t[BARE].row(t[BARE]), t[CLERK].row(t[BARE]),
             f"  target: Clerk's DM ballot <= 1x the bare transaction: {ratio:.2f}x, {verdict}"]
    return lines + (await on_postgres(n) if postgres_url() else ["  (PostgreSQL: TEST_POSTGRES_URL is not set)"])


async def on_postgres(n: int) -> list[str]:
    """The same two, taking turns, on the local PostgreSQL server (a schema each)."""
    async with migrated("postgresql", migrate=False) as bare_engine, migrated("postgresql") as clerk_engine:
        t = await interleaved({BARE: await bare_sqlalchemy(bare_engine), CLERK: await clerk_ballot(clerk_engine)}, n)
    ratio = t[CLERK].median / t[BARE].median
    return ["  on PostgreSQL (127.0.0.1):", t[BARE].row(t[BARE]), t[CLERK].row(t[BARE]),
            f"  target: Clerk's DM ballot on PostgreSQL <= 1.3x the bare transaction: {ratio:.2f}x, "
            f"{'ok' if ratio <= 1.3 else 'OVER'}"]


if __name__ == "__main__":
    import asyncio

    print("\n".join(asyncio.run(run())))
