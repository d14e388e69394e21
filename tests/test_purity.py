"""The pure rules packages stay pure (DESIGN.md, "Layers"), and no rule arithmetic uses ``round()`` (RULINGS.md).

Pure packages: engine/core and every engine/<ruleset>, i.e. every package under engine/ except the
service and the store. They may import the standard library (minus the forbidden modules below) and
other pure packages only.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"
IMPURE_PACKAGES = {"service", "store"}
FORBIDDEN = {"discord", "sqlalchemy", "asyncio", "aiohttp", "random", "time", "alembic", "aiosqlite", "asyncpg"}
CLOCK_CALLS = {"now", "utcnow", "today"}


def _pure_packages() -> list[Path]:
    return sorted(p for p in ENGINE.iterdir() if (p / "__init__.py").exists() and p.name not in IMPURE_PACKAGES)


def _modules(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


PURE_MODULES = [m for package in _pure_packages() for m in _modules(package)]


def _imported(tree: ast.AST, module: Path) -> list[tuple[int, str]]:
    """Every absolute module name a module imports, relative imports resolved against its package."""
    names: list[tuple[int, str]] = []
    package = module.relative_to(ENGINE.parent).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                names.append((node.lineno, f"{base}.{node.module}" if node.module else base))
            else:
                names.append((node.lineno, node.module or ""))
    return names


def test_the_pure_packages_are_found() -> None:
    names = {p.name for p in _pure_packages()}
    assert {"core", "landsdraad"} <= names
    assert not names & IMPURE_PACKAGES
    assert len(PURE_MODULES) >= 10


def _impurities(source: str, module: Path) -> list[str]:
    tree = ast.parse(source, str(module))
    pure = {f"engine.{p.name}" for p in _pure_packages()}
    bad: list[str] = []
    for line, name in _imported(tree, module):
        top = name.split(".")[0]
        if top in FORBIDDEN:
            bad.append(f"line {line}: imports {name}")
        elif top == "engine" and name != "engine" and ".".join(name.split(".")[:2]) not in pure:
            bad.append(f"line {line}: imports {name}, which is not a pure package")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in {"__import__", "import_module"}:
                bad.append(f"line {node.lineno}: dynamic import")
            if isinstance(func, ast.Attribute) and func.attr in CLOCK_CALLS:
                bad.append(f"line {node.lineno}: reads the clock (.{func.attr}()); time must come in as an argument")
    return bad


def _round_calls(source: str) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "round")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "round"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "builtins")
        )
    ]


def test_the_checks_catch_what_they_should() -> None:
    here = ENGINE / "landsdraad" / "example.py"
    source = (
        "import random\nfrom time import monotonic\nimport sqlalchemy.orm\nfrom asyncio import sleep\n"
        "from discord.ext import commands\nfrom ..service import clerk\nfrom engine.store.models import Game\n"
        "from . import tally\nfrom ..core.errors import RuleError\nimport datetime\nx = datetime.datetime.now()\n"
    )
    found = "\n".join(_impurities(source, here))
    for expected in ("random", "time", "sqlalchemy.orm", "asyncio", "discord.ext", "engine.service",
                     "engine.store.models", ".now()"):
        assert expected in found
    assert "engine.landsdraad " not in found and "engine.core.errors" not in found
    assert _round_calls("a = round(1.5)\nb = builtins.round(2.5)\nc = floor(x)\n") == [1, 2]


@pytest.mark.parametrize("module", PURE_MODULES, ids=lambda m: str(m.relative_to(ENGINE.parent)))
def test_pure_module_imports_nothing_impure(module: Path) -> None:
    bad = _impurities(module.read_text(encoding="utf-8"), module)
    assert not bad, f"{module.relative_to(ENGINE.parent)} is not pure:\n" + "\n".join(bad)


@pytest.mark.parametrize("module", _modules(ENGINE), ids=lambda m: str(m.relative_to(ENGINE.parent)))
def test_no_round_builtin_in_engine(module: Path) -> None:
    """RULINGS.md: rounding is explicit (floor, ceil, half up); Python's round() is never used for a rule."""
    calls = _round_calls(module.read_text(encoding="utf-8"))
    where = module.relative_to(ENGINE.parent)
    assert not calls, f"round() called in {where} at lines {calls}; use engine.core.rounding"


def test_importing_the_pure_packages_loads_no_impure_library() -> None:
    """The same check at run time, in a clean interpreter, so indirect imports are caught too."""
    modules = [".".join(m.relative_to(ENGINE.parent).with_suffix("").parts) for m in PURE_MODULES]
    modules = [m.removesuffix(".__init__") for m in modules]
    watched = sorted(FORBIDDEN - {"time", "random"})  # the standard library itself may load these two
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(','.join(m for m in {watched!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ENGINE.parent, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"importing the pure packages loaded: {out.stdout.strip()}"
