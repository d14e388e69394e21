"""Clerk's buttons on Discord: ``Button`` as ``discord.ui.Button`` items of a view sent with the message, and a
press of any of them (``clerk:…`` custom_ids) routed to ``handle_button``.

Every button is a ``DynamicItem`` matched by its custom_id's template, registered on the client with
``add_dynamic_items``: a press is understood from the custom_id alone, so buttons sent before a restart still
work. After an answer that was recorded the buttons of that message are shown disabled."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.actions.outbox import SETTLED, Button, Outgoing

log = logging.getLogger("clerk.discord.buttons")

STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
PER_ROW = 5

Press = Callable[[discord.Interaction, str], Awaitable[None]]


class ClerkButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.compile(r"clerk:.+")):
    """Any button of Clerk's; what a press does is decided by the client's ``on_press``."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ClerkButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        press: Press | None = getattr(interaction.client, "on_press", None)
        if press is None:
            log.warning("a button was pressed but the client has no on_press: %r", self.item.custom_id)
            return
        await press(interaction, self.item.custom_id or "")


def view_of(buttons: Sequence[Button], *, disabled: bool = False) -> discord.ui.View:
    """A view (no timeout) with one ``ClerkButton`` per button, five to a row."""
    view = discord.ui.View(timeout=None)
    for index, b in enumerate(buttons[:25]):
        view.add_item(ClerkButton(discord.ui.Button(label=b.label[:80], custom_id=b.custom_id,
                                                    style=STYLES.get(b.style, discord.ButtonStyle.secondary),
                                                    disabled=disabled, row=index // PER_ROW)))
    return view


def settled(out: Sequence[Outgoing]) -> bool:
    return any(o.extra.get(SETTLED) for o in out)


async def disable_buttons(interaction: discord.Interaction) -> None:
    """Show the buttons of the message pressed as disabled (after an answer was recorded); best effort."""
    message = interaction.message
    if message is None:
        return
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.disabled = True
    try:
        await message.edit(view=view)
    except discord.HTTPException as error:
        log.warning("could not disable the buttons of message %s: %s", message.id, error)
