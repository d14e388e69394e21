"""The bot under test, driven through the fake Discord: a real Clerk and a real discord.py client."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import discord
from fakediscord import HANG, TOKEN, Channel, FakeDiscord, Interaction, Sent, User
from fakediscord.wiring import ErrorLog

from bot.actions.commands import App
from bot.discord import ClerkBot, make_bot
from bot.discord.run import run_clerk
from bot.plugins import NO_PLUGINS, Plugins
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker

START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
READY_AFTER = 0.02
"""discord.py's ``guild_ready_timeout``: the fake sends READY and GUILD_CREATE back to back, so a short wait is
enough (0 would race), and every bot start in the suite saves the default 2 s. On a busy machine the bot may call
itself ready before it has read GUILD_CREATE; ``start`` then waits for it with ``FakeDiscord.sync``."""
UNLIMITED = 100_000
"""Requests per second the bot may make to a fake that enforces no limit."""
BUSY = {"CommandTree-invoker", "discord.py: on_message"}
"""Names of the tasks discord.py runs a slash command and an on_message handler in."""
BUSY_PREFIX = "discord-ui-dynamic-item-"
"""The start of the names of the tasks discord.py runs a button press (a DynamicItem's callback) in."""


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    return None


class Harness:
    """The bot under test and its world: a moderator, three players, a game channel with a thread."""

    def __init__(self, fake: FakeDiscord, url: str, clock: ManualClock,
                 engine_options: dict[str, Any] | None = None, plugins: Plugins = NO_PLUGINS) -> None:
        self.fake = fake
        self.plugins = plugins
        """The rulesets it plays besides the shipped ones (``bot.plugins``), as config.toml's ``rulesets`` gives."""
        self.url = url
        self.engine_options = engine_options or {}
        self.bot_options: dict[str, Any] = {}
        """More arguments of ``make_bot`` (``shard_count``) for the next ``start``."""
        self.message_content: str | None = None
        """The ``message_content`` setting for the next ``start``: None starts the bot as a test always has (with
        the intent); ``true``/``false``/``auto`` start it as ``python -m bot run`` does (``run_clerk``)."""
        self.made: list[ClerkBot] = []
        """The bots ``run_clerk`` made (two when ``auto`` was refused the intent)."""
        self.clock = clock
        self.mod = fake.add_user("mod", manage_guild=True)
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.carol = fake.add_user("carol")
        self.game = fake.add_channel("sirius")
        self.thread = fake.add_thread("crisis-1", self.game)
        self.lobby = fake.add_channel("lobby")
        self.starts = 0
        self.errors = ErrorLog()

    async def start(self) -> ClerkBot:
        """A new bot instance (and a new Clerk) on the same database, connected and past its first deadline pass."""
        # already migrated (conftest); test_run.py covers migrating at start
        self.engine = make_engine(self.url, **self.engine_options)
        self.clerk = Clerk(make_sessionmaker(self.engine), self.clock, RandomDice(7), self.plugins.all_rulesets)
        self.app = App(self.clerk, fronts=self.plugins.all_fronts)
        if self.message_content is not None:
            return await self._run_as_deployed(self.message_content)
        self.bot = make_bot(self.app, guild_ready_timeout=READY_AFTER, **self.bot_options)
        # The fake enforces no rate limit unless a test asks (FakeDiscord.limit_rates, which then sets the bot's too):
        # pacing to Discord's 50 a second would only slow the other tests down.
        self.bot.pacer.set_limit(self.fake.rates.per_second if self.fake.rates is not None else UNLIMITED)
        if isinstance(self.bot, discord.AutoShardedClient):  # Discord wants 5 s between IDENTIFYs; the fake does not
            self.bot.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
        await self.bot.__aenter__()  # as `async with bot:` does: wait_until_ready() needs it
        self.task = asyncio.create_task(self.bot.start(TOKEN))
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self.task}, timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if self.task.done():
                self.task.result()
            raise AssertionError(f"the bot did not become ready within {HANG} s")
        self.starts += 1
        await self.fake.wait_for(lambda: self.bot.scheduler.passes >= 1, "the scheduler's first pass")
        await self.fake.sync()  # past GUILD_CREATE, which may come after ready on a busy machine (READY_AFTER)
        return self.bot

    async def _run_as_deployed(self, mode: str) -> ClerkBot:
        self.made = []

        def made(bot: ClerkBot) -> None:
            bot.pacer.set_limit(UNLIMITED)
            self.made.append(bot)
            self.bot = bot

        def bot_for(message_content: bool) -> ClerkBot:
            return make_bot(self.app, guild_ready_timeout=READY_AFTER, message_content=message_content,
                            **self.bot_options)

        self.task = asyncio.create_task(run_clerk(bot_for, TOKEN, mode, started=made))
        await self.fake.wait_for(lambda: self.task.done() or (self.made and self.made[-1].is_ready()),
                                 "the bot to be ready")
        if self.task.done():
            raise AssertionError(f"the bot stopped at start (exit {self.task.result()})")
        self.starts += 1
        await self.fake.wait_for(lambda: self.bot.scheduler.passes >= 1, "the scheduler's first pass")
        await self.fake.sync()
        return self.bot

    async def idle(self) -> None:
        """Wait until the bot has finished every command and message handler it has started, and the outgoing queue
        has delivered everything they owed."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + HANG
        while True:
            busy = [t for t in asyncio.all_tasks()
                    if (t.get_name() in BUSY or t.get_name().startswith(BUSY_PREFIX)) and not t.done()]
            if loop.time() > give_up:
                raise AssertionError(f"the bot's handlers and queue did not finish within {HANG} s: {busy}")
            if busy:
                await asyncio.wait(busy, timeout=HANG)
            elif self.bot.courier.outbox.waiting:
                await asyncio.wait_for(self.bot.courier.outbox.drained(), HANG)
            else:
                return

    async def settle(self) -> None:
        """Wait until the bot has read every event the fake sent it (``FakeDiscord.sync``) and finished every handler
        they started and delivered what they owed, again while that work made the fake send more (the echoes of the
        bot's own posts). Then the bot has done all it will do about them: a test checks that a message got no answer
        after this, never after a pause."""
        while True:
            sent = self.fake.events_sent
            await self.fake.sync()
            await self.idle()
            if self.fake.events_sent == sent:
                return

    async def stop(self) -> None:
        await self.settle()
        try:
            await asyncio.wait_for(self.bot.close(), HANG)
        except TimeoutError:
            raise AssertionError(f"the bot did not close within {HANG} s") from None
        await asyncio.wait_for(self.task, HANG)
        await self.engine.dispose()

    async def restart(self) -> ClerkBot:
        await self.stop()
        return await self.start()

    async def run(self, user: User, command: str, channel: Channel | None = None, /, **options: Any) -> Interaction:
        """``user`` runs the slash command; returns once it is answered and the command has finished."""
        interaction = await self.fake.slash(user, command, channel, **options)
        await self.fake.answered(interaction)
        await self.idle()
        return interaction

    async def press(self, user: User, message: Sent, label: str, *, interaction_id: int | None = None
                    ) -> Interaction:
        """``user`` presses a button of one of the bot's messages; returns once the press is answered and done."""
        interaction = await self.fake.press(user, message, label, interaction_id=interaction_id)
        await self.fake.answered(interaction)
        await self.settle()
        return interaction

    async def tick(self) -> None:
        """Wake the deadline scheduler and wait for a pass begun after the wake to finish (one already running when
        it is woken may have read the clock or the deadlines before the change)."""
        wanted = self.bot.scheduler.started + 1
        self.app.deadlines_changed()
        await self.fake.wait_for(lambda: self.bot.scheduler.passes >= wanted, "a scheduler pass")

    async def new_game(self, *, deadline: str | None = None) -> None:
        """A Landsdraad game in #sirius with alice and bob, and round 1 open."""
        await self.run(self.mod, "game new", self.game, ruleset="landsdraad", name="sirius")
        await self.run(self.mod, "player add", self.game, user=self.alice, diplomacy=4, command=2, intrigue=2, roll=3)
        await self.run(self.mod, "player add", self.game, user=self.bob, diplomacy=2, command=3, intrigue=1, roll=1)
        extra = {"deadline": deadline} if deadline else {}
        await self.run(self.mod, "round open", self.game, crisis="Raise the fleet levy?", **extra)

    async def game_id(self) -> int:
        found = await self.clerk.games.game_in_channel(self.game.id)
        assert found is not None
        return found.id
