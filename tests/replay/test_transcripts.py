"""Every transcript in tests/transcripts replays to its golden output (``NAME.txt`` -> ``NAME.out``), and the
exports of the rules-spec transcripts hold the right numbers.

Regenerate the golden files after a deliberate change of wording: ``CLERK_REGEN_TRANSCRIPTS=1 pytest tests/replay``,
then read the diff."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from databases import Migrated
from secrecy import assert_nothing_secret_posted

from engine.landsdraad.close_weights import entries_of

from .helpers import TRANSCRIPTS, run_transcript
from .why_checks import check_why

REGENERATE = os.environ.get("CLERK_REGEN_TRANSCRIPTS") == "1"
NAMES = sorted(p.name for p in TRANSCRIPTS.glob("*.txt"))
EXPORT_DOC = (Path(__file__).resolve().parents[2] / "docs" / "export.md").read_text(encoding="utf-8")


def undocumented(export: dict[str, object]) -> list[str]:
    """What an export holds that docs/export.md does not name: an event kind, or a key of a round's result (play-test
    D4.4: `ReminderSent`, `RoundExtended`, `ErratumPosted`, `result.due_at` and more were in every export, and in
    no doc)."""
    events = export.get("events", [])
    rounds = export.get("rounds", [])
    assert isinstance(events, list) and isinstance(rounds, list)
    missing = {e["kind"] for e in events if f"`{e['kind']}`" not in EXPORT_DOC}
    missing |= {f"result.{key}" for r in rounds if r.get("result") for key in r["result"]
                if f"`result.{key}`" not in EXPORT_DOC}
    # play-test X4.3: a Mylantium election's result, an attempt of a chain, and the events whose rows list their
    # fields, each field named in its row (`rounding`, `s_parts`, `BusinessClosed.in_play` were in no doc)
    myl = export.get("mylantium")
    if isinstance(myl, dict):
        results = _rows("`…result")
        missing |= {f"mylantium.elections[].result.{key}" for e in myl.get("elections", []) if e.get("result")
                    for key in e["result"] if not _named(key, results)}
        attempts = _rows("`…attempts[]`")
        missing |= {f"mylantium.revolutions[].attempts[].{key}" for c in myl.get("revolutions", [])
                    for a in c.get("attempts", []) for key in a if not _named(key, attempts)}
    for e in events:
        if e["kind"] in LISTED:
            row = _rows("", kind=e["kind"])
            missing |= {f"{e['kind']}.{key}" for key in e["payload"] if not _named(key, row)}
    return sorted(missing)


LISTED = {"BusinessClosed", "CoupAnswered", "RevolutionResolved", "ContributionPledged", "ChoiceMade", "GameEnded",
          "FactionRealigned", "ElectionRoundStarted", "HappeningRecorded", "HappeningUndone"}
"""Event kinds whose row in docs/export.md lists every field of their payload."""


def _rows(start: str, *, kind: str | None = None) -> str:
    """The table rows of docs/export.md that start with ``start`` (or that name the event ``kind`` first)."""
    lines = EXPORT_DOC.splitlines()
    if kind is not None:
        return "\n".join(line for line in lines if line.startswith("| ") and f"`{kind}`" in line.split("|")[1])
    return "\n".join(line for line in lines if line.startswith(f"| {start}"))


def _named(key: str, rows: str) -> bool:
    if f"`{key}`" in rows or f"`{key}[]`" in rows or f".{key}`" in rows:
        return True
    return re.search(rf"[{{,(\s]{re.escape(key)}[,}})\s:]", rows) is not None


def tally(result: dict[str, object]) -> dict[str, object]:
    """The crisis tally part of a round's result (it also carries the round-end facts: the AG, the penalty)."""
    return {k: result[k] for k in ("outcome", "aye", "nay", "abstain", "in_play", "needed")}


