"""The Landsdraad politics transcripts (AG elections, player-majority votes, audits, perks, registries): their
exports hold the right numbers (rules-spec R0-30..R0-73, TV0-S03), and what is secret never reaches a channel.

The golden outputs are checked by test_transcripts.py like every other transcript."""

from __future__ import annotations

from pathlib import Path

from .helpers import Run, run_transcript

PERKS = ("Pro tempore", "CHOAM Directorship", "Master at Arms")


def assert_secrets_kept(run: Run) -> None:
    """Rules-spec §1.2.9 as seen in the output: crisis ballots, perk holders, audit quotes and Elector answers are
    never in a message everyone can read."""
    public = run.public()
    assert public, "the transcript posts something in its channels"
    for m in public:
        assert "Ballot recorded" not in m.text and "**Aye**" not in m.text and "**Nay**" not in m.text, m
        assert not any(perk in m.text for perk in PERKS), m
        assert "Audit quote" not in m.text, m
        assert " voted **" not in m.text, m
        assert "Court Gossip" not in m.text, m


def by_name(items: list[dict], name: str) -> dict:
    return next(i for i in items if i["name"] == name)


async def test_an_ag_election_across_a_round_boundary_and_a_tie(tmp_path: Path) -> None:
    """R0-30..R0-34, P0-21: ballots in the thread and by DM, a changed ballot re-stamped, a repeated one not; a
    2-2 tie goes to Carol, whose last ballot (20:00) came before Alice's (22:00); no AG at the end of round 1
    docks 300 MS; the AG is told of her Court Gossip by DM when the next round opens (P0-07: the free action goes to
    whoever holds the post when the round's actions are collected, its opening: Carol, elected during round 2, gets
    it for round 3 and none for round 2, docs/rulings.md "Court Gossip")."""
    run = await run_transcript("ag-election.txt", tmp_path)
    doc = run.export
    (election,) = doc["ag_elections"]
    assert election["status"] == "closed" and election["winner"] == "carol"
    assert election["closes"] == "2026-03-03T06:00:00+00:00"
    assert [(b["voter"], b["candidate"], b["cast_at"][11:16]) for b in election["ballots"]] == [
        ("alice", "alice", "18:00"), ("bob", "carol", "19:00"), ("carol", "carol", "20:00"),
        ("dave", "alice", "22:00")]
    assert election["standings"] == [{"candidate": "carol", "votes": 2}, {"candidate": "alice", "votes": 2}]
    assert doc["offices"] == {"adjutant_general": "carol"}
    first, second, third = doc["rounds"]
    assert first["result"]["adjutant_general"] is None and first["result"]["income_penalty"] == 300
    assert second["result"]["adjutant_general"] == "carol" and second["result"]["income_penalty"] == 0
    assert third["status"] == "open"

    # the thread is made once, its tally pinned once and then edited in place
    tally = [m for m in run.messages() if m.where == "#sirius/ag-election-1" and "**sirius: Adjutant General" in m.text]
    assert [m.marks for m in tally[:2]] == ["new thread, pinned", "edits the pinned message"]
    assert all(m.marks == "edits the pinned message" for m in tally[1:])
    assert "last ballot came first, carol's at 2026-03-01 20:00 UTC (before alice's at 2026-03-01 22:00 UTC)" in (
        run.output)
    carols = not_ballots(run.to("DM carol"))
    assert carols[-1].startswith("As Adjutant General of sirius you have one free Court Gossip action "
                                            "in round 3")
    assert sum("Court Gossip" in m.text for m in run.messages()) == 1
    assert_secrets_kept(run)


