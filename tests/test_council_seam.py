"""The proof that the ruleset seam is real (issue 15): the test ruleset "council" (tests/council) plugs in with no
edit of the project's code. Nothing under bot/ or engine/ names it, and it reaches no shipped ruleset's modules:
only the shared machinery (the records, the unit of work, the announcements, the outbox, the routes). Its pure
rules are as pure as a shipped ruleset's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COUNCIL = ROOT / "tests" / "council"
SHIPPED = ("landsdraad", "mylantium", "convocate")
IMPURE = {"discord", "sqlalchemy", "asyncio", "aiohttp", "random", "time", "bot", "engine.service", "engine.store"}


def imports(module: Path) -> list[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    return names + [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level]


@pytest.mark.parametrize("module", sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "engine").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_never_names_the_council(module: Path) -> None:
    assert not re.search("council", module.read_text(encoding="utf-8"), re.IGNORECASE)


@pytest.mark.parametrize("module", sorted(COUNCIL.glob("*.py")), ids=lambda p: p.name)
def test_the_council_uses_no_shipped_ruleset(module: Path) -> None:
    reached = [name for name in imports(module) if any(s in name for s in SHIPPED)]
    assert reached == []


def test_the_councils_rules_are_pure() -> None:
    impure = [name for name in imports(COUNCIL / "rules.py") if name.split(".")[0] in IMPURE
              or any(name.startswith(f"{p}.") or name == p for p in IMPURE)]
    assert impure == []
