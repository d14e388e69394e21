"""issue 20: the statements of a round's close (counted, not timed). A close of a round with no AG election tied to
it and no open player vote reads its round, its factions and the round end's three facts in one statement, the
round's and the game's seeds with the round's rolls in one (for the d6 rolls and the round's view alike); on
PostgreSQL it writes in one statement (pgclose) and reads those seeds and rolls in its first, locking, read
(pt-pgclose)."""

from __future__ import annotations

import gc
import threading
from typing import Any

import pytest
from sqlalchemy import event
from test_service_scaling import statements

from engine.core.dice import face
from engine.service.uow import Duplicate
from engine.store.collector import collector_paused

MOD = 1


async def _close_statements(table: Any) -> list[str]:
    twin = table.clerk._twin
    with statements(table.engine.sync_engine, *([twin] if twin is not None else [])) as seen:
        result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    assert seen, "no statement counted: the close went through an engine nobody listened to"
    assert result.income_penalty == 300 and result.adjutant is None  # the AG check ran (no AG)
    return seen


async def test_a_close_reads_its_round_its_factions_and_its_dice_once(table: Any) -> None:
    for user_id in (101, 102, 103):
        await table.player(user_id, f"p{user_id}", 3, 2, 2)  # the base d3 makes the game's seed
    await table.open()
    await table.faction("Pirates", 10, "d6", "1-3 nay, 4 abstain, 5-6 aye")
    await table.faction("Guilds", 5, "aye")
    await table.vote(101, "Vote: Aye")
    await table.vote(102, "Vote: Nay")
    seen = await _close_statements(table)
    # on PostgreSQL the first read takes the game's row lock itself (``WITH locked AS (... FOR UPDATE)``, pgclose)
    reads = [s for s in seen if s.startswith("SELECT") or s.startswith("WITH locked")]
    # the round, its factions, the round end's facts (on PostgreSQL with the game and its lock)
    assert sum("FROM rounds" in s or "JOIN rounds" in s for s in reads) == 1, reads
    # ... read with the game itself (on SQLite too: one ORM read fewer than the game's and then the round's)
    assert not any(s.startswith("SELECT rounds") for s in reads), reads
    assert not any(s.startswith("SELECT temp_factions") or s.startswith("SELECT ag_elections")
                   or s.startswith("SELECT player_votes") for s in reads), reads
    postgres = table.engine.dialect.name == "postgresql"
    # the round's seed and the game's, joined to the round's rolls (counts and seals): one statement (pgclose); on
    # PostgreSQL that statement is the first, the locking read of the game and its round (pt-pgclose)
    assert not any(s.startswith("SELECT dice_rolls") for s in reads), reads
    if postgres:
        assert not any(s.startswith("SELECT dice_seeds") for s in reads), reads
        assert "LEFT OUTER JOIN dice_seeds" in reads[0] and "LATERAL" in reads[0], reads[0]
    else:
        assert sum(s.startswith("SELECT dice_seeds") for s in reads) == 1, reads
        assert sum("FROM dice_seeds LEFT OUTER JOIN dice_rolls" in s for s in reads) == 1, reads
    # close4: whether the game has a holding at all rides in the round's read; no holding, no holders' read
    assert not any(s.startswith("SELECT holdings") for s in reads), reads
    # pgclose: on PostgreSQL the writes (rolls, factions, round, reveal, event numbers, events) are one statement;
    # pt-pgclose: and the dice are read with the lock: the lock's read, the voters, the writes
    assert len(seen) == (3 if postgres else 10), "\n".join(s[:90] for s in seen)  # pgclose: 4, 10; close4: 11, 12
    if postgres:  # the lock is the read's (no SELECT ... FOR UPDATE of its own), and the round's read has the game
        assert seen[0].startswith("WITH locked") and "FOR UPDATE" in seen[0] and "FROM games" in seen[0], seen[0]
        assert not any(s.startswith("SELECT games") for s in seen), seen


async def test_a_redelivered_close_is_not_applied_twice(table: Any) -> None:
    """pgclose: on PostgreSQL the close checks its source id after the lock its first read takes; a redelivery is a
    ``Duplicate`` (not a second close, not "already closed") on both backends."""
    await table.player(101, "p101", 3, 2, 2)
    await table.open()
    await table.vote(101, "Vote: Aye")
    first = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD, source_id="i-close")
    assert first.aye > 0
    with pytest.raises(Duplicate):
        await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD, source_id="i-close")
    assert (await table.kinds()).count("RoundClosed") == 1


