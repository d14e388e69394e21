"""Play-test Y6, Y7 (docs/playtests/ld-mistakes-2026-12-08.md), tests/transcripts/round-void.txt: ``/round void``.
Y7: a round opened in the wrong game is called off while open: no result, no AG income penalty, its seed revealed,
the player who had a ballot DMed (without it), the open player vote going on into the next round. Y6: a round closed
too early is voided after its close: a public correction withdraws its posted result, its ballots count for nothing
(Weathervane), and its crisis is opened again as a new round with new dice. Refused: a void round again, an older
round once a later one opened (the erratum path), an ended game. The golden output is checked by
test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_a_round_opened_by_mistake_is_voided(tmp_path: Path) -> None:
    run = await run_transcript("round-void.txt", tmp_path)
    channel = run.to("#sirius")
    assert "sirius has not opened a round yet; there is nothing to void." in channel
    void = next(t for t in channel if t.startswith("**Round 1 of sirius is void**"))
    assert "(opened in the wrong game, meant #vega) before it closed" in void
    assert "no Adjutant General check (no income is docked)" in void and "`/verify round:1` checks it" in void
    assert "1 open player vote" in void
    assert not any("round 1: the measure" in t for t in channel)  # no result was ever posted for it
    card = [t for t in channel if t.startswith("**sirius: round 1 is void**")]
    assert card and "Result: none: the moderators voided this round" in card[-1]  # the opening card, edited
    assert any(t.startswith("**sirius: round 1 (void)**") for t in channel)  # /round status
    assert ("Round 1 of sirius is void, so it has nothing to close; `/round open` puts its crisis to the vote "
            "again as a new round.") in channel
    assert any(t.startswith("Round 1 of sirius is already void; nothing was changed.") for t in channel)
    # only jenny had a ballot: she is told it no longer counts, and not what it was
    [dm] = [t for t in run.to("DM jenny") if "voided" in t and "round 1" in t.lower()]
    assert "Your ballot in it no longer counts." in dm and "Aye" not in dm
    assert not any(t.startswith("Round 1 of sirius was voided") for t in run.to("DM bob") + run.to("DM carol"))
    assert any(t.startswith("Round 1 of sirius is void: the moderators voided it, so it takes no ballots and "
                            "nothing in it counts.") for t in run.to("DM carol"))  # her ballot after the void
    assert any(t.startswith("Round 1 of sirius is void: the moderators voided it (opened in the wrong game, meant "
                            "#vega), so it has no result.") for t in channel)  # /why
    verify = next(t for t in run.to("#sirius") if t.startswith("The dice of round 1 of sirius"))
    assert "Round 1 is void (the moderators voided it): its dice decided nothing." in verify
    assert "Seed `" in verify  # revealed with the void
    assert "#1 Audit of carol: open, 1 of 2" in "\n".join(t for t in channel if t.startswith("Player votes, round 2"))
    first = run.events("RoundVoided")[0]
    assert first["payload"] | {"dice": None} == {"round": 1, "was": "open", "reason": "opened in the wrong game, "
                                                 "meant #vega", "ballots": 1, "dice": None}
    [dice] = [d for d in run.export["dice"] if d["scope"] == 1]
    assert first["payload"]["dice"]["seed"] == dice["seed"] and first["payload"]["dice"]["seed"] in verify
    assert [r["status"] for r in run.export["rounds"]] == ["void", "void", "closed", "closed"]


async def test_a_round_closed_too_early_is_voided_and_put_again(tmp_path: Path) -> None:
    run = await run_transcript("round-void.txt", tmp_path)
    channel = run.to("#sirius")
    correction = next(t for t in channel if t.startswith("**Correction: round 2 of sirius is void.**"))
    assert "The result posted for it (the measure PASSED) no longer stands" in correction
    assert "not Weathervane, nor the 300 MS docked from every player's income" in correction
    assert "Aye" not in correction.split("(the measure PASSED)")[1]  # no totals, no ballot
    for player in ("jenny", "carol"):  # the two who had a ballot in round 2
        assert any(t.startswith("Round 2 of sirius was voided by the moderators (closed too early, meant /round "
                                "remind): its posted result was withdrawn. Your ballot in it no longer counts.")
                   for t in run.to(f"DM {player}"))
    assert not any(t.startswith("Round 2 of sirius was voided") for t in run.to("DM bob"))
    assert any(t.startswith("**sirius: round 2 (void)**") and "its posted result withdrawn" in t for t in channel)
    [second] = [e for e in run.events("RoundVoided") if e["payload"]["round"] == 2]
    assert second["payload"]["was"] == "closed" and second["payload"]["withdrawn"]["outcome"] == "passed"
    assert second["payload"]["withdrawn"]["income_penalty"] == 300
    assert run.export["rounds"][1]["result"]["voided"]["was"] == "closed"
    # the older round once a later one opened, a void one again, an ended game
    assert any(t.startswith("Round 3 of sirius cannot be voided: round 4 has opened since") and
               "`/round erratum round:3`" in t for t in channel)
    assert "Round 2 of sirius is already void; nothing was changed." in channel
    assert channel[-1].startswith("sirius ended on 2027-03-05 12:00 UTC; its ledger is closed.")
    # Weathervane (R3-13) counts rounds 3 (failed: bob and carol) and 4 (passed: jenny), not void round 2 (passed:
    # jenny): one each, the 16 VP shared, 5 each; with round 2 counted jenny would take it alone
    final = next(t for t in channel if t.startswith("**sirius: final scores**"))
    assert final.count("Weathervane 5") == 3, final
