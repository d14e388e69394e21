"""Reading a slash command as Discord shows it (``/player add user:@jenny diplomacy:4``) against ``COMMANDS``.

Option values run until the next ``name:`` (so ``crisis:Piracy in Sirius deadline:2h`` works); quote a value
that contains a ``name:`` of its own (``crisis:"Vote: yes or no"``). Values are converted by the option's
kind, and every mistake the Discord client would refuse before sending is an ``OptionError`` whose text is
shown to the user like any other ephemeral error."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.actions.commands import MAX_UPLOAD, Channel, Command, Option, Role, Upload
from bot.actions.context import UserRef
from bot.actions.rulesets import COMMANDS
from engine.core.suggest import nearest

_OPTION = re.compile(r"([a-z][a-z0-9_-]*):(?!//)")
_MENTION = re.compile(r"^@?([A-Za-z0-9_][A-Za-z0-9_.-]*)$")
_CHANNEL = re.compile(r"^#([A-Za-z0-9_][A-Za-z0-9_-]*)$")
MAX_DIGITS = 20
"""The most digits a whole-number option has (a Discord id has up to 20): more is refused, not read."""
TRUE = {"true", "yes"}
FALSE = {"false", "no"}


class OptionError(Exception):
    """The command line cannot be sent as written; ``str()`` says why, for the user."""


@dataclass(frozen=True)
class SlashCommand:
    name: str
    options: dict[str, Any]


def split(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """``round open crisis:"A b" deadline:2h`` -> (["round", "open"], [("crisis", "A b"), ("deadline", "2h")])."""
    words: list[str] = []
    options: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start = _OPTION.match(text, i)
        if start is None:
            end = _token_end(text, i)
            word = text[i:end]
            if options:
                raise OptionError(f"I don't know what to do with “{word}” after `{options[-1][0]}`'s quoted value; "
                                  "write options as name:value.")
            words.append(word)
            i = end
            continue
        name = start[1]
        i = start.end()
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            close = text.find(quote, i + 1)
            if close < 0:
                raise OptionError(f"The value of `{name}` opens a quote ({quote}) that is never closed.")
            options.append((name, text[i + 1:close]))
            i = close + 1
            if i < n and not text[i].isspace():
                raise OptionError(f"Put a space after the closing quote of `{name}`.")
            continue
        value_start = value_end = i
        while i < n:
            if text[i].isspace():
                i += 1
                continue
            if _OPTION.match(text, i):
                break
            i = value_end = _token_end(text, i)
        options.append((name, text[value_start:value_end]))
    return words, options


def _token_end(text: str, i: int) -> int:
    while i < len(text) and not text[i].isspace():
        i += 1
    return i


def parse_slash(text: str, user: Callable[[str], UserRef], role: Callable[[str], int],
                commands: Mapping[str, Command] = COMMANDS, channel: Callable[[str], int] | None = None,
                files: Path | None = None, applies: Callable[[Command], bool] | None = None) -> SlashCommand:
    """``/round close`` -> SlashCommand("round close", {}). An unknown command comes back with its words as the
    name, so the dispatcher answers it the way it answers every unknown command. ``applies``: the commands the
    place takes (a game channel: its ruleset's and every game's); an unknown command's group is listed, and a near
    spelling suggested, from those only (a Landsdraad moderator's `/faction remove` is not told of Mylantium's
    `/faction set`). Every command is still found: one of another ruleset is refused by ``dispatch``, saying so."""
    body = text.strip().removeprefix("/")
    words, raw = split(body)
    spec = None
    for size in range(len(words), 0, -1):
        spec = commands.get(" ".join(words[:size]).lower())
        if spec is not None:
            extra = words[size:]
            break
    if spec is None:
        name = " ".join(words).lower() or "?"
        head = words[0].lower() if words else ""
        taken = {c: spec for c, spec in commands.items() if applies is None or applies(spec)}
        group = sorted(c.split(" ", 1)[1] for c in taken if c.startswith(f"{head} "))
        if group:  # ``/round deadline``: the group's own commands, not a near spelling of another group's
            near = nearest(" ".join(words[1:2]), group)
            raise OptionError(f"There is no command /{name}. " + (f"Did you mean /{head} {near}?" if near else
                                                                   f"/{head} has: {', '.join(group)}."))
        near = nearest(name, taken)
        if near is not None:
            raise OptionError(f"There is no command /{name}. Did you mean /{near}?")
        return SlashCommand(name, {})
    if extra:
        if not spec.options:
            raise OptionError(f"/{spec.name} takes no options, so “{' '.join(extra)}” cannot go anywhere.")
        hint = _as_option(spec, extra[0], {name for name, _ in raw}) if len(extra) == 1 else None
        raise OptionError(f"/{spec.name} does not take “{' '.join(extra)}”; write options as name:value "
                          f"({_usage(spec)})." + (f" Did you mean `{hint}`?" if hint else ""))
    values: dict[str, Any] = {}
    for name, value in raw:
        option = spec.option(name)
        if option is None:
            raise OptionError(f"/{spec.name} has no option `{name}`. Its options: {_usage(spec)}.")
        if name in values:
            raise OptionError(f"`{name}` is given twice.")
        values[name] = convert(spec, option, value.strip(), user, role, channel, files)
    missing = [o for o in spec.options if o.required and o.name not in values]
    if missing:
        needs = "; ".join(f"`{o.name}` ({o.description})" for o in missing)
        raise OptionError(f"/{spec.name} needs {needs}.")
    return SlashCommand(spec.name, values)


def _as_option(spec: Command, word: str, given: set[str]) -> str | None:
    """``what:votes`` for a bare ``votes``: the word as the value of the command's first text option, if that is
    not given (``/why votes`` written as one would say it), else None."""
    first = next((option for option in spec.options if option.kind is str), None)
    return f"{first.name}:{word}" if first is not None and first.name not in given else None


def _usage(spec: Command) -> str:
    return " ".join(o.name if o.required else f"[{o.name}]" for o in spec.options)


def convert(spec: Command, option: Option, value: str, user: Callable[[str], UserRef],
            role: Callable[[str], int], channel: Callable[[str], int] | None = None, files: Path | None = None
            ) -> Any:
    name = option.name
    if value == "":
        raise OptionError(f"`{name}` needs a value ({option.description}).")
    if option.kind is int:
        if not re.fullmatch(r"[+-]?\d+", value):
            raise OptionError(f"`{name}` must be a whole number, not “{value[:40]}”.")
        if len(value.lstrip("+-")) > MAX_DIGITS:
            raise OptionError(f"`{name}` must be a whole number of at most {MAX_DIGITS} digits.")
        number = int(value)
        low, high = option.min_value, option.max_value
        if (low is not None and number < low) or (high is not None and number > high):
            if low is not None and high is not None:
                raise OptionError(f"`{name}` must be between {low} and {high}, not {number}.")
            bound = f"at least {low}" if low is not None else f"at most {high}"
            raise OptionError(f"`{name}` must be {bound}, not {number}.")
        return number
    if option.kind is bool:
        if value.lower() in TRUE:
            return True
        if value.lower() in FALSE:
            return False
        raise OptionError(f"`{name}` must be true or false, not “{value}”.")
    if option.kind is Channel:
        named = _CHANNEL.match(value)
        if named is None or channel is None:
            raise OptionError(f"`{name}` must be a channel, written #name, not “{value}”.")
        return Channel(channel(named[1]))
    if option.kind is Upload:
        return upload(name, value, user, files or Path("."))
    if option.kind is UserRef or option.kind is Role:
        mention = _MENTION.match(value)
        what = "a user" if option.kind is UserRef else "a role"
        if mention is None:
            raise OptionError(f"`{name}` must be {what}, written @name, not “{value}”.")
        return user(mention[1]) if option.kind is UserRef else Role(role(mention[1]))
    if option.choices:
        for choice in option.choices:
            if choice.lower() == value.lower():
                return choice
        raise OptionError(f"“{value}” is not a choice for `{name}`; choose {_or(option.choices)}.")
    return value


def _or(choices: tuple[str, ...]) -> str:
    return ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]


def upload(name: str, value: str, user: Callable[[str], UserRef], files: Path) -> Upload:
    """``file:players.csv``: the file at that path (relative to ``files``, the transcript's folder), as an upload
    whose ``@name``s are the console's users."""
    path = Path(value.strip('"'))
    path = path if path.is_absolute() else files / path
    try:
        size = path.stat().st_size
        if size > MAX_UPLOAD:
            raise OptionError(f"`{name}`: {value} is {size // 1024} KB; a file for Clerk may have at most "
                              f"{MAX_UPLOAD // 1024} KB.")
        data = path.read_bytes()
    except OSError as error:
        raise OptionError(f"`{name}` must be a file to read; {value}: {error.strerror or error}.") from None
    async def console_user(cell: str) -> UserRef | None:
        mention = _MENTION.match(cell)
        return user(mention[1]) if mention is not None and cell.startswith("@") else None

    return Upload(path.name, data, console_user)
