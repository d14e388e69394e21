"""tests/transcripts/transfers.txt (issue 16) as the moderators and players read it: every transfer goes to the
moderators' private place and never to a message everyone reads; applied transfers move the holding in the
export's ledger and are events of their own. Its golden output is checked by test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_transfers_reach_only_the_moderators_and_apply_moves_the_holdings(tmp_path: Path) -> None:
    run = await run_transcript("transfers.txt", tmp_path)
    thread = run.to("#sirius/sirius-moderators")
    assert [t.split(" · ")[0] for t in thread if t.startswith("📦")] == [f"📦 Transfer #{n}" for n in (1, 2, 3, 4, 5)]
    assert any(t.startswith("✏️ Transfer #6 corrects #5") for t in thread)
    assert [t for t in run.to("#mods") if t.startswith("📦 Transfer #7")]
    for m in run.public():
        if m.where == "#mods":  # the moderator channel: private because the moderators made it so
            continue
        assert "Transfer #" not in m.text and "Lankiveil" not in m.text and "Count Jasek" not in m.text, m
    applied = run.events("TransferApplied")
    assert [(e["payload"]["id"], e["payload"]["holding"], e["payload"]["to_name"]) for e in applied] == [
        (1, "Lankiveil", "dave"), (6, "Count Jasek", "dave")]
    assert run.to("DM dave")[-1].startswith("The moderators applied bob's transfer #6 in sirius: the Elector Count "
                                            "Jasek is now yours")
