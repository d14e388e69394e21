"""The platform-neutral parts of select menus: the Select's limits and how an option is found, the routing of a
choice by its custom_id's prefix, handle_select's answer for a menu nobody handles, and the transcript's choose
line."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place
from bot.actions.messages import handle_select
from bot.actions.outbox import Choice, Select
from bot.actions.rulesets import ROUTES
from bot.console.session import menu_line
from bot.console.transcript import Choose, Press, TranscriptError, parse_line, parse_transcript

GAMES = (Choice("#sirius (Landsdraad)", "1"), Choice("#arrakis (Landsdraad)", "2"))


def test_a_select_keeps_to_discords_limits_and_finds_its_options() -> None:
    with pytest.raises(ValueError):
        Select("clerk-menu:" + "x" * 100, GAMES)
    with pytest.raises(ValueError):
        Select("clerk-menu:dm:1", ())
    with pytest.raises(ValueError):
        Select("clerk-menu:dm:1", tuple(Choice(f"#g{i}", str(i)) for i in range(26)))
    menu = Select("clerk-menu:dm:1", GAMES)
    assert menu.option("#Sirius") == GAMES[0] and menu.option("2") == GAMES[1]
    assert menu.option("#arrakis (landsdraad)") == GAMES[1] and menu.option("#dune") is None
    assert menu_line(menu) == "[menu: #sirius (Landsdraad) | #arrakis (Landsdraad)]"
    assert menu_line(menu, ids=True).endswith("(clerk-menu:dm:1)")


async def test_choices_are_routed_by_the_prefix_of_their_custom_id() -> None:
    assert ROUTES.selects.handler("clerk-menu:dm:12") is not None
    assert ROUTES.selects.handler("clerk-menu:dmx:12") is None and ROUTES.selects.handler("clerk:dm:12") is None
    ctx = Ctx(Actor(5, "alice"), Place(None, None), "int:1", datetime(2026, 3, 1, tzinfo=UTC))
    (out,) = await handle_select(App(None), ctx, "clerk-menu:nothing:1", ("1",))  # type: ignore[arg-type]
    assert "no longer in use" in out.text and not out.ephemeral  # in a DM


def test_the_choose_line() -> None:
    assert parse_line("alice choose: #sirius", 4) == Choose(4, "alice", "#sirius")
    assert isinstance(parse_line("bea CHOOSE:#arrakis (Landsdraad)  # a comment", 2), Press)
    with pytest.raises(TranscriptError):
        parse_line("bea choose:", 1)
    events, errors = parse_transcript(["alice dm: Vote: Aye", "alice choose: #sirius", "! redeliver"])
    assert not errors and len(events) == 3  # a choice can be delivered again
