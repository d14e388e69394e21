"""``/why`` rebuilds every number the Mylantium and Convocate golden transcripts post (issue 19). The transcripts
ask ``/why`` after the steps that post numbers; test_transcripts.py replays them to their golden outputs, and here
every posted election total, Standing Vote, push cost and Repeal count in those outputs must equal what the next
``/why`` on it answered, and none may go unasked. No replay of its own: the golden test's is the one."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .helpers import TRANSCRIPTS, Sent, sent_messages

SUBJECTS = {"mylantium": ("election", "approval", "fervor", "revolution", "fervor-level", "approval-level"),
            "convocate": ("standing", "push", "repeal")}
"""What is checked in a transcript of the ruleset."""


def blocks(output: str) -> list[tuple[str, list[Sent]]]:
    """The replay's output as (input line, the messages it brought) in order."""
    found: list[tuple[str, list[str]]] = []
    for line in output.splitlines():
        if line and not line.startswith(" "):
            found.append((line, []))
        elif found:
            found[-1][1].append(line)
    return [(head, sent_messages("\n".join(body))) for head, body in found]


def myl_posted(text: str) -> dict[str, int] | None:
    """An election's posted totals: by candidate (Primary) or by party (General Election)."""
    if re.match(r"\*\*[^*]+: the Primary of turn \d+\*\*$", text.split("\n", 1)[0]):
        return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(.+?): \*\*(\d+)\*\* = Faction Votes", text, re.M)}
    if re.match(r"\*\*[^*]+: the General Election of turn \d+\*\*$", text.split("\n", 1)[0]):
        return {m[1]: int(m[2]) for m in re.finditer(r"^(Whig|Federalist) \(.*?\): \*\*(\d+)\*\* = Faction",
                                                     text, re.M)}
    return None


def myl_answered(text: str) -> dict[str, int]:
    head = text.splitlines()[0]
    if head.startswith("**The Primary"):
        return {m[1]: int(m[2]) for m in re.finditer(r"(?:: |; )([^;:]+?) (\d+)", head)}
    return {m[1]: int(m[2]) for m in re.finditer(r"(Whig|Federalist) (\d+)", head)}


def standing_posted(text: str) -> dict[str, int] | None:
    if "Standing Vote:" not in text:
        return None
    return {m[1]: int(m[2]) for m in re.finditer(r"(?:^|Standing Vote: )\s*(\w+) \(\w+\): \*\*(\d+)\*\*", text, re.M)}


def standing_answered(text: str) -> dict[str, int]:
    """Every player's (``/why``) or one player's (``player:``) Standing Vote."""
    head = text.splitlines()[0]
    one = re.match(r"\*\*(\w+)'s Standing Vote\*\*: (\d+)$", head)
    if one:
        return {one[1]: int(one[2])}
    return {m[1]: int(m[2]) for m in re.finditer(r"(\w+) (\d+)", head.split("**: ", 1)[1])}


def push_posted(text: str) -> int | None:
    found = re.search(r"pushes \*\*\w+\*\* from \S+ to \*\*\S+\*\*, paying (?:[\d + ]+= )?(\d+) committed", text)
    return int(found[1]) if found else None


def push_answered(text: str) -> int:
    return int(re.search(r"\*\*: (\d+) committed Votes", text.splitlines()[0])[1])  # type: ignore[index]


def repeal_posted(text: str) -> tuple[int, int] | None:
    found = re.search(r"Standing Vote, counted .*?: \w+ \*\*(\d+)\*\*, \w+ \*\*(\d+)\*\*", text)
    return (int(found[1]), int(found[2])) if found else None


def repeal_answered(text: str) -> tuple[int, int]:
    found = re.search(r"\*\*: \w+ (\d+), \w+ (\d+):", text.splitlines()[0])
    assert found, text
    return int(found[1]), int(found[2])


def approval_posted(text: str) -> int | None:
    found = re.search(r"Approval Rating: \d+% → (\d+)%:", text)
    return int(found[1]) if found else None


def approval_answered(text: str) -> int:
    found = re.search(r"\*\*: \d+% → (\d+)%$", text.splitlines()[0])
    assert found, text
    return int(found[1])


def fervor_posted(text: str) -> tuple[int, int] | None:
    found = re.search(r"Revolutionary Fervor \+(\d+): now (\d+)", text)
    return (int(found[1]), int(found[2])) if found else None


def fervor_answered(text: str) -> tuple[int, int]:
    found = re.search(r"\*\*: \+(\d+): now (\d+)$", text.splitlines()[0])
    assert found, text
    return int(found[1]), int(found[2])


