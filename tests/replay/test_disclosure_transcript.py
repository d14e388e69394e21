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


def test_a_partial_leak_warns_only_the_moderators_in_its_own_words_and_does_not_hold() -> None:
    out = (TRANSCRIPTS / "disclosure.out").read_text(encoding="utf-8")
    round4 = out.split("mod #sirius: /round open crisis:Guild charter")[1]
    [target] = targets_of_warnings_of(round4, "give away part of these ballots")
    assert target.startswith("  → #sirius/sirius-moderators (") and "private" in target
    assert ("carol (5 votes): the totals show carol did not vote Abstain; dave (5 votes): the totals show dave did "
            "not vote Abstain; erin (5 votes): the totals show erin did not vote Abstain.") in round4
    assert WARNING not in round4  # nobody is exposed whole: no full-exposure line
    assert "does not coarsen or hold a result: it was posted in full" in round4
    card = round4.split("**sirius, round 4: the measure PASSED**")[1]  # in full, though the setting is hold
    assert "Aye: 10" in card and "Nay: 5" in card and "Abstain: 18" in card
    assert "The moderators will post the result" not in round4


def targets_of_warnings_of(text: str, words: str) -> list[str]:
    target = ""
    found: list[str] = []
    for line in text.splitlines():
        if line.startswith("  → "):
            target = line
        if words in line:
            found.append(target)
    return found
