"""The ``write_wait`` setting (config.toml): how long a write waits for another writer's lock before it is refused
(engine/store/database.py). Seconds, above 0 and at most an hour; 30 s when left out; a bad value fails in one line."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.settings import ConfigError, load_settings


def settings_with(tmp_path: Path, line: str) -> object:
    config = tmp_path / "config.toml"
    config.write_text(line + "\n")
    return load_settings(config, env={})


def test_write_wait_is_read_in_seconds_and_defaults_to_thirty(tmp_path: Path) -> None:
    assert settings_with(tmp_path, "write_wait = 5").write_wait == timedelta(seconds=5)  # type: ignore[attr-defined]
    assert settings_with(tmp_path, "write_wait = 0.5").write_wait == timedelta(milliseconds=500)  # type: ignore[attr-defined]
    assert settings_with(tmp_path, "").write_wait == timedelta(seconds=30)  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["0", "-1", "4000", "true", '"30"'])
def test_a_bad_write_wait_fails_in_one_line(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="write_wait must be a number of seconds above 0 and at most 3600"):
        settings_with(tmp_path, f"write_wait = {value}")
