"""Replaying the transcripts of tests/transcripts in-process, on a SQLite file under tmp_path."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from databases import Migrated, migrated_copy

from bot.console.cli import replay

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"
MIGRATED: Path | None = None
"""This process's migrated SQLite template (``sqlite_template``), set by conftest.py for every replay test."""
SHARED: Path | None = None
"""A folder every worker of this test session shares (set by conftest.py), where a transcript's replay on SQLite is
kept once made: several tests check the same transcript (its golden output, then its numbers), and each replayed
it afresh, about 1-2.5 s of CPU each (17 of the 53 transcripts)."""


async def fresh_database(tmp_path: Path) -> Migrated:
    """A SQLite file under ``tmp_path`` to replay on: a copy of the migrated template (the replay finds it at the
    newest revision and does not run alembic)."""
    assert MIGRATED is not None, "tests/replay/conftest.py sets it"
    return await migrated_copy("sqlite", tmp_path, MIGRATED, None)


@dataclass
class Run:
    output: str
    export: dict[str, Any]
    games: tuple[str, ...]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.export["events"] if e["kind"] == kind]

    def messages(self) -> list[Sent]:
        return sent_messages(self.output)

    def public(self) -> list[Sent]:
        """What everyone in the server sees: messages in channels and threads that are not ephemeral (a private
        thread is seen only by its members, the moderators)."""
        return [m for m in self.messages() if m.public]

    def to(self, destination: str) -> list[str]:
        """The texts sent to a destination such as ``DM carol`` or ``#sirius`` (marks in parentheses ignored)."""
        return [m.text for m in self.messages() if m.where == destination]


_HEAD = re.compile(r"^  → (?P<dest>[^:]+?)(?: \((?P<marks>[^)]*)\))?:(?: (?P<text>.*))?$")


@dataclass(frozen=True)
class Sent:
    """One message of a transcript's output: where it went (``#sirius/ag-election-1``, ``DM bob``), the marks
    after it (``ephemeral to mod``, ``pinned``), and its text without the indentation."""

    where: str
    marks: str
    text: str

    @property
    def public(self) -> bool:
        return not self.where.startswith("DM ") and "ephemeral" not in self.marks and "private" not in self.marks


def sent_messages(output: str) -> list[Sent]:
    found: list[Sent] = []
    current: tuple[str, str, list[str]] | None = None
    for line in output.splitlines():
        head = _HEAD.match(line)
        if head:
            if current:
                found.append(Sent(current[0], current[1], "\n".join(current[2])))
            current = (head["dest"], head["marks"] or "", [head["text"]] if head["text"] is not None else [])
        elif current and (line.startswith("      ") or not line):
            current[2].append(line[6:])
        else:
            if current:
                found.append(Sent(current[0], current[1], "\n".join(current[2])))
            current = None
    if current:
        found.append(Sent(current[0], current[1], "\n".join(current[2])))
    return found


async def run_transcript(name: str, tmp_path: Path, db: Migrated | None = None) -> Run:
    """Replay ``name`` on ``db`` (a migrated database, ``tests/replay/conftest.py``), by default a SQLite file under
    ``tmp_path`` (``fresh_database``).

    Without ``db`` the test wants only what the replay printed and exported, so a replay of ``name`` made on SQLite
    earlier in this session (by any worker, with or without a database of its own) is given instead of replaying
    again: the same transcript, seed and code give the same run to the byte (the golden test checks it). A test that
    reads the database after the replay passes ``db`` and always replays."""
    kept = _kept(name)
    if db is None and kept is not None and kept.exists():
        found = json.loads(kept.read_text(encoding="utf-8"))
        return Run(found["output"], found["export"], tuple(found["games"]))
    lines = (TRANSCRIPTS / name).read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    db = db if db is not None else await fresh_database(tmp_path)
    result = await replay(lines, database_url=db.url, seed=0, write=out.append, name=name, files=TRANSCRIPTS,
                          engine_options=db.options)
    assert result.code == 0, result.error
    assert result.export is not None
    run = Run("\n".join(out) + "\n", result.export, result.games)
    if kept is not None and db.url.startswith("sqlite"):
        partial = kept.with_suffix(f".{os.getpid()}")
        partial.write_text(json.dumps(asdict(run)), encoding="utf-8")
        partial.replace(kept)  # whole or not at all, for a worker reading it meanwhile
    return run


def _kept(name: str) -> Path | None:
    return SHARED / f"{name}.json" if SHARED is not None else None
