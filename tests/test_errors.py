"""Unexpected errors: the user gets a short apology with an error id, never a traceback, and the same id is in
the log next to the traceback (issue 7)."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.actions.commands import App, Command, dispatch
from bot.actions.context import Actor, Ctx, Place
from bot.actions.messages import handle_dm
from bot.actions.rulesets import COMMANDS, DM_FORMS


class Broken(Exception):
    pass


async def _boom(*_: Any) -> list[Any]:
    raise Broken("the database caught fire")


class NoGames:
    async def game_in_channel(self, channel_id: int) -> None:
        return None


class NoClerk:
    games = NoGames()


def ctx() -> Ctx:
    return Ctx(Actor(7, "jenny", manages_server=True), Place(1, 2), "src-1", datetime(2026, 3, 1, tzinfo=UTC))


def error_id(text: str) -> str:
    found = re.search(r"error id \*\*([0-9a-f]{8})\*\*", text)
    assert found, text
    return found[1]


async def test_a_failing_command_answers_with_the_error_id_it_logged(caplog: pytest.LogCaptureFixture) -> None:
    COMMANDS["boom"] = Command("boom", "test only", (), _boom, game="none")
    try:
        with caplog.at_level(logging.ERROR, logger="clerk.errors"):
            (answer,) = await dispatch(App(NoClerk()), ctx(), "boom", {})  # type: ignore[arg-type]
    finally:
        del COMMANDS["boom"]
    assert answer.ephemeral and "Traceback" not in answer.text and "caught fire" not in answer.text
    eid = error_id(answer.text)
    (record,) = [r for r in caplog.records if eid in r.getMessage()]
    assert record.exc_info is not None and isinstance(record.exc_info[1], Broken)


async def test_a_failing_dm_form_answers_with_the_error_id(caplog: pytest.LogCaptureFixture) -> None:
    form = (lambda text: text.startswith("Boom:"), _boom)
    DM_FORMS.insert(0, form)
    try:
        with caplog.at_level(logging.ERROR, logger="clerk.errors"):
            (answer,) = await handle_dm(App(NoClerk()), ctx(), "Boom: now")  # type: ignore[arg-type]
    finally:
        DM_FORMS.remove(form)
    assert "NOT recorded" in answer.text
    assert any(error_id(answer.text) in r.getMessage() for r in caplog.records)
