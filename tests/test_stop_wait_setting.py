"""The ``stop_wait`` setting (config.toml): how long a clean stop (SIGTERM, Ctrl-C) waits for the messages still to
be sent before the bot closes (bot/discord/client.py ``ClerkBot.stop_cleanly``). Seconds from 0 (do not wait) to 600;
5 when left out (within ``docker stop``'s 10 s); a bad value fails in one line."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.settings import ConfigError, Settings, load_settings


def settings_with(tmp_path: Path, line: str) -> Settings:
    config = tmp_path / "config.toml"
    config.write_text(line + "\n")
    return load_settings(config, env={})


def test_stop_wait_is_read_in_seconds_and_defaults_to_five(tmp_path: Path) -> None:
    assert settings_with(tmp_path, "stop_wait = 20").stop_wait == timedelta(seconds=20)
    assert settings_with(tmp_path, "stop_wait = 0").stop_wait == timedelta(0)
    assert settings_with(tmp_path, "stop_wait = 0.5").stop_wait == timedelta(milliseconds=500)
    assert settings_with(tmp_path, "").stop_wait == timedelta(seconds=5)


@pytest.mark.parametrize("value", ["-1", "601", "true", '"5"'])
def test_a_bad_stop_wait_fails_in_one_line(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match=r"stop_wait must be a number of seconds from 0 to 600, not "):
        settings_with(tmp_path, f"stop_wait = {value}")
