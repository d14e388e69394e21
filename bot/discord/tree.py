"""Slash commands built from the one command table, ``bot.actions.rulesets.ROUTES`` (or an app's routes).

``"round close"`` becomes the subcommand ``close`` of the group ``/round``; ``"election primary open"`` the
subcommand ``open`` of the subgroup ``primary`` of ``/election``; ``"vote"`` stays top level. Each
command's callback gets a synthetic signature (one keyword parameter per ``Option``) so discord.py's own
introspection produces the option types, required flags, choices and ranges."""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.actions.commands import Channel, Command, Option, Role, Upload
from bot.actions.context import UserRef
from bot.actions.option_text import limit_of
from bot.actions.routes import Routes
from bot.actions.rulesets import ROUTES
from bot.discord.limits import COMMAND_DESCRIPTION, clip

Run = Callable[[discord.Interaction, str, dict[str, Any]], Awaitable[None]]
Complete = Callable[[discord.Interaction, str, str, str], Awaitable[list[app_commands.Choice[str]]]]
"""Suggestions for an option as it is typed: (interaction, command, option, typed so far) → choices."""



def annotation_of(option: Option, spec: Command | None = None) -> Any:
    if option.kind is str and spec is not None and (limit := limit_of(spec, option)) is not None:
        return app_commands.Range[str, None, limit]  # Discord refuses longer values; dispatch checks again
    if option.kind is UserRef:
        return discord.User
    if option.kind is Role:
        return discord.Role
    if option.kind is Channel:
        return app_commands.AppCommandChannel  # as Discord resolved it: no cache needed
    if option.kind is Upload:
        return discord.Attachment
    if option.kind is int and (option.min_value is not None or option.max_value is not None):
        return app_commands.Range[int, option.min_value, option.max_value]
    if option.kind in (str, int, bool):
        return option.kind
    raise TypeError(f"option {option.name!r}: no Discord option type for {option.kind!r}")


def completer(command: str, option: str, complete: Complete
              ) -> Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]:
    """discord.py's autocomplete callback for one option of one command."""
    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await complete(interaction, command, option, current)

    return autocomplete


def callback_for(spec: Command, run: Run, complete: Complete | None = None) -> Callable[..., Awaitable[None]]:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, spec.name, values)

    interaction = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)
    params = [
        inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation_of(o, spec),
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
    if complete is not None:
        callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
            o.name: completer(spec.name, o.name, complete) for o in spec.options if o.autocomplete
        }
    callback.__name__ = callback.__qualname__ = spec.name.replace(" ", "_")
    return callback


MessageRun = Callable[[discord.Interaction, str, discord.Message], Awaitable[None]]


def message_menu(name: str, run: MessageRun) -> app_commands.ContextMenu:
    """A message context-menu command (type 3, ``Count as vote``), used in servers only; ``run`` gets the message
    Discord resolved (with its content, whatever the intents)."""
    async def callback(interaction: discord.Interaction, message: discord.Message) -> None:
        await run(interaction, name, message)

    menu = app_commands.ContextMenu(name=name, callback=callback)
    menu.guild_only = True
    return menu


def build_commands(run: Run, routes: Routes | None = None, complete: Complete | None = None
                   ) -> list[app_commands.Command[Any, ..., None] | app_commands.Group]:
    """The top-level commands and groups for every entry of the command table of ``routes`` (the shipped rulesets'
    unless given), each group described as the routes say (``Routes.group``); ``run`` handles every invocation, and
    ``complete`` (if given) suggests values for every option with ``autocomplete``."""
    routes = ROUTES if routes is None else routes
    table = routes.commands
    descriptions = routes.groups
    top: list[app_commands.Command[Any, ..., None] | app_commands.Group] = []
    groups: dict[str, app_commands.Group] = {}
    under: dict[str, list[Command]] = {}
    for name, spec in table.items():
        parts = name.split()
        under.setdefault(parts[0], []).append(spec)
        if len(parts) not in (1, 2, 3):
            raise ValueError(f"command {name!r}: at most two group levels are supported")
        parent = None
        for depth in range(1, len(parts)):
            key = " ".join(parts[:depth])
            group = groups.get(key)
            if group is None:
                group = groups[key] = app_commands.Group(
                    name=parts[depth - 1], description=descriptions.get(key, f"/{key} commands"),
                    parent=parent)  # a subgroup adds itself to its parent
                if parent is None:
                    top.append(group)
            parent = group
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=parts[-1], description=clip(spec.description, COMMAND_DESCRIPTION),
            callback=callback_for(spec, run, complete), parent=parent)  # type: ignore[arg-type]
        if parent is not None:
            parent.add_command(command)
        else:
            top.append(command)
    for entry in top:
        where_and_who(entry, under[entry.name])
    return top


