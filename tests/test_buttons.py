"""The platform-neutral parts of buttons: the Button's limits, the routing of a press by its custom_id's prefix,
handle_button's answers for a button nobody handles or a malformed one, and the transcript's press line."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place
from bot.actions.messages import handle_button
from bot.actions.outbox import Button, Here
from bot.actions.rulesets import ROUTES
from bot.console.session import buttons_line
from bot.console.transcript import Press, TranscriptError, parse_line


def test_a_button_keeps_to_discords_limits() -> None:
    with pytest.raises(ValueError):
        Button("Yes", "clerk:" + "x" * 100)
    with pytest.raises(ValueError):
        Button("Yes", "clerk:x", "blurple")
    assert buttons_line((Button("Yes", "clerk:a:yes"), Button("No", "clerk:a:no"))) == "[Yes] [No]"
    assert buttons_line((Button("Yes", "clerk:a:yes"),), ids=True) == "[Yes] (clerk:a:yes)"


def test_presses_are_routed_by_the_prefix_of_their_custom_id() -> None:
    assert ROUTES.buttons.handler("clerk:second:1:1:0:no") is not None
    assert ROUTES.buttons.handler("clerk:coup:1:1:1:yes") is not None
    assert ROUTES.buttons.handler("clerk:secondx:1") is None
    assert ROUTES.buttons.handler("other:second:1") is None


async def test_unknown_and_malformed_buttons_are_answered_ephemerally() -> None:
    ctx = Ctx(Actor(5, "alice"), Place(None, None), "int:1", datetime(2026, 3, 1, tzinfo=UTC))
    app = App(None)  # type: ignore[arg-type]  (neither press reaches the service)
    (out,) = await handle_button(app, ctx, "clerk:nothing:1")
    assert isinstance(out.to, Here) and out.ephemeral and "no longer in use" in out.text
    (out,) = await handle_button(app, ctx, "clerk:second:x:y")
    assert out.ephemeral and "not one of Clerk's offers to second" in out.text and "Nothing was recorded" in out.text
    (out,) = await handle_button(app, ctx, "clerk:coup:1:2:3:maybe")
    assert out.ephemeral and "not one of Clerk's coup offers" in out.text


def test_the_press_line() -> None:
    assert parse_line("carol press: Second with Tessaly", 7) == Press(7, "carol", "Second with Tessaly")
    assert parse_line("bea PRESS:No coup  # late", 3) == Press(3, "bea", "No coup")
    with pytest.raises(TranscriptError):
        parse_line("bea press:", 1)
