"""Play-test W (docs/playtests/auditor-2026-12-08.md), tests/transcripts/ended-game-audit.txt: a game read after its
End Game vote. W1: the base d3 seed and the void round's seed are revealed (the export's ``dice``). W2: the enacted
audit lists the three players who carried it though one was removed since. W3: a No Confidence vote that passed
and was never enacted stays in ``/pv list`` and ``/ag status`` says where it stands; ``/pv enact`` of a number that
has not passed names the votes awaiting. W4: ``/round status`` calls the round the vote ended void. W5: the player
added mid-game is announced. W7: ``/why what:forecast`` after the end does not say "if the game ended now". The
golden output is checked by test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_a_game_read_after_its_end_game_vote(tmp_path: Path) -> None:
    run = await run_transcript("ended-game-audit.txt", tmp_path)
    assert [(s["scope"], "seed" in s) for s in run.export["dice"]] == [(0, True), (1, True), (2, True), (3, True)]
    audit = next(v for v in run.export["player_votes"] if v["subject"] == "audit")
    assert (audit["status"], audit["supporters"], audit["needed"]) == ("enacted", ["anna", "chen", "dora"], 3)

    mod = run.to("#kaitain")
    refused = [t for t in mod if t.startswith("Player vote #1 (Audit) is enacted")]
    assert refused[0].endswith("Awaiting you now: #2 No Confidence in boris (round 2).")
    assert refused[1].endswith("Awaiting you now: #2 No Confidence in boris (round 2); #3 End Game (round 3).")
    lists = [t for t in mod if "Passed in an earlier round" in t]
    assert lists[0] == ("No player votes in round 3 of kaitain yet.\nPassed in an earlier round, still awaiting the "
                        "moderator (`/pv enact` or `/pv veto`):\n#2 No Confidence in boris (round 2): passed, 3 of 3")
    assert "never enacted or vetoed (the game has ended)" in lists[1]
    ag = [t for t in mod if t.startswith("Adjutant General of kaitain")]
    assert "No Confidence in boris passed in round 2 and awaits the moderator (`/pv enact vote:2`" in ag[0]
    assert ag[1].startswith("Adjutant General of kaitain: boris.\n"), "after the end no ballot is held"
    assert any(t.startswith("**kaitain: round 3 (void)**") and "Result: none: the game ended before" in t
               for t in mod)
    assert "**felix** (House Moritani) has joined **kaitain** (added by @mod)." in mod
    forecast = next(t for t in mod if t.startswith("**The Victory Point Forecast of kaitain**"))
    assert forecast.endswith("The game has ended: these are the rates of its final scores (`/why what:score` explains "
                             "a player's); goals and prestige are on top of it.")
    assert "If the game ended now" not in forecast


CLOSED = "kaitain ended on 2027-01-06 00:00 UTC; its ledger is closed. A moderator's /game export has everything."


async def test_an_ended_games_forms_help_and_reopening(tmp_path: Path) -> None:
    """tests/transcripts/ended-game-forms.txt. W7: ``/why votes round:1`` after an erratum names it (what was posted,
    what it corrected it to) and, to the player, the votes the corrected ledger counts; ``Elector:``,
    ``Transfer:`` and ``Audit quote:`` by DM after the end get the one closed line (the quote refused before it is
    worked out, ``/audit quote`` too); ``/help`` and the DM ``help`` say the game has ended and what still answers.
    X5.6/X5.7: ``/game reopen`` gives the AG election running at the end the 18 h it had left, and says so."""
    run = await run_transcript("ended-game-forms.txt", tmp_path)
    why = {m.marks.split()[-1]: m.text for m in run.messages() if m.text.startswith("**")
           and "'s votes in round 1 of kaitain**" in m.text}
    erratum = ("Erratum #15 corrected round 1's result: posted Aye 20, Nay 19, Abstain 0 (passed), corrected Aye 24, "
               "Nay 19, Abstain 0 (passed)")
    assert erratum in why["anna"] and erratum in why["boris"], why
    assert "round 1 counts anna's votes as 24, not the 20 its close read" in why["anna"]
    assert "counts boris's votes" not in why["boris"] and "anna" not in why["boris"]

    for who, count in (("anna", 3), ("boris", 1)):
        closed = [t for t in run.to(f"DM {who}") if t.startswith("kaitain ended on")]
        assert closed == [f"{CLOSED}\nNothing was recorded."] * count, run.to(f"DM {who}")
    assert not any("Audit quote for" in t or "has ended." in t for t in run.to("DM boris") + run.to("DM anna"))
    assert CLOSED in run.to("#kaitain")

    dm_help = next(t for t in run.to("DM chen") if "Clerk in #kaitain" in t)
    assert dm_help.startswith(f"**Clerk in #kaitain (Landsdraad): ended**\n**{CLOSED}**\nNothing you DM me"), dm_help
    assert "`/score`" in dm_help and "`/game reopen`" in dm_help and "Vote:" not in dm_help
    slash_help = next(t for t in run.to("#kaitain") if t.startswith("**Clerk in #kaitain"))
    assert "Slash commands that still answer" in slash_help and "`/game reopen [reason]`" in slash_help
    assert "`/game export`" in slash_help and "`/round open" not in slash_help and "/audit quote" not in slash_help
    # what the reading commands give once the game has ended (not only "if the game ended now")
    assert "or your final score once it has" in slash_help and "once ended, the final scores" in slash_help

    reopened = next(t for t in run.to("#kaitain") if t.startswith("**kaitain** was reopened"))
    assert reopened.endswith("\nWhat was running when it ended runs on with the time it had left then: Adjutant "
                             "General election #1 now ends 2027-01-08 18:00 UTC."), reopened
    status = next(t for t in run.to("#kaitain") if t.startswith("Adjutant General of kaitain"))
    assert "Closes: 2027-01-08 18:00 UTC (in 18h)" in status
    # reopened: the Forecast and a score do not say the game has ended, and say what the final scores they show are
    forecast = next(t for t in run.to("#kaitain") if t.startswith("kaitain was reopened to correct a mistake;"))
    assert "**kaitain: final scores**" in forecast
    assert not any(t.startswith("kaitain has ended.") for t in run.to("#kaitain"))
    mine = next(t for t in run.to("#kaitain") if t.startswith("**anna in kaitain: final score"))
    assert mine.endswith("reopened it to correct a mistake, and it stands until they end it again."), mine
