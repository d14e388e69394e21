"""Delivering ``Outgoing`` messages: a reply to the interaction or message, a channel post, a thread post
(threads.py), or a DM; with ``keep``, one message edited in place (kept.py). All but the answers to interactions go
through the outgoing queue (outbox_worker.py), which keeps them in the database until Discord has them.

A message that Discord refuses for good (a user who blocks DMs, a bad body) is logged with its target and settled
undeliverable; one for a game channel that was deleted is held until a moderator moves the game (lost_channels.py);
one that fails for a passing reason (a rate limit, an outage) is tried again later."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING

from bot.actions.outbox import (
    EXPLAINS,
    IF_CLOSED,
    IF_CLOSED_IN,
    NONCE,
    POSTED,
    WARNED,
    Answering,
    Card,
    Here,
    Outgoing,
    ToChannel,
    ToThread,
    ToUser,
    not_owed,
)
from bot.actions.wire import decode, encode, retarget
from bot.discord import limits
from bot.discord.attachments import fitted, left_out, refused_as_too_large
from bot.discord.buttons import view_of
from bot.discord.contexts import DirectMessage
from bot.discord.kept import Keeper
from bot.discord.limits import clip
from bot.discord.lost_channels import UNKNOWN_CHANNEL, LostChannels
from bot.discord.outbox_worker import HELD_NOW, RETRY, SENT, UNDELIVERABLE, OutboxWorker
from bot.discord.pacing import Pacer
from bot.discord.permission_reports import PermissionReports
from bot.discord.plain_post import PlainPoster
from bot.discord.selects import select_item
from bot.discord.threads import ChannelGone, Threads, Undeliverable
from bot.tasks import cancel_one
from engine.core.stamps import discord_text, utc_text
from engine.service import Clerk
from engine.service.owed import NOTICE, RECEIPT, Owed, OwedRow
from engine.service.views import GameView

log = logging.getLogger("clerk.discord.delivery")

BLANK = "\u200b"
REPORT_GATHER = 0.5
"""Seconds the refused DMs are gathered before the moderators are told (one message per game for them all)."""
REPORT_WAIT = 60.0
"""Seconds a report waits at most for the outgoing queue to drain (the rest of a burst's refusals)."""
MEMBER_CHECKS = 10
"""At most this many refused users of one game in one report are looked up to tell one who left the server from one
whose DMs are closed (one request each; a burst of 2,000 refusals is reported as closed DMs without them)."""

TOKEN_LIFETIME = timedelta(minutes=15)
"""Discord: "Interaction tokens are valid for 15 minutes" (receiving-and-responding). A command still working then
(a large import or export, a slow database) answers by message instead (``Courier.to_interaction``)."""
TOKEN_MARGIN = timedelta(seconds=30)
"""A follow-up is not begun this close to the token's end (it would arrive after it)."""
EXPIRED_TOKEN = frozenset({50027, 10015})
"""Discord's codes for a follow-up on an expired token: Invalid Webhook Token, Unknown Webhook."""
UNKNOWN_INTERACTION = 10062
"""Discord's code for a first answer to an interaction that came after its 3 s: Unknown interaction."""


def embed_of(card: Card) -> discord.Embed:
    """A Discord embed with every part cut to Discord's limits, the whole under 6000 characters. Times
    (``engine/core/stamps.py``) are Discord's timestamp markup in the description and the field values, which
    Discord renders in each reader's own zone; UTC text in the title, the field names and the footer, which it
    shows as typed."""
    title = clip(utc_text(card.title), limits.EMBED_TITLE)
    footer = clip(utc_text(card.footer), limits.FOOTER) if card.footer else None
    fields = [(clip(utc_text(name) or BLANK, limits.FIELD_NAME),
               clip(discord_text(value) or BLANK, limits.FIELD_VALUE), inline)
              for name, value, inline in card.fields[: limits.EMBED_FIELDS]]

    def used() -> int:
        return len(title) + len(footer or "") + sum(len(name) + len(value) for name, value, _ in fields)

    while fields and used() > limits.EMBED_TOTAL:
        fields.pop()
    room = min(limits.EMBED_DESCRIPTION, limits.EMBED_TOTAL - used())
    description = clip(discord_text(card.description), room) if card.description and room > 0 else None
    embed = discord.Embed(title=title, description=description, color=card.color)
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if footer:
        embed.set_footer(text=footer)
    return embed


def message_parts(item: Outgoing) -> dict[str, Any]:
    """The keyword arguments for ``send``/``send_message``/``reply``; empty when there is nothing to send. Times are
    Discord's timestamp markup (``engine/core/stamps.py``)."""
    parts: dict[str, Any] = {}
    if item.text:
        parts["content"] = clip(discord_text(item.text), limits.CONTENT)
    if item.card is not None:
        parts["embed"] = embed_of(item.card)
    if item.file is not None:
        name, data = item.file
        parts["file"] = discord.File(io.BytesIO(data), filename=name, description=clip(item.alt, limits.ALT_TEXT)
                                     if item.alt else None)
    if item.buttons and parts:
        parts["view"] = view_of(item.buttons)
    if item.select is not None and parts:
        view = parts.setdefault("view", discord.ui.View(timeout=None))
        view.add_item(select_item(item.select))
    return parts


def split_here(out: Iterable[Outgoing]) -> tuple[list[Outgoing], list[Outgoing]]:
    """The answers to the caller (``Here``: first, since an interaction must be acknowledged within 3 s) and the
    rest, each in order."""
    items = list(out)
    return [o for o in items if isinstance(o.to, Here)], [o for o in items if not isinstance(o.to, Here)]


class Courier:
    """Answers interactions at once (they are not under the global limit and must be answered within 3 s); everything
    else (replies to messages, channel posts, DMs, thread posts, edits of kept messages) is owed to the outgoing queue
    (outbox_worker.py), which delivers it under Discord's limits, across restarts."""

    def __init__(self, client: discord.Client, clerk: Clerk, pacer: Pacer | None = None) -> None:
        self.client = client
        self.threads = Threads(client, clerk)
        self.keeper = Keeper(client, clerk, message_parts, self.threads.unarchive)
        self.clerk = clerk
        self.skipped_closed = 0
        self._to_report: list[int] = []
        """Users whose DMs were refused, not yet reported to their games' moderators."""
        self._reporter: asyncio.Task[None] | None = None
        """DMs not tried because their user's DMs are closed to the bot (tests, the log)."""
        self.permissions = PermissionReports(client, clerk)
        self.pacer = pacer or Pacer()
        self.outbox = OutboxWorker(clerk, self.pacer, self.deliver_owed)
        self.lost = LostChannels(client, clerk, self.outbox.drained)
        """Game channels that were deleted: what was for them is held until /game move (lost_channels.py)."""
        self.poster = PlainPoster(client, self.pacer)
        self._dm_channels: dict[int, int] = {}
        """User id -> their DM channel, learnt from the DMs they sent: a DM to them needs no create-DM request."""

    async def to_interaction(self, interaction: discord.Interaction, out: Sequence[Outgoing],
                             deferred: bool | None = None, answering: Answering | None = None) -> None:
        """``Here`` answers the interaction (the first as its response, the rest as followups); the rest is owed,
        but for what the handler owed already in its write's transaction (``answering``: queued, not owed again).
        ``deferred``: the interaction was deferred, ephemerally (True) or for the channel (False). Discord gives the
        first follow-up the deferred response's visibility; an answer meant otherwise (a refusal of a public
        command) is sent anew, after the "thinking" message is deleted. Once the interaction's token has expired
        (``TOKEN_LIFETIME``), what is left goes by message instead: a public answer to the channel, a private one
        by DM (``late_answer``)."""
        here, elsewhere = split_here(out)
        kept = {id(item): row for item, row in answering.owed} if answering is not None else {}
        try:
            late, unknown = await self._respond(interaction, here, deferred)
        finally:  # committed with the write: sent whatever became of the response
            self.outbox.queue(list(kept.values()))
        await self.owe([*(item for item in elsewhere if id(item) not in kept),
                        *(late_answer(interaction, item, in_time=not unknown) for item in late)])

    async def _respond(self, interaction: discord.Interaction, here: Sequence[Outgoing], deferred: bool | None
                       ) -> tuple[list[Outgoing], bool]:
        """The answers ``here`` as the interaction's response and follow-ups (``to_interaction``); returns those left
        to go by message instead (``late_answer``), and whether Discord no longer knew the interaction."""
        late: list[Outgoing] = []
        unknown = False
        """Discord no longer knows the interaction (10062: the first answer came after its 3 s): the answers go by
        message instead, as after the token's expiry (play-test R4.1)."""
        refused: discord.HTTPException | None = None
        for given in here:
            item = given
            if unknown:
                late.append(item)
                continue
            if item.file is not None and len(item.file[1]) > interaction.filesize_limit:
                # compressed (megabytes: off the event loop) or left out
                item = await asyncio.to_thread(fitted, item, interaction.filesize_limit)
            if not message_parts(item):
                continue
            if interaction.response.is_done() and self.token_expired(interaction):
                late.append(item)
                continue
            try:
                try:
                    deferred = await self._answer(interaction, item, deferred)
                except discord.HTTPException as error:
                    if item.file is None or not refused_as_too_large(error):
                        raise
                    # larger than the limit Discord gave: the answer as given goes without its file (not with a
                    # note on its compressing too); a follow-up's deferral was dealt with by the first try
                    deferred = await self._answer(interaction, left_out(given, "Discord refused it as too large"),
                                                  None if interaction.response.is_done() else deferred)
            except discord.HTTPException as error:
                if error.code in EXPIRED_TOKEN or error.code == UNKNOWN_INTERACTION:
                    unknown = unknown or error.code == UNKNOWN_INTERACTION
                    late.append(item)
                    continue
                refused = error
                if interaction.response.is_done():
                    deferred = None  # a follow-up was tried: the deferral is dealt with, as after one sent
                log.warning("could not answer interaction %s (%s): %s", interaction.id, _command_name(interaction),
                            error)
        if not interaction.response.is_done() and not unknown:
            # never a bare "Done." for an answer Discord refused: the user would take it for the answer
            text = "Done." if refused is None else (f"I could not send my answer: Discord refused it "
                                                    f"({refused.status} {refused.text or refused.code}).")
            try:
                await interaction.response.send_message(text, ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not acknowledge interaction %s: %s", interaction.id, error)
        if unknown:
            log.warning("Discord no longer knew interaction %s (%s) when it was answered (10062: after its 3 s): "
                        "the answer is sent by message instead", interaction.id, _command_name(interaction))
        elif late:
            log.warning("the token of interaction %s (%s) expired before its answer: sent by message instead",
                        interaction.id, _command_name(interaction))
        return late, unknown

    @staticmethod
    async def _answer(interaction: discord.Interaction, item: Outgoing, deferred: bool | None) -> bool | None:
        """``item`` as the interaction's response, or as a follow-up once it has one; returns ``deferred`` as it
        stands after (only the first follow-up takes the deferral's flags)."""
        parts = message_parts(item)
        if not interaction.response.is_done():
            await interaction.response.send_message(**parts, ephemeral=item.ephemeral)
            return deferred
        if deferred is not None and item.ephemeral != deferred:
            await interaction.delete_original_response()
        await interaction.followup.send(**parts, ephemeral=item.ephemeral)
        return None

    def token_expired(self, interaction: discord.Interaction) -> bool:
        """Has the interaction's token expired, or will it before a follow-up reaches Discord?"""
        return self.clerk.clock.now() - interaction.created_at >= TOKEN_LIFETIME - TOKEN_MARGIN

    def answering(self, message: discord.Message | DirectMessage, note: str | None = None) -> Answering:
        """Where the handler of ``message`` may owe its answers, and what it posts elsewhere, in its own write's
        transaction (a DM ballot's receipt, a realignment's public line): the rows ``to_message`` would owe, made by
        the same rules (``note`` above each answer's text)."""
        author_id, channel_id, dm = _source_of(message)
        lane = _lane(author_id, channel_id, dm)
        source = _source_id(message)
        return Answering(lambda item: _answer(noted(item, note), lane, channel_id, message.id, source), self._post)

    def answering_posts(self) -> Answering:
        """Where the handler of an interaction (a button press, a menu choice, a slash command), or the timed work of
        a scheduler's pass (``outbox.TIMED``), may owe what it posts elsewhere (the offer to second passed on, a
        running count, a DM to another player) in its own write's transaction: the rows ``owe`` would make. An
        interaction's answer to the caller (``Here``) is its response, not owed (``not_owed``): Discord takes it
        only within 3 s of the press, and a restart has no token to send it with (docs/reliability.md)."""
        return Answering(not_owed, self._post)

    def _post(self, item: Outgoing) -> Owed | None:
        """The row ``owe`` would make of ``item``, posted elsewhere; None when it has nothing to send."""
        return next(iter(self._owed(item)), None)

    async def to_message(self, message: discord.Message | DirectMessage, out: Sequence[Outgoing],
                         answering: Answering | None = None, note: str | None = None) -> None:
        """``Here`` replies to the message, in its channel or thread (``ephemeral`` has no meaning there): owed
        first, as answers (a ballot's receipt goes before announcements and reminders), then the rest. An answer
        the handler owed already, and what it posts elsewhere so owed (``answering``: in the transaction of its
        write), is queued, not owed again. A DM
        read from the gateway's data (``DirectMessage``) is answered exactly as the same DM's ``discord.Message``.
        ``note``: a line above the text of each reply (a DM read back at start: bot/discord/catch_up.py)."""
        author_id, channel_id, dm = _source_of(message)
        if dm:
            self._dm_channels[author_id] = channel_id
            await self.dms_open_again(author_id)
        lane = _lane(author_id, channel_id, dm)
        kept = {id(item): row for item, row in answering.owed} if answering is not None else {}
        here, elsewhere = split_here(out)
        answers = [_answer(noted(item, note), lane, channel_id, message.id, _source_id(message))
                   for item in here if _has_content(item) and id(item) not in kept]
        rest = answers + self._owed_all(item for item in elsewhere if id(item) not in kept)
        if not rest:  # a DM ballot's receipt alone: sent from this task (``queue_and_send``)
            await self.outbox.queue_and_send(list(kept.values()))
            return
        self.outbox.queue(list(kept.values()))
        await self.outbox.owe(rest)

    async def dms_open_again(self, user_id: int) -> None:
        """``user_id`` DMed the bot (or a moderator said their DMs are open): DM them again, and report a refusal
        again."""
        try:
            if await self.clerk.closed_dms.reopen(user_id):
                log.info("DMs to %s are open again", user_id)
        except Exception as error:
            log.warning("could not note that the DMs of %s are open again: %s", user_id, error)

    async def owe_receipts(self, receipts: Sequence[tuple[int, str, Outgoing]]) -> None:
        """Owe receipts made again at start (recovery.py): (message id, its source id, the receipt to its author)."""
        owed = [_answer(item, f"user:{item.to.user_id}", None, message_id, source)
                for message_id, source, item in receipts if isinstance(item.to, ToUser)]
        await self.outbox.owe(owed)

    async def deliver(self, out: Sequence[Outgoing], answering: Answering | None = None) -> None:
        """Messages with no one to answer (the scheduler's): ``Here`` has nowhere to go and is dropped. What the
        timed work owed already in its writes' transactions (``answering``: ``outbox.TIMED``) is queued, not owed
        again."""
        here, elsewhere = split_here(out)
        for item in here:
            log.warning("dropped a reply with no interaction or message to answer: %r", item.text[:80])
        kept = {id(item): row for item, row in answering.owed} if answering is not None else {}
        self.outbox.queue(list(kept.values()))
        await self.owe([item for item in elsewhere if id(item) not in kept])

    async def owe(self, out: Sequence[Outgoing], priority: int = NOTICE) -> None:
        """Owe ``out`` (none of it ``Here``) to the outgoing queue."""
        await self.outbox.owe(self._owed_all(out, priority))

    def _owed_all(self, out: Iterable[Outgoing], priority: int = NOTICE) -> list[Owed]:
        return [owed for item in out for owed in self._owed(item, priority)]

    def _owed(self, item: Outgoing, priority: int = NOTICE) -> list[Owed]:
        if not _has_content(item):
            return []
        to = item.to
        channel_id: int | None = None
        if isinstance(to, ToChannel):
            lane, channel_id = f"channel:{to.channel_id}", to.channel_id
        elif isinstance(to, ToUser):
            lane, channel_id = f"user:{to.user_id}", self._dm_channels.get(to.user_id)
        elif isinstance(to, ToThread):
            lane, channel_id = f"thread:{to.channel_id}:{to.name}", to.thread_id
        else:
            log.warning("dropped a message with nowhere to go: %r", item.text[:80])
            return []
        coalesce = f"keep:{item.keep.game_id}:{item.keep.key}" if item.keep is not None else None
        return [Owed(lane, channel_id, priority, _nonce(item), encode(item), coalesce)]

    async def deliver_owed(self, row: OwedRow) -> tuple[str, int | None]:
        """Send one owed message (outbox_worker.py): SENT, UNDELIVERABLE (Discord refuses it for good; logged) or
        RETRY (a passing failure: a 429 discord.py gave up on, a 5xx, a lost connection), and the channel."""
        item, reply_to = decode(row.owed.body)
        user_id = _dm_user(row)
        if user_id is not None and await self._closed(user_id):
            self.skipped_closed += 1  # their DMs refused the bot: another try would be one more refused request
            log.debug("not sent to %s: their DMs are closed to the bot", user_id)
            await self._instead_of_dm(item)
            return UNDELIVERABLE, None
        try:
            if item.keep is not None:
                sent: list[discord.Message] = []

                async def send_new() -> discord.Message:
                    sent.append(await self.send(item, row.owed.nonce))
                    return sent[0]

                await self.keeper.post(item, item.keep, row.id, send_new)
                return SENT, sent[0].channel.id if sent else None
            if _plain(item):  # a receipt, a reminder: no discord.Message made of Discord's answer (issue 20)
                return SENT, await self.send_plain(item, row.owed.nonce, reply_to, row.owed.channel_id)
            message = await self.send(item, row.owed.nonce, reply_to, row.owed.channel_id)
            return SENT, message.channel.id
        except discord.Forbidden as error:
            log.warning("could not send to %s: %s", item.to, error)
            if user_id is not None:
                await self.report_closed_dms(user_id)
                await self._instead_of_dm(item)
            elif ((isinstance(item.to, ToThread) and item.to.private)
                  or (isinstance(item.to, ToChannel) and item.to.moderators_of is not None)):
                # the moderators' place: they get it by DM instead (never quoted where others read)
                if await self.permissions.private_refused(item, error, self.send):
                    return SENT, None
            else:  # the bot lacks a permission in a game channel: tell the moderators (permission_reports.py)
                await self.permissions.refused(item, error)
            return UNDELIVERABLE, None
        except discord.NotFound as error:
            log.warning("could not send to %s: %s", item.to, error)
            if error.code == UNKNOWN_CHANNEL and user_id is None:
                return await self._channel_gone(row, item)
            return UNDELIVERABLE, None
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                log.warning("sending to %s failed for now (%s); it is tried again later", item.to, error)
                return RETRY, None
            log.warning("could not send to %s: %s", item.to, error)
            return UNDELIVERABLE, None
        except Undeliverable as error:
            log.warning("could not send to %s: %s", item.to, error)
            if isinstance(error, ChannelGone):  # a thread of a deleted channel
                return await self._channel_gone(row, item)
            return UNDELIVERABLE, None
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            log.warning("sending to %s failed for now (%r); it is tried again later", item.to, error)
            return RETRY, None

    async def _channel_gone(self, row: OwedRow, item: Outgoing) -> tuple[str, int | None]:
        """``row`` was refused because its channel does not exist (lost_channels.py): held if it was a game's
        channel (settled so by ``lost.refused``); sent to the game's channel now if the game was moved away from it
        since it was owed (or since the refusal); else undeliverable."""
        verdict = await self.lost.refused(row.id, item)
        if verdict is True:
            return HELD_NOW, None  # kept until /game move
        if verdict is False:
            return UNDELIVERABLE, None
        log.info("%s was owed before its game moved to %s: sent there", item.to, verdict)
        return await self.deliver_owed(OwedRow(row.id, retarget(row.owed, verdict)))

    async def _instead_of_dm(self, item: Outgoing) -> None:
        """A DM refused because its user's DMs are closed: its public stand-in (``IF_CLOSED``), if it has one, is
        owed to its channel. Never raises (the DM is settled undeliverable whatever happens here)."""
        text, channel = item.extra.get(IF_CLOSED), item.extra.get(IF_CLOSED_IN)
        if not text or not channel:
            return
        try:
            await self.owe([Outgoing(ToChannel(int(channel)), text)])
        except Exception:
            log.exception("could not owe the stand-in of a DM refused to %s", item.to)

    async def _closed(self, user_id: int) -> bool:
        """Are ``user_id``'s DMs closed to the bot? If the database cannot say (an outage), try the DM."""
        try:
            return await self.clerk.closed_dms.is_closed(user_id)
        except Exception as error:
            log.warning("could not read whether the DMs of %s are closed: %s", user_id, error)
            return False

    async def report_closed_dms(self, user_id: int) -> None:
        """A player the bot cannot DM misses ballots, receipts and reminders: no more DMs are tried to them
        (``clerk.closed_dms``) until they DM the bot or a moderator runs ``/player dms``; the moderators are told in
        each of their games' channels, once per closing (the state survives a restart: no second report then). The
        refusals until the outgoing queue is drained (at most ``REPORT_WAIT`` seconds) are told together, one
        message per game: a round's ballots refused to 2,000 players make one warning, not 2,000."""
        try:
            if not await self.clerk.closed_dms.close(user_id):
                return
        except Exception as error:  # the database cannot say: report it (at worst twice)
            log.warning("could not note that the DMs of %s are closed: %s", user_id, error)
        self._to_report.append(user_id)
        if self._reporter is None or self._reporter.done():
            self._reporter = asyncio.create_task(self._report_closed(), name="clerk-closed-dms-report")

    async def _report_closed(self) -> None:
        while self._to_report:
            await asyncio.sleep(REPORT_GATHER)
            with contextlib.suppress(TimeoutError):  # the rest of a burst's refusals first (at most a minute)
                await asyncio.wait_for(self.outbox.drained(), REPORT_WAIT)
            users, self._to_report = self._to_report, []
            try:
                games: dict[int, tuple[GameView, list[int]]] = {}
                for user_id, found in zip(users, await asyncio.gather(*map(self.clerk.games.games_of_user, users)),
                                          strict=True):
                    for game in found:
                        games.setdefault(game.id, (game, []))[1].append(user_id)
                for game, closed in games.values():
                    names = await self.clerk.games.player_names(game.id)
                    gone = await self._not_members(game.guild_id, closed) if len(closed) <= MEMBER_CHECKS else set()
                    listed = set(closed) - gone  # in the order they joined the game
                    if listed:
                        text = closed_dms_text([name for user_id, name in names.items() if user_id in listed])
                        await self.owe([Outgoing(ToChannel(game.channel_id), text)])
                    if gone:
                        text = left_server_text([name for user_id, name in names.items() if user_id in gone])
                        await self.owe([Outgoing(ToChannel(game.channel_id), text)])
            except Exception:
                log.exception("telling the moderators about %d player(s) with closed DMs failed", len(users))

    async def game_moved(self, old_channel: int, new_channel: int) -> int:
        """A game moved from ``old_channel`` to ``new_channel`` (``/game move``, ``App.game_moved``): what was held
        for the old one (deleted) is queued for the new one; returns how many messages."""
        rows = await self.lost.release(old_channel, new_channel)
        self.outbox.queue(rows)
        return len(rows)

    async def _not_members(self, guild_id: int, users: Sequence[int]) -> set[int]:
        """Which of ``users`` are no members of the server (they left it: Discord then refuses a DM to them as to
        closed DMs, and the bot, without the members intent, is not told they left): one member lookup each, asked
        only for a few (``MEMBER_CHECKS``). A lookup that fails otherwise counts them as members (play-test S5.2)."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return set()
        gone = set()
        for user_id in users:
            try:
                await guild.fetch_member(user_id)
            except discord.NotFound:
                gone.add(user_id)
            except discord.HTTPException as error:
                log.warning("could not look up member %s: %s", user_id, error)
        return gone

    async def stop(self) -> None:
        await cancel_one(self._reporter)
        await self.lost.stop()
        await self.outbox.stop()
        with contextlib.suppress(Exception):  # what the closed DMs are, in the table before the process ends
            await asyncio.wait_for(self.clerk.closed_dms.written(), 5)
        with contextlib.suppress(Exception):  # and the DM channels learnt (dm_channels.py)
            await asyncio.wait_for(self.clerk.dm_channels.written(), 5)

    async def send(self, item: Outgoing, nonce: str | None = None, reply_to: int | None = None,
                   channel_id: int | None = None) -> discord.Message:
        """A new message in a channel, thread or DM, by id (no cache needed); a thread is made when needed. A DM goes
        to the channel known (``channel_id``, or the user's last DM) without asking Discord to open one."""
        target = item.to
        if isinstance(target, ToThread):
            return await self.threads.post(target, lambda thread_id: self.send_to(thread_id, item, nonce))
        return await self.send_to(await self._channel_of(item, channel_id), item, nonce, reply_to)

    async def _channel_of(self, item: Outgoing, channel_id: int | None = None) -> int:
        """The channel of a message to a channel or a user (their DM channel: ``channel_id``, or the user's last DM,
        or one Discord opens)."""
        target = item.to
        if isinstance(target, ToChannel):
            return target.channel_id
        if isinstance(target, ToUser):
            known = channel_id or self._dm_channels.get(target.user_id)
            if known is None:
                known = (await self.client.create_dm(discord.Object(id=target.user_id))).id
                self._dm_channels[target.user_id] = known
                self.clerk.dm_channels.learnt(target.user_id, known)  # kept: the catch-up asks no more (catch_up.py)
            return known
        raise Undeliverable(f"no channel for {target}")

    async def send_plain(self, item: Outgoing, nonce: str | None = None, reply_to: int | None = None,
                         channel_id: int | None = None) -> int:
        """``send`` of a message of text alone (``_plain``: a receipt, most answers and reminders) to a channel or a
        user; returns the channel it went to. The same request as ``send_to`` makes, built by discord.py's own
        ``handle_message_parameters`` with the same arguments as ``Messageable.send`` gives it (the client's
        allowed mentions, the reply's reference, the nonce) and posted on the same ``HTTPClient``'s session (Clerk's
        pacer in its trace) by ``PlainPoster`` (plain_post.py: the request ``HTTPClient.send_message`` makes, without
        discord.py's bucket per channel and without decoding Discord's answer), and Discord's answer is not made into
        a ``discord.Message`` (its author, channel, embeds, components): nothing reads it (issue 20)."""
        to = await self._channel_of(item, channel_id)
        reference = (discord.MessageReference(message_id=reply_to, channel_id=to, fail_if_not_exists=False)
                     .to_message_reference_dict() if reply_to is not None else MISSING)
        with handle_message_parameters(content=clip(discord_text(item.text), limits.CONTENT),
                                       nonce=nonce if nonce else secrets.randbits(64), message_reference=reference,
                                       previous_allowed_mentions=self.client.allowed_mentions,
                                       mention_author=False if reply_to is not None else None,
                                       allowed_mentions=None, view=None, poll=None) as params:
            await self.poster.post(to, params)
        return to

    async def send_to(self, channel_id: int, item: Outgoing, nonce: str | None = None,
                      reply_to: int | None = None) -> discord.Message:
        """Post ``item`` with its nonce (Discord drops a second post with the same nonce within a few minutes); a
        result's announcement is marked posted once Discord has it."""
        marker = item.extra.get(POSTED)

        async def post(item: Outgoing) -> discord.Message:
            parts = message_parts(item)
            if reply_to is not None:
                parts.update(reference=discord.MessageReference(message_id=reply_to, channel_id=channel_id,
                                                                fail_if_not_exists=False), mention_author=False)
            sent_with = nonce or _marked_nonce(item)
            if sent_with:
                parts["nonce"] = sent_with
            return await self.client.get_partial_messageable(channel_id).send(**parts)

        try:
            sent = await post(item)
        except discord.HTTPException as error:
            if item.file is None or not refused_as_too_large(error):
                raise
            # larger than Discord takes there (a server's limit, a DM's): the message still goes, saying so, and
            # nothing is lost but the file (a chart); Discord made no message of the refused post, so the nonce is free
            log.warning("Discord refused %s as too large (%s): sent without it", item.file[0], error)
            sent = await post(left_out(item, "Discord refused it as too large"))
        if marker is not None:
            await self.clerk.announcements.mark_posted(marker, sent.id)
            await self.clerk.announcements.remember_post(marker, sent.channel.id, sent.id)  # an erratum links it
        if WARNED in item.extra:  # a disclosure warning: a restart does not send it again (recovery.py)
            await self.clerk.announcements.mark_warned(item.extra[WARNED], sent.channel.id, sent.id)
        if EXPLAINS in item.extra:  # a result card without a marker: Explain this finds it by its message
            await self.clerk.announcements.remember_card(item.extra[EXPLAINS], sent.channel.id, sent.id)
        return sent


def late_answer(interaction: discord.Interaction, item: Outgoing, *, in_time: bool = True) -> Outgoing:
    """An answer the interaction's token can no longer carry, as a message: a public one in the channel where the
    command was used, naming the caller (without a ping); a private one (or one in a DM) by DM. ``in_time``: the
    interaction was answered in time and its token expired (15 minutes); otherwise Discord no longer knew it when
    the first answer came (10062, after its 3 s: the player saw "This interaction failed" although what they did
    was done, play-test R4.1)."""
    name = _command_name(interaction)
    user = interaction.user.id
    if item.ephemeral or interaction.guild_id is None or interaction.channel_id is None:
        where = f" in <#{interaction.channel_id}>" if interaction.guild_id is not None else ""
        head = (f"Your {name}{where} took longer than the 15 minutes Discord lets an answer wait; here it is."
                if in_time else f"Discord did not take my answer to your {name}{where} in time (it waits 3 seconds) "
                                "and may have told you it failed; here it is.")
        return replace(item, to=ToUser(user), text=f"{head}\n{item.text}" if item.text else head, ephemeral=False)
    name = name[:1].upper() + name[1:]  # a post's first word: "Button press for @alice ..."
    head = (f"{name} for <@{user}> (late: it took longer than the 15 minutes Discord lets an answer wait):" if in_time
            else f"{name} for <@{user}> (Discord did not take the answer in time and may have said it failed):")
    return replace(item, to=ToChannel(interaction.channel_id), text=f"{head}\n{item.text}" if item.text else head,
                   ephemeral=False)


def noted(item: Outgoing, note: str | None) -> Outgoing:
    """``item`` with ``note`` as the first line of its text."""
    if note is None:
        return item
    return replace(item, text=f"{note}\n{item.text}" if item.text else note)


def _source_of(message: discord.Message | DirectMessage) -> tuple[int, int, bool]:
    """The author, the channel and whether it is a DM."""
    if isinstance(message, DirectMessage):
        return message.author_id, message.channel_id, True
    return message.author.id, message.channel.id, isinstance(message.channel, discord.DMChannel)


def _source_id(message: discord.Message | DirectMessage) -> str:
    """The source id of a message's answers: ``msg:<id>``, or an edited DM's own (``DirectMessage.source``)."""
    return message.source if isinstance(message, DirectMessage) else f"msg:{message.id}"


def _lane(author_id: int, channel_id: int, dm: bool) -> str:
    """The outgoing lane of the answers to a message: its author's DMs, or its channel."""
    return f"user:{author_id}" if dm else f"channel:{channel_id}"


def _answer(item: Outgoing, lane: str, channel_id: int | None, reply_to: int, source_id: str) -> Owed:
    """An answer to a message (``reply_to``, sent under ``source_id``): a RECEIPT, sent before announcements."""
    return Owed(lane, channel_id, RECEIPT, _nonce(item), encode(item, channel_id=channel_id, reply_to=reply_to),
                source_id=source_id)


def left_server_text(names: Sequence[str]) -> str:
    """The moderators' warning about players the bot cannot DM because they are no members of the server any more
    (play-test S5.2: before, they were said to have closed their DMs)."""
    shown = [f"**{n}**" for n in names]
    listed = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
    return (f"⚠️ Moderators: {listed} {'is' if len(names) == 1 else 'are'} no longer a member of this server, so I "
            "cannot send them direct messages: they get no ballot buttons, receipts or reminders. Take them out "
            "of the game with `/player remove`, or ask them to join again and DM me.")


def closed_dms_text(names: Sequence[str]) -> str:
    """The moderators' warning about players whose DMs refused the bot; past ``limits.CONTENT``, the rest counted."""
    head = "⚠️ Moderators: I cannot send direct messages to "
    tail = (" (their DMs are closed to me), so they get no ballot buttons, receipts or reminders. Ask them to allow "
            "direct messages from members of this server. I stop DMing them until they DM me or a moderator runs "
            "`/player dms`.")
    shown = [f"**{n}**" for n in names]
    room = limits.CONTENT - len(head) - len(tail) - 40
    while len(shown) > 1 and len(", ".join(shown)) > room:
        shown.pop()
    rest = len(names) - len(shown)
    if rest:
        listed = ", ".join(shown) + f" and {rest:,} more players"
    else:
        listed = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
    return f"{head}{listed}{tail}"


def _dm_user(row: OwedRow) -> int | None:
    """The user a DM lane's message goes to; None for a channel or thread."""
    lane = row.owed.lane
    return int(lane.split(":")[1]) if lane.startswith("user:") else None


def _plain(item: Outgoing) -> bool:
    """Is ``item`` text alone to a channel or a user, with nothing to note once it is sent (``send_plain``)?"""
    return (bool(item.text) and item.card is None and item.file is None and not item.buttons and item.select is None
            and item.keep is None and not item.extra and isinstance(item.to, ToChannel | ToUser))


def _has_content(item: Outgoing) -> bool:
    return bool(item.text or item.card is not None or item.file is not None)


def _marked_nonce(item: Outgoing) -> str | None:
    """The nonce of a result's announcement or disclosure warning: the close's (``NONCE``, its marker and the close's
    token: ``round:<game>:<n>.<token>``), or its marker (``round:<game>:<n>``, ``wround:<game>:<n>``) for one made
    without; None for any other message."""
    return item.extra.get(NONCE) or item.extra.get(POSTED) or item.extra.get(WARNED)


def _nonce(item: Outgoing) -> str:
    """A result's announcement's or disclosure warning's (``_marked_nonce``), else a random one: at most 25
    characters."""
    return _marked_nonce(item) or "o" + secrets.token_hex(11)


def _command_name(interaction: discord.Interaction) -> str:
    """What the user did, as a late answer names it: ``/vote``, **Count as vote** (a message's menu), or a button press
    or a menu choice (no command: before, "your ?", play-test S5.1)."""
    command = interaction.command
    if isinstance(command, discord.app_commands.ContextMenu):
        return f"**{command.name}**"
    if command is not None:
        return f"/{command.qualified_name}"
    if interaction.type is discord.InteractionType.component:
        data: dict[str, Any] = dict(interaction.data or {})
        return "button press" if data.get("component_type") == discord.ComponentType.button.value else "menu choice"
    return "action"
