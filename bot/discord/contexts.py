"""Who did what, where: a Discord interaction or message as the neutral ``Ctx``, option values as neutral types."""

from __future__ import annotations

import contextlib
import dataclasses
from datetime import datetime
from typing import Any

import discord

from bot.actions.commands import MAX_UPLOAD, Channel, Role, Upload
from bot.actions.context import Actor, Ctx, Place, UserRef
from bot.actions.outbox import Answering
from engine.core.errors import RuleError
from engine.core.importing import user_id_of


def place_of(guild_id: int | None, channel: object, channel_id: int | None) -> Place:
    """A thread is reported as its parent channel plus the thread id."""
    if isinstance(channel, discord.Thread):
        return Place(guild_id, channel.parent_id, channel.id)
    return Place(guild_id, channel_id, None)


def ctx_of_interaction(interaction: discord.Interaction, answering: Answering | None = None) -> Ctx:
    user = interaction.user
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else frozenset()
    manages = interaction.guild_id is not None and interaction.permissions.manage_guild
    actor = Actor(user.id, user.name, roles, manages)
    return Ctx(actor, place_of(interaction.guild_id, interaction.channel, interaction.channel_id),
               f"int:{interaction.id}", interaction.created_at, answering)


def ctx_of_message(message: discord.Message, answering: Answering | None = None) -> Ctx:
    author = message.author
    guild_id = message.guild.id if message.guild is not None else None
    # A Member of a server discord.py has not cached has no guild, so no roles or permissions to read.
    member = author if isinstance(author, discord.Member) and message.guild is not None else None
    roles = frozenset(role.id for role in member.roles) if member is not None else frozenset()
    manages = member is not None and member.guild_permissions.manage_guild
    actor = Actor(author.id, author.name, roles, manages)
    return Ctx(actor, place_of(guild_id, message.channel, message.channel.id), f"msg:{message.id}",
               message.created_at, answering)


@dataclasses.dataclass(frozen=True, slots=True)
class DirectMessage:
    """A person's DM to the bot as the gateway's MESSAGE_CREATE gave it, read without discord.py's ``Message``
    (``dm_of``; issue 20): what the DM path reads of it, and nothing else."""

    id: int
    channel_id: int
    author_id: int
    author_name: str
    content: str
    type: int
    edited_at: datetime | None = None
    """When the author edited it to read ``content`` (Discord's ``edited_timestamp``): an edited DM is read as a new
    DM sent then (play-test R3.1)."""

    @property
    def created_at(self) -> datetime:
        """As ``discord.Message.created_at``: the time in the message's id (a snowflake), in UTC; for an edit, the
        time of the edit (a ballot is judged by when Discord got it, P0-15)."""
        return self.edited_at if self.edited_at is not None else discord.utils.snowflake_time(self.id)

    @property
    def source(self) -> str:
        """The source id of what it records: ``msg:<id>``, and for each edit ``msg:<id>:edit:<ms>`` (an edit Discord
        sends twice counts once; the message and each of its edits are each read once)."""
        if self.edited_at is None:
            return f"msg:{self.id}"
        return f"msg:{self.id}:edit:{int(self.edited_at.timestamp() * 1000)}"


def dm_of(data: dict[str, Any]) -> DirectMessage:
    """The fields of a DM's MESSAGE_CREATE that discord.py's ``Message`` would read for them (``id``,
    ``channel_id``, ``author.id``, ``author.username``, ``content``, ``type``); of a MESSAGE_UPDATE, with its
    ``edited_timestamp``."""
    author = data["author"]
    edited = data.get("edited_timestamp")
    return DirectMessage(int(data["id"]), int(data["channel_id"]), int(author["id"]), author["username"],
                         data.get("content", ""), int(data.get("type", 0)),
                         discord.utils.parse_time(edited) if edited else None)


def ctx_of_dm(message: DirectMessage, answering: Answering | None = None) -> Ctx:
    """As ``ctx_of_message`` of the same DM: no server, so no roles and no permissions."""
    return Ctx(Actor(message.author_id, message.author_name, frozenset(), False),
               Place(None, message.channel_id, None), message.source, message.created_at, answering)


async def ctx_of_guild_message(client: discord.Client, message: discord.Message,
                               answering: Answering | None = None) -> Ctx:
    """As ``ctx_of_message``; a thread the cache does not know (discord.py then gives a ``PartialMessageable``)
    is fetched to learn its parent channel."""
    ctx = ctx_of_message(message, answering)
    channel: object = message.channel
    if isinstance(channel, discord.PartialMessageable):
        with contextlib.suppress(discord.HTTPException):
            channel = await client.fetch_channel(message.channel.id)
    guild_id = message.guild.id if message.guild is not None else getattr(message.channel, "guild_id", None)
    return dataclasses.replace(ctx, place=place_of(guild_id, channel, message.channel.id))


def option_value(value: Any) -> Any:
    """discord.py's transformed option values as what the actions layer expects."""
    if isinstance(value, discord.Role):
        return Role(value.id)
    if isinstance(value, discord.app_commands.AppCommandChannel | discord.abc.GuildChannel):
        return Channel(value.id)
    if isinstance(value, discord.User | discord.Member):
        return UserRef(value.id, value.name)
    return value


async def uploaded(interaction: discord.Interaction, attachment: discord.Attachment) -> Upload:
    """An attachment option's file, downloaded (at most ``MAX_UPLOAD`` bytes; ValueError says why not). A ``@name``
    in it means the member of the server of that name (or global or display name) the bot's cache knows."""
    if attachment.size > MAX_UPLOAD:
        raise ValueError(f"{attachment.filename} is {attachment.size // 1024} KB; a file for Clerk may have at most "
                         f"{MAX_UPLOAD // 1024} KB. Nothing was read.")
    try:
        data = await attachment.read()
    except discord.HTTPException as error:
        raise ValueError(f"Could not download {attachment.filename} from Discord ({error.status}); nothing was "
                         "read. Send it again.") from None
    guild = interaction.guild

    async def member(cell: str) -> UserRef | None:
        uid = user_id_of(cell)
        found: discord.abc.User | None = None
        if guild is None:
            if uid is not None:
                with contextlib.suppress(discord.HTTPException):
                    found = interaction.client.get_user(uid) or await interaction.client.fetch_user(uid)
        elif uid is None:
            found = guild.get_member_named(cell.lstrip("@"))
        else:  # one member by id is a REST call that needs no members intent (play-test I1.4)
            found = guild.get_member(uid)
            if found is None:
                try:
                    found = await guild.fetch_member(uid)
                except discord.NotFound:
                    return None
                except discord.HTTPException as error:
                    raise RuleError(f"Discord did not say whether {cell} is a member of this server "
                                    f"({error.status}); nothing was imported. Send the file again.") from None
        return UserRef(found.id, found.name) if found is not None else None

    return Upload(attachment.filename, data[: MAX_UPLOAD + 1], member, members=guild is not None)
