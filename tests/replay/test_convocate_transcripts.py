"""The Convocate transcript (tests/transcripts/convocate-statute-and-repeal.txt): alice declares Statute 3498C with
political control, her Motion is seconded round the table, she pushes a Factor; in bob's turn a Motion of Repeal
strikes the Statute down and an offer to second times out. Its golden output is checked by test_transcripts.py;
here, the export and what each audience saw."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript

NAME = "convocate-statute-and-repeal.txt"


async def test_a_turn_with_a_statute_declared_and_repealed(tmp_path: Path) -> None:
    run = await run_transcript(NAME, tmp_path)
    doc = run.export
    assert doc["game"]["ruleset"] == "convocate"
    cv = doc["convocate"]
    assert cv["turn"] == {"number": 2, "active": "bob", "phase": "action"}
    assert cv["factors"] == {"GOVT": 0, "TRADE": 1}
    assert cv["political_control"] == "bob"
    assert [(p["name"], p["sovereignty"], p["standing_vote"], p["locked_out"]) for p in cv["players"]] == [
        ("alice", "Union", 1, False), ("bob", "Kingdom", 3, False), ("carol", "Republic", 2, False)]
    assert {c["name"]: c["vote"] for c in cv["cards"]}["High King Corovan III"] == 1  # R4-01: no card prints 3
    (statute,) = cv["statutes"]
    assert (statute["name"], statute["controller"], statute["owner"], statute["section"], statute["status"],
            statute["declared_by"], statute["seat"]) == (
        "Statute 3498C", "alice", "alice", 2, "repealed", "Kista", "Union Senate")
    assert [(s["number"], s["one_time"], s["cost"]) for s in statute["sections"]] == [
        (1, True, None), (2, True, "Rank + 1 = 3"), (3, False, None)]

    first, repeal, decree = cv["motions"]
    assert (first["name"], first["mover"], first["convocant"], first["route"], first["seconder"],
            first["seconded_with"]) == ("Open the Archives", "alice", "Aurel Vance", "seat", "carol", "Tessaly")
    assert [(a["player"], a["answer"]) for a in first["answers"]] == [
        ("alice", "declined"), ("bob", "skipped"), ("carol", "seconded")]
    assert first["outcome"]["effects"] == [["Moved", "Draw a card."],
                                           ["Seconded", "Each player who seconded draws a card."]]
    assert first["outcome"]["penalties"] == [{"convocant": "Tessaly", "player": "carol", "morality": "Ruthless",
                                              "penalty": "Lose 1 Story Point"}]
    assert (repeal["kind"], repeal["mover"], repeal["convocant"]) == ("repeal", "bob", "Lady Mirel")
    assert {k: repeal["outcome"][k] for k in ("mover_votes", "controller_votes", "destroyed", "count")} == {
        "mover_votes": 4, "controller_votes": 1, "destroyed": True, "count": "after"}
    assert [(a["player"], a["answer"]) for a in decree["answers"]] == [
        ("bob", "skipped"), ("carol", "timed out"), ("alice", "skipped")]
    assert decree["outcome"]["effects"] == [["Moved", "Exhaust target Location."]] and decree["seconder"] is None

    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("MotionMoved") == 2 and kinds.count("MotionSeconded") == 1
    assert kinds.count("RepealMoved") == 1 and kinds.count("SecondTimedOut") == 1
    assert kinds.count("StatuteDeclared") == kinds.count("StatuteSectionChanged") == 1


async def test_who_saw_what(tmp_path: Path) -> None:
    """The offer to second goes by DM to the player asked, and only to them; everything else is public (rules-spec
    §4.2.9); refusals are answered and change nothing."""
    run = await run_transcript(NAME, tmp_path)
    offers = [m for m in run.messages() if "Will you second it?" in m.text]
    assert [m.where for m in offers] == ["DM alice", "DM carol", "DM carol"]
    assert "Your Convocants with access: Dorn." in offers[0].text
    assert "Your Convocants with access: Tessaly, Quill." in offers[1].text
    public = [m.text for m in run.public()]
    assert any(t.startswith("**senate: alice declares Statute 3498C**") for t in public)
    assert any("Statute 3498C is repealed and goes to alice's Depleted Pile." in t for t in public)
    assert any("Standing Vote, counted after Lady Mirel is activated: bob **4**, alice **1**." in t for t in public)
    assert "Moving GOVT from +1 to +2 costs 6 committed Votes, each step paid in full; your Resource Pool " \
           "holds 5. Nothing was moved." in run.output
    assert run.to("DM carol")[2] == ("That message reached me twice; it was recorded once, the first time. Nothing "
                                     "was changed.")
    assert "bob is locked out: GOVT +1 is on the opposite side of 0" in run.output
    assert "/board is a Convocate command; sirius plays Landsdraad." in run.output
    assert "Players put on the board only cards they control; a moderator adds the others." in run.output
