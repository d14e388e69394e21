"""Every rule (R), test vector (TV) and ruling (P) of ../shared/rules-spec.md is cited by a test, so a number with
no test behind it is noticed.

``SPEC`` lists the spec's numbers, grouped by prefix (``"R0": "1-7 10-20"``: document 000's rules 1 to 7 and 10 to
20). The list is kept here so that the check runs where ../shared is not (a fresh clone's CI); where the spec is at
hand, ``test_the_list_is_the_specs`` compares the two, so a number the spec gains fails here until it is listed, and
then fails ``test_every_number_is_cited_by_a_test`` until a test cites it. The groups are written without the
numbers' own form, so that this file cites nothing itself (it is not searched either).

``HELD_BACK``: the spec withholds 21 invented vectors "for acceptance testing" (only their numbers appear, in lines
such as "(Vector TV0-Inn is held back for acceptance testing.)"). There is nothing in them to test, so they need no
citation; when the spec publishes one, the list check fails and the vector needs its test like any other.

A citation is the number as written (``R0-nn``, ``TV0-Snn``: two digits) in a Python file under tests/ (a
docstring, a comment, a string), in a comment line of a transcript (tests/transcripts/*.txt), or in a test's name
with underscores (``test_P0_nn_...``, ``test_tv3_inn_...``). A range (``R3-nn..R3-mm``) cites its two ends, not what
lies between: say which part of a rule a test checks by its own number. Pure reads of text files: no database, no
import of the code.

The examples in this file use numbers the spec does not have (``R0-98``), so that a grep of tests/ for the spec's
numbers does not take them for citations.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SPEC_FILE = ROOT.parent / "shared" / "rules-spec.md"

SPEC: dict[str, str] = {
    "R0": "1-7 10-20 30-35 40-44 50-53 60-61 70-73",
    "R1": "1-7 10-14 20-21 30-33 40-46 50",
    "R3": "1-8 10-23",
    "R4": "1-17",
    "P0": "1-22",
    "P1": "1-23",
    "P3": "1-16",
    "P4": "1-15",
    "TV0-S": "1-9",
    "TV0-I": "1-16",
    "TV1-S": "1-3",
    "TV1-I": "1-16",
    "TV3-S": "1-9",
    "TV3-I": "1-15",
    "TV4-S": "1-3",
    "TV4-I": "1-19",
}
"""Every R, P and TV number of rules-spec.md (§1.2, §2.2, §3.1, §4.2; §6.1's index; the vectors of §1.3..§4.5)."""

HELD_BACK: dict[str, str] = {
    "TV0-I": "4 7 9 11 12 14",
    "TV1-I": "2 5 9 12 14",
    "TV3-I": "1 3 6 10 11",
    "TV4-I": "3 6 9 11 14",
}
"""The vectors rules-spec.md holds back for acceptance testing: numbers without content."""

NUMBER = re.compile(r"\b(?:[RP]\d-\d+|TV\d-[SI]\d+)\b")
"""A number as the spec writes it."""
HELD = re.compile(r"\(Vector (TV\d-[SI]\d+) is held back for acceptance testing\.\)")
CITED = re.compile(r"\b(?:[RP]\d-\d{2}|TV\d-[SI]\d{2})\b")
"""A number as a test cites it (``"R1-9" not in text``, one digit, is a check on a text, not a citation)."""
NAMED = re.compile(r"(?i)(?<![a-z0-9])([rp]\d_\d{2}|tv\d_[si]\d{2})(?![0-9])")
"""A number in a test's name: ``P0_nn``, ``tv3_inn``."""
TEST_NAME = re.compile(r"\bdef (test_\w+)")


def expand(groups: dict[str, str]) -> set[str]:
    """``{"R9": "1-3 10"}`` → R9-01, R9-02, R9-03, R9-10; ``{"TV9-I": "4"}`` → TV9-I04."""
    numbers: set[str] = set()
    for prefix, spans in groups.items():
        joint = "" if prefix.startswith("TV") else "-"
        for span in spans.split():
            first, _, last = span.partition("-")
            numbers.update(f"{prefix}{joint}{n:02d}" for n in range(int(first), int(last or first) + 1))
    return numbers


def citations(text: str, *, transcript: bool = False) -> set[str]:
    """The numbers ``text`` cites: as written anywhere in a Python file, in the comment lines (``#``) of a transcript,
    and with underscores in a test's name."""
    if transcript:
        return {n for line in text.splitlines() if line.startswith("#") for n in CITED.findall(line)}
    found = set(CITED.findall(text))
    for name in TEST_NAME.findall(text):
        found.update(m.upper().replace("_", "-") for m in NAMED.findall(name))
    return found


def cited() -> dict[str, set[str]]:
    """Each number cited under tests/, with the files citing it (this one left out)."""
    where: dict[str, set[str]] = {}
    files = [(p, False) for p in TESTS.rglob("*.py") if p.resolve() != Path(__file__).resolve()]
    files += [(p, True) for p in (TESTS / "transcripts").glob("*.txt")]
    for path, transcript in files:
        for number in citations(path.read_text(encoding="utf-8"), transcript=transcript):
            where.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    return where


def test_every_number_is_cited_by_a_test() -> None:
    missing = sorted(expand(SPEC) - expand(HELD_BACK) - set(cited()), key=_order)
    assert not missing, (
        "rules-spec.md numbers no test cites: " + ", ".join(missing) + ". Find the test that checks it and cite the "
        "number in its docstring or a comment, saying which part it checks; else write the test (docs/rulings.md "
        "for a vector that cannot be tested as written).")


def test_every_number_cited_is_one_the_spec_has() -> None:
    """A mistyped number (``R0-98``, ``TV3-S98``) cites nothing: the rule it meant would look untested."""
    unknown = {n: sorted(files) for n, files in cited().items() if n not in expand(SPEC)}
    assert not unknown, f"cited in tests/ but not in rules-spec.md: {unknown}"


def test_the_list_is_the_specs() -> None:
    if not SPEC_FILE.is_file():
        pytest.skip(f"{SPEC_FILE} is not here (a clone without ../shared): the list is checked where it is")
    text = SPEC_FILE.read_text(encoding="utf-8")
    spec, held = set(NUMBER.findall(text)), set(HELD.findall(text))
    listed, listed_held = expand(SPEC), expand(HELD_BACK)
    assert spec == listed, (f"rules-spec.md has {sorted(spec - listed, key=_order)} not in SPEC, and SPEC has "
                            f"{sorted(listed - spec, key=_order)} the spec no longer has: update SPEC, then cite each "
                            "new number in a test")
    assert held == listed_held, (f"held back now: {sorted(held, key=_order)}; HELD_BACK says "
                                 f"{sorted(listed_held, key=_order)}. A vector the spec has published needs its test")


def test_the_held_back_vectors_are_vectors_of_the_spec() -> None:
    assert expand(HELD_BACK) <= expand(SPEC)
    assert len(expand(HELD_BACK)) == 21


def test_what_counts_as_a_citation() -> None:
    text = ('def test_TV0_S98_sirius() -> None:\n    """R0-98 and P0-98; R3-97..R3-99."""\n\n'
            "def test_tv3_i98_weathervane() -> None:\n    pass  # TV4-I98\n\n"
            'def helper_r0_97() -> None:\n    assert "R1-9" not in "text"\n')
    assert citations(text) == {"TV0-S98", "R0-98", "P0-98", "R3-97", "R3-99", "TV3-I98", "TV4-I98"}
    transcript = "# A round (R0-98).\nmod #g: /round open crisis:\"R0-97\"\n  → #g: R0-99\n"
    assert citations(transcript, transcript=True) == {"R0-98"}
    assert expand({"R9": "1-3 10", "TV9-I": "4"}) == {"R9-01", "R9-02", "R9-03", "R9-10", "TV9-I04"}


def _order(number: str) -> tuple[str, int]:
    head, tail = number[:-2], number[-2:]
    return head, int(tail)
