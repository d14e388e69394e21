"""``replay --files DIR`` and ``console --files DIR`` (issue 16): every attachment the bot sends is written to DIR
under a name of its own, and its path is printed where the transcript otherwise only describes it."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.cli import console

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "transcripts"
SAVED = re.compile(r"\[file (?P<name>[^,]+), (?P<what>[^:\]]+): (?P<path>[^\]]+)\]")
PNG = re.compile(r"PNG (?P<w>\d+)×(?P<h>\d+)")


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "CLERK_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_replay_writes_every_attachment_and_prints_its_path(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "out"
    assert main(["replay", str(TRANSCRIPTS / "victory-short-game.txt"), "--files", str(folder)]) == 0
    printed = capsys.readouterr().out
    described = printed.count("[file ")
    saved = list(SAVED.finditer(printed))
    assert described >= 2 and len(saved) == described, "every attachment printed with its path"
    paths = [Path(m["path"]) for m in saved]
    assert len(set(paths)) == len(paths), "no attachment overwrites another"
    assert sorted(folder.iterdir()) == sorted(paths)
    pictures = 0
    for match, path in zip(saved, paths, strict=True):
        data = path.read_bytes()
        assert path.name.endswith(match["name"])
        png = PNG.fullmatch(match["what"])
        if png is None:  # the export's JSON: described by its size
            assert match["what"] == f"{len(data)} bytes"
            continue
        pictures += 1
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == int(png["w"])
    assert pictures >= 2


def test_without_files_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(TRANSCRIPTS / "victory-short-game.txt")]) == 0
    printed = capsys.readouterr().out
    assert "[file " in printed and not SAVED.search(printed)
    assert list(tmp_path.iterdir()) == []


def test_the_console_writes_them_too(tmp_path: Path) -> None:
    lines: list[str] = []
    stdin = io.StringIO("mod #sirius: /game new ruleset:landsdraad name:sirius\n"
                        "mod #sirius: /player add user:@bob diplomacy:2 command:3 intrigue:2 roll:1\n"
                        "mod #sirius: /round open crisis:\"Tax the spice?\"\n")
    url = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    assert console(url, 0, stdin, lines.append, start=datetime(2026, 3, 1, 18, tzinfo=UTC),
                   save_files=tmp_path / "files") == 0
    saved = [m for line in lines for m in SAVED.finditer(line)]
    assert saved and all(Path(m["path"]).is_file() for m in saved)
