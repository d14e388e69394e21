"""A name typed with its markdown again is found (play-test P4.1 follow-up): tests/transcripts/names-typed.txt. Names
are kept without markdown, so `**Deneb**` in `/holding remove`, `__Guild__` in `/faction remove`, `*Avalon*` in
`/building add`, `` `First Fleet` `` in `/unit remove`, `**Hamilton**` in `/candidate set` and `**Kista**` in
`/card remove` find what was kept as Deneb, Guild, Avalon, First Fleet, Hamilton and Kista, in each ruleset. The
golden output is checked by test_transcripts.py like every other transcript."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript

FOUND = ("Removed Deneb from jenny", "Removed Caladan from jenny", "Removed Guild (3 votes, aye) from round 1",
         "2 ports built in Avalon", "Unit First Fleet (Avalon, on-station)", "Unit First Fleet removed.",
         "Arcadia pulled down in Avalon", "Candidate Hamilton added.", "Hamilton: Charisma 8, running.",
         "Kista (Character, Vote 1, on Ironhold): bob", "Now: Kista", "Removed Kista from the board.")


async def test_names_typed_with_markdown_find_the_names_kept_without_it(tmp_path: Path) -> None:
    run = await run_transcript("names-typed.txt", tmp_path)
    answers = [m.text for m in run.messages() if "ephemeral" in m.marks]
    for found in FOUND:
        assert any(found in a for a in answers), found
    refused = [a for a in answers if " no " in a or "called" in a]
    assert refused == ["myl has no military unit called “\\*\\*Second Fleet\\*\\*”. Units: none yet."]  # as typed
