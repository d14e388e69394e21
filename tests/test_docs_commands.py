"""docs/commands.md names every command of the command table and every option of each (issue 17: the docs had
fallen behind the table). A command is documented by a line with "`/name" (its row, or a list of commands); a
subcommand may instead be named in its group's placeholder row ("`/event <subject> …`" naming "`cover-up`").
Each option's name must appear on one of the lines that document its command."""

from __future__ import annotations

import re
from pathlib import Path

from bot.actions.rulesets import COMMANDS

DOC = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8").splitlines()


def documenting(key: str) -> list[str]:
    own = re.compile(r"`/" + re.escape(key) + r"(?=[\s`\]\[|])")
    lines = [line for line in DOC if own.search(line)]
    if " " in key:
        group, sub = key.rsplit(" ", 1)
        placeholder = re.compile(r"`/" + re.escape(group) + r" <")
        lines += [line for line in DOC if placeholder.search(line) and re.search(r"`" + re.escape(sub) + r"\b",
                                                                               line)]
    return lines


def test_every_command_and_option_is_in_the_docs() -> None:
    problems = []
    for key, spec in sorted(COMMANDS.items()):
        lines = documenting(key)
        if not lines:
            problems.append(f"/{key} is not in docs/commands.md")
            continue
        for option in spec.options:
            if not any(re.search(r"\b" + re.escape(option.name) + r"\b", line) for line in lines):
                problems.append(f"/{key}: option {option.name} is not on its line in docs/commands.md")
    assert problems == []


def test_the_check_finds_what_is_missing() -> None:
    """The check can fail: a made-up command and option are not found."""
    assert documenting("no-such command") == []
    assert not any("no_such_option" in line for line in documenting("assets set"))


def test_every_message_menu_entry_is_in_the_docs() -> None:
    """The message menu's entries (Apps → **Count as vote**, **Count as motion**, **Explain this**), registered beside
    the slash commands (bot/discord/tree.py ``message_menu``), each have their row in docs/commands.md."""
    from bot.actions.explain_this import EXPLAIN_THIS
    from bot.actions.rulesets import FRONTS

    names = {m.name for front in FRONTS for m in front.message_commands} | {EXPLAIN_THIS}
    text = "\n".join(DOC)
    assert len(names) >= 3
    assert [name for name in sorted(names) if f"**{name}** (right-click" not in text] == []