class Runner(Protocol):
    """The bot an interaction came to (``interaction.client``, a ``ClerkBot``): it runs the command and suggests values
    for an option as it is typed."""

    async def run_command(self, interaction: discord.Interaction, name: str, values: dict[str, Any]) -> None: ...

    async def complete_option(self, interaction: discord.Interaction, name: str, option: str,
                              typed: str) -> list[app_commands.Choice[str]]: ...


async def _run_on_client(interaction: discord.Interaction, name: str, values: dict[str, Any]) -> None:
    await cast(Runner, interaction.client).run_command(interaction, name, values)


async def _complete_on_client(interaction: discord.Interaction, name: str, option: str,
                              typed: str) -> list[app_commands.Choice[str]]:
    return await cast(Runner, interaction.client).complete_option(interaction, name, option, typed)


Built = list[app_commands.Command[Any, ..., None] | app_commands.Group]
_built: weakref.WeakKeyDictionary[Routes, tuple[tuple[object, ...], Built]] = weakref.WeakKeyDictionary()
"""The commands built for each routes, with the table and group descriptions they were built from."""


def commands_for(routes: Routes) -> Built:
    """The commands of ``routes`` (``build_commands``), each run and completed by the bot the interaction came to
    (``Runner``), so that they are built once per routes and process and shared by every bot made with them (their
    trees only hold them). Building them is discord.py's introspection of about 150 synthetic signatures (12 ms of
    CPU on an idle host), which a bot pays once at start; the test suite starts a bot hundreds of times a process
    (about a ninth of the end-to-end tests' CPU went to it, py-spy, 2026-12-07). The table is compared at each
    call, so one changed after a build (Clerk does not: a table is complete once its app is made) is built anew."""
    made_from = (tuple(routes.commands.items()), tuple(routes.groups.items()))
    found = _built.get(routes)
    if found is not None and found[0] == made_from:
        return found[1]
    commands = build_commands(_run_on_client, routes, _complete_on_client)
    _built[routes] = (made_from, commands)
    return commands


MODERATORS = discord.Permissions(manage_guild=True)
"""``default_member_permissions`` of the moderators' commands: Manage Server, as ``dispatch`` checks by default (a
game's own moderator role is seen to by the server's admins in Server Settings → Integrations)."""
SERVER_AND_DMS = app_commands.AppCommandContext(guild=True, dm_channel=True)
SERVER_ONLY = app_commands.AppCommandContext(guild=True)


def where_and_who(entry: app_commands.Command[Any, ..., None] | app_commands.Group, specs: list[Command]) -> None:
    """Where Discord offers a top-level command or group and to whom; Discord reads both only on the top level, so
    a group takes what all its commands share: offered in the bot's DMs if any of them works there
    (``Command.in_dms``), else in servers only (``contexts``); shown only to members with Manage Server if all of
    them are the moderators' (``default_member_permissions``). ``dispatch`` still checks every use."""
    entry.allowed_contexts = SERVER_AND_DMS if any(s.in_dms for s in specs) else SERVER_ONLY
    entry.default_permissions = MODERATORS if all(s.moderator for s in specs) else None
