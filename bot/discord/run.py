"""``python -m bot run``: make the resources in main, pass them in, run the bot, dispose of them.

Modelled on discord.py's ``examples/advanced_startup.py``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.actions.commands import App
from bot.discord.client import ClerkBot, make_bot
from bot.discord.health import start_health
from bot.discord.scheduler import process_name
from bot.logs import setup_logging
from bot.plugins import load_plugins
from bot.settings import STOP_WAIT, Settings
from bot.tasks import cancel_one
from engine.service import Clerk
from engine.service.clock import RandomDice, SystemClock
from engine.service.processes import RENEW_EVERY, ProcessRegistry, Shards, ShardsTaken
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import CannotOpen
from engine.store.writable import upgrade_writable

if TYPE_CHECKING:
    import cProfile

    from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

    from engine.service.clock import Clock

log = logging.getLogger("clerk")


async def main(settings: Settings, *, guild_ready_timeout: float = 2.0, rate_limit: int | None = None,
               retry: Callable[[int], float] | None = None, renew_every: timedelta = RENEW_EVERY) -> int:
    """``retry``: seconds before trying an unreachable Discord again (``retry_after``; tests make it 0).
    ``renew_every``: how often this process renews its entry in the ``processes`` table (tests make it short)."""
    if not settings.token:
        log.error("DISCORD_TOKEN is not set")
        return 2
    engine = make_engine(settings.database_url, write_wait=settings.write_wait)
    try:
        try:
            await upgrade_writable(engine)  # refuses to start, in one line, on a database it cannot use
        except CannotOpen as error:
            log.error("cannot start: %s", error)
            return 1
        sessions, clock = make_sessionmaker(engine), SystemClock()
        registry = ProcessRegistry(sessions, clock, process_name(), Shards(settings.shard_count, settings.shard_ids),
                                   every=renew_every)
        try:  # before Discord: a second process reading the same shards would answer everything twice (V3.1)
            await registry.register()
        except ShardsTaken as error:
            log.error("cannot start: %s", error)
            return 1
        keeping = asyncio.create_task(registry.keep(), name="clerk-processes")
        try:
            return await _serve(settings, settings.token, engine, sessions, clock, guild_ready_timeout, rate_limit,
                                retry)
        finally:
            await cancel_one(keeping)
            try:  # a clean stop: the next process started need not wait for this one's entry to go stale
                await registry.remove()
            except Exception as error:
                log.warning("could not remove this process's entry from the processes table: %s", error)
    finally:
        await engine.dispose()


async def _serve(settings: Settings, token: str, engine: AsyncEngine, sessions: async_sessionmaker[AsyncSession],
                 clock: Clock, guild_ready_timeout: float, rate_limit: int | None,
                 retry: Callable[[int], float] | None) -> int:
    """The bot on Discord, with its health endpoint, until it stops (``run_clerk``)."""
    plugins = load_plugins(settings.plugins)
    clerk = Clerk(sessions, clock, RandomDice(settings.seed), plugins.all_rulesets)
    app = App(clerk, fronts=plugins.all_fronts)

    def bot_for(message_content: bool) -> ClerkBot:
        bot = make_bot(app, sync_commands=settings.sync_commands, dev_guild_id=settings.dev_guild_id,
                       shard_count=settings.shard_count, shard_ids=settings.shard_ids,
                       guild_ready_timeout=guild_ready_timeout, message_content=message_content)
        if rate_limit is not None:  # test only (``rate_limit_for_tests``)
            bot.pacer.set_limit(rate_limit)
        return bot

    async def serve(bot: ClerkBot) -> Callable[[], Awaitable[None]] | None:
        """The health endpoint of this bot (``health_port``), stopped with it."""
        if settings.health_port is None:
            return None
        try:
            health = await start_health(bot, engine, settings.health_host, settings.health_port)
        except OSError as error:  # the port is taken, or the address is not this machine's
            raise CannotServe(f"cannot start the health endpoint on {settings.health_host}:"
                              f"{settings.health_port} (health_host, health_port): "
                              f"{error.strerror or error}") from error
        return health.stop

    try:
        return await run_clerk(bot_for, token, settings.message_content, serve=serve,
                               wait=retry or retry_after,
                               started=lambda bot: stop_on_sigterm(bot, settings.stop_wait.total_seconds()))
    except CannotServe as error:
        log.error("%s", error)
        return 1


class CannotServe(Exception):
    """What a bot needs beside the gateway (the health endpoint) cannot start: the process stops, in one line."""


def retry_after(attempt: int) -> float:
    """Seconds before trying Discord again after ``attempt`` failed starts in a row: 5, 10, 20, 40, then 60."""
    return float(min(60, 5 * 2 ** (attempt - 1)))


UNREACHABLE = (OSError, TimeoutError, aiohttp.ClientError, discord.DiscordServerError, discord.GatewayNotFound)
"""What ``Client.start`` raises when Discord cannot be reached to log in (no network yet at boot, DNS, an outage):
once logged in, discord.py reconnects by itself and raises none of these."""


async def run_clerk(bot_for: Callable[[bool], ClerkBot], token: str, message_content: str,
                    started: Callable[[ClerkBot], None] = lambda bot: stop_on_sigterm(bot),
                    serve: Callable[[ClerkBot], Awaitable[Callable[[], Awaitable[None]] | None]] | None = None,
                    wait: Callable[[int], float] = retry_after) -> int:
    """Run a bot until it is closed: 0, or 1 when Discord refuses the token or the intents. ``message_content``
    (the setting): ``true`` asks for the privileged Message Content intent, ``false`` does not, ``auto`` asks and,
    when Discord refuses it (close code 4014, discord.py's ``PrivilegedIntentsRequired``), starts a new bot
    without it and logs once what that turns off (``without_content``). ``started`` sees each bot made; ``serve``
    starts what runs beside it (the health endpoint) and returns how to stop that, which is done when the bot stops.
    When Discord cannot be reached to log in (``UNREACHABLE``), it says so in one line and tries again after
    ``wait(attempt)`` seconds, until it connects or the bot is closed (play-test V4.4: the process stopped with a
    traceback of 85 lines, and stayed down where nothing starts it again)."""
    asking = message_content != "false"
    attempt = 0
    while True:
        async with bot_for(asking) as bot:
            started(bot)
            stop = await serve(bot) if serve is not None else None
            try:
                await bot.start(token)
            except UNREACHABLE as error:
                if bot.closing.is_set():
                    return 0
                attempt += 1
                pause = wait(attempt)
                log.warning("cannot reach Discord to log in (%s); trying again in %s s", _one_line(error),
                            f"{pause:g}")
                with contextlib.suppress(TimeoutError):  # SIGTERM or Ctrl-C meanwhile closes the bot: stop
                    await asyncio.wait_for(bot.closing.wait(), pause)
                if bot.closing.is_set():
                    return 0
                continue
            except discord.LoginFailure:
                if token.lower().startswith("bot "):  # play-test 4.6: discord.py adds "Bot " itself
                    log.error("Discord refused the token in DISCORD_TOKEN: it begins with \"Bot \", which Clerk adds "
                              "itself; give the token alone, as the developer portal shows it")
                else:
                    log.error("Discord refused the token in DISCORD_TOKEN (check it in the developer portal)")
                return 1
            except discord.PrivilegedIntentsRequired:
                if message_content == "auto" and asking:
                    log.warning(without_content(bot.app))
                    asking = False
                    continue
                log.error("Discord refused the intents: switch on MESSAGE CONTENT INTENT for the bot in the "
                          "developer portal (Bot tab), or set message_content = \"auto\" or \"false\" to run "
                          "without it")
                return 1
            finally:
                forget_signals()
                if stop is not None:
                    await stop()
        return 0


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300] or type(error).__name__


def without_content(app: App) -> str:
    """The one log line when Clerk runs without the Message Content intent: what that turns off and what still
    works, from the rulesets' own forms and menu entries."""
    forms = ", ".join(f"`{example}`" for f in app.fronts for example, _ in f.thread_help)
    menus = ", ".join(f"\"{m.name}\"" for f in app.fronts for m in f.message_commands)
    return ("Discord refused the Message Content intent (not switched on for this bot in the developer portal): "
            "running without it. Forms typed in game channels and their threads"
            + (f" ({forms})" if forms else "") + " are read only when they @mention the bot"
            + (f"; the message menu entries {menus} count a message" if menus else "")
            + "; DMs, slash commands, buttons and menus work as before.")


def forget_signals() -> None:
    """Undo ``stop_on_sigterm`` once its bot has stopped (SIGINT back to Python's KeyboardInterrupt)."""
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)