async def test_a_close_reads_its_dice_as_before_with_the_lock(table: Any) -> None:
    """pt-pgclose: the dice the close reads with its lock on PostgreSQL (the round's seed and the game's, the round's
    rolls counted by purpose and its seals; a row a faction times a seed) give the close what ``seeds_and_rolls``
    gave it, on both backends: the next index of a purpose already sealed, each seal in the round's view, the game's
    seal, the round's seed revealed, each faction once in its order. (The re-added Wolves show the removed one's
    seal: a seal is looked up by purpose, as before pt-pgclose, on both backends.)"""
    await table.player(101, "p101", 3, 2, 2, roll=None)  # a base d3 rolled by Clerk: the game's seed
    await table.player(102, "p102", 3, 2, 2)
    await table.open()
    await table.faction("Wolves", 8, "d6", "1-3 nay, 4 abstain, 5-6 aye", roll=4)  # sealed: index 0
    await table.clerk.landsdraad.rounds.remove_faction(table.game_id, name="Wolves", actor=MOD)
    await table.faction("Wolves", 8, "d6", "1-3 nay, 4 abstain, 5-6 aye")  # rolled at the close: index 1
    await table.faction("Boars", 12, "d6", "1-3 nay, 4 abstain, 5-6 aye", roll=2)  # sealed
    await table.faction("Guilds", 5, "aye")
    await table.vote(101, "Vote: Aye")
    result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    seal = result.round.seal
    assert seal is not None and seal.seed is not None  # revealed with the result
    assert [f.name for f in result.factions] == ["Wolves", "Boars", "Guilds"]
    wolves, boars, guilds = result.factions
    assert wolves.roll == face(seal.seed, "d6 for faction Wolves", 1, 6)
    assert boars.roll == 2 and boars.sealed is not None and guilds.roll is None
    assert result.round.base_seal is not None and result.round.base_seal.seed is None  # the game's: shown, not revealed
    rep = await table.clerk.seals.verify(table.game_id, 1)
    assert rep.verdict is not None and rep.verdict.ok
    assert [(c.roll.purpose, c.roll.index) for c in rep.verdict.rolls] == [
        ("d6 for faction Wolves", 0), ("d6 for faction Boars", 0), ("d6 for faction Wolves", 1)]


async def test_a_close_runs_with_the_collector_paused(table: Any) -> None:
    """pt-pgclose: the garbage collector is off from the close's first statement to its last (its voters' rows are
    freed before it runs again: docs/performance.md, "The close of 100,000 voters"), and on again after it."""
    await table.player(101, "p101", 3, 2, 2)
    await table.open()
    await table.vote(101, "Vote: Aye")
    assert gc.isenabled()
    during: list[bool] = []

    def look(*_args: Any) -> None:
        during.append(gc.isenabled())

    twin = table.clerk._twin
    engines = [table.engine.sync_engine, *([twin] if twin is not None else [])]
    for engine in engines:
        event.listen(engine, "before_cursor_execute", look)
    try:
        await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", look)
    # every statement of the unit but its BEGIN (SQLite: before the close's own work) and its COMMIT
    assert len(during) >= 3 and not any(during[1:]), during
    assert gc.isenabled()


def test_the_collector_pauses_nest_across_threads_and_keep_it_off_if_it_was() -> None:
    """``collector_paused``: concurrent pauses (the event loop's thread, the SQLite twin's worker) end with the last;
    a collector that was off stays off (``python -m bot`` keeps it off during its imports)."""
    assert gc.isenabled()
    inner = threading.Event()
    leave = threading.Event()
    seen: list[bool] = []

    def worker() -> None:
        with collector_paused():
            inner.set()
            leave.wait(10)

    thread = threading.Thread(target=worker)
    with collector_paused():
        thread.start()
        assert inner.wait(10)
    seen.append(gc.isenabled())  # the worker's pause goes on
    leave.set()
    thread.join(10)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_a_close_after_the_game_ended_once_shows_the_games_seed_revealed(table: Any) -> None:
    """pt-pgclose: on PostgreSQL whether the game's seed is revealed (the game has ended once: ``dice.is_revealed``)
    rides in the close's locking read, two statements fewer at its end; the round's view says the same as on
    SQLite, which asks as before: revealed after an end and a reopening, not before (the test above)."""
    await table.player(101, "p101", 3, 2, 2, roll=None)  # a base d3 rolled by Clerk: the game's seed
    await table.player(102, "p102", 3, 2, 2)
    await table.clerk.landsdraad.victory.end_game(table.game_id, actor=MOD)
    await table.clerk.games.reopen(table.game_id, actor=MOD, reason="one more round")
    await table.open()
    await table.vote(101, "Vote: Aye")
    twin = table.clerk._twin
    with statements(table.engine.sync_engine, *([twin] if twin is not None else [])) as seen:
        result = await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)
    if table.engine.dialect.name == "postgresql":  # the events' read in the first statement only
        assert len(seen) == 3 and "events.kind" in seen[0], seen
        assert not any("FROM events" in s for s in seen[1:]), seen
    base = result.round.base_seal  # as the result card shows it
    assert base is not None and base.seed is not None
    assert (await table.clerk.landsdraad.rounds.round_of(table.game_id)).base_seal == base
