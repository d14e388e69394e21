"""The test ruleset "council" (tests/council) through the console: ``python -m bot replay`` with a config.toml that
names it (``rulesets = ["council"]``) plays a whole vote as Discord would (tests/council/council.txt, its golden
output council.out), and ``console`` takes the same plugins. A module config.toml names that cannot be played is
refused at start in one line."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console.cli import console
from bot.plugins import load_plugins
from bot.settings import ConfigError, load_settings

COUNCIL = Path(__file__).resolve().parents[1] / "council"


@pytest.fixture
def council_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty working directory whose config.toml plays the council (tests/ is on sys.path under pytest)."""
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "CLERK_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.toml").write_text('rulesets = ["council"]\n')
    return tmp_path


def test_a_council_vote_replays_as_its_golden_transcript(council_config: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = council_config / "hall.json"
    assert main(["replay", str(COUNCIL / "council.txt"), "--export", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed == (COUNCIL / "council.out").read_text(encoding="utf-8")
    assert printed.count("Reminder: council vote 1") == 1, "one reminder, to carol alone"
    card = "**hall: council vote 1 carried**\n      Build the bridge?\n      Yes: 5 weight\n      No: 4 weight"
    assert card in printed
    assert "“maybe” is neither yes nor no." in printed
    assert "**Clerk in #hall (Council)**" in printed and "`/council` seat · open · close" in printed
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["game"]["ruleset"] == "council"
    [vote] = doc["council"]["votes"]
    assert vote["ballots"] == {"alice": "yes", "bob": "yes", "carol": "no"}
    assert vote["result"] == {"yes": 5, "no": 4, "carried": True}
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("CouncilBallot") == 4, "the redelivered DM and the refused ones count nothing"
    assert kinds.count("CouncilReminded") == 1 and kinds.count("CouncilClosed") == 1
    assert kinds[-2:] == ["ResultPending", "ResultPosted"]


def test_the_console_plays_the_council_and_a_tie_fails(tmp_path: Path) -> None:
    lines = ["mod #hall: /game new ruleset:council name:hall", "mod #hall: /council seat user:@ann weight:2",
             "mod #hall: /council seat user:@ben weight:2", 'mod #hall: /council open question:"Tie?"',
             "ann dm: Council: yes", "ben dm: council : NO", "mod #hall: /council close"]
    out: list[str] = []
    assert console(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", 0, io.StringIO("\n".join(lines) + "\n"), out.append,
                   datetime(2026, 3, 1, tzinfo=UTC), plugins=load_plugins(["council"])) == 0
    text = "\n".join(out)
    assert "Recorded: no on vote 1 of hall, with your weight 2." in text
    assert "**hall: council vote 1 failed**" in text and "Yes: 2 weight\n      No: 2 weight" in text


def test_without_the_plugin_the_council_is_not_a_ruleset(tmp_path: Path) -> None:
    out: list[str] = []
    console(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", 0, io.StringIO("mod #hall: /game new ruleset:council "
                                                                        "name:hall\n"), out.append)
    assert "“council” is not a choice for `ruleset`; choose landsdraad, mylantium or convocate." in "\n".join(out)


def test_a_ruleset_module_that_cannot_be_played_is_refused_in_one_line(
        council_config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (council_config / "config.toml").write_text('rulesets = ["no_such_ruleset"]\n')
    assert main(["replay", str(COUNCIL / "council.txt")]) == 2
    err = capsys.readouterr().err
    assert err == ("clerk: rulesets: cannot import 'no_such_ruleset' (ModuleNotFoundError: No module named "
                   "'no_such_ruleset')\n")
    with pytest.raises(ConfigError, match=r"^rulesets: 'json' needs a RULESET .* and a FRONT"):
        load_plugins(["json"])
    (council_config / "config.toml").write_text('rulesets = "council"\n')
    with pytest.raises(ConfigError, match=r"rulesets must be a list of module names"):
        load_settings()
    (council_config / "config.toml").write_text('rulesets = ["council", "council"]\n')
    with pytest.raises(ConfigError, match=r"^rulesets: 'council' plays 'council', a ruleset Clerk already has$"):
        load_plugins(load_settings().plugins)
