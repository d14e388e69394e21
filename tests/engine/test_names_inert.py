"""Names kept without Discord markdown (play-test P4.1, P4.2; docs/rulings.md "Names are kept without markdown"):
``inert_name`` is what a name Clerk did not write becomes where it enters Clerk, and how a typed name is read to
find one."""

from __future__ import annotations

import random
import string

import pytest

from bot.actions.context import Actor, UserRef
from engine.core.text import escaped, inert_name, normalise, typed_back

KEPT = [
    ("**Result: PASSED**", "Result: PASSED"),
    ("# PASSED", "PASSED"),
    ("## PASSED", "PASSED"),
    ("-# tiny", "tiny"),
    ("> quoted", "quoted"),
    ("- listed", "listed"),
    ("1. Legion", "Legion"),
    ("||secret||", "secret"),
    ("[Vote here](http://ev.il)", "Vote here"),
    ("`tick", "tick"),
    ("***lone**", "lone"),
    ("~~struck~~", "struck"),
    ("__under__", "under"),
    ("_slanted_", "slanted"),
    ("@everyone", "everyone"),
    ("<@&123456789012345678> boss", "boss"),
    ("<:smile:123> Bob", ":smile: Bob"),
    ("back\\", "back"),
    ("> # **x**", "x"),
    ("Ｂｏｂ", "Bob"),
    ("Bob\u202e  Smith\u200b", "Bob Smith"),
]
UNCHANGED = ["jenny_k", "jenny_", "P_A", "a_b_c", "#1 Pilot", "House Atreides", "Count Jasek", "O'Neil", "x.y",
             "Dr. No", "-x", "3 Sons", "C# Guild", "a - b", "Rock & Roll"]


@pytest.mark.parametrize(("given", "kept"), KEPT)
def test_a_name_is_kept_without_its_markdown(given: str, kept: str) -> None:
    assert inert_name(given) == kept
    assert inert_name(kept) == kept  # a kept name reads the same again
    assert inert_name(normalise(given)) == kept  # typed in a form, it finds the name it was kept as


@pytest.mark.parametrize("name", UNCHANGED)
def test_a_name_without_markdown_is_kept_as_given(name: str) -> None:
    assert inert_name(name) == name


def test_a_name_of_nothing_but_markdown_is_empty_and_a_discord_name_then_shows_a_question_mark() -> None:
    assert inert_name("***") == inert_name("__") == inert_name("# ") == ""
    assert UserRef(1, "__").name == "?"


def test_a_discord_username_is_kept_without_its_underscore_pairs_only() -> None:
    """Since Discord's 2023 change a username has lower-case letters, digits, ``_`` and ``.``: only ``_`` pairs
    around a word (``__x__``, ``_x_``) are markdown."""
    assert UserRef(1, "jenny_k").name == "jenny_k"
    assert UserRef(1, "__jenny__").name == Actor(1, "__jenny__").name == "jenny"
    assert Actor(1, "_x_").name == "x"
    assert UserRef(1, "a.b_").name == "a.b_"


def test_escaped_shows_a_name_as_given() -> None:
    assert escaped("**x** [a](b)") == "\\*\\*x\\*\\* \\[a\\]\\(b\\)"


def test_the_shortcut_for_plain_usernames_agrees_with_the_whole_reading() -> None:
    """``inert_name`` runs on every DM (the sender's name): a name of letters, digits, dots and single inner ``_``
    (as Discord usernames are) skips the regular expressions, and that must change nothing: every such name the
    shortcut takes, the whole reading leaves as it is."""
    from engine.core.text import _INERT, _inert

    rng = random.Random(20261207)
    alphabet = string.ascii_letters + string.digits + "._"
    taken = 0
    for _ in range(20000):
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        if _INERT.fullmatch(name):
            taken += 1
            assert _inert(name) == name == inert_name(name)
    assert taken > 10000
    for name in ("7.", "_jen_", "a__b__", "__init__"):
        assert not _INERT.fullmatch(name)


def test_a_name_not_found_is_quoted_back_as_typed() -> None:
    """A refusal quotes a name it could not find as it was typed: its markdown escaped so it shows, not rendered;
    a plain name without backslashes; a long one cut."""
    assert typed_back("||Sela||") == "“\\|\\|Sela\\|\\|”"
    assert typed_back("**Ann**") == "“\\*\\*Ann\\*\\*”"
    assert typed_back("  Lee   Adams. ") == "“Lee Adams.”"
    assert typed_back("x" * 100, limit=10) == "“xxxxxxxxxx…”"
