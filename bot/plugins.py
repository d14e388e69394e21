"""Rulesets that are not shipped, played by naming them in config.toml (``rulesets = ["mygame"]``): each name is an
importable module with a ``RULESET`` (``engine.service.ruleset.Ruleset``) and a ``FRONT`` (``bot.actions.front.Front``).
The front ends (``bot/discord/run.py``, ``bot/console/cli.py``) pass them on as ``Clerk(..., rulesets=RULESETS +
plugins.rulesets)`` and ``App(clerk, fronts=FRONTS + plugins.fronts)``; the shipped lists are not edited."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.actions.front import Front
from bot.actions.rulesets import FRONTS
from bot.settings import ConfigError
from engine.service.clerk import RULESETS
from engine.service.ruleset import Ruleset


@dataclass(frozen=True)
class Plugins:
    rulesets: tuple[Ruleset, ...] = ()
    fronts: tuple[Front, ...] = ()

    @property
    def all_rulesets(self) -> tuple[Ruleset, ...]:
        """The shipped rulesets and these, in that order: the Clerk's ``rulesets``."""
        return RULESETS + self.rulesets

    @property
    def all_fronts(self) -> tuple[Front, ...]:
        """The shipped fronts and these: the App's ``fronts``."""
        return FRONTS + self.fronts


NO_PLUGINS = Plugins()
"""The shipped rulesets only."""


def load_plugins(names: Sequence[str]) -> Plugins:
    """Import each module named; a ``ConfigError`` of one line for one that cannot be imported, lacks ``RULESET`` or
    ``FRONT``, or whose two records disagree on the name or take a shipped one."""
    rulesets: list[Ruleset] = []
    fronts: list[Front] = []
    taken = {r.name for r in RULESETS}
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception as error:  # an ImportError, or whatever the module raised as it was imported
            raise ConfigError(f"rulesets: cannot import {name!r} ({type(error).__name__}: {error})") from None
        ruleset = getattr(module, "RULESET", None)
        front = getattr(module, "FRONT", None)
        if not isinstance(ruleset, Ruleset) or not isinstance(front, Front):
            raise ConfigError(f"rulesets: {name!r} needs a RULESET (engine.service.ruleset.Ruleset) and a FRONT "
                              "(bot.actions.front.Front)")
        if ruleset.name != front.name:
            raise ConfigError(f"rulesets: {name!r} names its ruleset {ruleset.name!r} but its front {front.name!r}")
        if ruleset.name in taken:
            raise ConfigError(f"rulesets: {name!r} plays {ruleset.name!r}, a ruleset Clerk already has")
        taken.add(ruleset.name)
        rulesets.append(ruleset)
        fronts.append(front)
    plugins = Plugins(tuple(rulesets), tuple(fronts))
    unworded = unworded_reminders(plugins.all_rulesets, plugins.all_fronts)
    if unworded:
        raise ConfigError(f"rulesets: no front words the reminders of kind {', '.join(unworded)} (Front.reminders)")
    return plugins


def unworded_reminders(rulesets: Sequence[Ruleset], fronts: Sequence[Front]) -> list[str]:
    """The reminder kinds a ruleset's service sends (``Ruleset.reminders``) that no front has the text of
    (``Front.reminders``): refused at start rather than failing when the first such reminder falls due."""
    kinds = {form.kind for ruleset in rulesets for form in ruleset.reminders}
    return sorted(kinds - {kind for front in fronts for kind in front.reminders})
