"""The SQLite file's sync twin runs this process's transactions in turns (``ServiceBase._in_twin``; issue 20): two
that met would take SQLite's write lock one after the other anyway, the second waiting in SQLite's busy handler,
which sleeps 1, 2, 5, 10, ... ms however soon the first ends. Counted (transactions begun and not ended), not
timed."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.landsdraad.roster import RosterRow
from engine.service.owed import NOTICE, Owed
from engine.store.database import make_engine, make_sessionmaker

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GAMES = 6


async def test_ballots_of_several_games_and_the_outbox_never_meet_on_the_twin(db_engine: AsyncEngine) -> None:
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    twin = clerk._twin
    if twin is None:
        pytest.skip("no twin: PostgreSQL")
    games = []
    for g in range(GAMES):
        game = await clerk.games.create_game(guild_id=1, channel_id=100 + g, name=f"g{g}", ruleset="landsdraad",
                                             moderator_role_id=None, actor=None)
        await clerk.landsdraad.roster.add_players(
            game.id, [RosterRow(1000 * g + u, f"p{u}", diplomacy=2, command=1, intrigue=1, roll=2) for u in range(3)],
            actor=None)
        await clerk.landsdraad.rounds.open_round(game.id, crisis="Levy?", deadline=None, actor=None)
        games.append(game.id)

    guard = threading.Lock()
    state = {"open": 0, "most": 0, "begun": 0}

    def begun(_conn: Any) -> None:  # before the twin's own BEGIN IMMEDIATE (inserted first)
        with guard:
            state["open"] += 1
            state["begun"] += 1
            state["most"] = max(state["most"], state["open"])

    def ended(_conn: Any) -> None:
        with guard:
            state["open"] -= 1

    event.listen(twin, "begin", begun, insert=True)
    event.listen(twin, "commit", ended)
    event.listen(twin, "rollback", ended)
    try:
        ballots = [clerk.landsdraad.ballots.cast_ballot(game, user_id=1000 * g + u, command=parse_ballot("Vote: Aye"),
                                                        received_at=T0, source_id=f"msg:{g}-{u}")
                   for g, game in enumerate(games) for u in range(3)]
        owed = [clerk.outbox.owe([Owed(f"channel:{n}", n, NOTICE, f"n{n}", {"text": "x"})]) for n in range(6)]
        await asyncio.gather(*ballots, *owed)
    finally:
        event.remove(twin, "begin", begun)
        event.remove(twin, "commit", ended)
        event.remove(twin, "rollback", ended)
    assert state["begun"] >= GAMES + 1, state  # every game's batch and the outbox's, each a transaction of its own
    assert state["most"] == 1, state


async def test_a_twin_transaction_waits_for_its_turn_before_it_begins(db_engine: AsyncEngine) -> None:
    """While one twin transaction is open (held in its thread here), the next waits in this process for its turn,
    not in SQLite's busy handler: it has not begun."""
    clerk = Clerk(make_sessionmaker(db_engine), ManualClock(T0), RandomDice(1))
    twin = clerk._twin
    if twin is None:
        pytest.skip("no twin: PostgreSQL")
    entered, release = threading.Event(), threading.Event()
    begun: list[int] = []

    def hold_the_first(_conn: Any) -> None:
        begun.append(len(begun))
        if len(begun) == 1:
            entered.set()
            release.wait(timeout=120)  # a hang guard only: the test sets it

    event.listen(twin, "begin", hold_the_first, insert=True)
    try:
        first = asyncio.ensure_future(clerk.outbox.owe([Owed("channel:1", 1, NOTICE, "first", {"text": "a"})]))
        await asyncio.to_thread(entered.wait, 120)
        second = asyncio.ensure_future(clerk.outbox.settle(1, "sent"))
        turns = clerk.backend.twin_turns
        for _ in range(10_000):  # a few loop turns: the second reaches its turn's wait
            if turns._waiters:  # type: ignore[attr-defined]
                break
            await asyncio.sleep(0)
        assert turns._waiters, "the second waits for its turn"  # type: ignore[attr-defined]
        assert begun == [0], "the second did not begin while the first was open"
        release.set()
        await asyncio.gather(first, second)
    finally:
        release.set()
        event.remove(twin, "begin", hold_the_first)
    assert begun == [0, 1]


async def test_the_games_of_a_user_are_read_on_the_twin_without_its_write_lock(sqlite_template: Path,
                                                                               tmp_path: Path) -> None:
    """A first DM's lookup of the sender's games runs in a worker thread on the twin (off the event loop), and takes
    no write lock: it answers while another connection holds it (it would be refused after the write wait)."""
    path = tmp_path / "clerk.db"
    shutil.copyfile(sqlite_template, path)
    engine = make_engine(f"sqlite+aiosqlite:///{path}", write_wait=timedelta(milliseconds=200))
    try:
        clerk = Clerk(make_sessionmaker(engine), ManualClock(T0), RandomDice(1))
        game = await clerk.games.create_game(guild_id=1, channel_id=100, name="g", ruleset="landsdraad",
                                             moderator_role_id=None, actor=None)
        await clerk.landsdraad.roster.add_players(
            game.id, [RosterRow(u, f"p{u}", diplomacy=2, command=1, intrigue=1, roll=2) for u in (7, 8)], actor=None)
        twin = clerk._twin
        assert twin is not None
        seen: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            seen.append(statement.split()[0])

        writer = sqlite3.connect(path, isolation_level=None)
        event.listen(twin, "before_cursor_execute", count)
        try:
            writer.execute("BEGIN IMMEDIATE")  # another process's write, open
            found = await asyncio.gather(clerk.games.games_of_user(7), clerk.games.games_of_user(9))
        finally:
            writer.execute("ROLLBACK")
            writer.close()
            event.remove(twin, "before_cursor_execute", count)
        assert [[g.name for g in games] for games in found] == [["g"], []]
        assert seen == ["SELECT"], "one read on the twin, no BEGIN IMMEDIATE"
        assert clerk.games.known_games(7) is not None and clerk.games.known_games(9) == ()
    finally:
        await engine.dispose()


def test_the_kept_connection_serves_one_thread_at_a_time(tmp_path: Path) -> None:
    """The turns are an ``asyncio.Lock``, which a cancelled caller lets go while its worker thread still runs its
    transaction: the kept connection (``turn_connection``) is held under a thread lock too, so a second thread waits
    for the first to be done with it instead of using it at the same time."""
    from sqlalchemy import create_engine, text

    from engine.store.twin import close_twin, turn_connection

    twin = create_engine(f"sqlite:///{tmp_path / 'k.db'}")
    inside, release, trying, second_in = threading.Event(), threading.Event(), threading.Event(), threading.Event()
    seen: list[object] = []

    def first() -> None:
        with turn_connection(twin) as connection:
            seen.append(connection)
            inside.set()
            release.wait(30)

    def second() -> None:
        trying.set()
        with turn_connection(twin) as connection:
            seen.append(connection)
            second_in.set()
            connection.execute(text("SELECT 1"))

    a = threading.Thread(target=first)
    a.start()
    assert inside.wait(30)
    b = threading.Thread(target=second)
    b.start()
    assert trying.wait(30)
    assert not second_in.wait(0.2)  # with the connection shared, it is in at once
    release.set()
    a.join(30)
    b.join(30)
    assert second_in.is_set() and seen[0] is seen[1]  # the same kept connection, in turn
    close_twin(twin)
