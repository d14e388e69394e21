"""``python -m bot console --from export.json`` through ``bot.__main__.main``, in-process: the copy opens with the
export's people and clock, a close rehearsed on it leaves the live database as it was, and a file that is not an
export this Clerk opens is refused with a clear message and exit code 2."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.console.cli import replay

LIVE = """\
! time 2026-03-01 18:00
mod #sirius: /game new ruleset:landsdraad name:sirius
mod #sirius: /player add user:@alice diplomacy:3 command:2 intrigue:2 roll:2
mod #sirius: /player add user:@bob diplomacy:2 command:2 intrigue:2 roll:1
mod #sirius: /round open crisis:"Piracy in Sirius"
alice dm: Vote: Aye
! wait 1h
""".splitlines()


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sqlite_template: Path) -> tuple[Path, Path]:
    """A live database with a game in it (``DATABASE_URL``), and that game's export."""
    for name in ("DISCORD_TOKEN", "CLERK_CONFIG", "CLERK_SEED"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "live.db"
    shutil.copyfile(sqlite_template, database)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{database}")
    import asyncio

    result = asyncio.run(replay(LIVE, database_url=f"sqlite+aiosqlite:///{database}", seed=0, write=lambda _: None))
    assert result.code == 0 and result.export is not None
    export = tmp_path / "sirius.json"
    export.write_text(json.dumps(result.export), encoding="utf-8")
    return database, export


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_rehearsed_close_leaves_the_live_game_alone(live: tuple[Path, Path], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    database, export = live
    before = _digest(database)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setattr("sys.stdin", io.StringIO("mod #sirius: /round status\nbob dm: Vote: Nay\n"
                                                 "mod #sirius: /round close\n"))
    assert main(["console", "--from", str(export)]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""  # the copy's own export is the file's: no warning
    out = printed.out
    assert "Rehearsal on a copy of sirius (landsdraad) as exported at 2026-03-01 19:00 UTC" in out
    assert "players:    alice, bob" in out and "moderators: mod" in out and "seeded with 0" in out
    assert "The clock starts at 2026-03-01 19:00 UTC" in out
    assert "Have voted (1): alice" in out  # the open round's ballot came along
    assert "Ballot recorded for round 1 of sirius: **Nay**" in out  # bob is the real bob: his id is the export's
    assert "round 1: the measure PASSED. Aye 10, Nay 7, Abstain 0" in out
    assert _digest(database) == before and not Path(f"{database}-wal").exists()
    assert list(scratch.iterdir()) == [], "the copy is deleted when the console ends"


def _refused(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["console", "--from", str(path), *args]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    return printed.err


def _write(tmp_path: Path, doc: Any) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, encoding="utf-8")
    return path


def test_what_is_not_an_export_to_open_is_refused_with_exit_code_2(live: tuple[Path, Path], tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    database, export = live
    before = _digest(database)
    text = export.read_text(encoding="utf-8")
    doc = json.loads(text)
    cases: list[tuple[Any, str]] = [
        (text[: len(text) // 2], "it is not a whole JSON document"),
        ("record,user,name\nplayer,@alice,\n", "it is not a whole JSON document"),
        ([1, 2], "it is not a Clerk game export"),
        ({"events": []}, "it is not a Clerk game export"),
        ({**doc, "export_version": 1}, "export format 1, from an older Clerk"),
        ({**doc, "export_version": 99}, "export format 99, from a newer Clerk; this Clerk opens format 2"),
        ({**doc, "state": {**doc["state"], "revision": "9999"}}, "its database revision '9999' is not one"),
        ({k: v for k, v in doc.items() if k != "state"}, "its state or events are missing"),
        ({**doc, "state": {**doc["state"], "tables": {**doc["state"]["tables"], "votes": []}}},
         "tables this Clerk does not know: votes"),
    ]
    for content, says in cases:
        err = _refused(_write(tmp_path, content), capsys)
        assert err.startswith(f"clerk: cannot open {tmp_path / 'edited.json'} as a copy of a game: "), err
        assert says in err, (says, err)
    assert "cut short" in _refused(_write(tmp_path, text[:-3]), capsys)
    damaged = tmp_path / "sirius.json.gz"
    damaged.write_bytes(gzip.compress(text.encode())[:-20])
    assert "it is a compressed file that cannot be uncompressed: was it cut short?" in _refused(damaged, capsys)
    assert "it cannot be read" in _refused(tmp_path / "nowhere.json", capsys)
    assert "leave out --database" in _refused(export, capsys, "--database", "sqlite+aiosqlite:///other.db")
    assert _digest(database) == before


def test_an_export_sent_compressed_opens_as_it_is(live: tuple[Path, Path], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """/game export sends an export too large for Discord compressed (bot/discord/attachments.py): it opens as the
    JSON does."""
    _, export = live
    packed = tmp_path / "sirius.json.gz"
    packed.write_bytes(gzip.compress(export.read_bytes(), mtime=0))
    monkeypatch.setattr("sys.stdin", io.StringIO("mod #sirius: /round status\n"))
    assert main(["console", "--from", str(packed)]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    assert "Rehearsal on a copy of sirius (landsdraad) as exported at 2026-03-01 19:00 UTC" in printed.out
    assert "Have voted (1): alice" in printed.out


NAMED = """\
! time 2026-03-01 18:00
mod #sirius: /game new ruleset:landsdraad name:sirius
mod #sirius: /player add user:@alice diplomacy:3 command:2 intrigue:2 roll:2 name:"Lady Jessica"
mod #sirius: /player add user:@bob diplomacy:2 command:2 intrigue:2 roll:1 name:mod
mod #sirius: /player add user:@carol diplomacy:2 command:2 intrigue:2 roll:1 name:Ümit
mod #sirius: /round open crisis:"Piracy in Sirius"
mod #sirius: /faction add name:Boars votes:12 stance:d6 table:"1-3 nay, 4 abstain, 5-6 aye" roll:3
mod #sirius: /round status
! wait 1h
""".splitlines()


def test_a_rehearsal_names_what_to_type_for_each_player_and_keeps_the_moderators_roll(
        tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Play-test I4.6: the banner shows what to type for a player whose name cannot be typed, and a player named
    `mod` is not the console's moderator. I4.8: a d6 faction the moderator rolled is shown as kept in the copy,
    not as rolled at the close."""
    for name in ("DISCORD_TOKEN", "CLERK_CONFIG", "CLERK_SEED"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "live.db"
    shutil.copyfile(sqlite_template, database)
    import asyncio

    live: list[str] = []
    result = asyncio.run(replay(NAMED, database_url=f"sqlite+aiosqlite:///{database}", seed=0, write=live.append))
    assert result.code == 0 and result.export is not None
    assert any("by a d6 the moderator rolled, sealed" in line for line in live)
    export = tmp_path / "sirius.json"
    export.write_text(json.dumps(result.export), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("Lady_Jessica dm: Vote: Nay\nUmit dm: Vote: Aye\n"
                                                 "mod-player #sirius: /round close\nmod #sirius: /round status\n"))
    assert main(["console", "--from", str(export)]) == 0
    out = capsys.readouterr().out
    assert ("players:    Lady Jessica (type: Lady_Jessica), mod (type: mod-player), Ümit (type: Umit)\n"
            "  moderators: mod\n") in out
    assert "Ballot recorded for round 1 of sirius: **Nay**" in out and "**Aye**" in out
    assert "Only the moderators of sirius can use /round close." in out
    assert "**Boars**: 12 votes, by a d6 the moderator rolled (kept in this copy): 1-3 nay, 4 abstain, 5-6 aye" in out
    assert "rolled at the close" not in out
