"""Counts and phrasing in what players read (issue 17): "1 planet", never "1 planets" or "Faction Tax(es)"; "militia
at Junction" when there is one place; the Convocate's refusals and Penalty notes say what is actually missing."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from bot.actions.convocate.render import resolved_card
from bot.actions.landsdraad.ledger_render import perks_card
from engine.core.words import either, plural, plural_of
from engine.landsdraad.perks import Perk
from engine.mylantium.business import InPlay
from engine.mylantium.fervor import fervor_change
from engine.service.convocate.views import MotionView
from engine.service.landsdraad.perks import PerkGrant, PerksAwarded
from engine.service.views import GameView

GAME = GameView(1, 10, 20, "senate", "convocate", None, 1)


def test_plural_says_one_thing_in_the_singular() -> None:
    assert [plural(n, "planet") for n in (0, 1, 2)] == ["0 planets", "1 planet", "2 planets"]
    assert plural(0, "Faction Tax") == "0 Faction Taxes" and plural(1, "Faction Tax") == "1 Faction Tax"
    assert [plural_of(w) for w in ("subsidy", "city", "day", "Monopoly", "pension")] == [
        "subsidies", "cities", "days", "Monopolies", "pensions"]
    assert plural(3, "person", "people") == "3 people"
    assert either(["Junction"]) == "Junction" and either(["Junction", "Deneb"]) == "one of Junction, Deneb"


def test_fervor_causes_count_in_words() -> None:
    result = fervor_change(InPlay(income_tax=30, faction_taxes=0, subsidies=1, pensions=0), (), unfunded_last_turn=1)
    causes = [c.cause for c in result.changes]
    assert "an Income Tax and only 0 Faction Taxes (2 or fewer)" in causes
    assert "1 pension went unfunded in the previous turn" in causes
    assert "1 subsidy but only 0 pensions" in causes
    assert not any("(s)" in c or "(es)" in c for c in causes)


def test_master_at_arms_with_one_location_names_it() -> None:
    def card(*locations: str) -> str:
        grant = PerkGrant(Perk.MASTER_AT_ARMS, 1, "alice", 9, 2, "sirius", locations)
        return perks_card(PerksAwarded(replace(GAME, ruleset="landsdraad"), 2, (grant,), (), ())).as_text()
    assert "militia at Junction" in card("Junction") and "one of" not in card("Junction")
    assert "militia at one of Junction, Deneb" in card("Junction", "Deneb")


def motion(morality: str | None) -> MotionView:
    return MotionView(GAME, 1, "motion", "Open the Archives", "alice", 1, "Dorn", "seat",
                      {"morality": morality, "box": "adds"}, "resolved", ("alice", "bob"), (), None, None, None, (),
                      "bob", "Tess", {"effects": [["Moved", "Draw a card."]], "penalties": [],
                                      "unknown": ["Dorn", "Tess"]})


def test_a_missing_motion_morality_is_said_to_be_the_motions() -> None:
    missing = resolved_card(motion(None)).as_text()
    assert "unknown: this Motion's Morality is not on the board" in missing and "Dorn, Tess by hand" in missing
    theirs = resolved_card(motion("Loyal")).as_text()
    assert "Morality not on the board for Dorn, Tess; the table checks their Penalty by hand." in theirs


def bracketed_plurals(source: str) -> list[int]:
    """Lines of string literals with "(s)" or "(es)", leaving out docstrings and what goes to the operator's log."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("debug", "info", "warning", "error", "exception"):
            skipped.update(id(a) for a in node.args)
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skipped and ("(s)" in n.value or "(es)" in n.value)]


def test_no_renderer_writes_a_plural_in_brackets() -> None:
    root = Path(__file__).resolve().parent.parent
    found = [f"{p}:{n}" for layer in ("bot/actions", "engine") for p in sorted((root / layer).rglob("*.py"))
             for n in bracketed_plurals(p.read_text(encoding="utf-8"))]
    assert not found, found
    assert bracketed_plurals('"""Doc (s)."""\nlog.info("%d x(s)", n)\nreply(f"{n} planet(s)")\n') == [3]