def stop_on_sigterm(bot: ClerkBot, wait: float = STOP_WAIT.total_seconds()) -> None:
    """SIGTERM (systemd, Kubernetes, ``docker stop``) and Ctrl-C (SIGINT) stop the bot cleanly: the messages still
    waiting are sent first, for at most ``wait`` seconds (``stop_wait``; ``ClerkBot.stop_cleanly``), then the
    scheduler stops, the deadline lease is released for another process, the gateway is closed, and the process
    exits 0. A second signal ends the wait. Without it Python dies at once (or, as PID 1 in a container, ignores
    SIGTERM until it is killed)."""
    closing: list[asyncio.Task[None]] = []  # a reference, so the task is not collected before it runs

    def stop(name: str) -> None:
        if closing:
            log.info("%s again: stopping without waiting for the messages", name)
            bot.hurry()
            return
        log.info("%s: stopping", name)
        closing.append(asyncio.get_running_loop().create_task(bot.stop_cleanly(wait)))

    with contextlib.suppress(NotImplementedError):  # no signal handlers in this event loop (Windows)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop, "SIGTERM")
        loop.add_signal_handler(signal.SIGINT, stop, "SIGINT")


def point_at_test_discord(env: dict[str, str]) -> bool:
    """Test only: ``CLERK_TEST_DISCORD_API`` (``http://127.0.0.1:PORT/api/v10``) and ``CLERK_TEST_DISCORD_GATEWAY``
    (``ws://127.0.0.1:PORT/gateway/``) send the bot to a fake Discord on this machine, so a test can run
    ``python -m bot run`` as its own process and kill it (tests/e2e/test_crash.py). Never set them in production."""
    import discord.gateway  # test only: the modules patched to reach the fake, imported where they are patched
    import discord.http
    import yarl

    api, gateway = env.get("CLERK_TEST_DISCORD_API"), env.get("CLERK_TEST_DISCORD_GATEWAY")
    if api and gateway:
        if not (api.startswith("http://127.0.0.1:") and gateway.startswith("ws://127.0.0.1:")):
            raise SystemExit("CLERK_TEST_DISCORD_API/GATEWAY may only point at 127.0.0.1 (a test's fake Discord)")
        discord.http.Route.BASE = api
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        log.warning("TEST MODE: talking to the fake Discord at %s", api)
        return True
    return False


