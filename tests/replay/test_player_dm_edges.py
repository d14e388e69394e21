"""A player's DMs that the players' play-test left rough (tests/transcripts/player-dm-edges.txt): P4.6 (struck-out
text), P5.1 (a DM of no text), P5.2 (no withdrawing a crisis ballot), P5.3 (a game tag before the count, two tags),
P5.4 (a ballot after the close: P0-15), P5.5 (``Vote: Nay?``). The golden output is checked by test_transcripts.py."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_a_players_rough_dms_are_answered_saying_what_was_wrong(tmp_path: Path) -> None:
    run = await run_transcript("player-dm-edges.txt", tmp_path)
    bob, jenny = run.to("DM bob")[1:], run.to("DM jenny")  # bob: after the round's opening DM
    assert bob[0] == ("Your message has struck-out text (~~Aye~~). I don't read struck-out text as what you mean, "
                      "nor guess what you do: send the line without it.\nDid you mean “Vote: Nay”?\n"
                      "Nothing was recorded.")
    assert bob[1].startswith("Your message has struck-out text (~~Vote: Aye~~)") and "Did you mean" not in bob[1]
    no_text = [n for n, text in enumerate(bob) if text.startswith("Your message had no text I can read (I read only "
                                                                  "text: not pictures, files or stickers)")]
    assert len(no_text) == 2 and all(bob[n + 1].startswith("**Clerk in #sirius") for n in no_text)
    back = [text for text in bob if "a crisis ballot cannot be taken back, but `Vote: Abstain` makes yours count "
                                    "for neither side" in text]
    assert len(back) == 2 and all("Did you mean “Vote: Abstain”?" in text for text in back)
    assert "Ballot recorded for round 1 of sirius: **Nay**" in bob[-2]  # Vote: Nay?
    assert "Revote recorded for round 1 of sirius: **Aye** (was Nay)" in bob[-1]  # Vote: Aye!
    assert "Ballot recorded for round 1 of sirius: **Aye**" in jenny[-7]  # Vote: Aye #sirius, 11
    assert "it names 2 games (#sirius, #orion); a ballot is for one game" in jenny[-6]
    assert "Did you mean" not in jenny[-6]
    assert jenny[-3] == ("Round 1 of sirius is closed (its deadline was 2026-03-28 18:00:00 UTC); ballots are no "
                         "longer accepted, and your message arrived at 2026-03-28 19:00:00 UTC. Your ballot (Nay) "
                         "stands.\nNothing was recorded.")
    assert jenny[-1].startswith("Round 1 of orion is closed (its deadline was 2026-03-29 18:00:00 UTC)")
    assert jenny[-1].endswith("You cast no ballot in it.\nNothing was recorded.")
    sirius = next(r for r in run.export["rounds"] if r["number"] == 1)
    assert sirius["result"]["aye"] == 8 and sirius["result"]["nay"] == 11  # bob Aye (Aye!), jenny Nay
