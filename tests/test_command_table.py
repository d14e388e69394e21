"""The slash-command table within Discord's limits: names 1-32 lowercase characters, descriptions 1-100
characters, at most 25 options and 25 choices, required options before optional ones."""

from __future__ import annotations

import re

from bot.actions.rulesets import COMMANDS, FRONTS

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


NAMED = re.compile(r"\b(games?|players?|electors?|planets?|holdings?|candidates?|cards?|statutes?|territor(y|ies)|"
                   r"units?|buildings?|convocants?|characters?|homeworlds?|factors?|locations?|seats?)\b", re.I)
"""Words that say an option names something in the game."""
FREE_TEXT = {
    ("pv support", "subject"): "a subject that has names in it, not a name",
    ("game new", "name"): "a new game's name",
    ("player add", "faction"): "a new faction's name",
    ("card add", "morality"): "describes the card",
    ("card add", "penalty"): "describes the card",
    ("card add", "faces"): "describes the card",
    ("card set", "morality"): "describes the card",
    ("card set", "penalty"): "describes the card",
    ("card set", "faces"): "describes the card",
    ("card set", "face"): "a face as printed on the card",
    ("statute declare", "statute"): "a new Statute from the player's hand, which Clerk does not track",
    ("transfer record", "what"): "what was transferred, in words",
    ("building add", "name"): "a new building's name",
    ("candidate add", "name"): "a new candidate's name",
    ("candidate set", "rename"): "a candidate's corrected name",
    ("why", "name"): "what it names depends on the subject and the ruleset (a score's category or award, a "
                     "candidate, a card); each subject refuses a name it does not know and lists the ones it takes",
}
"""Options whose name or description mentions a game thing but that take free text, and why."""


def test_every_option_that_names_something_suggests_it() -> None:
    from bot.actions.suggest import GAME
    from bot.actions.suggest import SOURCES as SHARED_SOURCES

    kinds = {*SHARED_SOURCES, *(kind for front in FRONTS for kind in front.sources)}
    problems = []
    for key, spec in COMMANDS.items():
        for option in spec.options:
            where = f"/{key} {option.name}"
            if option.autocomplete is not None:
                if option.autocomplete not in kinds and option.autocomplete != GAME:
                    problems.append(f"{where}: no suggestions for the kind {option.autocomplete!r}")
                if option.kind is not str or option.choices:
                    problems.append(f"{where}: autocomplete needs free text (a str option without choices)")
            elif option.kind is str and not option.choices and (key, option.name) not in FREE_TEXT and (
                    NAMED.search(option.name) or NAMED.search(option.description)):
                problems.append(f"{where} ({option.description}) names something but suggests nothing")
    assert problems == []
    stale = [k for k in FREE_TEXT if k[0] not in COMMANDS or COMMANDS[k[0]].option(k[1]) is None]
    assert stale == []
