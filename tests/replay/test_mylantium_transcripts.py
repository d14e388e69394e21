"""The Mylantium transcripts (rules-spec §2): an election turn and a Business Phase with a full revolution chain
and a coup. Their exports hold the right numbers (TV1-S01, TV1-S02, TV1-I04; R1-40..R1-50, P1-10..P1-13,
P1-19..P1-23), and what is secret (who chose what, treasuries, contributions before the result) never reaches a
channel. The golden outputs are checked by test_transcripts.py like every other transcript."""

from __future__ import annotations

from pathlib import Path

from .helpers import Run, run_transcript


def by(items: list[dict], key: str, value: str) -> dict:
    return next(i for i in items if i[key] == value)


def assert_secrets_kept(run: Run) -> None:
    """P1-19 and the election's secret choices: receipts go only to their sender; no treasury is public."""
    public = run.public()
    assert public, "the transcript posts something in its channels"
    for m in public:
        assert "Recorded for the" not in m.text, m
        assert "Contribution recorded" not in m.text, m
        assert "treasury $" not in m.text and "Your treasury" not in m.text, m
        assert "Coup: yes" not in m.text or m.where.startswith("DM"), m


async def test_an_election_turn(tmp_path: Path) -> None:
    """R1-01..R1-14: locks from the snapshot (P1-03: the tied Proles and Brass Hats both locked), the Rednecks
    realign and lose Roy Dunn (R1-13); the Primary 31-3 and 45-4 (Faction Votes and Charisma only, TV1-I03), closed
    by its deadline; the General Election of TV1-I04, 44-64 with the Independent Vote 32 split 13/19 (TV1-S02); the
    Presidency goes to Kit Marlow's Proles."""
    run = await run_transcript("mylantium-election.txt", tmp_path)
    doc = run.export
    assert doc["game"]["ruleset"] == "mylantium"
    myl = doc["mylantium"]
    pl = by(myl["factions"], "code", "PL")
    assert pl["votes"] == {"Avalon": 6, "Bicardia": 4} and pl["national_votes"] == 10  # TV1-S01
    assert by(myl["factions"], "code", "RN")["party"] == "federalist"
    assert by(myl["factions"], "code", "RN")["realigned_turn"] == 1
    assert by(myl["candidates"], "name", "Roy Dunn")["discarded"]
    primary, general = myl["elections"]
    assert (primary["stage"], primary["status"], primary["closed_at"]) == ("primary", "closed",
                                                                           "2026-03-02T18:00:00+00:00")
    assert {line["name"]: line["total"] for line in primary["result"]["lines"]} == {
        "Lee Adams": 31, "Ann Oakes": 3, "Kit Marlow": 45, "Max Steel": 4}
    assert primary["result"]["nominees"] == {"whig": "Lee Adams", "federalist": "Kit Marlow"}
    assert {c["faction"]: c["choice"] for c in primary["choices"]} == {
        "Plutocrat": "Lee Adams", "Granger": "Lee Adams", "Prole": "Kit Marlow", "Brass Hat": "Kit Marlow"}
    r = general["result"]
    assert (r["faction_votes_in_play"], r["independent"], r["approval"], r["incumbent"]) == (64, 32, 60, "federalist")
    assert {p: line["independent"] for p, line in r["lines"].items()} == {"whig": 13, "federalist": 19}
    assert {p: line["total"] for p, line in r["lines"].items()} == {"whig": 44, "federalist": 64}
    assert (r["winner"], r["president"], myl["president"]) == ("federalist", "PR", "Prole")
    assert "General: Wig" not in str(general["choices"])  # the unreadable one was never recorded
    assert "A crisis ballot (`Vote: Aye|Nay|Abstain`) is for Landsdraad games, and yours is #mylantium" in run.output
    assert "/round open is not used in Mylantium games like mylantium." in run.output
    (realigned,) = [m for m in run.public() if "realigned" in m.text]
    assert realigned.text.startswith("The **Rednecks** have realigned: Whig → **Federalist**")
    assert_secrets_kept(run)


