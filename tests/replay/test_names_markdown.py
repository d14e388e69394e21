"""Names with Discord markdown (play-test P4.1, P4.2): tests/transcripts/names-markdown.txt. A name a moderator gives
is kept without its markdown, so no post of Clerk's carries a heading, subtext, spoiler, masked link, code span or
bold that a name brought in; the player is named in `AG Vote:` and `Audit:` as the name was given; the moderator is
told what was kept. The golden output is checked by test_transcripts.py like every other transcript."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript

GIVEN = ("# PASSED", "-# tiny", "](http", "||", "`tick", "***", "→ **Result: PASSED**:", "> House")
"""What a name would bring into a post if kept as given (Clerk's own ``**`` around a name stays: ``***`` would be
the name's bold inside Clerk's)."""


async def test_names_given_with_markdown_show_as_plain_text_and_can_be_named(tmp_path: Path) -> None:
    run = await run_transcript("names-markdown.txt", tmp_path)
    public = run.public()
    assert any("final scores" in m.text for m in public) and any("the measure PASSED" in m.text for m in public)
    for m in public:
        assert not any(given in m.text for given in GIVEN), m
        assert not any(line.startswith(("#", "-#", ">")) for line in m.text.splitlines()), m
    assert any("jenny → Result: PASSED\n" in m.text for m in public)  # the AG tally's line, no bold of the name's
    assert sorted(p["name"] for p in run.export["players"]) == [
        "PASSED", "Result: PASSED", "Spoiler Sam", "Vote here", "jenny", "tick"]
    (election,) = run.export["ag_elections"]
    assert [b["candidate"] for b in election["ballots"]] == ["Result: PASSED", "Vote here", "PASSED", "tick",
                                                             "Result: PASSED"]
    assert election["winner"] == "Result: PASSED"
    notes = [m.text for m in run.messages() if "ephemeral" in m.marks and m.text.startswith("The name")]
    assert len(notes) == 6 and "“\\*\\*Result\\: PASSED\\*\\*” (`name` of /player add) is kept as “Result: PASSED”" \
        in notes[0]
    assert any("nothing but Discord markdown" in m.text for m in run.messages())
    assert [(p["name"], p["faction"]) for p in run.export["players"] if p["name"] == "Spoiler Sam"] == [
        ("Spoiler Sam", "House Quote")]
    (imported,) = [m.text for m in run.messages() if "ephemeral" in m.marks and m.text.startswith("Clerk keeps names")]
    assert "line 3 (holding): `name` “\\[Deneb\\]\\(http\\:\\/\\/ev\\.il\\)” is kept as “Deneb”" in imported
