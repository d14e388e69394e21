"""/log in the console (issue 17): the events as sentences, and a user mention shown as Discord shows it (@name), so
a moderator who plays in no game is named too."""

from __future__ import annotations

from pathlib import Path

from bot.console.cli import replay

LINES = ["! time 2026-03-01 18:00",
         "mod #sirius: /game new ruleset:landsdraad name:sirius",
         "mod #sirius: /player add user:@alice diplomacy:3 command:2 intrigue:2 roll:2",
         "ann #sirius: /log",  # another moderator asks: the first moderator is a mention, shown by name
         "! moderator ann"]


async def test_the_log_names_a_moderator_who_is_not_a_player(tmp_path: Path) -> None:
    out: list[str] = []
    lines = [LINES[0], LINES[4], *LINES[1:4]]
    result = await replay(lines, database_url=f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", seed=0, write=out.append)
    assert result.code == 0, result.error
    text = "\n".join(out)
    assert "**@mod** PlayerAdded: alice joined; diplomacy 3, command 2, intrigue 2, roll 2" in text, text
    assert "**@mod** GameCreated: Landsdraad game sirius created" in text
    assert "user 1" not in text and "<@" not in text
