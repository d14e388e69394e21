"""``python -m bot [run|console [--files DIR] [--from EXPORT.json]|replay FILE [--export OUT.json] [--files DIR]|
backup PATH|restore B]``.

With no sub-command: ``run`` when DISCORD_TOKEN is set, otherwise the offline console."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable
from pathlib import Path

from bot import dataclass_code


def imported() -> None:
    """The command line's start-up is over (``python -m bot``): what the imports made lives as long as the process,
    so it is moved out of the garbage collector's way (``gc.freeze``) and collection starts again (``start``); the
    dataclasses' methods compiled are kept for the next start (bot/dataclass_code.py)."""
    dataclass_code.stop()
    gc.freeze()
    gc.enable()


def start() -> None:
    """Before the imports: they allocate hundreds of thousands of objects, none of them garbage, and the collector's
    passes over them were about a fifth of the start-up's CPU time (``-X importtime``; docs/performance-history.md). And
    the dataclasses take their methods' code from the last start's (bot/dataclass_code.py)."""
    gc.disable()
    dataclass_code.start()


def main(argv: list[str] | None = None, ready: Callable[[], None] = lambda: None) -> int:
    """``ready`` is called once the chosen command's modules are imported, before it runs."""
    from bot.settings import ConfigError, database_url, load_settings  # here, so that ``start`` comes before it

    parser = argparse.ArgumentParser(prog="python -m bot", description="Clerk, the vote clerk for play-by-post games")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot on Discord (needs DISCORD_TOKEN)")
    console = sub.add_parser("console", help="play offline in the terminal, typing as any user")
    console.add_argument("--database", help="database URL (default: DATABASE_URL or sqlite+aiosqlite:///clerk.db)")
    console.add_argument("--files", metavar="DIR", help="write every file the bot sends (charts, exports) here")
    console.add_argument("--from", dest="copy_of", metavar="EXPORT.json",
                         help="rehearse on a copy of the game of this /game export (the database is not touched)")
    replay = sub.add_parser("replay", help="run a transcript and print every message the bot would send")
    replay.add_argument("file", help="the transcript file")
    replay.add_argument("--export", metavar="OUT.json", help="write the game export here when done")
    replay.add_argument("--database", help="database URL (default: a fresh SQLite file in a temporary folder, "
                                           "deleted afterwards)")
    replay.add_argument("--files", metavar="DIR", help="write every file the bot sends (charts, exports) here")
    backup = sub.add_parser("backup", help="copy the SQLite database (DATABASE_URL) to PATH, also while the bot runs")
    backup.add_argument("path", help="the backup file to write (replaced if it exists); see docs/backup.md")
    restore = sub.add_parser("restore", help="put a backup in place of the SQLite database; stop the bot first")
    restore.add_argument("backup", help="the backup file (made by `python -m bot backup`)")
    args = parser.parse_args(argv)
    try:
        if getattr(args, "database", None):
            database_url(args.database, "--database")
        settings = load_settings()
        if settings.plugins:  # fail fast, in one line, on a ruleset module that cannot be played
            from bot.plugins import load_plugins  # here: it imports the whole front, which backup and restore need not

            load_plugins(settings.plugins)
    except ConfigError as error:
        print(f"clerk: {error}", file=sys.stderr)
        return 2
    command = args.command or ("run" if settings.token else "console")
    if command == "run":
        if not settings.token:
            print("clerk: DISCORD_TOKEN is not set; run `python -m bot console` to play offline.", file=sys.stderr)
            return 2
        from bot.discord.run import run_bot  # each command imports only what it runs: the console starts fast

        ready()
        return run_bot(settings)
    if command == "backup":
        from bot.backup import run_backup

        ready()
        return run_backup(settings, args.path)
    if command == "restore":
        from bot.backup import run_restore

        ready()
        return run_restore(settings, args.backup)
    if command == "console":
        from bot.console.cli import run_console

        ready()
        if args.command is None:
            print("DISCORD_TOKEN is not set, so Clerk starts its offline console "
                  f"on {getattr(args, 'database', None) or settings.database_url}.")
        files = getattr(args, "files", None)
        copy_of = getattr(args, "copy_of", None)
        if copy_of is not None:
            if getattr(args, "database", None):
                print("clerk: --from opens a copy in a database of its own; leave out --database", file=sys.stderr)
                return 2
            from bot.console.rehearse import run_rehearsal

            return run_rehearsal(settings, copy_of, Path(files) if files else None)
        return run_console(settings, getattr(args, "database", None), Path(files) if files else None)
    from bot.console.cli import run_replay

    ready()
    return run_replay(settings, args.file, args.export, args.database, Path(args.files) if args.files else None)


if __name__ == "__main__":
    start()
    sys.exit(main(ready=imported))
