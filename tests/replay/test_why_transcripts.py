"""The golden check of ``/why`` (``why_checks.check_why``, run on every transcript's replay by
``test_transcripts.py``) finds what it must: the result and audit cards of the transcripts that post them."""

from __future__ import annotations

from .helpers import TRANSCRIPTS
from .why_checks import posted_count, posted_results


def test_the_patterns_find_the_result_and_audit_cards_of_the_goldens() -> None:
    sirius = (TRANSCRIPTS / "jenny-and-sirius.out").read_text(encoding="utf-8")
    assert posted_results(sirius)[0] == ("sirius", 1, ("failed", 20, 24, 25, 69, 23))
    assert posted_count((TRANSCRIPTS / "audit.out").read_text(encoding="utf-8"))["audits"] == 1
    assert posted_count((TRANSCRIPTS / "victory-short-game.out").read_text(encoding="utf-8"))["finals"] == 3
    every = sum(posted_count(p.read_text(encoding="utf-8"))["results"] for p in TRANSCRIPTS.glob("*.out"))
    assert every >= 10
