"""``python -m bot console`` and ``python -m bot replay`` through ``bot.__main__.main``, in-process."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.cli import console

from .helpers import TRANSCRIPTS


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No token, no DATABASE_URL, no config file: the defaults, in an empty working directory."""
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "CLERK_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_replay_prints_every_message_and_writes_the_export(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = clean_env / "sirius.json"
    assert main(["replay", str(TRANSCRIPTS / "jenny-and-sirius.txt"), "--export", str(out)]) == 0
    printed = capsys.readouterr()
    assert printed.out == (TRANSCRIPTS / "jenny-and-sirius.out").read_text(encoding="utf-8")
    assert f"exported sirius to {out}" in printed.err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["players"][0]["votes"] == 25
    assert doc["rounds"][0]["result"]["nay"] == 24
    assert not (clean_env / "clerk.db").exists(), "replay uses a fresh temporary database by default"


def test_replay_on_a_named_database_keeps_it(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite+aiosqlite:///{clean_env / 'kept.db'}"
    for _ in range(2):  # twice on the same database: the message ids of the two runs must not collide
        assert main(["replay", str(TRANSCRIPTS / "redelivery.txt"), "--database", url]) == 0
    assert (clean_env / "kept.db").exists()
    assert "That was already done" in capsys.readouterr().out


def test_a_malformed_transcript_stops_before_anything_runs(clean_env: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = clean_env / "bad.txt"
    bad.write_text("! time 2026-03-01 18:00\nmod #g: /game new ruleset:landsdraad name:g\nalice: Vote: Aye\n"
                   "! wait forever\n")
    assert main(["replay", str(bad)]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert f"{bad}:line 3: expected `NAME dm: TEXT`" in printed.err
    assert f"{bad}:line 4: expected `! wait 2h30m`" in printed.err


def test_the_clock_cannot_go_back(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = clean_env / "back.txt"
    bad.write_text("! time 2026-03-01 18:00\n! time 2026-03-01 17:00\n")
    assert main(["replay", str(bad)]) == 2
    assert "line 2: the clock cannot go back from 2026-03-01 18:00 UTC to 2026-03-01 17:00 UTC" in (
        capsys.readouterr().err)


def test_replay_of_a_missing_file_or_an_export_without_a_game(clean_env: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(clean_env / "nope.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    empty = clean_env / "empty.txt"
    empty.write_text("# nothing\n")
    assert main(["replay", str(empty), "--export", str(clean_env / "x.json")]) == 1
    assert "nothing to export" in capsys.readouterr().err


def test_console_reads_piped_lines_and_keeps_games_between_sessions(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite+aiosqlite:///{clean_env / 'console.db'}"
    monkeypatch.setattr("sys.stdin", io.StringIO(
        "mod #sirius: /game new ruleset:landsdraad name:sirius\n"
        "mod #sirius: /player add user:@jenny diplomacy:3 command:2 intrigue:2 roll:3\n"
        "mod #sirius: /round open crisis:\"Piracy in Sirius\"\n"
        "jenny dm: Vote: Aye, 11\n"
        "! redeliver\n"
        "jenny dm Vote: Nay\n"
        "help\n"
        "quit\n"
        "jenny dm: Revote: Nay\n"))
    assert main(["console", "--database", url]) == 0
    first = capsys.readouterr().out
    assert first.startswith(f"Clerk offline console on {url}")
    assert "mod #sirius: /game new ruleset:landsdraad name:sirius\n  → #sirius: New Landsdraad game" in first
    assert "→ DM jenny:\n      Ballot recorded for round 1 of sirius: **Aye**" in first
    assert "it was counted once" in first
    assert "  ? expected `NAME dm: TEXT`" in first
    assert first.count("Clerk offline console on") == 2  # help shows the banner again
    assert "Revote" not in first.split("quit")[-1]  # nothing after quit is read

    monkeypatch.setattr("sys.stdin", io.StringIO("mod #sirius: /round close\nmod #sirius: /round open crisis:Two\n"))
    assert main(["console", "--database", url]) == 0
    second = capsys.readouterr().out
    assert "**sirius, round 1: the measure PASSED**" in second
    assert "Aye: 11" in second
    # jenny was never typed in this session: her DM is still shown as to jenny (named from her game), not as an id
    assert "→ DM jenny:" in second and "DM user " not in second


def test_console_closes_rounds_whose_deadline_passed_between_sessions(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    start = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    out: list[str] = []
    script = io.StringIO("mod #sirius: /game new ruleset:landsdraad name:sirius\n"
                         "mod #sirius: /round open crisis:Piracy deadline:1h\n")
    assert console(url, 0, script, out.append, start=start) == 0
    out.clear()
    assert console(url, 0, io.StringIO(""), out.append, start=start + timedelta(hours=2)) == 0
    assert "  ⏰ 2026-03-01 20:00 UTC: deadline of 2026-03-01 19:00 UTC, done late" in out
    assert "  → the game channel of sirius:" in out


def test_piped_console_joins_continued_lines_like_a_replay(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out: list[str] = []
    script = io.StringIO("mod #sirius: /game new ruleset:landsdraad name:sirius\n"
                         "mod #sirius: /player add user:@jenny diplomacy:3 command:2 intrigue:2 roll:3\n"
                         "mod #sirius: /round open crisis:Piracy\n"
                         "jenny dm: Vote: Nay\n"
                         "  | (I mean it)\n"
                         "  | orphan? no: still jenny's message\n"
                         "\n"
                         "  | orphan\n")
    assert console(url, 0, script, out.append) == 0
    text = "\n".join(out)
    assert "jenny dm: Vote: Nay\n  | (I mean it)\n  | orphan? no: still jenny's message\n  → DM jenny:" in text
    assert "Ballot recorded for round 1 of sirius: **Nay**" in text
    assert "  ? a `  | ...` line continues the message on the line just before it" in text


def test_no_token_and_no_command_opens_the_console_on_the_default_database(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("mod #g: /game new ruleset:landsdraad name:g\n"))
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "DISCORD_TOKEN is not set, so Clerk starts its offline console on sqlite+aiosqlite:///clerk.db" in out
    assert "New Landsdraad game **g**" in out
    assert (clean_env / "clerk.db").exists()


@pytest.mark.parametrize("command", [["console"], ["replay", "missing.txt"]])
def test_a_database_that_is_not_a_url_is_refused_in_one_line_with_the_url_it_meant(
        clean_env: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    assert main([*command, "--database", "games.db"]) == 2
    err = capsys.readouterr().err
    assert err == ("clerk: --database must start with sqlite+aiosqlite:// or postgresql+asyncpg://, not 'games.db' "
                   "(a SQLite file: sqlite+aiosqlite:///games.db)\n")
    assert not (clean_env / "games.db").exists()


def test_a_wrong_url_is_refused_without_repeating_its_password(clean_env: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["console", "--database", "postgres://clerk:hunter2@db.example/clerk"]) == 2
    monkeypatch.setenv("DATABASE_URL", "mysql://clerk:hunter2@db.example/clerk")
    assert main(["console"]) == 2
    err = capsys.readouterr().err
    assert ("--database must start with sqlite+aiosqlite:// or postgresql+asyncpg://, not postgres://... (a "
            "PostgreSQL URL: write its beginning as postgresql+asyncpg:// and keep the rest as it is)\n") in err
    assert "DATABASE_URL must start with sqlite+aiosqlite:// or postgresql+asyncpg://, not mysql://...\n" in err
    assert "hunter2" not in err


def test_console_says_a_reminder_done_only_at_its_deadline_was_skipped(tmp_path: Path) -> None:
    """Play-test M4.10 (a reminder whose deadline has come is not sent): the console's line said "reminder of
    16:00, done late" over the Primary's result, though no reminder went out and the deadline was not named."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    out: list[str] = []
    script = io.StringIO("mod #rep: /game new ruleset:mylantium name:rep\n"
                         "mod #rep: /faction register faction:PL user:@pat party:Whig vp:20 treasury:30\n"
                         "mod #rep: /candidate add name:Lee Adams faction:PL charisma:7\n"
                         "mod #rep: /election start\n"
                         "mod #rep: /election primary open deadline:1d\n"
                         "! hold\n! wait 1d\n! release\n")
    assert console(url, 0, script, out.append, start=datetime(2026, 3, 1, 18, 0, tzinfo=UTC)) == 0
    assert ("  ⏰ 2026-03-02 18:00 UTC: reminder of 2026-03-02 16:00 UTC skipped (not sent: the deadline it reminds "
            "of had come); deadline") in out
    assert not any("Reminder:" in line for line in out)


def test_a_console_on_a_folder_is_told_to_name_a_file(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Play-test 4.7, in the console: "cannot connect ... unable to open database file" did not say the URL named a
    folder."""
    assert main(["console", "--database", f"sqlite+aiosqlite:///{clean_env}"]) == 1
    assert capsys.readouterr().err == (
        f"clerk: cannot open the console: the database {clean_env} is a folder: DATABASE_URL names the database file, "
        f"for example sqlite+aiosqlite:///{clean_env}/clerk.db\n")