async def test_an_audit_of_bob_round_2_in_round_4_with_10_players_tv0_s03(tmp_path: Path) -> None:
    """TV0-S03: fee 1000 + 100·10 + 1000·(4−2) = 4000, 400 each; rounds 2 and 4 are published (R0-51), the
    correction of a moderator's entry included, rounds 1 and 3 not."""
    run = await run_transcript("audit.txt", tmp_path)
    doc = run.export
    (audit,) = doc["audits"]
    assert (audit["target"], audit["rounds"], audit["fee"], audit["share"]) == ("bob", [2, 4], 4000, 400)
    votes = {v["id"]: v for v in doc["player_votes"]}
    assert votes[1]["status"] == "enacted" and votes[1]["needed"] == 6
    assert votes[1]["supporters"] == ["alice", "carol", "dave", "erin", "frank", "gina"]
    assert votes[2]["status"] == "open" and votes[2]["supporters"] == []  # gina withdrew from the other audit
    assert [(t["round"], t["to"], t["what"], t["corrects"]) for t in doc["transfers"]] == [
        (1, "carol", "100 MS", None), (2, "dave", "500 MS", None), (2, "alice", "Planet Deneb", None),
        (2, "erin", "250 MS", None), (2, "erin", "300 MS", 4), (3, "frank", "700 MS", None), (4, "gina", "50 MS", None)]

    quotes = [m for m in run.messages() if m.text.startswith("Audit quote for")]
    assert [m.where for m in quotes] == ["DM alice", "DM carol"]  # each only to the asker (R0-53)
    assert "**4000 MS** in all, **400 MS** for each of the 10 active players" in quotes[0].text
    assert "**2000 MS** in all, **200 MS**" in quotes[1].text
    (published,) = [m for m in run.public() if m.text.startswith("**CHOAM audit of bob**")]
    assert published.where == "#sirius"
    assert "Round 2: 500 MS to dave\n  Round 2: Planet Deneb to alice\n  Round 2: 300 MS to erin" in published.text
    assert "Round 4: 50 MS to gina" in published.text
    assert "100 MS to carol" not in published.text and "700 MS" not in published.text and "250 MS" not in (
        published.text)
    assert "Each player pays: 400 MS" in published.text
    # before the audit, no transfer is ever shown in a channel
    before = run.output.split("mod #sirius: /pv enact vote:1")[0]
    assert not any("500 MS" in m.text for m in Run(before, {}, ()).public())
    assert_secrets_kept(run)


async def test_no_confidence_passes_is_enacted_and_a_new_election_closes_with_the_round(tmp_path: Path) -> None:
    """R0-35, R0-41, R0-42 (P0-19): 3 of 5 pass it; a withdrawal after passing changes nothing; enacting it removes
    Bob and opens election #2, which closes at the round's deadline; Bob may stand again (P0-08)."""
    run = await run_transcript("no-confidence.txt", tmp_path)
    doc = run.export
    (vote,) = doc["player_votes"]
    assert (vote["subject"], vote["status"], vote["needed"]) == ("no confidence", "enacted", 3)
    assert vote["supporters"] == ["alice", "carol", "dave"]
    first, second = doc["ag_elections"]
    assert (first["winner"], first["reason"]) == ("bob", "election")
    assert second["reason"] == "no confidence" and second["winner"] == "carol"
    assert second["closes"] == doc["rounds"][1]["deadline"] == "2026-03-03T21:00:00+00:00"
    assert doc["offices"] == {"adjutant_general": "carol"}
    assert doc["rounds"][1]["result"]["adjutant_general"] == "carol"
    passed = [m for m in run.public() if m.text.startswith("**Player vote passed: No Confidence in bob**")]
    assert [m.where for m in passed] == ["#sirius"]
    assert "→ #sirius/ag-election-2 (new thread, pinned):" in run.output
    assert not_ballots(run.to("DM bob"))[0].startswith("As Adjutant General of sirius")  # Bob in office
    assert not_ballots(run.to("DM carol"))[-1].startswith("As Adjutant General of sirius")
    assert_secrets_kept(run)


