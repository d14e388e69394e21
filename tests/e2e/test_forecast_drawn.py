"""/forecast draws its chart in the chart thread, not on the event loop, and the same Forecast asked for again is
not drawn again; once the Forecast changes, its chart is drawn anew (bot/actions/drawing.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.actions import drawing
from bot.actions.landsdraad import charts

from .clerkbot import Harness


async def test_a_forecast_asked_for_again_unchanged_is_drawn_once_off_the_loop(
        clerk_bot: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = clerk_bot
    await h.new_game()
    drawing._kept.clear()  # the round's own Forecast, posted as it opened, is the same drawing
    threads: list[str] = []
    real = charts.forecast_png

    def counted(*args: Any, **kwargs: Any) -> bytes:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(charts, "forecast_png", counted)
    first = (await h.run(h.alice, "forecast", h.game)).first
    again = (await h.run(h.bob, "forecast", h.game)).first
    assert [name for name, _ in first.files] == ["forecast.png"]
    assert again.files == first.files and first.files[0][1].startswith(b"\x89PNG")
    assert len(threads) == 1 and threads[0].startswith("clerk-charts")

    await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=3, command=3, intrigue=3, roll=2)
    changed = (await h.run(h.alice, "forecast", h.game)).first
    assert len(threads) == 2 and changed.files != first.files
