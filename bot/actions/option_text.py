"""Free-text options of slash commands: how long each may be and what is refused (docs/input.md).

Every ``str`` option without choices is one of three kinds:

- a **name** Clerk keeps and shows (a game, holding, faction, card, territory, building, unit, candidate,
  Motion): at most ``NAME_LIMIT`` characters, and no mention markup at all (``@everyone``, ``@here``,
  ``<@123>``, ``<@&123>``, ``<#123>``): a name is shown to everyone and must not read as a ping;
- a **long text** (a crisis, a note, a reason, a Motion's Moved text, a die table...): at most ``TEXT_LIMIT``;
  it may quote mentions, because nothing Clerk posts can ping (``allowed_mentions``, bot/discord/client.py);
- anything else is a **reference** (a player, a candidate, a duration, the game, a setting's value): at most
  ``REFERENCE_LIMIT``; a user mention is fine (``candidate:@Bob``), ``@everyone``, ``@here`` and role mentions
  are refused.

Whole-number options are held within ±``INT_LIMIT`` (the database's integer columns; not a Discord id, an option
named ``*_id``); an option's own ``min_value``/``max_value`` is checked by Discord, the console and ``dispatch`` (so no
front end gets past it). All kinds refuse control characters (other than newline and tab in long texts) and values
with nothing visible in them. Names and references are read through NFKC with invisible format characters (zero-width
space, BOM...) removed, so ``Ｂｏｂ`` is Bob and ``Bob\\u200b`` is not a second Bob; long texts are kept as
typed. ``OWN_LIMITS`` gives an option a limit other than its kind's. The Discord adapter registers the same
limit as the option's ``max_length``, and ``dispatch`` checks it, so the console and any other front end are held
to it too."""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.actions.commands import Command, Option
from engine.core.errors import RuleError
from engine.core.text import ANY_MENTION, MASS_MENTION, control_characters, escaped, inert_name, invisible_only

NAME_LIMIT = 80
REFERENCE_LIMIT = 100
TEXT_LIMIT = 1000
INT_LIMIT = 2**31 - 1
"""Whole-number options (Discord sends up to 2**53) stay within a 32-bit integer, as the database columns are."""

NAMES = frozenset({
    ("game new", "name"), ("holding add", "name"), ("faction add", "name"), ("player add", "faction"),
    ("player add", "name"), ("card add", "name"), ("territory add", "name"), ("building add", "name"),
    ("unit add", "name"), ("factor set", "name"), ("player set", "name"), ("player set", "faction"),
    ("candidate add", "name"), ("motion move", "name"),
})
"""(command, option) pairs whose value becomes a name Clerk keeps."""
OWN_LIMITS = {("round open", "crisis"): 4000, ("round crisis", "text"): 4000}
"""Options whose limit is not their kind's: a crisis can be several paragraphs (an embed's description takes 4096)."""
LONG_TEXTS = frozenset({"crisis", "note", "reason", "moved", "seconded", "description", "text", "what", "targets",
                        "penalty", "cost", "table", "faces", "one_time", "cards", "subject"})
"""Options (by name, in any command) that hold a text rather than a name."""


def kind_of(spec: Command, option: Option) -> str:
    """``name``, ``text`` or ``reference`` (only for ``str`` options without choices)."""
    if (spec.name, option.name) in NAMES:
        return "name"
    return "text" if option.name in LONG_TEXTS else "reference"


def limit_of(spec: Command, option: Option) -> int | None:
    """The most characters the option takes; None for options that are not free text."""
    if option.kind is not str or option.choices:
        return None
    if (spec.name, option.name) in OWN_LIMITS:
        return OWN_LIMITS[(spec.name, option.name)]
    return {"name": NAME_LIMIT, "text": TEXT_LIMIT, "reference": REFERENCE_LIMIT}[kind_of(spec, option)]


def clean(value: str) -> str:
    """A name or reference as Clerk reads it: NFKC, invisible format characters removed."""
    plain = unicodedata.normalize("NFKC", value)
    return "".join(ch for ch in plain if unicodedata.category(ch) != "Cf")


def checked(spec: Command, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with names and references cleaned; RuleError naming the option and what is accepted when a
    value is too long, invisible, has control characters or a mention it may not have."""
    return checked_with_notes(spec, options)[0]


def checked_with_notes(spec: Command, options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``checked``, and a note for each name that Clerk keeps other than it was given: without its markdown
    (``inert_name``, play-test P4.1), for the moderator's answer."""
    out = dict(options)
    notes: list[str] = []
    for option in spec.options:
        value = options.get(option.name)
        if option.kind is int and isinstance(value, int) and abs(value) > INT_LIMIT and not option.name.endswith("_id"):
            raise RuleError(f"`{option.name}` of /{spec.name} must be between -{INT_LIMIT} and {INT_LIMIT}, not "
                            f"{value}. Nothing was changed.")
        if option.kind is int and isinstance(value, int) and not isinstance(value, bool):
            low, high = option.min_value, option.max_value
            if (low is not None and value < low) or (high is not None and value > high):
                if low is not None and high is not None:
                    bound = f"between {low} and {high}"
                else:
                    bound = f"at least {low}" if low is not None else f"at most {high}"
                raise RuleError(f"`{option.name}` of /{spec.name} must be {bound} ({option.description}), not "
                                f"{value}. Nothing was changed.")
        limit = limit_of(spec, option)
        if limit is None or not isinstance(value, str):
            continue
        label = f"`{option.name}` of /{spec.name}"
        if len(value) > limit:
            raise RuleError(f"{label} is too long: {len(value)} characters, and it takes at most {limit}. "
                            "Nothing was changed.")
        kind = kind_of(spec, option)
        controls = control_characters(value, keep="\n\t" if kind == "text" else "")
        if controls:
            raise RuleError(f"{label} contains control characters ({', '.join(controls[:5])}); write it as plain "
                            "text. Nothing was changed.")
        if invisible_only(value):
            raise RuleError(f"{label} has nothing visible in it; give {option.description}. Nothing was changed.")
        if kind == "name" and ANY_MENTION.search(value):
            raise RuleError(f"{label} is a name everyone sees, so it cannot contain a mention (@everyone, @here, "
                            "<@user>, <@&role> or <#channel>). Nothing was changed.")
        if kind == "reference" and MASS_MENTION.search(value):
            raise RuleError(f"{label} cannot be @everyone, @here or a role; give {option.description}. "
                            "Nothing was changed.")
        if kind == "name":
            out[option.name], note = _kept_name(label, clean(value), option.description)
            notes += [note] if note else []
        elif kind != "text":
            out[option.name] = clean(value)
    return out, notes


def _kept_name(label: str, value: str, description: str) -> tuple[str, str | None]:
    """A name option's value as Clerk keeps it (``inert_name``), and the note that says so when that is not the value
    given; RuleError when nothing but markdown is left."""
    kept = inert_name(value)
    if not kept:
        raise RuleError(f"{label} has nothing but Discord markdown in it (“{escaped(value)}”); give {description}, "
                        "with letters or digits. Nothing was changed.")
    if kept == " ".join(value.split()):
        return kept, None
    return kept, (f"The name “{escaped(value)}” ({label}) is kept as “{kept}”: Clerk keeps names without Discord "
                  "markdown (`*`, `_`, `~~`, `||`, backticks, a leading `#`, `-#` or `>`, links, mentions, a leading "
                  "@), so they show as plain text in every post and can be typed in forms (docs/input.md).")
