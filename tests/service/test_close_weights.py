"""The ``weights`` of a ``RoundClosed`` event (engine/landsdraad/close_weights.py): a close stores them as columns,
closes before 2026-12-03 stored them as rows, and everything reads both alike through the one reader: ``/why round``,
``/why votes``, the Weathervane, ``/log`` and the export (which writes rows either way, docs/export.md)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from engine.landsdraad.close_weights import columns, entries_of, exported, rows_of
from engine.service.landsdraad.victory_state import weathervane_counts
from engine.store.database import make_sessionmaker
from engine.store.models import Event

JENNY, BOB, CAROL = 101, 102, 103
MOD = 1
ROWS = [{"user_id": JENNY, "name": "jenny", "votes": 25, "ballot": "aye"},
        {"user_id": BOB, "name": "bob", "votes": 7, "ballot": None},
        {"user_id": CAROL, "name": "carol", "votes": 9, "ballot": "nay"}]


def test_both_forms_read_alike() -> None:
    cols = columns([JENNY, BOB, CAROL], ["jenny", "bob", "carol"], [25, 7, 9], ["aye", None, "nay"])
    expected = [(JENNY, "jenny", 25, "aye"), (BOB, "bob", 7, None), (CAROL, "carol", 9, "nay")]
    assert list(rows_of({"weights": cols})) == list(rows_of({"weights": ROWS})) == expected
    assert entries_of({"weights": cols}) == entries_of({"weights": ROWS}) == ROWS
    assert exported({"round": 1, "weights": cols}) == {"round": 1, "weights": ROWS}
    assert exported({"round": 1, "weights": ROWS}) == {"round": 1, "weights": ROWS}
    assert list(rows_of({"round": 1})) == [] and entries_of({"round": 1}) == []
    assert list(rows_of({"weights": [{"name": "old", "votes": 3, "ballot": None}]})) == [(None, "old", 3, None)]


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="one length"):
        columns([JENNY], ["jenny", "bob"], [25], ["aye"])
    with pytest.raises(ValueError, match="different lengths"):
        list(rows_of({"weights": {"user_id": [JENNY], "name": [], "votes": [25], "ballot": ["aye"]}}))


async def _closed_round(table: Any) -> None:
    await table.player(JENNY, "jenny", 4, 2, 2, roll=3)
    await table.elector(JENNY, "Count Jasek", "average", 5)
    await table.planet(JENNY, "Deneb", "average")
    await table.player(BOB, "bob", 2, 2, 2, roll=1)
    await table.player(CAROL, "carol", 3, 1, 1, roll=2)
    await table.open()
    await table.faction("Boars", 12, "d6", "1-3 nay, 4 abstain, 5-6 aye")
    await table.vote(JENNY, "Vote: Aye")
    await table.vote(CAROL, "Vote: Nay")
    await table.clerk.landsdraad.rounds.close_round(table.game_id, actor=MOD)


async def _read_everything(table: Any) -> tuple[Any, ...]:
    clerk, game = table.clerk, table.game_id
    explain = clerk.landsdraad.explain
    export = await clerk.exports.export(game)
    log = await clerk.games.event_log(game, round_number=1)
    players = await clerk.landsdraad.ledger.players(game)
    async with make_sessionmaker(table.engine)() as session:
        vane = await weathervane_counts(session, game, players)
    return (await explain.result(game, 1), await explain.votes(game, JENNY, 1), await explain.votes(game, BOB, 1),
            [e["payload"] for e in export["events"] if e["kind"] == "RoundClosed"],
            [e.payload for e in log.entries if e.kind == "RoundClosed"], vane)


async def test_a_close_stores_columns_and_an_old_close_in_rows_reads_the_same(table: Any) -> None:
    await _closed_round(table)
    (closed,) = [e for e in await table.events() if e.kind == "RoundClosed"]
    stored = closed.payload["weights"]
    assert stored == {"user_id": [JENNY, BOB, CAROL], "name": ["jenny", "bob", "carol"], "votes": [25, 7, 9],
                      "ballot": ["aye", None, "nay"]}
    now = await _read_everything(table)
    rows = [{"user_id": u, "name": n, "votes": v, "ballot": b} for u, n, v, b in rows_of(closed.payload)]
    assert now[3] == now[4] == [{**closed.payload, "weights": rows}]  # the export and /log write rows
    async with table.engine.begin() as connection:  # the same close as one recorded before 2026-12-03
        await connection.execute(update(Event).where(Event.id == closed.id)
                                 .values(payload={**closed.payload, "weights": rows}))
    (old,) = [e for e in await table.events() if e.kind == "RoundClosed"]
    assert isinstance(old.payload["weights"], list)
    assert await _read_everything(table) == now
