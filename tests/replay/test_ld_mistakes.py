"""Play-test Y (docs/playtests/ld-mistakes-2026-12-08.md), tests/transcripts/ld-mistakes.txt: a Landsdraad
moderator's set-up mistakes. Y1: a player removed during set-up (the wrong member) never joined: the Pot counts the
four who did, and a removal after the first round opened still counts (P3-01). Y2: a removal during set-up posts
nothing in the game channel (the set-up summary is edited). Y3: ``/player add`` of a player already in the game says
how to correct what ``/player set`` cannot. The golden output is checked by test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_set_up_mistakes_put_right(tmp_path: Path) -> None:
    run = await run_transcript("ld-mistakes.txt", tmp_path)
    channel = run.to("#sirius")
    shows = [t for t in channel if t.startswith("**sirius: victory categories**")]
    assert shows[0].endswith("Pot now: 1800 VP (4 players joined).")  # Y1: bobb and the first Carrol never joined
    assert shows[1].endswith("Pot now: 1800 VP (4 players joined, 1 of them since removed: every player who joined "
                             "counts toward the Pot).")  # dave removed in round 1 still counts (P3-01)
    left = [t for t in channel if " has left " in t]  # Y2: nothing posted for the two removals in set-up
    assert len(left) == 1 and left[0].startswith("**dave** has left **sirius** (removed by @mod)"), left
    refused = next(t for t in channel if t.startswith("Carol is already a player in sirius"))
    assert "/player set changes their name, faction, Diplomacy, Command, Intrigue, d3 roll" in refused  # Y3, Y9
    assert "/player remove them, then /player add the right one (during set-up" in refused
    assert run.export["victory"]["joined"] == 4
    summary = [t for t in channel if t.startswith("**sirius: being set up**")][-1]
    assert "bobb" not in summary and "Carrol" not in summary and "Players (4)" in summary, summary


async def test_the_open_rounds_crisis_is_corrected(tmp_path: Path) -> None:
    """Y5: `/round crisis` corrects the open round's crisis: the opening card is edited, the channel told what it had
    read, each active player DMed (a voter with their ballot, which stands); the same text again changes nothing."""
    run = await run_transcript("ld-mistakes.txt", tmp_path)
    channel = run.to("#sirius")
    assert ("The moderators corrected the crisis of round 1 (the wrong crisis was posted): its opening card now shows "
            "it as it should read. It had read:\n> Pirates in Vega\nA ballot already cast stands until its voter "
            "changes it (`Revote:`) before the deadline.") in channel
    card = [t for t in channel if t.startswith("**sirius: round 1 is open**")][-1]
    assert card.splitlines()[1] == "Piracy in Sirius: Aye funds the Sirius fleet (1000 MS each)"
    assert run.to("DM jenny")[-1].endswith("Your ballot (**Aye**) stands; `Revote: Aye|Nay|Abstain` changes it until "
                                           "the deadline.")
    assert run.to("DM bob")[-1].endswith("You have not voted yet: DM me `Vote: Aye|Nay|Abstain`.")
    assert "Round 1's crisis already reads so; nothing was changed." in channel
    [changed] = [e for e in run.export["events"] if e["kind"] == "RoundCrisisChanged"]
    assert (changed["payload"]["from"], changed["payload"]["reason"]) == ("Pirates in Vega",
                                                                          "the wrong crisis was posted")
    assert run.export["rounds"][0]["crisis"] == "Piracy in Sirius: Aye funds the Sirius fleet (1000 MS each)"
