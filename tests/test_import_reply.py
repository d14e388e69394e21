"""The moderator's answer to /game import names the records the file imported, not the game's others, and at most
``LISTED`` of them: a long file's list would be cut at Discord's 2,000 characters (import play-test)."""

from __future__ import annotations

from bot.actions.imports import LISTED, imported_lines


def test_a_long_import_lists_the_first_records_and_counts_the_rest() -> None:
    lines = [f"player{n}: D 3 / C 2 / I 1, d3 2, 9 votes" for n in range(1, 1001)]
    shown = imported_lines(lines)
    assert shown.splitlines()[:LISTED] == lines[:LISTED]
    assert shown.splitlines()[LISTED:] == [f"…and {1000 - LISTED} more."]
    assert len(shown) < 2000
    assert imported_lines(lines[:3]) == "\n".join(lines[:3])
