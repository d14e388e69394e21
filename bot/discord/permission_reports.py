"""When Discord refuses the bot a post in a game channel or one of its threads (403: 50013 Missing Permissions,
50001 Missing Access), the moderators are told by DM instead of the refusal only being logged.

Who is told: the member who created the game (the actor of its ``GameCreated`` event) and the server's owner;
if neither can be reached by DM, the server's system channel. A moderator role's members are not listed (that
needs the members intent). One report per game and channel per ``EVERY``; the refusals in between are counted
and the next report says how many messages were missed. Each report quotes the start of the message that could
not be posted, so the moderator sees what the players missed."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.actions.outbox import INSTEAD, Outgoing, ToChannel, ToThread, ToUser
from bot.discord.limits import clip
from engine.core.stamps import discord_text, utc_text
from engine.service import Clerk

log = logging.getLogger("clerk.discord.permissions")

EVERY = timedelta(hours=1)
"""At most one report per game and channel in this time."""
QUOTE_LINES = 6
QUOTE_CHARS = 900
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
REFUSALS = frozenset({MISSING_ACCESS, MISSING_PERMISSIONS})
POST_PERMISSIONS = ("View Channels, Send Messages, Send Messages in Threads, Create Public Threads, Embed Links, "
                    "Attach Files, Read Message History")
"""What the bot needs in a game channel (README: Setting up the bot)."""
PRIVATE_THREAD_PERMISSIONS = "Create Private Threads and Send Messages in Threads"
"""What the bot needs in a game channel for the moderators' private thread (docs/moderators.md)."""


def private_refused_text(game: str, channel_id: int, code: int | None, *, channel: bool = False) -> str:
    """Told once per game (while the bot runs) to the moderators Clerk knows, by DM. ``channel``: the moderators'
    place is a channel of their choosing (``moderator_channel``), not the game channel's private thread."""
    why = "Missing Access" if code == MISSING_ACCESS else "Missing Permissions"
    if channel:
        return (f"⚠️ Moderators of **{game}**: I could not post in your moderators' channel <#{channel_id}> (Discord: "
                f"{why}). I need **{POST_PERMISSIONS}** there. Until then I send what is for the moderators only "
                "(transfers, ...) to you by DM, like the next message. Or choose another private channel with "
                "`/game settings moderator_channel:#channel`.")
    return (f"⚠️ Moderators of **{game}**: I could not make or use the private moderators' thread in <#{channel_id}> "
            f"(Discord: {why}). I need **{PRIVATE_THREAD_PERMISSIONS}** there. Until then I send what is for the "
            "moderators only (transfers, ...) to you by DM, like the next message. Or choose a private channel with "
            "`/game settings moderator_channel:#channel`.")


def quoted(item: Outgoing) -> str:
    """The first lines of what could not be posted (text, card, file name), as a Discord quote, its times as
    Discord's timestamp markup (``engine/core/stamps.py``)."""
    lines = discord_text(item.text).splitlines() if item.text else []
    if item.card is not None:
        lines += [f"**{utc_text(item.card.title)}**", *discord_text(item.card.description).splitlines()]
        lines += [f"{utc_text(name)}: {discord_text(value)}" for name, value, _ in item.card.fields]
    if item.file is not None:
        lines.append(f"(with the file {item.file[0]})")
    lines = [line for line in lines if line.strip()]
    shown, size = [], 0
    for line in lines[:QUOTE_LINES]:
        line = clip(line, 200)
        if size + len(line) > QUOTE_CHARS:
            break
        shown.append(line)
        size += len(line)
    more = "\n> …" if len(shown) < len(lines) else ""
    return "\n".join(f"> {line}" for line in shown) + more


def report_text(game: str, channel_id: int, code: int, item: Outgoing, missed_before: int) -> str:
    if code == MISSING_ACCESS:
        why = "I cannot see that channel (Discord: Missing Access)"
        grant = f"**View Channels**, and {POST_PERMISSIONS.removeprefix('View Channels, ')}"
    else:
        why = "I am not allowed to post there (Discord: Missing Permissions)"
        grant = POST_PERMISSIONS
    earlier = (f"\nSince my last report {missed_before} more message{'' if missed_before == 1 else 's'} could not "
               "be posted there." if missed_before else "")
    return (f"⚠️ Moderators of **{game}**: I could not post in <#{channel_id}>: {why}. Please grant me (Clerk) "
            f"{grant} in that channel and its threads. Until then the players there miss my announcements."
            f"{earlier}\nThe message that was not posted:\n{quoted(item)}\n"
            f"(I report this at most once an hour per channel.)")


@dataclass
class _Seen:
    last: datetime
    missed: int = 0
    """Refusals since the last report."""


