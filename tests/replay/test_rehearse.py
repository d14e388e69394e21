"""Rehearsing on a copy (issue 19, ``console --from``): a game of each ruleset, played in the console to a closed
round (or election) and an open one with secret ballots, is exported and restored into a fresh database; every view
then reads the same on the copy as on the original, the same moves answer the same, and the copy's export is the
original's but for ``MUST_DIFFER``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.console.cli import REPLAY_START, clerk_on, games_seen
from bot.console.rehearse import world_for
from bot.console.session import Session
from bot.console.transcript import parse_transcript
from bot.console.world import GUILD_ID, World
from engine.service.clerk import RULESETS
from engine.service.clock import ManualClock
from engine.service.game_copy import differences, restore_copy
from engine.store.database import make_engine

FILES = Path(__file__).resolve().parent.parent / "transcripts"

LANDSDRAAD = """\
! time 2026-03-01 18:00
mod #sirius: /game new ruleset:landsdraad name:sirius
mod #sirius: /game import file:files/sirius-players.csv
mod #sirius: /game settings moderator_channel:#mods
mod #sirius: /round open crisis:"Piracy in Sirius" deadline:2h
mod #sirius: /faction add name:Boars votes:12 stance:d6 table:"1-3 nay, 4 abstain, 5-6 aye"
alice dm: Vote: Aye, 20
bob dm: Vote: Nay, 11
! wait 2h
mod #sirius: /round open crisis:"Spice tariffs" deadline:24h
mod #sirius: /faction add name:Doves votes:5 stance:nay
alice dm: Vote: Nay, 20
mod #sirius: /ag open
alice #sirius/ag-election-1: Vote: bob
"""
LANDSDRAAD_VIEWS = """\
mod #sirius: /round status
mod #sirius: /vp show
mod #sirius: /vp holdings
mod #sirius: /score
mod #sirius: /ag status
mod #sirius: /pv list
mod #sirius: /transfer list
mod #sirius: /log
alice dm: /me
bob dm: Vote: Aye, 11
alice dm: Vote: Aye, 20
mod #sirius: /round close
mod #sirius: /round status
"""

MYLANTIUM = """\
! time 2026-03-01 18:00
mod #mylantium: /game new ruleset:mylantium name:mylantium
mod #mylantium: /game import file:files/mylantium-setup.csv
mod #mylantium: /candidate add name:Burr faction:Grangers charisma:4
mod #mylantium: /government set president:Plutocrats approval:60
mod #mylantium: /election start
mod #mylantium: /election primary open deadline:24h
alice dm: Primary: Hamilton
bob dm: Primary: Burr
! wait 24h
mod #mylantium: /election general open deadline:24h
alice dm: General: Whig
"""
MYLANTIUM_VIEWS = """\
mod #mylantium: /status
mod #mylantium: /election status
mod #mylantium: /revolution status
mod #mylantium: /event list
mod #mylantium: /log
alice dm: /me
bob dm: General: Federalist
mod #mylantium: /election status
"""

CONVOCATE = """\
! time 2026-10-20 18:00
mod #senate: /game new ruleset:convocate name:senate
mod #senate: /game import file:files/senate-setup.csv
mod #senate: /factor set name:GOVT value:1
mod #senate: /phase next
alice #senate: /phase next
alice #senate: /commit cards:Kista
"""
CONVOCATE_VIEWS = """\
mod #senate: /board
mod #senate: /board cards:true
mod #senate: /motion status
mod #senate: /log
alice dm: /me
alice #senate: /push factor:GOVT direction:up
alice #senate: /phase next
mod #senate: /board
"""


def dice_masked(lines: list[str]) -> list[str]:
    """The lines but a card's Dice line (the seed a round revealed: a copy has seeds of its own)."""
    return [line for line in lines if not line.lstrip().startswith("Dice: ")]


async def _play(url: str, clock: ManualClock, world: World, script: str, prefix: str, *, export_first: bool = False,
                export_last: bool = False) -> tuple[list[str], dict[str, Any] | None]:
    """What the script's lines answer, and the game's export before or after them (as JSON reads it back)."""
    out: list[str] = []
    doc = None
    async with clerk_on(url, clock, 0) as app:
        session = Session(app, clock, out.append, prefix, world, files=FILES)

        async def export() -> dict[str, Any]:
            games = await games_seen(app, session.world)
            assert len(games) == 1
            found: dict[str, Any] = json.loads(json.dumps(await app.clerk.exports.export(games[0].id)))
            return found

        if export_first:
            doc = await export()
        events, errors = parse_transcript(script.splitlines())
        assert not errors
        for event in events:
            out.append(f"> {script.splitlines()[event.line - 1]}")
            await session.run(event)
        if export_last:
            doc = await export()
    return out, doc


@pytest.mark.parametrize(("script", "views"), [(LANDSDRAAD, LANDSDRAAD_VIEWS), (MYLANTIUM, MYLANTIUM_VIEWS),
                                                (CONVOCATE, CONVOCATE_VIEWS)], ids=["landsdraad", "mylantium",
                                                                                      "convocate"])
async def test_a_copy_reads_and_plays_as_the_original(script: str, views: str, tmp_path: Path,
                                                      sqlite_template: Path) -> None:
    for name in ("original.db", "copy.db"):
        shutil.copyfile(sqlite_template, tmp_path / name)
    original, copy = (f"sqlite+aiosqlite:///{tmp_path / n}" for n in ("original.db", "copy.db"))
    clock, world = ManualClock(REPLAY_START), World()
    played, doc = await _play(original, clock, world, script, "play", export_last=True)
    assert doc is not None
    assert not [line for line in played if line.startswith("  ? ")], played

    engine = make_engine(copy)
    copied = await restore_copy(engine, doc, RULESETS, guild_id=GUILD_ID)
    await engine.dispose()
    assert copied.exported_at == clock.now()
    copy_world, _ = world_for(doc)
    copy_clock = ManualClock(copied.exported_at)
    on_copy, again = await _play(copy, copy_clock, copy_world, views, "views", export_first=True)
    assert again is not None
    assert differences(doc, again) == []
    own = ("exported_at", "dice")  # when it was written; the copy's own dice seeds (engine/service/game_copy.py)
    assert {k: v for k, v in again.items() if k not in own} == {k: v for k, v in doc.items() if k not in own}

    on_original, _ = await _play(original, clock, world, views, "views")
    assert dice_masked(on_copy) == dice_masked(on_original)  # the copy rolls its own dice (docs/rulings.md)
    assert sum(line.startswith("  → ") for line in on_copy) >= len(views.splitlines()) - 2
