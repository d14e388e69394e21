"""Slash commands built from the one command table, ``bot.actions.COMMANDS``.

``"round close"`` becomes the subcommand ``close`` of the group ``/round``; ``"vote"`` stays top level. Each
command's callback gets a synthetic signature (one keyword parameter per ``Option``) so discord.py's own
introspection produces the option types, required flags, choices and ranges."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

import bot.actions.handlers  # noqa: F401  (importing it registers the commands)
from bot.actions.commands import COMMANDS, Command, Option, Role
from bot.actions.context import UserRef
from bot.discord.limits import COMMAND_DESCRIPTION, clip

Run = Callable[[discord.Interaction, str, dict[str, Any]], Awaitable[None]]

GROUP_DESCRIPTIONS = {
    "game": "Start, and export, a game",
    "player": "Add players and change their attributes",
    "holding": "Electors and planets a player controls",
    "round": "Open, inspect and close crisis vote rounds",
    "faction": "Temporary factions of the open round",
}


def annotation_of(option: Option) -> Any:
    if option.kind is UserRef:
        return discord.User
    if option.kind is Role:
        return discord.Role
    if option.kind is int and (option.min_value is not None or option.max_value is not None):
        return app_commands.Range[int, option.min_value, option.max_value]
    if option.kind in (str, int, bool):
        return option.kind
    raise TypeError(f"option {option.name!r}: no Discord option type for {option.kind!r}")


def callback_for(spec: Command, run: Run) -> Callable[..., Awaitable[None]]:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, spec.name, values)

    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)
    params = [
        inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation_of(o),
                          default=inspect.Parameter.empty if o.required else None)
        for o in spec.options
    ]
    callback.__signature__ = inspect.Signature([interaction, *params])  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.name: clip(o.description, COMMAND_DESCRIPTION) for o in spec.options
    }
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        o.name: [app_commands.Choice(name=c, value=c) for c in o.choices] for o in spec.options if o.choices
    }
    callback.__name__ = callback.__qualname__ = spec.name.replace(" ", "_")
    return callback


def build_commands(run: Run, commands: dict[str, Command] | None = None
                   ) -> list[app_commands.Command[Any, ..., None] | app_commands.Group]:
    """The top-level commands and groups for every entry of the table; ``run`` handles every invocation."""
    table = COMMANDS if commands is None else commands
    top: list[app_commands.Command[Any, ..., None] | app_commands.Group] = []
    groups: dict[str, app_commands.Group] = {}
    for name, spec in table.items():
        parts = name.split()
        if len(parts) not in (1, 2):
            raise ValueError(f"command {name!r}: at most one group level is supported")
        parent = None
        if len(parts) == 2:
            parent = groups.get(parts[0])
            if parent is None:
                parent = groups[parts[0]] = app_commands.Group(
                    name=parts[0], description=GROUP_DESCRIPTIONS.get(parts[0], f"/{parts[0]} commands"))
                top.append(parent)
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=parts[-1], description=clip(spec.description, COMMAND_DESCRIPTION),
            callback=callback_for(spec, run), parent=parent)  # type: ignore[arg-type]
        if parent is not None:
            parent.add_command(command)
        else:
            top.append(command)
    return top