@dataclass
class PermissionReports:
    """Reports the bot's missing permissions in game channels to the moderators, throttled per game and channel."""

    client: discord.Client
    clerk: Clerk
    seen: dict[tuple[int, int], _Seen] = field(default_factory=dict)
    sent: int = 0
    """Reports delivered (for the tests and the log)."""
    private_told: set[int] = field(default_factory=set)
    """Games whose moderators were told that the private thread cannot be made (once per game while the bot runs)."""

    async def private_refused(self, item: Outgoing, error: discord.Forbidden,
                              dm: Callable[[Outgoing], Awaitable[Any]]) -> bool:
        """``item`` was for the moderators' private place (the game channel's private thread, or the moderators'
        channel, play-test S4.1) and Discord refused the bot: send it by DM (``dm``) to the moderators Clerk knows,
        its buttons replaced by what ``item.extra[INSTEAD]`` says (a DM's press has no roles to check), the first time
        with why. True if one of them got it; never raises. What was refused is never quoted anywhere else: it is
        for the moderators only."""
        to = item.to
        assert isinstance(to, ToThread | ToChannel)
        game_id = to.game_id if isinstance(to, ToThread) else to.moderators_of
        assert game_id is not None
        try:
            game = await self.clerk.games.game(game_id)
            known = to.members if isinstance(to, ToThread) else await self.clerk.games.known_moderators(game_id)
            members = known or tuple(u for u in [await self.clerk.games.game_founder(game_id)] if u)
            instead = item.extra.get(INSTEAD)
            text = "\n".join(t for t in (item.text, instead if item.buttons else None) if t)
            first = game_id not in self.private_told
            told = False
            for user_id in members:
                try:
                    if first:
                        await dm(Outgoing(ToUser(user_id), text=private_refused_text(
                            game.name, to.channel_id, error.code, channel=isinstance(to, ToChannel))))
                    await dm(dataclasses.replace(item, to=ToUser(user_id), text=text, buttons=(), extra={}))
                    told = True
                except discord.HTTPException as failed:
                    log.warning("could not DM %s what was for the moderators' thread of %s: %s", user_id, game.name,
                                failed)
            if told:
                self.private_told.add(game_id)
                self.sent += first
            return told
        except Exception:
            log.exception("sending what was for the moderators' place of game %s by DM failed", game_id)
            return False

    async def refused(self, item: Outgoing, error: discord.Forbidden) -> None:
        """``item`` was refused with ``error``: report it if it went to a game's channel or thread. Never raises
        (a failed report must not stop the rest of the messages)."""
        try:
            await self._refused(item, error)
        except Exception:
            log.exception("reporting a refused post to %s failed", item.to)

    async def _refused(self, item: Outgoing, error: discord.Forbidden) -> None:
        if error.code not in REFUSALS or not isinstance(item.to, ToChannel | ToThread):
            return
        channel_id = item.to.channel_id if isinstance(item.to, ToChannel) else item.to.thread_id or item.to.channel_id
        game = await self.clerk.games.game_in_channel(item.to.channel_id)
        if game is None:
            return
        now = self.clerk.clock.now()
        key = (game.id, channel_id)
        seen = self.seen.get(key)
        if seen is not None and now - seen.last < EVERY:
            seen.missed += 1
            log.warning("not posted in channel %s of %s (reported at %s): %r", channel_id, game.name, seen.last,
                        item.text[:200])
            return
        missed = seen.missed if seen is not None else 0
        self.seen[key] = _Seen(now)
        text = report_text(game.name, channel_id, error.code, item, missed)
        if not await self._tell(game.guild_id, game.id, text):
            log.warning("could not tell anyone that the bot may not post in channel %s of %s", channel_id, game.name)

    async def _tell(self, guild_id: int, game_id: int, text: str) -> bool:
        told = await tell_moderators(self.client, self.clerk, guild_id, game_id, text)
        self.sent += told
        return told


async def tell_moderators(client: discord.Client, clerk: Clerk, guild_id: int, game_id: int, text: str, *,
                          known: bool = False) -> bool:
    """DM the game's creator (``known``: every moderator Clerk knows of, ``clerk.games.known_moderators``) and the
    server's owner; else the server's system channel. True if one got it."""
    guild = client.get_guild(guild_id)
    moderators = (await clerk.games.known_moderators(game_id) if known
                  else (await clerk.games.game_founder(game_id),))
    wanted = [*moderators, guild.owner_id if guild is not None else None]
    told = False
    for user_id in dict.fromkeys(u for u in wanted if u is not None):
        try:
            dm = await client.create_dm(discord.Object(id=user_id))
            await client.get_partial_messageable(dm.id).send(content=text)
            told = True
        except discord.HTTPException as error:
            log.warning("could not DM the report to %s: %s", user_id, error)
    if not told and guild is not None and guild.system_channel is not None:
        try:
            await guild.system_channel.send(content=text)
            told = True
        except discord.HTTPException as error:
            log.warning("could not post the report in the system channel: %s", error)
    return told
