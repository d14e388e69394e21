"""Delivering ``Outgoing`` messages: a reply to the interaction or message, a channel post, or a DM.

A message that cannot be delivered (a deleted channel, a user who blocks DMs) is logged with its target and
skipped: one failed send never stops the rest of a command's messages."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.actions.outbox import Card, Here, Outgoing, ToChannel, ToUser
from bot.discord import limits
from bot.discord.limits import clip

log = logging.getLogger("clerk.discord.delivery")

BLANK = "\u200b"


def embed_of(card: Card) -> discord.Embed:
    """A Discord embed with every part cut to Discord's limits, the whole under 6000 characters."""
    title = clip(card.title, limits.EMBED_TITLE)
    footer = clip(card.footer, limits.FOOTER) if card.footer else None
    fields = [(clip(name or BLANK, limits.FIELD_NAME), clip(value or BLANK, limits.FIELD_VALUE), inline)
              for name, value, inline in card.fields[: limits.EMBED_FIELDS]]

    def used() -> int:
        return len(title) + len(footer or "") + sum(len(name) + len(value) for name, value, _ in fields)

    while fields and used() > limits.EMBED_TOTAL:
        fields.pop()
    room = min(limits.EMBED_DESCRIPTION, limits.EMBED_TOTAL - used())
    description = clip(card.description, room) if card.description and room > 0 else None
    embed = discord.Embed(title=title, description=description, color=card.color)
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if footer:
        embed.set_footer(text=footer)
    return embed


def message_parts(item: Outgoing) -> dict[str, Any]:
    """The keyword arguments for ``send``/``send_message``/``reply``; empty when there is nothing to send."""
    parts: dict[str, Any] = {}
    if item.text:
        parts["content"] = clip(item.text, limits.CONTENT)
    if item.card is not None:
        parts["embed"] = embed_of(item.card)
    if item.file is not None:
        name, data = item.file
        parts["file"] = discord.File(io.BytesIO(data), filename=name)
    return parts


def here_first(out: Iterable[Outgoing]) -> list[Outgoing]:
    """Answers to the caller first (an interaction must be acknowledged within 3 s), then the rest in order."""
    items = list(out)
    return [o for o in items if isinstance(o.to, Here)] + [o for o in items if not isinstance(o.to, Here)]


class Courier:
    """Sends what the actions layer returns, on one client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def to_interaction(self, interaction: discord.Interaction, out: Sequence[Outgoing]) -> None:
        """``Here`` answers the interaction (the first as its response, the rest as followups)."""
        for item in here_first(out):
            if not isinstance(item.to, Here):
                await self.elsewhere(item)
                continue
            parts = message_parts(item)
            if not parts:
                continue
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(**parts, ephemeral=item.ephemeral)
                else:
                    await interaction.response.send_message(**parts, ephemeral=item.ephemeral)
            except discord.HTTPException as error:
                log.warning("could not answer interaction %s (%s): %s", interaction.id, _command_name(interaction),
                            error)
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message("Done.", ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not acknowledge interaction %s: %s", interaction.id, error)

    async def to_message(self, message: discord.Message, out: Sequence[Outgoing]) -> None:
        """``Here`` replies to the message (``ephemeral`` has no meaning for a message and is ignored)."""
        for item in here_first(out):
            if not isinstance(item.to, Here):
                await self.elsewhere(item)
                continue
            parts = message_parts(item)
            if not parts:
                continue
            try:
                await message.reply(**parts, mention_author=False)
            except discord.HTTPException as error:
                log.warning("could not reply to message %s in channel %s: %s", message.id, message.channel.id, error)

    async def deliver(self, out: Sequence[Outgoing]) -> None:
        """Messages with no one to answer (the scheduler's): ``Here`` has nowhere to go and is dropped."""
        for item in out:
            if isinstance(item.to, Here):
                log.warning("dropped a reply with no interaction or message to answer: %r", item.text[:80])
                continue
            await self.elsewhere(item)

    async def elsewhere(self, item: Outgoing) -> None:
        parts = message_parts(item)
        if not parts:
            return
        target = item.to
        try:
            if isinstance(target, ToChannel):
                cached = self.client.get_channel(target.channel_id)
                # Not cached (a thread, or before the guild arrived): a partial channel sends just as well.
                channel = (cached if isinstance(cached, discord.abc.Messageable)
                           else self.client.get_partial_messageable(target.channel_id))
                await channel.send(**parts)
            elif isinstance(target, ToUser):
                dm = await self.client.create_dm(discord.Object(id=target.user_id))
                await dm.send(**parts)
        except discord.HTTPException as error:
            log.warning("could not send to %s: %s", target, error)


def _command_name(interaction: discord.Interaction) -> str:
    command = interaction.command
    return f"/{command.qualified_name}" if command is not None else "?"
