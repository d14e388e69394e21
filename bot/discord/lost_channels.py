"""A game channel that was deleted (play-test R4.2). Discord refuses every post there (404, 10003 Unknown Channel) and
every thread of it is gone, so nothing the game announces can reach its players, and no moderator command can be run
in it. The bot learns of it from Discord's CHANNEL_DELETE, or from the first post refused (it was offline when the
channel went):

- What was meant for the channel or its threads is **held** in the outgoing queue (``owed_messages`` outcome
  ``held``, engine/service/owed.py), not dropped: the result cards, announcements and kept counts.
- The moderators are told **once per channel loss** (the mark ``channel_lost`` of ``clerk.marks`` survives a
  restart), by DM to the moderators Clerk knows (the game's creator first) and the server's owner, else in the
  server's system channel (``permission_reports.tell_moderators``' rule), quoting what could not be posted and
  saying how to go on: ``/game move`` in the channel that should become the game's.
- ``/game move`` (bot/actions/admin.py) changes the game's channel and records ``GameMoved``, and in the same
  transaction owes the held messages again in the new channel and its threads (``engine.service.owed.release_in``
  with ``bot.actions.wire.retarget``); ``release`` does it after the move, in a write of its own, for a front end
  that owes nothing with a write.

Players' DMs to the bot keep working meanwhile: ballots are recorded and answered by DM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.actions.outbox import Outgoing, ToChannel, ToThread
from bot.actions.wire import retarget
from bot.discord import limits
from bot.discord.limits import clip
from bot.discord.permission_reports import quoted, tell_moderators
from bot.tasks import cancel_and_wait
from engine.core.words import plural
from engine.service import Clerk
from engine.service.marks import CHANNEL_LOST
from engine.service.owed import OwedRow
from engine.service.views import GameView

log = logging.getLogger("clerk.discord.lost_channels")

UNKNOWN_CHANNEL = 10003
"""Discord's code for a channel that does not exist (any more)."""
REPORT_GATHER = 0.5
"""Seconds the refused messages of a channel just found deleted are gathered before the moderators are told."""
REPORT_WAIT = 60.0
"""Seconds a report waits at most for the outgoing queue to drain (the rest of the moment's refusals)."""


def lost_text(game: str, channel_id: int, items: Sequence[Outgoing]) -> str:
    """The moderators' report of a deleted game channel: what could not be posted (when posts found it: the first
    card, a round's result, else the first message; the others counted) and what to do."""
    head = f"⚠️ Moderators of **{game}**: its game channel <#{channel_id}> was deleted (Discord: Unknown Channel)."
    refused = ""
    if items:
        shown = next((i for i in items if i.card is not None), items[0])
        more = f" (and {plural(len(items) - 1, 'more message')})" if len(items) > 1 else ""
        refused = f"\nI could not post this there{more}:\n{quoted(shown)}"
    what = (f"\nI keep everything I announce for {game} (results, announcements, counts) and post it once the game "
            f"has a channel again. Players can still DM me: their ballots are recorded and answered. To go on, run "
            f"`/game move game:{game}` in the channel that should become its game channel (a new one, or one with no "
            f"game); the game's commands work there from then on. (I tell you this once for this channel.)")
    return head + clip(refused, limits.CONTENT - len(head) - len(what)) + what  # the quote cut, never what to do


