"""Players read the rules in words, never as codes such as "(R0-31)" or "P1-22" (issue 17; docs/rulings.md
"Rule codes"). The codes stay in docs/, in the event log (a setting's ``ruling``), in code comments and docstrings,
and in the one list a moderator asks for by its codes: ``/convocate rulings``, and in the rule ids ``/why`` shows
moderators (a ``Step``'s ``rule_id``, issue 19).

Two nets: every line Clerk prints in the golden transcripts, and every string literal in bot/ and engine/ that is
not a docstring or a setting's ``ruling=`` (replies, cards, command and option descriptions, and the RuleError and
ParseError messages that reach players)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"\b[RP]\d-\d+(?:\.\d+)?[a-z]?\b")


def printed_lines(out: str) -> list[tuple[int, str]]:
    """The lines Clerk printed (indented under ``  → ...``), skipping the answers to ``/convocate rulings`` and
    to a moderator's ``/why`` and ``explain:`` (the console's Explain this), which name each step's rule by its id
    for moderators only."""
    lines: list[tuple[int, str]] = []
    exempt = False
    for number, line in enumerate(out.splitlines(), 1):
        if line and not line.startswith(" "):  # what someone typed, or a directive
            moderator_why = re.match(r"^mod(?: #[\w-]+: /why\b| explain:)", line) is not None
            exempt = "/convocate rulings" in line or moderator_why
            continue
        if not exempt:
            lines.append((number, line))
    return lines


def test_no_rule_code_in_anything_the_transcripts_print() -> None:
    found = [f"{out.name}:{n}: {line.strip()}" for out in sorted((ROOT / "tests" / "transcripts").glob("*.out"))
             for n, line in printed_lines(out.read_text(encoding="utf-8")) if CODE.search(line)]
    assert not found, "rule codes where players read them:\n" + "\n".join(found[:20])


def test_the_transcript_scan_would_see_a_code() -> None:
    out = ("mod #g: /round close\n  → #g: The tie goes to alice (R0-31).\n"
           "mod #g: /convocate rulings\n  → #g (ephemeral to mod):\n      **seat_range_plus** (P4-14) = 0..4\n")
    assert [n for n, line in printed_lines(out) if CODE.search(line)] == [2]


def literals_with_codes(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # docstrings
            skipped.add(id(node.value))
        if isinstance(node, ast.keyword) and node.arg in ("ruling", "rule_id") and isinstance(
                node.value, ast.Constant):
            skipped.add(id(node.value))  # Setting(..., ruling="P4-14"): recorded in the event log
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Step"
                and len(node.args) > 2 and isinstance(node.args[2], ast.Constant)):
            skipped.add(id(node.args[2]))  # a /why step's rule id (engine/core/derivation.py): moderators only
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
            and CODE.search(node.value)]


def test_no_rule_code_in_a_string_clerk_can_send() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {text[:100]!r}"
             for layer in ("bot", "engine") for path in sorted((ROOT / layer).rglob("*.py"))
             for n, text in literals_with_codes(path.read_text(encoding="utf-8"))]
    assert not found, "rule codes in strings Clerk sends:\n" + "\n".join(found)


def test_the_source_scan_would_see_a_code() -> None:
    source = ('"""A docstring may say R0-31."""\nraise RuleError("A tie goes to alice (R0-31).")\n'
              'Setting("x", 1, "words", ruling="P4-14")\n'
              'Step("Aye 16 > Nay 7", "more Aye than Nay passes", "R0-18")\nStep("a", "b (R0-18)", rule_id="R0-18")\n')
    assert literals_with_codes(source) == [(2, "A tie goes to alice (R0-31)."), (5, "b (R0-18)")]
