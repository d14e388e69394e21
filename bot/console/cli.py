"""``python -m bot console`` and ``python -m bot replay FILE [--export OUT.json]``: Clerk without Discord.

Both drive the same actions as the Discord adapter (``dispatch``, ``handle_dm``, ``close_due``) on a real
database, and print every message the bot would send with its destination (docs/transcripts.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bot.actions.commands import App
from bot.console.session import ClockError, Session, when
from bot.console.transcript import (
    DIRECTIVES,
    Event,
    Said,
    TranscriptError,
    add_line,
    continuation,
    parse_line,
    parse_transcript,
    strip_comment,
)
from bot.console.world import World
from bot.plugins import NO_PLUGINS, Plugins, load_plugins
from bot.settings import Settings
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import CannotOpen, upgrade
from engine.store.writable import check_connects, check_files

REPLAY_START = datetime(2026, 1, 1, tzinfo=UTC)


@asynccontextmanager
async def clerk_on(url: str, clock: ManualClock, seed: int | None,
                   engine_options: dict[str, Any] | None = None, plugins: Plugins = NO_PLUGINS) -> AsyncIterator[App]:
    """The service on a migrated database, for the length of a session. ``engine_options`` go to
    ``make_engine`` (the tests put a PostgreSQL replay in its own schema with them); ``plugins`` are the rulesets
    config.toml adds (``bot.plugins``)."""
    engine = make_engine(url, **(engine_options or {}))
    try:
        check_files(engine)  # a folder, a file that is not SQLite, one it cannot write: said in one line
        await check_connects(engine)  # one line, not a traceback, for a database it cannot reach (``CannotOpen``)
        await upgrade(engine)
        clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(seed), plugins.all_rulesets)
        yield App(clerk, fronts=plugins.all_fronts)
    finally:
        await engine.dispose()


async def games_seen(app: App, world: World) -> list[Any]:
    """The games whose channels the session used, oldest first."""
    found = {}
    for channel_id in list(world.channels):
        game = await app.clerk.games.game_in_channel(channel_id)
        if game is not None:
            found[game.id] = game
    return [found[k] for k in sorted(found)]


# -- replay -----------------------------------------------------------------------------------------------------


@dataclass
class Replayed:
    code: int
    export: dict[str, Any] | None = None
    games: tuple[str, ...] = ()
    error: str | None = None


async def replay(lines: list[str], *, database_url: str, seed: int | None, write: Callable[[str], None],
                 source_prefix: str = "replay", name: str = "transcript",
                 engine_options: dict[str, Any] | None = None, plugins: Plugins = NO_PLUGINS,
                 files: Path | None = None, save_files: Path | None = None) -> Replayed:
    """Run a transcript on ``database_url`` (migrated here). Malformed lines are reported together, before
    anything runs. The export is that of the first game the transcript created."""
    events, errors = parse_transcript(lines)
    if errors:
        return Replayed(2, error="\n".join(f"{name}:{e}" for e in errors))
    clock = ManualClock(REPLAY_START)
    async with clerk_on(database_url, clock, seed, engine_options, plugins) as app:
        session = Session(app, clock, write, source_prefix, files=files or Path(name).parent, save_files=save_files)
        for event in events:
            write(strip_comment(lines[event.line - 1]).strip())
            for number in range(event.line, event.line + getattr(event, "more", 0)):
                write(strip_comment(lines[number]).rstrip())
            try:
                await session.run(event)
            except ClockError as error:
                return Replayed(2, error=f"{name}:line {event.line}: {error}")
        games = await games_seen(app, session.world)
        export = await app.clerk.exports.export(games[0].id) if games else None
        return Replayed(0, export, tuple(g.name for g in games))


def run_replay(settings: Settings, file: str, export_path: str | None, database_url: str | None,
               save_files: Path | None = None) -> int:
    _logging(settings)
    path = Path(file)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        print(f"clerk: cannot read {file}: {error.strerror}", file=sys.stderr)
        return 2
    seed = settings.seed if settings.seed is not None else 0
    plugins = load_plugins(settings.plugins)

    async def go() -> Replayed:
        if database_url:
            return await replay(lines, database_url=database_url, seed=seed, write=_print,
                                source_prefix=f"replay-{uuid.uuid4().hex[:8]}", name=file, plugins=plugins,
                                save_files=save_files)
        with tempfile.TemporaryDirectory(prefix="clerk-replay-") as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'replay.db'}"
            return await replay(lines, database_url=url, seed=seed, write=_print, name=file, plugins=plugins,
                                save_files=save_files)

    try:
        result = asyncio.run(go())
    except CannotOpen as error:
        print(f"clerk: cannot replay: {error}", file=sys.stderr)
        return 1
    if result.error:
        print(f"clerk: {result.error}", file=sys.stderr)
        return result.code
    if export_path:
        if result.export is None:
            print("clerk: the transcript created no game, so there is nothing to export", file=sys.stderr)
            return 1
        text = json.dumps(result.export, indent=2, ensure_ascii=False) + "\n"
        Path(export_path).write_text(text, encoding="utf-8")
        games = result.games
        others = f" (the first of {len(games)} games: {', '.join(games)})" if len(games) > 1 else ""
        print(f"clerk: exported {result.games[0]} to {export_path}{others}", file=sys.stderr)
    return 0


# -- console ----------------------------------------------------------------------------------------------------

BANNER = """\
Clerk offline console on {url}
Type one line as any user; the bot's answers are printed with where they go:
  alice dm: Vote: Aye, 14                   a DM to the bot
  mod #game: /game new ruleset:{ruleset} name:sirius
  mod #game: /round open crisis:"Piracy in Sirius" deadline:2h
  mod #game/thread: /round status           in a thread of #game
  bob press: Decline                        bob presses a button of the last message sent to him
  alice choose: #sirius                     alice chooses in the menu of the last message sent to her
  bob explain: 3                            bob uses Explain this on the card marked [Explain this: card 3]
