"""Replaying the transcripts of tests/transcripts in-process, on a SQLite file under tmp_path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.console.cli import replay

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"


@dataclass
class Run:
    output: str
    export: dict[str, Any]
    games: tuple[str, ...]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.export["events"] if e["kind"] == kind]


async def run_transcript(name: str, tmp_path: Path) -> Run:
    lines = (TRANSCRIPTS / name).read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    result = await replay(lines, database_url=f"sqlite+aiosqlite:///{tmp_path / 'replay.db'}", seed=0,
                          write=out.append, name=name)
    assert result.code == 0, result.error
    assert result.export is not None
    return Run("\n".join(out) + "\n", result.export, result.games)
