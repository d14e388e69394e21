"""The pacer's guard against Discord's invalid request limit (bot/discord/pacing.py). Discord (Rate Limits, "Invalid
Request Limit"): an IP that makes too many invalid HTTP requests (those answered 401, 403 or 429) is temporarily
restricted from the API, currently at 10,000 per 10 minutes; a 429 with ``X-RateLimit-Scope: shared`` is not
counted. The end-to-end test with 2,000 refused DMs is tests/e2e/test_closed_dms.py."""

from __future__ import annotations

import logging

import pytest

from bot.discord import pacing
from bot.discord.pacing import INVALID_LIMIT, INVALID_WINDOW, Pacer


def test_the_invalid_answers_are_counted_in_a_ten_minute_window_and_slow_then_hold_requests(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    monkeypatch.setattr(pacing.time, "monotonic", lambda: now[0])
    pacer = Pacer()
    assert (pacer.slow_at, pacer.stop_at) == (INVALID_LIMIT // 4, INVALID_LIMIT * 9 // 10)  # well before 10,000
    pacer.slow_at, pacer.stop_at = 3, 5
    for status, scope in ((401, None), (403, None), (429, "shared"), (404, None), (200, None), (429, "user")):
        pacer.note_answer(status, scope)
    assert pacer.invalid_in_window() == 3  # 401, 403 and the 429 of the bot's own bucket
    pacer._last_start = now[0]
    with caplog.at_level(logging.INFO, logger="clerk.discord.pacing"):
        assert pacer._invalid_wait(now[0]) == pytest.approx(pacing.SLOW_SPACING)  # slowed: spaced out
        now[0] += 1
        pacer.note_answer(403)
        pacer.note_answer(403)
        assert pacer._invalid_wait(now[0]) == pytest.approx(INVALID_WINDOW - 1)  # held until the oldest leave
        now[0] += INVALID_WINDOW - 0.5
        assert pacer.invalid_in_window() == 2 and pacer._invalid_wait(now[0]) == 0.0  # the first three left
    said = [r.getMessage() for r in caplog.records]
    assert any("3 invalid requests (401/403/429) in the last 10 minutes" in m and "slowing" in m for m in said)
    assert any("holding requests until the oldest leave the window" in m for m in said)
    assert any("full speed again" in m for m in said)