class LostChannels:
    """Holds what a deleted game channel could not take, tells the moderators once, releases it after a move."""

    def __init__(self, client: discord.Client, clerk: Clerk,
                 drained: Callable[[], Awaitable[None]] | None = None) -> None:
        self.client = client
        self.clerk = clerk
        self.drained = drained
        """Waits until the outgoing queue has nothing left to send (``OutboxWorker.drained``)."""
        self._gathering: dict[int, list[Outgoing]] = {}
        """Game id -> the refused messages a report being gathered will quote and count."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.told = 0
        """Reports delivered (tests, the log)."""
        self.deletions = 0
        """Channel deletions Discord told of and looked at (tests wait for them)."""

    async def refused(self, row_id: int, item: Outgoing) -> bool | int:
        """``item`` (the owed row ``row_id``) was refused because its channel does not exist: True if that is a game's
        channel (the moderators are told if they were not for this channel, and the row is settled held,
        ``clerk.outbox.hold``); the game's channel now if a game was moved away from it (``item`` was owed before the
        move, or the move committed between the refusal and the hold: it goes there); False otherwise (it is
        undeliverable). Raises only if the hold's write fails."""
        if not isinstance(item.to, ToChannel | ToThread):
            return False
        try:
            game = await self.clerk.games.game_in_channel(item.to.channel_id)
            if game is None:
                moved = await self.clerk.marks.moved_from(item.to.channel_id)
                return (await self.clerk.games.game(moved)).channel_id if moved is not None else False
            if isinstance(item.to, ToThread) and not await self._gone(item.to.channel_id):
                return False  # the thread alone was deleted: the channel is there
            await self.lost(game, item)
        except Exception:
            log.exception("noting that the channel of %s is gone failed", item.to)
            return False
        # held in a transaction that reads the game's channel under its lock: a /game move committed since the lookup
        # above released what was held then, not this row, which goes to the game's new channel instead. A failure
        # here is the worker's to try again (the row stays owed)
        now_in = await self.clerk.outbox.hold(row_id, game.id, item.to.channel_id)
        return True if now_in is None else now_in

    async def deleted(self, channel_id: int) -> None:
        """Discord says ``channel_id`` was deleted (CHANNEL_DELETE): if it was the channel of a game still running,
        tell its moderators now, before anything is refused there (an ended game's channel is often tidied away on
        purpose: its moderators hear of it only if something is refused there). Never raises."""
        try:
            game = await self.clerk.games.game_in_channel(channel_id)
            if game is not None and not game.ended:
                await self.lost(game, None)
        except Exception:
            log.exception("noting that channel %s was deleted failed", channel_id)
        finally:
            self.deletions += 1

    async def _gone(self, channel_id: int) -> bool:
        """Does Discord say the channel does not exist?"""
        try:
            await self.client.fetch_channel(channel_id)
            return False
        except discord.NotFound:
            return True
        except discord.HTTPException:
            return False

    async def lost(self, game: GameView, item: Outgoing | None) -> None:
        """Tell the moderators, unless they were told of this channel: at once for a deletion Discord told of
        (``item`` None); for a refused post, once the outgoing queue has drained (``drained``: at most ``REPORT_WAIT``
        seconds), so that the report quotes a result card refused with the other messages of the moment and counts
        them."""
        gathering = self._gathering.get(game.id)
        if gathering is not None:  # a report is being gathered: this one joins it
            if item is not None:
                gathering.append(item)
            return
        items = self._gathering[game.id] = [item] if item is not None else []
        try:
            new = await self.clerk.marks.mark(game.id, CHANNEL_LOST, str(game.channel_id))
        except BaseException:
            del self._gathering[game.id]
            raise
        at_once = item is None or self.drained is None
        if not new or at_once:
            del self._gathering[game.id]
        if not new:
            return  # told already for this channel
        log.warning("the channel %s of game %s was deleted: what is announced there is held until /game move",
                    game.channel_id, game.name)
        if at_once:
            await self._report(game, items)
            return
        task = asyncio.create_task(self._gathered(game), name=f"clerk-lost-channel-{game.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _gathered(self, game: GameView) -> None:
        try:
            assert self.drained is not None
            await asyncio.sleep(REPORT_GATHER)
            with contextlib.suppress(TimeoutError):  # the rest of the moment's refusals first
                await asyncio.wait_for(self.drained(), REPORT_WAIT)
        finally:
            items = self._gathering.pop(game.id, [])
        await self._report(game, items)

    async def _report(self, game: GameView, items: Sequence[Outgoing]) -> None:
        if await tell_moderators(self.client, self.clerk, game.guild_id, game.id,
                                 lost_text(game.name, game.channel_id, items), known=True):
            self.told += 1
        else:
            log.warning("could not tell anyone that the channel of %s was deleted", game.name)

    async def stop(self) -> None:
        await cancel_and_wait(list(self._tasks), timeout=5)

    async def release(self, old_channel: int, new_channel: int) -> list[OwedRow]:
        """The messages held for ``old_channel`` (and its threads), owed again for ``new_channel``: their rows, to
        queue."""
        rows = await self.clerk.outbox.release_held(old_channel, lambda owed: retarget(owed, new_channel))
        if rows:
            log.info("%d message(s) held for the deleted channel %s go to %s", len(rows), old_channel, new_channel)
        return rows