def rate_limit_for_tests(env: dict[str, str]) -> int | None:
    """Test only, with the fake Discord (``point_at_test_discord``): ``CLERK_TEST_RATE_LIMIT`` is the global limit
    the bot paces its requests to (the benchmarks' unpaced burst sets it high); None: Discord's own."""
    value = env.get("CLERK_TEST_RATE_LIMIT")
    if value is None:
        return None
    if not value.isdigit() or int(value) < 1:
        raise SystemExit(f"CLERK_TEST_RATE_LIMIT must be a whole number of requests per second, not {value!r}")
    return int(value)


def profile_for_tests(env: dict[str, str]) -> Path | None:
    """Test only, with the fake Discord (``point_at_test_discord``): ``CLERK_TEST_PROFILE=FILE`` makes the bot write a
    cProfile of its main thread (the event loop) to FILE when it stops (``MainThreadProfile``). None: no profile."""
    value = env.get("CLERK_TEST_PROFILE")
    if value is None:
        return None
    path = Path(value)
    if not value.strip() or not path.parent.is_dir():
        raise SystemExit(f"CLERK_TEST_PROFILE must name a file in a directory that exists, not {value!r}")
    return path


PROFILE_RESTARTED = "TEST MODE: the main thread's profile starts afresh:"
"""Logged at each SIGUSR1 with the count so far (the benchmark waits for it before its DMs)."""


class MainThreadProfile:
    """A cProfile of the event loop's thread (cProfile sees no other thread: not the SQLite twin's worker), from the
    start of the loop, or from the last SIGUSR1 (so that a benchmark can leave out the start-up), to the end of the
    run, written to ``path`` (pstats format: ``python -m pstats FILE``, or ``python -m bench.profiles DIR``). Its
    clock is the thread's own CPU time (``time.thread_time``): what the loop's thread computes, without the waits
    (for the GIL, for the kernel's scheduling of the other processes of a shared machine), so that two runs on a
    loaded machine still compare."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.profile = self._new()
        self.restarts = 0

    @staticmethod
    def _new() -> cProfile.Profile:
        import cProfile  # test only: not on a deployed bot's start-up path
        import time

        return cProfile.Profile(time.thread_time)

    def restart(self) -> None:
        """SIGUSR1: drop what was recorded so far and record afresh."""
        self.profile.disable()
        self.profile = self._new()
        self.restarts += 1
        log.warning("%s %d", PROFILE_RESTARTED, self.restarts)
        self.profile.enable()

    async def run(self, work: Awaitable[int]) -> int:
        with contextlib.suppress(NotImplementedError):  # no signal handlers in this event loop (Windows)
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.restart)
        self.profile.enable()
        try:
            return await work
        finally:
            self.profile.disable()
            self.profile.dump_stats(self.path)
            log.warning("TEST MODE: the main thread's profile is in %s (restarted %d time(s))", self.path,
                        self.restarts)


def run_bot(settings: Settings) -> int:
    setup_logging(settings.log_level, settings.log_format)
    env = dict(os.environ)
    testing = point_at_test_discord(env)
    ready_after = 0.05 if testing else 2.0  # the fake sends its guild at once
    profile = profile_for_tests(env) if testing else None
    try:
        work = main(settings, guild_ready_timeout=ready_after,
                    rate_limit=rate_limit_for_tests(env) if testing else None)
        return asyncio.run(work if profile is None else MainThreadProfile(profile).run(work))
    except KeyboardInterrupt:
        log.info("stopped")
        return 0
