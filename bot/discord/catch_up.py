"""At start, the DMs players sent while the bot was offline (play-test R3.2): Discord does not send a new session the
messages of a time it had none, but it keeps them in each DM channel's history. The bot reads back, for the players
of every game that has not ended, the DMs they sent since it last could read DMs that it never handled, and handles
each as if it had just come (``ClerkBot.on_direct_message``), judged by Discord's timestamp (P0-15), its answer
saying it was sent while the bot was offline (docs/reliability.md, "DMs sent while the bot was offline").

- **Which players first.** In the order of their games' soonest deadline (the games with none last; a player of
  several games may be read once for each, which costs a request and answers nothing twice): a pass of the
  deadline scheduler closes nothing before the players of every game due by then are read (``before_close``), so
  the first pass, which closes what fell due while the bot was offline, waits for those only (read ``READERS`` at a
  time), and the rest are read in the background (``BACKGROUND_READERS`` at a time, each channel once the bot has no
  DM to handle and nothing to send, or after ``QUIET_WAIT``). Nothing here delays the gateway's ready or the answers
  to new DMs: it starts once the bot is connected, and new DMs are handled as they come.
- **The window.** From ``MARGIN`` before the newest answer owed to a DM (a time this bot could still read DMs,
  ``OwedService.dm_answers``, read at start before anything is owed or forgotten; with none, the oldest running
  game's creation) to the moment the bot became ready (a DM after it comes on the gateway).
- **Never handled.** A DM in the window is handled unless the history holds the bot's reply to it (to an edited one:
  a reply after the edit), an answer was owed to its source id (sent or not), or an event was recorded under it
  (``OwedService.handled``); and unless the gateway delivered it to this process (``live``: from ``prepare`` on,
  so also a DM delivered between the gateway's READY and ``start``, whose handling may not have committed when its
  channel is read). A DM handled from the history is not handled again if the gateway delivers it later, even after
  the reading ended (``caught``). Nothing is written on the path of a live DM for this.
- **The DM channel** of a player: the courier's, else the one kept in the ``dm_channels`` table (every user an
  answer or a DM of the outgoing queue went to, kept at start, and every channel a create-DM returned:
  engine/service/dm_channels.py), else asked of Discord (``create_dm``'s request: one, no message), and then kept.
  A kept channel Discord no longer knows is asked for again. Each channel read leaves a rate-limit bucket in
  discord.py: after many, they are dropped as after a burst (relief.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.discord.contexts import DirectMessage, dm_of
from bot.discord.pacing import spare_time
from engine.core.stamps import stamp
from engine.service.clerk import Clerk

log = logging.getLogger("clerk.discord.catch_up")

MARGIN = timedelta(hours=1)
"""How far before the newest answer to a DM the history is read: a DM taken in but not yet handled when the bot
stopped (a burst held back at the gateway, a batch not yet committed) was sent before the answers of the DMs handled
after it; answered ones in the margin are recognised and skipped, so the margin costs no answer, only reading."""
PAGE = 100
"""Messages per history request (Discord's most)."""
PAGES = 20
"""At most this many pages of one DM channel (2,000 messages) are read."""
READERS = 8
"""DM channels read at once for the players of games due by then (their requests still go at the pacer's rate)."""
BACKGROUND_READERS = 2
"""DM channels read at once for the others, each only once the bot is quiet (``quiet``) or after ``QUIET_WAIT``, and
at most ``BACKGROUND_REQUESTS`` requests a second in all."""
BACKGROUND_REQUESTS = 10.0
"""Requests a second at most in the background (history pages and create-DMs), a fifth of Discord's global limit, so
a start with 20,000 players to read costs the live answers little: a player whose DM channel is kept (``dm_channels``)
costs one request, one never seen two (a create-DM first), so 20,000 players take about 33 minutes of reading when
their channels are kept, 67 when none is (the soonest deadlines first)."""
QUIET_WAIT = 1.0
"""Seconds a background reader waits for the bot to be quiet before it reads the next channel anyway: under a
steady load (a burst of DMs, a queue that retries) the catch-up still goes on."""
ALL = datetime.max.replace(tzinfo=UTC)
"""``covered`` once every player of a game with a deadline is read."""
RELIEVE_AFTER = 256
"""Channels read after which the bot is relieved as after a burst (one rate-limit bucket per channel read)."""
GAMES_AT_ONCE = 4
"""Games whose players are read in one step: ``covered`` moves after each."""

ONE_MS = timedelta(milliseconds=1)
"""A snowflake's time is in milliseconds: a reply in the same millisecond as an edit is after it."""

Handle = Callable[[DirectMessage, str], Awaitable[None]]


def offline_note(at: datetime) -> str:
    """The line above the answer to a DM the bot read back at start."""
    return (f"I was offline or restarting when you sent this ({stamp(at)}): I read it only when I started again, and "
            "took it as sent then.")


class CatchUp:
    def __init__(self, client: discord.Client, clerk: Clerk, handle: Handle,
                 channels: Callable[[], dict[int, int]], quiet: Callable[[], Awaitable[object]] | None = None,
                 relieve: Callable[[], object] | None = None) -> None:
        self.client = client
        self.clerk = clerk
        self.handle = handle
        """Handle one DM read back, with the note for its answers (``ClerkBot.on_direct_message``)."""
        self.quiet = quiet
        """Wait until the bot has nothing to handle or send (the live DMs and answers go first)."""
        self.relieve = relieve
        """Called once many channels were read: their idle rate-limit buckets dropped, the heap trimmed (relief.py)."""
        self._known = channels
        """The DM channels the courier knows (user id -> channel id)."""
        self.newest: datetime | None = None
        self.prepared = False
        """``prepare`` ran: this process reads DMs back, and notes the DMs the gateway delivers until it is done."""
        self.done = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.covered: datetime | None = None
        """Every player whose games' soonest deadline is before this has been read (None: none yet)."""
        self.ready_at: datetime | None = None
        """When the bot became ready: the DMs sent before it are read back, those after come on the gateway."""
        self._next_slot = 0.0
        """When the next background read may start (the event loop's time)."""
        self._progress = asyncio.Event()
        """Set (and cleared again) whenever ``covered`` moves."""
        self.live: set[str] = set()
        """Source ids of the DMs sent before ``ready_at`` that the gateway delivered from ``prepare`` until the
        catch-up is done: not handled again from the history."""
        self.caught: set[str] = set()
        """Source ids of the DMs handled from the history: not handled again if the gateway delivers them (kept once
        the catch-up is done: a DM sent just before the ready may come on the gateway after its channel was read)."""
        self.created = 0
        """Create-DM requests made (a player whose channel was not known: tests, the log)."""
        self.pages = 0
        """History requests made (tests, the log)."""
        self.handled = 0
        """DMs read back and handled (tests, the log)."""
        self.read_channels = 0
        self._closing = 0
        """Scheduler passes waiting in ``before_close``: while any does, no read waits for the budget's spare time."""

    @property
    def active(self) -> bool:
        return self._task is not None and not self.done.is_set()

    async def prepare(self) -> None:
        """Before anything is owed or forgotten at this start, and before the gateway connects: when the newest
        answer to a DM was owed; from now on the DMs the gateway delivers are noted (``delivered``)."""
        self.prepared = True
        try:
            self.newest = await self.clerk.outbox.dm_answers()
        except Exception:
            log.exception("could not read when DMs were last answered: the DMs are read back from the oldest running "
                          "game's creation")
            self.newest = None

    def start(self) -> None:
        """Start reading back (once the bot is connected)."""
        if self._task is None:
            self.ready_at = self.clerk.clock.now()
            self._task = asyncio.create_task(self._run(self.ready_at), name="clerk-dm-catch-up")

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def before_close(self) -> None:
        """Awaited by the deadline scheduler before it closes what is due: until the players of every game whose
        deadline has come are read (at the first pass, those whose deadline passed while the bot was offline)."""
        if self._task is None:
            return
        now = self.clerk.clock.now()
        self._closing += 1  # the reads go at the budget's full rate meanwhile, not in its spare time
        try:
            while not self.done.is_set() and (self.covered is None or self.covered <= now):
                self._progress.clear()
                await self._progress.wait()
        finally:
            self._closing -= 1

    def _cover(self, up_to: datetime) -> None:
        self.covered = up_to
        self._progress.set()

    def delivered(self, message: DirectMessage) -> bool:
        """The gateway delivered ``message``: False if it was handled from the history already (drop it). From
        ``prepare`` until the catch-up is done, a DM it may read back is noted (``live``), so it is not handled again
        from the history, even if this delivery's handling has not committed yet (delivered before ``start``)."""
        if not self.prepared or (self.ready_at is not None and message.created_at >= self.ready_at):
            return True  # a DM sent since the bot became ready is never read back
        if message.source in self.caught:
            return False
        if not self.done.is_set():
            self.live.add(message.source)
        return True

    async def _run(self, ready_at: datetime) -> None:
        try:
            await self._read_all(ready_at)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("reading back the DMs sent while the bot was offline failed")
        finally:
            self.done.set()
            self._progress.set()
            self.live.clear()

    async def _read_all(self, ready_at: datetime) -> None:
        running = [game.id for game in await self.clerk.games.running_games()]
        since = (self.newest - MARGIN) if self.newest is not None else await self.clerk.games.oldest_running_game()
        if not running or since is None:
            return
        after = discord.utils.time_snowflake(since)
        deadlines = await self.clerk.game_deadlines()
        # the games by their soonest deadline (those with none last), a few at a time: the players of 1,000 games are
        # never all in memory at once (they would stay in the heap for the whole reading)
        order = sorted(running, key=lambda game: (game not in deadlines, deadlines.get(game) or ready_at, game))
        self._cover(deadlines.get(order[0]) or ALL)  # nobody is due before the first
        start = 0
        while start < len(order):
            due = deadlines.get(order[start])
            end = min(start + GAMES_AT_ONCE, len(order))
            users = list(await self.clerk.games.players_of(order[start:end]))
            kept = await self._kept(users)
            # due by now: read at once, the scheduler waits; later: in the background, after the live work
            await self._read(users, kept, after, ready_at, background=due is None or due > self.clerk.clock.now())
            start = end
            self._cover((deadlines.get(order[start]) if start < len(order) else None) or ALL)
        if self.read_channels >= RELIEVE_AFTER and self.relieve is not None:
            self.relieve()
        if self.handled:
            log.warning("handled %d DM(s) sent while the bot was offline (read back from %d DM channel(s): %d history "
                        "request(s), %d create-DM(s))", self.handled, self.read_channels, self.pages, self.created)

    async def _kept(self, users: list[int]) -> dict[int, int]:
        """The DM channels of ``users`` kept in the table (none if it cannot be read: each is asked of Discord)."""
        try:
            return await self.clerk.dm_channels.channels_of(users)
        except Exception as error:
            log.warning("could not read the kept DM channels of %d player(s): %s", len(users), error)
            return {}

    async def _read(self, users: Iterable[int], kept: dict[int, int], after: int, ready_at: datetime, *,
                    background: bool) -> None:
        queue: asyncio.Queue[int] = asyncio.Queue()
        for user in users:
            queue.put_nowait(user)

        async def reader() -> None:
            while not queue.empty():
                if background and self.quiet is not None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.quiet(), QUIET_WAIT)
                    await self._pace(1)
                    if queue.empty():
                        return
                user = queue.get_nowait()
                # in the background, every request in the global budget's spare time, so that no receipt waits for
                # one (pacing.py); a close waiting for these players lifts it
                spare = spare_time() if background and not self._closing else contextlib.nullcontext()
                try:
                    with spare:
                        requests = await self._read_user(user, kept.get(user), after, ready_at)
                    if background:
                        await self._pace(requests - 1, wait=False)  # a create-DM, a second page: the next waits
                except discord.HTTPException as error:
                    log.warning("could not read back the DMs of %s: %s", user, error)
                except Exception:
                    if self.client.is_closed():  # the bot stopped under the read (its HTTP session closed): no fault
                        return
                    log.exception("reading back the DMs of %s failed", user)

        await asyncio.gather(*(reader() for _ in range(min(BACKGROUND_READERS if background else READERS,
                                                            queue.qsize()))))

    async def _pace(self, requests: int, *, wait: bool = True) -> None:
        """Take the background slots of ``requests`` requests (``BACKGROUND_REQUESTS``), waiting for the first
        (``wait``), or only charging them to the reads after."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        at = max(now, self._next_slot)
        self._next_slot = at + requests / BACKGROUND_REQUESTS
        if wait and at > now:
            await asyncio.sleep(at - now)

    async def _open(self, user_id: int) -> int:
        """The request ``create_dm`` makes, without the DMChannel discord.py would make and keep of it; the channel
        is kept (``dm_channels``), so a later start asks no more."""
        channel_id = int((await self.client.http.start_private_message(user_id))["id"])
        self.created += 1
        self.clerk.dm_channels.learnt(user_id, channel_id)
        return channel_id

    async def _read_user(self, user_id: int, kept: int | None, after: int, ready_at: datetime) -> int:
        """Read back the DMs of ``user_id``; returns the requests it made."""
        requests = 0
        channel_id = self._known().get(user_id) or kept
        if channel_id is None:
            channel_id, requests = await self._open(user_id), 1
        try:
            history, pages = await self._history(channel_id, after)
        except (discord.NotFound, discord.Forbidden):
            if channel_id != kept:
                raise
            opened = await self._open(user_id)  # a kept channel Discord no longer knows (or lets the bot read)
            requests += 2  # the refused read and the create-DM
            if opened == channel_id:
                raise
            channel_id = opened
            history, pages = await self._history(opened, after)
        self.read_channels += 1
        requests += pages
        waiting = unanswered(history, user_id, channel_id, ready_at)
        if not waiting:
            return requests
        done = await self.clerk.outbox.handled([m.source for m in waiting])
        for message in waiting:
            if message.source in done or message.source in self.live or message.source in self.caught:
                continue
            self.caught.add(message.source)
            self.handled += 1
            await self.handle(message, offline_note(message.created_at))
        return requests

    async def _history(self, channel_id: int, after: int) -> tuple[list[dict[str, Any]], int]:
        """The messages of the DM channel ``channel_id`` after the snowflake ``after`` (at most ``PAGES`` pages), and
        the requests it took."""
        history: list[dict[str, Any]] = []
        pages = 0
        for _ in range(PAGES):
            pages += 1
            page: list[dict[str, Any]] = list(await self.client.http.logs_from(channel_id, PAGE, after=after))  # type: ignore[arg-type]
            if not page:
                break
            history += page
            after = max(int(m["id"]) for m in page)
            if len(page) < PAGE:
                break
        self.pages += pages
        return history, pages


def unanswered(history: list[dict[str, Any]], user_id: int, channel_id: int,
               ready_at: datetime) -> list[DirectMessage]:
    """The DMs of ``user_id`` in a page of their DM channel's history (Discord's messages, any order) sent before
    ``ready_at`` that the bot has not replied to (an edited one: not since the edit), oldest first."""
    from bot.discord.client import READABLE_TYPES

    replies: dict[int, list[datetime]] = {}
    theirs: list[DirectMessage] = []
    for data in history:
        author = data.get("author") or {}
        if author.get("bot", False):
            reference = (data.get("message_reference") or {}).get("message_id")
            if reference is not None:
                replies.setdefault(int(reference), []).append(discord.utils.snowflake_time(int(data["id"])))
            continue
        if int(author.get("id", 0)) != user_id:
            continue
        message = dm_of({**data, "channel_id": data.get("channel_id", channel_id)})
        if message.type in READABLE_TYPES and message.created_at < ready_at:
            theirs.append(message)
    waiting = [m for m in theirs if not any(at >= m.created_at - ONE_MS for at in replies.get(m.id, []))]
    return sorted(waiting, key=lambda m: (m.created_at, m.id))
