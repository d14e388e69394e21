"""A game copied through its export (issue 19, engine/service/game_copy.py): every table is either carried by the
export's ``state`` or said not to be game state; a game's state holds its own rows only; and an export written at
an older schema revision is restored at that revision and migrated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from engine.service import Clerk
from engine.service.clerk import RULESETS
from engine.service.clock import ManualClock, RandomDice
from engine.service.game_copy import NOT_GAME_STATE, CopyRefused, differences, restore_copy, state_tables
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import head_revision, known_revisions
from engine.store.models import Base, Player

JENNY, BOB, MOD = 101, 102, 1


def test_every_table_is_carried_by_a_copy_or_is_no_games_state() -> None:
    carried = {t.name for t in state_tables(RULESETS)}
    assert carried.isdisjoint(NOT_GAME_STATE)
    assert carried | NOT_GAME_STATE == set(Base.metadata.tables), (
        "a new table: list it in its ruleset's Ruleset.tables (or SHARED_TABLES), or in NOT_GAME_STATE")
    assert known_revisions()[-1] == head_revision()


async def _two_games(table: Any) -> dict[str, Any]:
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3)
    await table.player(BOB, "bob", 2, 2, 2, roll=1)
    await table.open()
    await table.vote(JENNY, "Vote: Aye")
    other = await table.clerk.games.create_game(guild_id=900, channel_id=902, name="arrakis", ruleset="landsdraad",
                                                moderator_role_id=None, actor=MOD)
    await table.clerk.landsdraad.ledger.add_player(other.id, user_id=BOB, name="bob", faction=None, diplomacy=1,
                                                   command=1, intrigue=1, roll=1, actor=MOD, source_id="o-1")
    await table.clerk.landsdraad.rounds.open_round(other.id, crisis="Sandworms", deadline=None, actor=MOD,
                                                   source_id="o-2")
    doc: dict[str, Any] = json.loads(json.dumps(await table.clerk.exports.export(table.game_id)))
    return doc


async def test_the_state_holds_the_games_own_rows_and_a_copy_restores_them(table: Any, tmp_path: Path,
                                                                           sqlite_template: Path) -> None:
    doc = await _two_games(table)
    tables = doc["state"]["tables"]
    assert [g["name"] for g in tables["games"]] == ["sirius"]
    assert [p["name"] for p in tables["players"]] == ["jenny", "bob"]
    assert [r["crisis"] for r in tables["rounds"]] == ["Piracy in Sirius Sector"]
    assert len(tables["ballots"]) == 1  # the open round's secret ballot, a row hanging from its round
    assert {p["game_id"] for p in tables["players"]} == {table.game_id}

    shutil.copyfile(sqlite_template, tmp_path / "copy.db")  # migrated, and empty
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}")
    try:
        copied = await restore_copy(engine, doc, RULESETS, guild_id=7)
        clerk = Clerk(make_sessionmaker(engine), ManualClock(copied.exported_at), RandomDice(0))
        again = json.loads(json.dumps(await clerk.exports.export(copied.game_id)))
    finally:
        await engine.dispose()
    assert differences(doc, again) == []
    assert again["state"]["tables"]["games"][0]["guild_id"] == 7 != doc["state"]["tables"]["games"][0]["guild_id"]

    broken = json.loads(json.dumps(doc))
    broken["state"]["tables"]["players"][0]["game_id"] = 999  # a row of no game
    shutil.copyfile(sqlite_template, tmp_path / "broken.db")
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'broken.db'}")
    try:
        with pytest.raises(CopyRefused, match=r"its rows do not fit together \(FOREIGN KEY constraint failed\)"):
            await restore_copy(engine, broken, RULESETS, guild_id=7)
        async with engine.connect() as connection:  # nothing of it was written
            assert (await connection.execute(select(Player.id))).all() == []
    finally:
        await engine.dispose()


async def test_an_export_of_an_older_revision_is_restored_there_and_migrated(table: Any, tmp_path: Path) -> None:
    await table.player(JENNY, "jenny", 3, 2, 2, roll=3)
    doc = json.loads(json.dumps(await table.clerk.exports.export(table.game_id)))
    # as Clerk wrote it at revision 0009, before players had their ``removed`` column (0010)
    old = json.loads(json.dumps(doc))
    old["state"]["revision"] = "0009"
    for row in old["state"]["tables"]["players"]:
        del row["removed"]
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}")  # empty: the copy migrates it
    try:
        copied = await restore_copy(engine, old, RULESETS, guild_id=900)
        async with make_sessionmaker(engine)() as session:
            removed = (await session.execute(select(Player.removed))).scalars().all()
        clerk = Clerk(make_sessionmaker(engine), ManualClock(copied.exported_at), RandomDice(0))
        again = json.loads(json.dumps(await clerk.exports.export(copied.game_id)))
    finally:
        await engine.dispose()
    assert removed == [False]  # the migration's default
    assert differences(doc, again) == []
    assert differences(old, again) == ["state.revision", "state.tables.players[0].removed"]
