"""The seam between the shared machinery and the rulesets (issue 15, docs/architecture.md "Adding a ruleset").

Outside a ruleset's own packages (``engine/<name>/``, ``engine/service/<name>/``, ``bot/actions/<name>/``, its tables
``engine/store/models/<name>.py``) and the two
composition roots that list the rulesets (``engine/service/clerk.py``, ``bot/actions/rulesets.py``), no module names a
ruleset: no string that is or contains its name (docstrings and comments may explain), and no import of its packages.
A ruleset's packages import no other ruleset's.

``PENDING`` lists what still crosses the seam, module by module (nothing, since every ruleset moved into its
packages). The test fails both when something new crosses it and when a listed module no longer does (then take it
off the list), so the list only shrinks."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from engine.service.clerk import RULESETS

ROOT = Path(__file__).resolve().parents[1]
NAMES = tuple(r.name for r in RULESETS)
ROOTS = {"engine/service/clerk.py", "bot/actions/rulesets.py"}
LAYERS = r"(?:engine|engine\.service|engine\.store\.models|bot\.actions)"
PACKAGE = re.compile(rf"^{LAYERS}\.(" + "|".join(NAMES) + r")(?:\.|$)")


def owner(rel: str) -> str | None:
    """The ruleset whose packages hold the module, or None for a shared module."""
    for name in NAMES:
        if rel == f"engine/store/models/{name}.py" or any(
                rel.startswith(f"{layer}{name}/") for layer in ("engine/", "engine/service/", "bot/actions/")):
            return name
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


NAMED = re.compile(r"\b(" + "|".join(NAMES) + r")\b", re.I)


@cache
def parsed(source: str) -> ast.AST:
    return ast.parse(source)


def crossings(rel: str, source: str) -> list[str]:
    """What the module ``rel`` (its path from the repository's root) says or imports of rulesets it does not
    belong to."""
    mine = owner(rel)
    tree = parsed(source)
    docs = _docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found |= {f"names {n}" for n in {m.lower() for m in NAMED.findall(node.value)} if n != mine}
        modules = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        for module in modules:
            match = PACKAGE.match(module)
            if match and match.group(1) != mine:
                found.add(f"imports {module}")
    return sorted(found)


def seam() -> dict[str, list[str]]:
    out = {}
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("bot/**/*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in ROOTS and (found := crossings(rel, path.read_text(encoding="utf-8"))):
            out[rel] = found
    return out


PENDING: dict[str, list[str]] = {}


def test_no_shared_module_names_a_ruleset_except_those_still_pending() -> None:
    found = seam()
    new = {m: f for m, f in found.items() if f != PENDING.get(m)}
    gone = sorted(m for m in PENDING if m not in found)
    assert not new, f"crossing the seam (move it into the ruleset's package, or loop over the records): {new}"
    assert not gone, f"no longer crossing the seam, take them off PENDING: {gone}"


def test_the_probe_sees_a_name_and_an_import_but_not_a_docstring_or_the_rulesets_own() -> None:
    source = ('"""Landsdraad is named here, in a docstring."""\nimport engine.landsdraad.ballot\n'
              'from engine.service.mylantium import x\nX = "a Convocate game"\n')
    assert crossings("bot/actions/shared.py", source) == [
        "imports engine.landsdraad.ballot", "imports engine.service.mylantium", "names convocate"]
    assert crossings("bot/actions/convocate/front.py", source) == [
        "imports engine.landsdraad.ballot", "imports engine.service.mylantium"]


def reaches(rel: str, source: str) -> list[str]:
    """The rulesets' service objects (``clerk.<name>``) that the module ``rel`` reaches into when it is not theirs."""
    mine = owner(rel)
    return sorted({f"reaches .{node.attr}" for node in ast.walk(parsed(source))
                   if isinstance(node, ast.Attribute) and node.attr in NAMES and node.attr != mine})


def test_no_shared_module_reaches_into_a_ruleset_service() -> None:
    found = {}
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("bot/**/*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in ROOTS and (what := reaches(rel, path.read_text(encoding="utf-8"))):
            found[rel] = what
    assert not found, f"shared code calling a ruleset's service (go through a shared service or a record): {found}"
    assert reaches("bot/discord/delivery.py", "clerk.landsdraad.ledger.player(1, 2)") == ["reaches .landsdraad"]
