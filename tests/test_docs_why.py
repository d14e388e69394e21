"""docs/commands.md, "Explaining a number", names every ``/why`` subject of every ruleset and the **Explain this**
menu entry (issue 19)."""

from __future__ import annotations

from pathlib import Path

from bot.actions.explain_this import EXPLAIN_THIS
from bot.actions.rulesets import FRONTS

DOC = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")


def section() -> str:
    start = DOC.index("## Explaining a number")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end >= 0 else None]


def test_every_why_subject_and_the_menu_entry_are_documented() -> None:
    text = section()
    missing = [f"{f.name}: {s}" for f in FRONTS for s in f.explain if f"`{s}`" not in text]
    assert missing == []
    assert f"**{EXPLAIN_THIS}**" in text
    assert "## The Adjutant General" not in text and "`/forecast" not in text  # the section alone
