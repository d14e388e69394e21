"""The disclosure check's warning names who is exposed and how they voted: it goes only to the moderators' private
place, never the game channel or a player's DM. Read from the golden output of ``disclosure.txt``, which the
transcript test keeps equal to what the replay sends (and scans for leaked ballots, tests/secrecy.py)."""

from __future__ import annotations

from .helpers import TRANSCRIPTS

WARNING = "give away how these players voted"


def targets_of_warnings(text: str) -> list[str]:
    target = ""
    found: list[str] = []
    for line in text.splitlines():
        if line.startswith("  → "):
            target = line
        if WARNING in line:
            found.append(target)
    return found


def test_the_exposure_warning_goes_only_to_the_moderators_private_thread() -> None:
    out = (TRANSCRIPTS / "disclosure.out").read_text(encoding="utf-8")
    targets = targets_of_warnings(out)
    assert len(targets) == 3  # rounds 1 to 3; the held round warns at its deadline
    assert all(t.startswith("  → #sirius/sirius-moderators (") and "private" in t for t in targets), targets
    # the coarsened card and the held card carry no totals
    coarse = out.split("**sirius, round 2: the measure FAILED**")[1].split("bob #sirius")[0]
    assert "Margin: wide" in coarse and "Aye:" not in coarse and "Nay:" not in coarse
    held = out.split("**sirius, round 3 is closed**")[1].split("bob #sirius: /round release")[0]
    assert "Aye" not in held and "23" not in held.split("Votes in play")[0]
