"""The slash-command table within Discord's limits: names 1-32 lowercase characters, descriptions 1-100
characters, at most 25 options and 25 choices, required options before optional ones."""

from __future__ import annotations

import re

import bot.actions.handlers  # noqa: F401  (registers every command)
from bot.actions.commands import COMMANDS

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def test_every_command_fits_discord() -> None:
    problems = []
    for key, spec in COMMANDS.items():
        for part in key.split():
            if not NAME.match(part):
                problems.append(f"/{key}: name part {part!r}")
        if not 1 <= len(spec.description) <= 100:
            problems.append(f"/{key}: description is {len(spec.description)} characters")
        if len(spec.options) > 25:
            problems.append(f"/{key}: {len(spec.options)} options")
        seen_optional = False
        for option in spec.options:
            if not NAME.match(option.name):
                problems.append(f"/{key}: option name {option.name!r}")
            if not 1 <= len(option.description) <= 100:
                problems.append(f"/{key} {option.name}: description is {len(option.description)} characters")
            if len(option.choices) > 25:
                problems.append(f"/{key} {option.name}: {len(option.choices)} choices")
            if option.required and seen_optional:
                problems.append(f"/{key} {option.name}: required after an optional option")
            seen_optional = seen_optional or not option.required
    assert problems == []
