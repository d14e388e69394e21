"""The ``message_content`` setting (config.toml, or MESSAGE_CONTENT in the environment): whether Clerk asks Discord
for the privileged Message Content intent (``true``, ``false``, ``auto``: ask and start again without it when
refused; bot/discord/run.py). A bad value fails in one line. And a form that @mentions the bot is read without the
mention (bot/discord/client.py), as Discord gives the text of such a message without the intent."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.client import intents, without_mention
from bot.settings import ConfigError, load_settings


def content_setting(tmp_path: Path, line: str, env: dict[str, str] | None = None) -> str:
    config = tmp_path / "config.toml"
    config.write_text(line + "\n")
    return load_settings(config, env=env or {}).message_content


def test_message_content_is_auto_unless_set_in_the_file_or_the_environment(tmp_path: Path) -> None:
    assert content_setting(tmp_path, "") == "auto"
    assert content_setting(tmp_path, "message_content = false") == "false"
    assert content_setting(tmp_path, 'message_content = "True"') == "true"
    assert content_setting(tmp_path, "message_content = true", {"MESSAGE_CONTENT": "auto"}) == "auto"


@pytest.mark.parametrize("line, env", [('message_content = "maybe"', {}), ("message_content = 1", {}),
                                       ("", {"MESSAGE_CONTENT": "yes"})])
def test_a_bad_message_content_fails_in_one_line(tmp_path: Path, line: str, env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match=r"(message_content|MESSAGE_CONTENT) must be true, false or auto"):
        content_setting(tmp_path, line, env)


def test_the_intents_ask_for_message_content_only_when_told() -> None:
    assert intents().message_content and not intents(False).message_content
    assert intents(False).guild_messages and intents(False).dm_messages and not intents(False).members


def test_the_bots_own_mention_is_taken_out_wherever_it_is() -> None:
    assert without_mention("<@42> Vote: No Confidence", 42) == "Vote: No Confidence"
    assert without_mention("Vote: No Confidence <@!42>", 42) == "Vote: No Confidence"
    assert without_mention("AG Vote: <@7> <@42>", 42) == "AG Vote: <@7>"  # another player's mention stays