def test_the_transcripts_are_there() -> None:
    assert {"jenny-and-sirius.txt", "revotes-and-the-deadline.txt", "bad-input.txt", "redelivery.txt",
            "ag-election.txt", "audit.txt", "no-confidence.txt", "bad-input-in-threads.txt"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
async def test_transcript_replays_to_its_golden_output(name: str, tmp_path: Path, replay_db: Migrated) -> None:
    """On SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set: the same output to the byte."""
    run = await run_transcript(name, tmp_path, replay_db)
    await assert_nothing_secret_posted(run.output, replay_db.engine())  # before regenerating: see test_secrecy_scan
    golden = TRANSCRIPTS / name.replace(".txt", ".out")
    if REGENERATE:
        golden.write_text(run.output, encoding="utf-8")
    assert golden.exists(), f"no {golden.name}; create it with CLERK_REGEN_TRANSCRIPTS=1 and read it"
    assert run.output == golden.read_text(encoding="utf-8")
    owed = {(e["payload"]["kind"], e["payload"]["number"]): e["kind"] for e in run.export.get("events", [])
            if e["kind"] in ("ResultPending", "ResultPosted")}
    assert all(kind == "ResultPosted" for kind in owed.values()), f"the console showed every result: {owed}"
    await check_why(run.output, replay_db)  # issue 19: /why rebuilds every number it posted, on the same replay
    assert undocumented(run.export) == [], "name these in docs/export.md"


def by_name(items: list[dict], name: str) -> dict:
    return next(i for i in items if i["name"] == name)


async def test_jenny_tv0_s01_and_the_sirius_factions_tv0_s05(tmp_path: Path) -> None:
    """TV0-S01: D/C/I 3/2/2 with a d3 of 3 is a base vote of 11; D 4 makes it 13; Count Jasek (average, 5) and
    Deneb (average planet) bring 21, and the diplomacy bonus at D 4 brings 25. TV0-S05: Hawks 20 Aye, Doves 12
    Nay, Boars 12 on `1-3 nay, 4 abstain, 5-6 aye`."""
    run = await run_transcript("jenny-and-sirius.txt", tmp_path)
    doc = run.export
    assert {k: doc["game"][k] for k in ("name", "ruleset", "round")} == {
        "name": "sirius", "ruleset": "landsdraad", "round": 3}
    assert "Base vote 11, 11 votes in all." in run.output  # before D is raised
    jenny = by_name(doc["players"], "jenny")
    assert jenny["faction"] == "House Vernius"
    assert jenny["base_vote"] == 13
    assert jenny["votes"] == 25
    assert jenny["breakdown"] == {"base": 13, "electors": 5, "planets": 3, "misc": 0, "diplomacy_bonus": 4}
    assert jenny["attributes"] == {"diplomacy": 4, "command": 2, "intrigue": 2, "roll": 3}

    first, second, third = doc["rounds"]
    # Boars rolled 3 -> Nay. Jenny did not vote: her 25 abstain, so only ABS differs from the vector's 0.
    assert first["crisis"] == "Piracy in Sirius"
    assert first["status"] == "closed"
    assert first["closed_at"] == first["deadline"] == "2026-03-01T20:00:00+00:00"
    assert tally(first["result"]) == {"outcome": "failed", "aye": 20, "nay": 24, "abstain": 25,
                                      "in_play": 69, "needed": 23}
    assert [(f["name"], f["votes"], f["vote"], f["roll"]) for f in first["factions"]] == [
        ("Hawks", 20, "aye", None), ("Doves", 12, "nay", None), ("Boars", 12, "nay", 3)]
    # Boars rolled 4 -> Abstain: AYE 20, NAY 12, threshold 17, passes.
    assert tally(second["result"]) == {"outcome": "passed", "aye": 20, "nay": 12, "abstain": 37,
                                       "in_play": 69, "needed": 17}
    assert by_name(second["factions"], "Boars")["vote"] == "abstain"
    assert by_name(second["factions"], "Boars")["roll"] == 4
    # Clerk rolled for the Boars (seeded): whatever the face, the table and the totals agree. Jenny voted Nay.
    boars = by_name(third["factions"], "Boars")
    vote = {1: "nay", 2: "nay", 3: "nay", 4: "abstain", 5: "aye", 6: "aye"}[boars["roll"]]
    assert boars["vote"] == vote
    aye = 20 + (12 if vote == "aye" else 0)
    nay = 12 + 25 + (12 if vote == "nay" else 0)
    result = third["result"]
    assert (result["aye"], result["nay"], result["abstain"], result["in_play"]) == (aye, nay, 69 - aye - nay, 69)
    assert result["needed"] == (aye + nay) // 2 + 1
    assert result["outcome"] == ("passed" if aye > nay else "failed")
    rolled = [e for e in run.events("RoundClosed") if e["payload"]["round"] == 3]
    assert rolled[0]["payload"]["rolls"] == {"Boars": boars["roll"]}


async def test_revotes_before_and_after_the_deadline_tv0_i06(tmp_path: Path) -> None:
    """TV0-I06: A Vote Aye then Revote Nay at 23:59:59 (accepted); B Vote Nay, Revote Aye at exactly the
    deadline (late); C Vote Aye at 00:00:01 (late). AYE 20 / NAY 24 / ABS 9, threshold 23, fails."""
    run = await run_transcript("revotes-and-the-deadline.txt", tmp_path)
    (rnd,) = run.export["rounds"]
    assert tally(rnd["result"]) == {"outcome": "failed", "aye": 20, "nay": 24, "abstain": 9,
                                    "in_play": 53, "needed": 23}
    assert rnd["deadline"] == rnd["closed_at"] == "2026-12-01T00:00:00+00:00"
    cast = [(e["payload"]["option"], e["payload"]["received_at"]) for e in run.events("BallotCast")]
    assert cast == [("aye", "2026-11-30T10:00:00+00:00"), ("nay", "2026-11-30T20:00:00+00:00"),
                    ("nay", "2026-11-30T23:59:59+00:00")]
    (closed,) = run.events("RoundClosed")
    weights = {w["name"]: (w["votes"], w["ballot"]) for w in entries_of(closed["payload"])}
    assert weights == {"alice": (14, "nay"), "bob": (10, "nay"), "carol": (9, None)}
    assert closed["payload"]["by_deadline"] is True
    assert ("closed for ballots at 2026-12-01 00:00:00 UTC, and your message arrived at 2026-12-01 00:00:00 UTC"
            in run.output)
    assert "Your ballot (Nay) stands." in run.output


async def test_bad_input_changes_nothing(tmp_path: Path) -> None:
    run = await run_transcript("bad-input.txt", tmp_path)
    kinds = [e["kind"] for e in run.export["events"]]
    assert kinds == ["GameCreated", "PlayerAdded", "RoundOpened"]
    assert [p["name"] for p in run.export["players"]] == ["alice"]
    (rnd,) = run.export["rounds"]
    assert rnd["status"] == "open"
    assert rnd["factions"] == []
    assert "Did you mean “Vote: Aye”?" in run.output
    assert "Only the moderators of sirius can use /round close." in run.output


async def test_a_redelivered_message_is_not_counted_twice(tmp_path: Path) -> None:
    run = await run_transcript("redelivery.txt", tmp_path)
    (rnd,) = run.export["rounds"]
    assert [f["name"] for f in rnd["factions"]] == ["Hawks"]
    assert tally(rnd["result"]) == {"outcome": "passed", "aye": 20, "nay": 10, "abstain": 12,
                                    "in_play": 42, "needed": 16}
    ballots = run.events("BallotCast")
    assert [(e["payload"]["option"], e["payload"]["replaced"]) for e in ballots] == [
        ("aye", None), ("nay", "aye"), ("abstain", None)]
    sources = [e["source_id"] for e in run.export["events"]]
    assert len(sources) == len(set(sources))
    assert len(run.events("RoundClosed")) == 1
    assert run.output.count("it was counted once") == 3


async def test_several_games_export_the_first(tmp_path: Path) -> None:
    run = await run_transcript("threads-roles-and-two-games.txt", tmp_path)
    assert run.games == ("sirius", "arrakis")
    assert run.export["game"]["name"] == "sirius"
    assert run.export["rounds"][0]["result"]["outcome"] == "passed"
    assert "  → #sirius/crisis-talk (ephemeral to bob): Only the moderators of sirius can use /round close." in (
        run.output)
