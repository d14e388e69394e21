"""Play-test W (docs/playtests/auditor-2026-12-08.md), tests/transcripts/ended-game-audit.txt: a game read after its
End Game vote. W1: the base d3 seed and the void round's seed are revealed (the export's ``dice``). W2: the enacted
audit lists the three players who carried it though one was removed since. W3: a No Confidence vote that passed
and was never enacted stays in ``/pv list`` and ``/ag status`` says where it stands; ``/pv enact`` of a number that
has not passed names the votes awaiting. W4: ``/round status`` calls the round the vote ended void. W5: the player
added mid-game is announced. W7: ``/why what:forecast`` after the end does not say "if the game ended now". The
golden output is checked by test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_a_game_read_after_its_end_game_vote(tmp_path: Path) -> None:
    run = await run_transcript("ended-game-audit.txt", tmp_path)
    assert [(s["scope"], "seed" in s) for s in run.export["dice"]] == [(0, True), (1, True), (2, True), (3, True)]
    audit = next(v for v in run.export["player_votes"] if v["subject"] == "audit")
    assert (audit["status"], audit["supporters"], audit["needed"]) == ("enacted", ["anna", "chen", "dora"], 3)

    mod = run.to("#kaitain")
    refused = [t for t in mod if t.startswith("Player vote #1 (Audit) is enacted")]
    assert refused[0].endswith("Awaiting you now: #2 No Confidence in boris (round 2).")
    assert refused[1].endswith("Awaiting you now: #2 No Confidence in boris (round 2); #3 End Game (round 3).")
    lists = [t for t in mod if "Passed in an earlier round" in t]
    assert lists[0] == ("No player votes in round 3 of kaitain yet.\nPassed in an earlier round, still awaiting the "
                        "moderator (`/pv enact` or `/pv veto`):\n#2 No Confidence in boris (round 2): passed, 3 of 3")
    assert "never enacted or vetoed (the game has ended)" in lists[1]
    ag = [t for t in mod if t.startswith("Adjutant General of kaitain")]
    assert "No Confidence in boris passed in round 2 and awaits the moderator (`/pv enact vote:2`" in ag[0]
    assert ag[1].startswith("Adjutant General of kaitain: boris.\n"), "after the end no ballot is held"
    assert any(t.startswith("**kaitain: round 3 (void)**") and "Result: none: the game ended before" in t
               for t in mod)
    assert "**felix** (House Moritani) has joined **kaitain** (added by @mod)." in mod
    forecast = next(t for t in mod if t.startswith("**The Victory Point Forecast of kaitain**"))
    assert forecast.endswith("The game has ended: these are the rates of its final scores (`/why what:score` explains "
                             "a player's); goals and prestige are on top of it.")
    assert "If the game ended now" not in forecast
