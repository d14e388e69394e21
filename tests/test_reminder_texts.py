"""Every kind of reminder a ruleset's service sends has its text in a front (``Front.reminders``): rulesets whose
fronts leave one out are refused at start (``bot.plugins.load_plugins``), not when the first reminder of that kind
falls due."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.actions.rulesets import FRONTS
from bot.plugins import load_plugins, unworded_reminders
from bot.settings import ConfigError
from engine.service.clerk import RULESETS


def test_the_shipped_fronts_word_every_kind_the_shipped_rulesets_remind_of() -> None:
    assert unworded_reminders(RULESETS, FRONTS) == []
    assert load_plugins([]).all_fronts == FRONTS


def test_a_kind_no_front_words_is_named() -> None:
    wordless = tuple(dataclasses.replace(f, reminders={}) if f.reminders else f for f in FRONTS)
    assert unworded_reminders(RULESETS, wordless) == ["ag", "general", "primary", "round"]


def test_a_plugin_that_reminds_of_a_kind_no_front_words_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mute_plugin.py").write_text(
        "from bot.actions.front import Front\n"
        "from engine.service.reminders import ReminderForm\n"
        "from engine.service.ruleset import Ruleset\n"
        "async def _none(*args):\n    return []\n"
        "RULESET = Ruleset('mute', 'Mute', reminders=(ReminderForm('hush', _none, _none),))\n"
        "FRONT = Front('mute')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError, match=r"^rulesets: no front words the reminders of kind hush \(Front.reminders\)$"):
        load_plugins(["mute_plugin"])
