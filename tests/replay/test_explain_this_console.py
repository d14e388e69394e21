"""**Explain this** in the console (issue 19): ``NAME explain: N`` on the card marked ``[Explain this: card N]``
answers, only to NAME, what ``/why`` answers of that result, through Discord's entry (``handle_message_command``).
One transcript of each ruleset, replayed with lines added; the crisis ballots' secrecy; bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.console.cli import console, replay

from .helpers import TRANSCRIPTS, fresh_database
from .test_why_mylantium_convocate import blocks


async def run(name: str, tmp_path: Path, extra: list[str]) -> tuple[int, str, str | None]:
    lines = (TRANSCRIPTS / name).read_text(encoding="utf-8").splitlines() + extra
    tmp_path.mkdir(parents=True, exist_ok=True)
    out: list[str] = []
    result = await replay(lines, database_url=(await fresh_database(tmp_path)).url, seed=0, write=out.append,
                          name=name, files=TRANSCRIPTS)
    return result.code, "\n".join(out) + "\n", result.error


def card_numbers(output: str) -> dict[str, int]:
    """The first line of each numbered card -> its number."""
    found = {}
    for _, sent in blocks(output):
        for m in sent:
            mark = re.search(r"\[Explain this: card (\d+)\]$", m.text)
            if mark:
                found[m.text.splitlines()[0]] = int(mark[1])
    return found


def answers(output: str, line: str) -> list[str]:
    """The texts answering input ``line`` (the last time it occurs), each checked private to its asker."""
    head, sent = [b for b in blocks(output) if b[0] == line][-1]
    who = head.split()[0]
    assert sent and all(m.marks == f"ephemeral to {who}" for m in sent), sent
    return [m.text for m in sent]


async def same_as_why(tmp_path: Path, name: str, title: str, asks: dict[str, str]) -> dict[str, list[str]]:
    """Each asker's Explain this on the card titled ``title`` equals their ``/why`` (``asks``: asker -> the /why
    line); the answers by asker."""
    first = (TRANSCRIPTS / name.replace(".txt", ".out")).read_text(encoding="utf-8")  # its replay, byte for byte
    number = card_numbers(first)[title]  # (tests/replay/test_transcripts.py checks that it is the replay's output)
    extra = [line for who, why in asks.items() for line in (f"{who} explain: {number}", why)]
    code, output, error = await run(name, tmp_path / "b", extra)
    assert code == 0, error
    got = {}
    for who, why in asks.items():
        got[who] = answers(output, f"{who} explain: {number}")
        assert got[who] == answers(output, why)
    return got


async def test_a_landsdraad_round_result_and_its_ballots_secrecy(tmp_path: Path) -> None:
    got = await same_as_why(tmp_path, "explain-this.txt", "**sirius, round 1: the measure PASSED**",
                            {"alice": "alice #sirius: /why round:1", "bob": "bob #sirius: /why round:1",
                             "mod": "mod #sirius: /why round:1"})
    alice, bob, mod = ("\n".join(got[w]) for w in ("alice", "bob", "mod"))
    assert "alice: 10 votes, all for Aye" in alice and "bob:" not in alice and "carol:" not in alice
    assert "bob: 7 votes, all for Nay" in bob and "alice:" not in bob and "carol:" not in bob
    assert all(f in mod for f in ("alice: 10 votes, all for Aye", "bob: 7 votes, all for Nay",
                                  "carol: 10 votes, all for Abstain", "(R0-14)"))


async def test_an_ag_result(tmp_path: Path) -> None:
    got = await same_as_why(tmp_path, "ag-election.txt", "**sirius: carol is the Adjutant General**",
                            {"bob": "bob #sirius: /why what:ag round:1"})
    assert "carol is elected" in got["bob"][0] or "carol elected" in got["bob"][0]


async def test_a_mylantium_election(tmp_path: Path) -> None:
    got = await same_as_why(tmp_path, "mylantium-election.txt", "**mylantium: the General Election of turn 1**",
                            {"mod": "mod #mylantium: /why what:election round:1 name:general"})
    assert got["mod"][0].startswith("**The General Election of turn 1**: Federalists win, Whig 44, Federalist 64")


async def test_a_convocate_repeal_card(tmp_path: Path) -> None:
    got = await same_as_why(tmp_path, "convocate-statute-and-repeal.txt",
                            "**senate: Motion of Repeal against Statute 3498C**",
                            {"carol": "carol #senate: /why what:repeal round:2"})
    assert "bob 4, alice 1: repealed" in got["carol"][0]


async def test_bad_input_is_answered(tmp_path: Path) -> None:
    code, _, error = await run("explain-this.txt", tmp_path / "a", ["bob explain: 9"])
    assert code == 2 and error is not None
    assert "there is no card 9: the result cards shown so far are numbered 1 to 3" in error
    code, _, error = await run("explain-this.txt", tmp_path / "b", ["bob explain: the result"])
    assert code == 2 and error is not None and "which is not a card number" in error and "NAME explain: CARD" in error


def test_bad_input_in_the_console_is_answered_and_the_console_carries_on(tmp_path: Path) -> None:
    out: list[str] = []
    console(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", 0, io.StringIO("bob explain: x\nbob explain: 1\n"),
            out.append)
    text = "\n".join(out)
    assert "  ? expected `NAME explain: CARD`" in text and "got “x”, which is not a card number" in text
    assert "  ? there is no card 1: no result card has been shown yet" in text