def fervor_level_posted(text: str) -> int | None:
    """Fervor as the government page (``/status``, the set-up summary) shows it."""
    found = re.search(r"^\s*Revolutionary Fervor: (\d+)$", text, re.M)
    return int(found[1]) if found else None


def approval_level_posted(text: str) -> int | None:
    found = re.search(r"^\s*Approval Rating: (\d+)%(?: \(the starting value\))?$", text, re.M)
    return int(found[1]) if found else None


def level_answered(text: str) -> int:
    found = re.match(r"\*\*.+ now\*\*: (\d+)%?$", text.splitlines()[0])
    assert found, text
    return int(found[1])


def revolution_posted(text: str) -> tuple[int, int] | None:
    found = re.search(r"the Counter-Revolutionary Treasury holds \$(\d+); the Vanguard has \$(\d+)", text)
    return (int(found[1]), int(found[2])) if found else None


def revolution_answered(text: str) -> tuple[int, int]:
    found = re.search(r"Treasury \$(\d+), the Vanguard \$(\d+): ", text.splitlines()[0])
    assert found, text
    return int(found[1]), int(found[2])


Reader = tuple[Callable[[str], object], Callable[[str], object]]
READERS: dict[str, Reader] = {"election": (myl_posted, myl_answered),
                              "standing": (standing_posted, standing_answered),
                              "push": (push_posted, push_answered), "repeal": (repeal_posted, repeal_answered),
                              "approval": (approval_posted, approval_answered),
                              "fervor": (fervor_posted, fervor_answered),
                              "revolution": (revolution_posted, revolution_answered),
                              "fervor-level": (fervor_level_posted, level_answered),
                              "approval-level": (approval_level_posted, level_answered)}


def subject_of(head: str, ruleset: str) -> str | None:
    """The subject a ``/why`` input line asks about (its ruleset's first when it names none), else None."""
    found = re.match(r"^\w+ #[\w-]+: /why\b(?:.*?what:([\w-]+))?", head)
    if found is None:
        return None
    return found[1] or SUBJECTS[ruleset][0]


@pytest.mark.parametrize(("name", "ruleset", "least"), [
    ("mylantium-election.txt", "mylantium", {"election": 2, "fervor-level": 3, "approval-level": 3}),
    ("mylantium-revolution.txt", "mylantium", {"approval": 1, "fervor": 1, "revolution": 3, "fervor-level": 3,
                                               "approval-level": 3}),
    ("import-mylantium.txt", "mylantium", {"fervor-level": 2, "approval-level": 2}),
    ("forms-intent.txt", "mylantium", {"fervor-level": 1, "approval-level": 1}),  # a set-up summary's
    ("convocate-statute-and-repeal.txt", "convocate", {"standing": 3, "push": 1, "repeal": 1}),
    ("import-convocate.txt", "convocate", {"standing": 2})])
def test_why_rebuilds_every_posted_number(name: str, ruleset: str, least: dict[str, int]) -> None:
    """Each posted number is held until a ``/why`` on its subject answers; that answer must equal every number
    held (nothing changed between them), and at the end nothing may be left unasked. A message edited in place
    (a set-up summary) holds only its latest figures."""
    output = (TRANSCRIPTS / name.replace(".txt", ".out")).read_text(encoding="utf-8")
    waiting: dict[str, list[object]] = {s: [] for s in SUBJECTS[ruleset]}
    checked = {s: 0 for s in SUBJECTS[ruleset]}
    for head, messages in blocks(output):
        subject = subject_of(head, ruleset)
        if subject is None:
            for m in messages:
                if m.where.startswith("DM ") or "ephemeral" in m.marks:
                    continue
                for s in SUBJECTS[ruleset]:
                    number = READERS[s][0](m.text)
                    if number is None:
                        continue
                    if "edits" in m.marks and waiting[s]:
                        waiting[s][-1] = number
                    else:
                        waiting[s].append(number)
            continue
        answer = "\n".join(m.text for m in messages)
        assert "**" in answer.splitlines()[0], (head, answer)  # a derivation, not a refusal
        got = READERS[subject][1](answer)
        for posted in waiting[subject]:
            if isinstance(got, dict) and isinstance(posted, dict) and got.keys() < posted.keys():
                assert {k: posted[k] for k in got} == got, (head, posted, answer)  # one player's, asked alone
            else:
                assert got == posted, (head, posted, answer)
        if not (isinstance(got, dict) and len(got) == 1 and subject == "standing"):
            checked[subject] += len(waiting[subject])
            waiting[subject] = []
    assert not any(waiting.values()), f"posted but never asked: {waiting}"
    for subject, at_least in least.items():
        assert checked[subject] >= at_least, checked
