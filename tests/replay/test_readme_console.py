"""The README's first console session does what the README says it does (play-test D4.1): typed at a clock that,
like the console's, is not on a whole minute, its last line moves the clock past the round's deadline, and the round
closes with its result. Before, it ended `! wait 2h`, a few seconds short of the deadline (rounded up to the minute),
and a new moderator saw no result."""

from __future__ import annotations

import re
from pathlib import Path

from bot.console.cli import replay

from .helpers import fresh_database, sent_messages

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def console_example() -> list[str]:
    block = re.search(r"Type lines such as:\n\n```\n(.*?)```", README, re.S)
    assert block is not None, "the README's console example"
    return block[1].splitlines()


async def test_the_readme_console_example_closes_its_round(tmp_path: Path) -> None:
    lines = ["! time 2026-12-07 10:03:22", *console_example()]  # the console's clock starts at the real time
    assert lines[-1].startswith("! wait")
    out: list[str] = []
    db = await fresh_database(tmp_path)
    result = await replay(lines, database_url=db.url, seed=0, write=out.append, engine_options=db.options)
    assert result.code == 0, result.error
    channel = [m.text for m in sent_messages("\n".join(out)) if m.where == "#game" and not m.marks]
    assert any("round 1: the measure PASSED" in text for text in channel), "\n".join(out)
