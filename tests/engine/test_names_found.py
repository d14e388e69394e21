"""Finding a name a person types (engine/core/text.py ``same_name``, ``find_named``; play-test P4.1 follow-up):
names are kept without markdown, so a name typed with its markdown again is found, and a name kept with markdown
before then is found as given and as it shows (docs/rulings.md "Names are kept without markdown")."""

from __future__ import annotations

import pytest

from bot.actions.suggest import Suggestion, ranked
from engine.core.text import find_named, same_name


@pytest.mark.parametrize("typed", ["Ann", "ann", "  ANN ", "**Ann**", "__Ann__", "`Ann`", "[Ann](http://ev.il)",
                                   "# Ann", "~~Ann~~", "||Ann||"])
def test_a_kept_name_is_found_as_typed_with_or_without_markdown(typed: str) -> None:
    assert same_name("Ann", typed)


def test_a_name_kept_with_markdown_before_is_found_as_given_and_as_shown() -> None:
    assert same_name("**Ann Lee**", "**ann lee**") and same_name("**Ann Lee**", "Ann  Lee")


@pytest.mark.parametrize(("kept", "typed"), [("Ann", "Anne"), ("Ann", "***"), ("**", "***"), ("Ann", "")])
def test_other_names_and_nothing_but_markdown_are_not_the_name(kept: str, typed: str) -> None:
    assert not same_name(kept, typed)


def test_the_name_as_typed_comes_before_one_read_without_markdown() -> None:
    """Of two names kept before names lost their markdown, `**Ann**` and `Ann`, each is found as given."""
    names = ["Ann", "**Ann**"]
    assert find_named(names, "**Ann**", str) == "**Ann**"
    assert find_named(names, "ann", str) == "Ann"
    assert find_named(["Deneb", "Caladan"], "[Caladan](http://x)", str) == "Caladan"
    assert find_named(["Deneb"], "**Arrakis**", str) is None


def test_autocomplete_ranks_a_name_typed_with_markdown() -> None:
    found = [Suggestion("Deneb", "Deneb"), Suggestion("Caladan", "Caladan")]
    assert [s.value for s in ranked(found, "**Den")] == ["Deneb"]