async def test_bad_input_in_threads_is_answered_and_changes_nothing(tmp_path: Path) -> None:
    run = await run_transcript("bad-input-in-threads.txt", tmp_path)
    doc = run.export
    assert doc["player_votes"] == []
    assert doc["ag_elections"][0]["ballots"] == []
    assert 'Did you mean “Vote: No Confidence”?' in run.output
    assert "No player in sirius is called “Zed”. Players: alice (House Atreides), bob (House Harkonnen), " \
           "carol (House Corrino)." in run.output
    assert "No player in sirius is called “Alcie”. Did you mean alice?" in run.output
    assert run.output.count("You are not a player in sirius.") == 2
    assert run.output.count("Nothing was recorded.") >= 15
    # a crisis ballot posted in public is not counted, and the reply does not repeat it
    (warning,) = [m for m in run.public() if m.text.startswith("Crisis ballots are secret")]
    assert warning.where == "#sirius/talk"
    assert not run.events("BallotCast")
    assert_secrets_kept(run)


async def test_perks_registries_and_end_game(tmp_path: Path) -> None:
    """R0-70..R0-72: ranks 1-3 get their perks by DM only; only the Pro tempore learns how an Elector voted (with
    its controller's ballot, R0-71). R0-44/R0-60: End Embargo needs a name with two embargoes; End Kanly refunds
    half of a 301 MS Guild fee, rounded down (P0-11). R0-61: End Game vetoed, then enacted at 25%."""
    run = await run_transcript("perks-embargo-kanly-end-game.txt", tmp_path)
    doc = run.export
    assert [(p["perk"], p["player"]) for p in doc["perks"]] == [
        ("pro_tempore", "bob"), ("choam", "alice"), ("master_at_arms", "carol")]
    for name, perk in (("bob", "Chancellor Pro tempore"), ("alice", "CHOAM Directorship"),
                       ("carol", "Master at Arms")):
        assert sum(perk in text for text in run.to(f"DM {name}")) == 1
    elector = [m for m in run.messages() if " voted **" in m.text]
    assert [(m.where, m.text.splitlines()[0]) for m in elector] == [
        ("DM bob", "In round 1, Count Jasek (5 votes) voted **Nay**.")]
    assert not_ballots(run.to("DM alice"))[-1].startswith("Only the Chancellor Pro tempore can ask")

    assert doc["embargoes"] == [{"by": "carol", "on": "dave", "since": "2026-03-02T18:00:00+00:00"}]
    assert doc["kanly"] == []
    enacted = {e["payload"]["vote"]: e["payload"] for e in run.events("PlayerVoteEnacted")}
    assert enacted[2]["refunds"] == {"alice": 150, "bob": 0}
    assert "Refund of half the Guild transport fee to alice: 150 MS." in run.output
    assert [(v["subject"], v["status"]) for v in doc["player_votes"]] == [
        ("end embargo", "enacted"), ("end kanly", "enacted"), ("end game", "vetoed"), ("end game", "enacted")]
    assert (doc["game"]["status"], doc["game"]["end_game_penalty"]) == ("ended", 25)
    assert doc["rounds"][2]["result"] is None  # the crisis of the last round is never resolved (R0-61)
    assert_secrets_kept(run)


def test_the_output_reader_splits_messages_by_destination() -> None:
    output = ("alice dm: Vote: Aye\n  → DM alice:\n      Ballot recorded for round 1 of sirius: **Aye**\n      more\n"
              "mod #sirius: /x\n  → #sirius (ephemeral to mod): ok\n  → #sirius/ag-election-1 (new thread, pinned):\n"
              "      **tally**\n\n      after a blank\n  (now 2026-03-01 20:00 UTC)\n  → #sirius: done\n")
    sent = Run(output, {}, ()).messages()
    assert [(m.where, m.marks, m.text) for m in sent] == [
        ("DM alice", "", "Ballot recorded for round 1 of sirius: **Aye**\nmore"),
        ("#sirius", "ephemeral to mod", "ok"),
        ("#sirius/ag-election-1", "new thread, pinned", "**tally**\n\nafter a blank"),
        ("#sirius", "", "done")]
    assert [m.where for m in Run(output, {}, ()).public()] == ["#sirius/ag-election-1", "#sirius"]


def not_ballots(texts: list[str]) -> list[str]:
    """The DMs other than the ballot a round's opening sends every player (issue 7)."""
    return [t for t in texts if "Press a button to vote" not in t]