Directives: ! wait 2h30m   ! time 2026-03-01 18:00   ! moderator NAME   ! role NAME ROLE
            ! hold / ! release (deadlines)   ! redeliver [LINE]
`mod` is a moderator; make others one with `! moderator NAME`. The clock starts at {now} and moves
only with ! wait and ! time (deadlines it passes fire in order). `help` shows this again; `quit` or Ctrl-D ends.
{kept}"""
KEPT = "Games are kept in the database between sessions; moderators and the clock are not."


def run_console(settings: Settings, database_url: str | None, save_files: Path | None = None) -> int:
    _logging(settings)
    url = database_url or settings.database_url
    try:
        return console(url, settings.seed, sys.stdin, _print, plugins=load_plugins(settings.plugins),
                       save_files=save_files)
    except CannotOpen as error:  # a database of a newer Clerk, or one it cannot reach (play-test V1.1, V4.1)
        print(f"clerk: cannot open the console: {error}", file=sys.stderr)
        return 1


def console(url: str, seed: int | None, stdin: TextIO, write: Callable[[str], None],
            start: datetime | None = None, plugins: Plugins = NO_PLUGINS, save_files: Path | None = None,
            world: World | None = None, intro: str | None = None, shown_url: str | None = None) -> int:
    """Read lines until the end of input, ``quit`` or Ctrl-C; the clock starts at ``start`` (default: the real
    time, UTC). Lines are read outside the event loop, so Ctrl-C at the prompt simply ends the session. ``world``,
    ``intro`` and ``shown_url``: the names, the banner's first lines and the database's name of a rehearsal on a
    copy (``bot/console/rehearse.py``)."""
    interactive = stdin is sys.stdin and stdin.isatty()
    if interactive:
        with suppress(ImportError):
            import readline  # noqa: F401  (line editing and history at the prompt)
    clock = ManualClock(start or datetime.now(UTC).replace(microsecond=0))
    with asyncio.Runner() as runner:
        resources = AsyncExitStack()
        app = runner.run(resources.enter_async_context(clerk_on(url, clock, seed, plugins=plugins)))
        try:
            session = Session(app, clock, write, f"console-{uuid.uuid4().hex[:8]}", world, show_ids=True,
                              save_files=save_files)
            banner = BANNER.format(url=shown_url or url, now=when(clock.now()), ruleset=app.fronts[0].name,
                                   kept=KEPT if intro is None else "The copy is deleted when the console ends.")
            banner = f"{intro}\n{banner}" if intro else banner
            write(banner)
            runner.run(session.fire(clock.now()))  # rounds whose deadline passed while no one was watching
            _Lines(runner, session, write, banner, interactive).read(stdin)
        except KeyboardInterrupt:
            write("")
        finally:
            runner.run(resources.aclose())
    return 0


class _Lines:
    """The console's input, line by line: directives and commands run at once; piped in, a message waits for its
    ``  | ...`` lines."""

    def __init__(self, runner: asyncio.Runner, session: Session, write: Callable[[str], None], banner: str,
                 interactive: bool) -> None:
        self.runner, self.session, self.write = runner, session, write
        self.banner, self.interactive = banner, interactive
        self.number = 0
        self.pending: Said | None = None

    def read(self, stdin: TextIO) -> None:
        """Until the end of input or ``quit``; a message still waiting then runs."""
        while True:
            try:
                raw = input("> ") + "\n" if self.interactive else stdin.readline()
            except EOFError:
                break
            if not raw or not self.take(raw):
                break
        if self.pending is not None:
            self.run(self.pending)

    def take(self, raw: str) -> bool:
        """One line read; False when it ends the session (``quit``)."""
        self.number += 1
        line = raw.rstrip("\r\n")
        more = continuation(line)
        if more is not None and self.pending is not None:
            self.pending = add_line(self.pending, more)
            self.write(strip_comment(line).rstrip())
            return True
        if self.pending is not None:
            self.run(self.pending)
            self.pending = None
        word = line.strip().lower()
        if word in {"quit", "exit"}:
            return False
        if word in {"help", "?"}:
            self.write(self.banner)
            return True
        if not self.interactive and strip_comment(line).strip():
            self.write(strip_comment(line).strip())
        try:
            event = parse_line(line, self.number)
        except TranscriptError as error:
            hint = " (at the prompt a message is one line; pipe a file in for longer ones)" if (
                self.interactive and more is not None) else ""
            self.write(f"  ? {error.message}{hint}")
            return True
        if isinstance(event, Said) and not self.interactive:
            self.pending = event
        elif event is not None:
            self.run(event)
        return True

    def run(self, event: Event) -> None:
        try:
            self.runner.run(self.session.run(event))
        except ClockError as error:
            self.write(f"  ? {error}")


def _print(line: str) -> None:
    print(line, flush=True)


def _logging(settings: Settings) -> None:
    if not logging.getLogger().handlers:
        level = "WARNING" if settings.log_level == "INFO" else settings.log_level  # no migration chatter
        logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


__all__ = ["DIRECTIVES", "console", "replay", "run_console", "run_replay"]