async def test_a_business_phase_and_a_revolution_chain_with_a_coup(tmp_path: Path) -> None:
    """R1-21 and R1-31 (50 → 35, Fervor +3), then the chain: a coup put down ($45 against $44, no money given,
    P1-13), the forestalled Proles' Revolution (begun, $55 > 38, no money after the coup, P1-21) put down at its
    deadline ($60 against $58), the Snake-Handlers crushed ($12 ≤ 26, no Fervor, P1-12), and the Rednecks' victory
    with no contribution by the deadline (P1-22). Fervor 3 + 3 + 3 = 9."""
    run = await run_transcript("mylantium-revolution.txt", tmp_path)
    doc = run.export
    myl = doc["mylantium"]
    assert doc["game"]["status"] == "ended" and doc["game"]["ended_at"] == "2026-03-04T18:00:00+00:00"
    assert [(h["cause"], h["delta"]) for h in myl["approval_history"]] == [
        ("war declared", 12), ("Income Tax created at 30%", -20), ("scandal", -3), ("a war is being waged", -4)]
    assert myl["approval"] == 35 and myl["fervor"] == 9
    assert [h["delta"] for h in myl["fervor_history"]] == [1, 1, 1, 3, 3]
    assert [h["text"] for h in myl["happenings"]] == ["war declared", "Income Tax created at 30%", "scandal"]
    (rev,) = myl["revolutions"]
    assert (rev["ended"], rev["winner"]) == ("won", "Redneck")
    coup, proles, snakes, rednecks = rev["attempts"]
    assert (coup["vanguard"], coup["forestalled"], coup["coup"], coup["treasury"], coup["s"]) == ("BH", "PR", True,
                                                                                                  44, None)
    assert (coup["bonus"], coup["crt"], coup["outcome"], coup["fervor"]) == ({}, 45, "put down", 3)
    assert coup["contributions"]["PR"] == {"crt": 5, "vanguard": 0}  # the forestalled Vanguard may contribute
    assert (proles["vanguard"], proles["coup"], proles["s"], proles["treasury"], proles["begun"]) == ("PR", False, 38,
                                                                                                      55, True)
    assert (proles["bonus"], proles["crt"], proles["for_vanguard"], proles["outcome"]) == ({}, 60, 3, "put down")
    assert (snakes["vanguard"], snakes["treasury"], snakes["s"], snakes["outcome"], snakes["fervor"]) == (
        "SH", 12, 26, "crushed", 0)
    assert (rednecks["funding"], rednecks["treasury"], rednecks["crt"], rednecks["outcome"]) == (50, 60, 0, "won")
    money = {f["code"]: f["treasury"] for f in myl["factions"]}
    assert money == {"PL": 0, "RB": 0, "GR": 0, "SH": 12, "BH": 44, "PR": 58, "BU": 0, "RN": 60}
    assert [f["code"] for f in myl["factions"] if not f["in_play"]] == ["SH", "BH", "PR"]
    # the coup offer went by DM to the Brass Hats' player only, before any funding (P1-23)
    (offer,) = [m for m in run.messages() if "military coup** first" in m.text]
    assert offer.where == "DM bea"
    assert "Only the Brass Hats' player is offered the coup." in run.to("DM pat")[0]
    # each contributor was asked by DM; the results carry only the totals (P1-19)
    assert sum(1 for m in run.messages() if m.where == "DM gus" and "Your treasury" in m.text) == 3
    results = [m.text for m in run.public() if "Counter-Revolutionary Treasury holds" in m.text]
    assert len(results) == 3 and "$45" in results[0] and "$60" in results[1] and "$0" in results[2]
    assert "**mylantium has ended:** the Rednecks have overthrown the government." in run.output
    # the Landsdraad game on the same server: its ballot counted; a Mylantium form refused there
    assert "No round is open in sirius, so there is nothing to vote on yet." in run.output  # routed to sirius
    assert "`Contribute:` is for Mylantium games, and yours is #sirius (Landsdraad)." in run.output
    assert_secrets_kept(run)
