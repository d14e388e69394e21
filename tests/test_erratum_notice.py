"""The private notice of a correction with its erratum buttons (``bot.actions.moderators.erratum_notice``): one
shared helper, which names no ruleset; Mylantium's and the Convocate's errata modules pass their own labels, keys
and erratum command (the two copies of ``told_in`` that ``duplicates`` found)."""

from __future__ import annotations

from bot.actions import moderators
from bot.actions.convocate import errata as convocate_errata
from bot.actions.mylantium import errata as mylantium_errata
from bot.actions.outbox import INSTEAD, Button, ToChannel

PLACE = ToChannel(7, moderators_of=1)


def test_the_notice_says_nothing_of_no_correction_and_offers_a_button_only_for_a_result() -> None:
    assert moderators.erratum_notice(PLACE, None, [("x", "k")], "/round erratum") == []
    (alone,) = moderators.erratum_notice(None, "Nothing posted changes.", [], "/round erratum")
    assert alone.ephemeral and alone.text == "Nothing posted changes." and not alone.buttons


def test_the_buttons_are_the_rulesets_own_and_at_most_five() -> None:
    offers = [(f"Post erratum: turn {n}", f"clerk:x:3:{n}") for n in range(1, 8)]
    mine, theirs = moderators.erratum_notice(PLACE, "Turn 1 comes out differently.", offers, "/election erratum")
    assert mine.ephemeral and not mine.buttons
    assert theirs.to == PLACE and theirs.text == "Turn 1 comes out differently." and not theirs.ephemeral
    assert theirs.buttons == tuple(Button(label, key, "secondary") for label, key in offers[:5])
    assert theirs.extra == {INSTEAD: "(Post an erratum with /election erratum in the game channel.)"}


def test_mylantium_and_the_convocate_use_the_shared_notice() -> None:
    for module in (mylantium_errata, convocate_errata):
        assert not hasattr(module, "INSTEAD"), f"{module.__name__} builds its own notice again"
        assert module.erratum_notice is moderators.erratum_notice
