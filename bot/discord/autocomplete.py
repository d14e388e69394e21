"""Discord's autocomplete for the command table: an APPLICATION_COMMAND_AUTOCOMPLETE interaction as a ``Ctx``,
the options typed so far as neutral values, ``bot.actions.suggest`` for the choices."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.actions.commands import App
from bot.actions.context import UserRef
from bot.actions.suggest import suggest
from bot.discord.contexts import ctx_of_interaction, option_value

log = logging.getLogger("clerk.discord")


def typed_options(interaction: discord.Interaction) -> dict[str, object]:
    """The other options as typed so far (a user option the interaction does not resolve keeps its id)."""
    values: dict[str, object] = {}
    for name, value in interaction.namespace:
        if isinstance(value, discord.Object):
            value = UserRef(value.id, "")
        values[name] = option_value(value)
    return values


async def choices(app: App, interaction: discord.Interaction, command: str, option: str,
                  typed: str) -> list[app_commands.Choice[str]]:
    """The suggestions as Discord choices; none (never an error) if anything fails."""
    try:
        found = await suggest(app, ctx_of_interaction(interaction), command, option, typed or "",
                              typed_options(interaction))
    except Exception:  # suggest logs its own failures; this is the adapter's
        log.exception("autocomplete for /%s %s failed", command, option)
        return []
    return [app_commands.Choice(name=s.name, value=s.value) for s in found]
