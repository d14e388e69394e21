"""Clerk's select menus on Discord: ``Select`` as a ``discord.ui.Select`` (a string select) in a view sent with the
message, and a choice in any of them (``clerk-menu:…`` custom_ids) routed to ``handle_select``.

Like the buttons (buttons.py), every menu is a ``DynamicItem`` matched by its custom_id's template, registered on
the client with ``add_dynamic_items``: a choice is understood from the custom_id and the values alone, so menus
sent before a restart still work. After an answer that was recorded the menu is shown disabled, its placeholder
naming the choice."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.actions.outbox import Select

log = logging.getLogger("clerk.discord.selects")

Choose = Callable[[discord.Interaction, str, tuple[str, ...]], Awaitable[None]]


class ClerkSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.compile(r"clerk-menu:.+")):
    """Any menu of Clerk's; what a choice does is decided by the client's ``on_choose``."""

    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ClerkSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        choose: Choose | None = getattr(interaction.client, "on_choose", None)
        if choose is None:
            log.warning("a menu was used but the client has no on_choose: %r", self.item.custom_id)
            return
        await choose(interaction, self.item.custom_id or "", tuple(self.item.values))


def select_item(select: Select) -> ClerkSelect:
    """One string select (one value chosen) for ``select``."""
    options = [discord.SelectOption(label=o.label[:100], value=o.value[:100]) for o in select.options[:25]]
    return ClerkSelect(discord.ui.Select(custom_id=select.custom_id, placeholder=select.placeholder[:150] or None,
                                         min_values=1, max_values=1, options=options))


async def disable_select(interaction: discord.Interaction, values: tuple[str, ...]) -> None:
    """Show the menu of the message as disabled, its placeholder naming what was chosen; best effort."""
    message = interaction.message
    if message is None:
        return
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Select):
            chosen = [o.label for o in item.options if o.value in values]
            if chosen:
                item.placeholder = ("Chosen: " + ", ".join(chosen))[:150]
            item.disabled = True
        elif isinstance(item, discord.ui.Button):
            item.disabled = True
    try:
        await message.edit(view=view)
    except discord.HTTPException as error:
        log.warning("could not disable the menu of message %s: %s", message.id, error)
