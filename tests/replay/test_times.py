"""issue 17: the console and the transcripts keep UTC text where Discord shows each reader's own zone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main

PLAY = """\
! time 2026-03-01 18:00
mod #sirius: /game new ruleset:landsdraad name:sirius
mod #sirius: /player add user:@alice diplomacy:4 command:2 intrigue:2 roll:3
mod #sirius: /game settings timezone:Europe/Berlin
mod #sirius: /round open crisis:"Raise the fleet levy?" deadline:"2026-03-01 22:00"
mod #sirius: /round extend to:"<t:1772402400:F>"
"""


def test_the_console_shows_a_local_deadline_in_utc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "CLERK_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "times.txt").write_text(PLAY, encoding="utf-8")
    assert main(["replay", str(tmp_path / "times.txt")]) == 0
    printed = capsys.readouterr().out
    assert ("Round 1 is open and announced. “2026-03-01 22:00”: read as Europe/Berlin time (the game's time zone): "
            "2026-03-01 21:00 UTC.") in printed
    assert "Deadline: 2026-03-01 21:00 UTC (in 3h)" in printed
    assert "Round 1 of sirius now closes at 2026-03-01 22:00 UTC (in 4h)." in printed  # from a Discord timestamp
    assert "<t:1772" not in printed.replace('to:"<t:1772402400:F>"', "") and "\ue000" not in printed
