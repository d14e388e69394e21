"""Delivering ``Outgoing`` messages: a reply to the interaction or message, a channel post, a thread post
(threads.py), or a DM; with ``keep``, one message edited in place (kept.py).

A message that cannot be delivered (a deleted channel, a user who blocks DMs) is logged with its target and
skipped: one failed send never stops the rest of a command's messages."""

from __future__ import annotations

import io
import itertools
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.actions.outbox import POSTED, Card, Here, Outgoing, ToChannel, ToThread, ToUser
from bot.discord import limits
from bot.discord.buttons import view_of
from bot.discord.kept import Keeper
from bot.discord.limits import clip
from bot.discord.permission_reports import PermissionReports
from bot.discord.selects import select_item
from bot.discord.threads import Threads, Undeliverable
from engine.service import Clerk

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
    if item.buttons and parts:
        parts["view"] = view_of(item.buttons)
    if item.select is not None and parts:
        view = parts.setdefault("view", discord.ui.View(timeout=None))
        view.add_item(select_item(item.select))
    return parts


def here_first(out: Iterable[Outgoing]) -> list[Outgoing]:
    """Answers to the caller first (an interaction must be acknowledged within 3 s), then the rest in order."""
    items = list(out)
    return [o for o in items if isinstance(o.to, Here)] + [o for o in items if not isinstance(o.to, Here)]


class Courier:
    """Sends what the actions layer returns, on one client. Each batch takes a ticket (see kept.py)."""

    def __init__(self, client: discord.Client, clerk: Clerk) -> None:
        self.client = client
        self.threads = Threads(client, clerk)
        self.keeper = Keeper(client, clerk, message_parts, self.threads.unarchive)
        self._tickets = itertools.count()
        self.clerk = clerk
        self._reported: set[int] = set()
        self.permissions = PermissionReports(client, clerk)

    async def to_interaction(self, interaction: discord.Interaction, out: Sequence[Outgoing]) -> None:
        """``Here`` answers the interaction (the first as its response, the rest as followups)."""
        ticket = next(self._tickets)
        for item in here_first(out):
            if not isinstance(item.to, Here):
                await self.elsewhere(item, ticket)
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
        """``Here`` replies to the message, in its channel or thread (``ephemeral`` has no meaning there)."""
        ticket = next(self._tickets)
        for item in here_first(out):
            if not isinstance(item.to, Here):
                await self.elsewhere(item, ticket)
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
        ticket = next(self._tickets)
        for item in out:
            if isinstance(item.to, Here):
                log.warning("dropped a reply with no interaction or message to answer: %r", item.text[:80])
                continue
            await self.elsewhere(item, ticket)

    async def elsewhere(self, item: Outgoing, ticket: int | None = None) -> None:
        if not message_parts(item):
            return
        turn = next(self._tickets) if ticket is None else ticket
        try:
            if item.keep is not None:
                await self.keeper.post(item, item.keep, turn, lambda: self.send(item))
            else:
                await self.send(item)
        except discord.Forbidden as error:
            log.warning("could not send to %s: %s", item.to, error)
            if isinstance(item.to, ToUser):
                await self.report_closed_dms(item.to.user_id)
            else:  # the bot lacks a permission in a game channel: tell the moderators (permission_reports.py)
                await self.permissions.refused(item, error)
        except (discord.HTTPException, Undeliverable) as error:
            log.warning("could not send to %s: %s", item.to, error)
        except Exception:  # one broken message must not stop the others
            log.exception("sending to %s failed", item.to)

    async def report_closed_dms(self, user_id: int) -> None:
        """A player the bot cannot DM misses ballots, receipts and reminders: tell the moderators in each of their
        games' channels, once per player while the bot runs."""
        if user_id in self._reported:
            return
        self._reported.add(user_id)
        for game in await self.clerk.games_of_user(user_id):
            player = await self.clerk.player(game.id, user_id)
            text = (f"⚠️ Moderators: I cannot send direct messages to **{player.name}** (their DMs are closed to me), "
                    "so they get no ballot buttons, receipts or reminders. Ask them to allow direct messages from "
                    "members of this server.")
            try:
                await self.send_to(game.channel_id, Outgoing(ToChannel(game.channel_id), text))
            except discord.HTTPException as error:
                log.warning("could not warn the moderators of %s about %s: %s", game.name, user_id, error)

    async def send(self, item: Outgoing) -> discord.Message:
        """A new message in a channel, thread or DM, by id (no cache needed); a thread is made when needed."""
        target = item.to
        if isinstance(target, ToThread):
            return await self.threads.post(target, lambda thread_id: self.send_to(thread_id, item))
        if isinstance(target, ToChannel):
            return await self.send_to(target.channel_id, item)
        if isinstance(target, ToUser):
            dm = await self.client.create_dm(discord.Object(id=target.user_id))
            return await self.send_to(dm.id, item)
        raise Undeliverable(f"no channel for {target}")

    async def send_to(self, channel_id: int, item: Outgoing) -> discord.Message:
        marker = item.extra.get(POSTED)
        if marker is None:
            return await self.client.get_partial_messageable(channel_id).send(**message_parts(item))
        # A result's announcement: its nonce makes Discord drop a second post of it; marked posted once sent.
        sent = await self.client.get_partial_messageable(channel_id).send(**message_parts(item), nonce=marker)
        await self.clerk.mark_posted(marker)
        return sent


def _command_name(interaction: discord.Interaction) -> str:
    command = interaction.command
    return f"/{command.qualified_name}" if command is not None else "?"
