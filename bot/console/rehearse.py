"""``python -m bot console --from export.json``: the console on a copy of a live game, made from its ``/game export``
(docs/transcripts.md, "Rehearsing on a copy").

The copy is restored into a fresh SQLite file in a temporary folder (``engine/service/game_copy.py``), deleted when
the console ends: the database of ``DATABASE_URL`` is never opened. The export's Discord ids are given the names the
console types (``World.adopt``): each player by their name, the game's channel by the game's name, its threads as
``#game/thread``, and whoever acted without being a player as ``mod``, ``mod2``, ... (moderators). The clock starts
at the export's time and the dice are seeded, so a rehearsal is the same every time it is run."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import sys
import tempfile
import unicodedata
import zlib
from pathlib import Path
from typing import Any

from bot.console.cli import _logging, _print, clerk_on, console
from bot.console.session import when
from bot.console.transcript import NAME
from bot.console.world import DEFAULT_MODERATOR, GUILD_ID, World, slug
from bot.plugins import Plugins, load_plugins
from bot.settings import Settings
from engine.service.clock import ManualClock
from engine.service.game_copy import Copied, CopyRefused, check_export, differences, restore_copy
from engine.store.database import make_engine

MODERATOR_CHANNEL = "moderator_channel"
GZIP_MAGIC = b"\x1f\x8b"


def read_export(path: Path) -> Any:
    """The JSON document of ``path``, compressed (``.json.gz``, as /game export sends an export too large for Discord
    as it is: bot/discord/attachments.py) or not; CopyRefused, saying what is wrong, if it cannot be read or is not
    JSON."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CopyRefused(f"it cannot be read ({error.strerror})") from None
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            raise CopyRefused("it is a compressed file that cannot be uncompressed: was it cut short?") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CopyRefused("it is not text (an export is a JSON file written by /game export)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        short = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string")
        cut = ": it ends too early, was it cut short?" if short else ""
        raise CopyRefused(f"it is not a whole JSON document ({error.msg}, line {error.lineno}, column "
                          f"{error.colno}){cut}; an export is the JSON file /game export sends") from None


def _free(name: str, taken: set[str]) -> str:
    found, n = name, 1
    while found.lower() in taken:
        n += 1
        found = f"{name}{n}"
    taken.add(found.lower())
    return found


def typeable(name: str) -> str:
    """A name the console's lines can start with (``NAME dm: ...``: letters, digits, ``_``, ``.`` and ``-``) for a
    player's name: accents dropped (``Ümit``: ``Umit``), every other run of what cannot be typed made one ``_``
    (``Lady Jessica``: ``Lady_Jessica``); ``player`` if nothing is left (play-test I4.6)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    found = re.sub(r"[^A-Za-z0-9_.-]+", "_", ascii_name).strip("_.-")
    return found if re.fullmatch(NAME, found) else "player"


def world_for(doc: dict[str, Any]) -> tuple[World, dict[str, list[str]]]:
    """The console's server for the copy, and the names it gave (``channels``, ``players``, ``moderators``). Each
    player is typed by their name where it can be typed, else by a typeable form of it (``players`` shows
    ``Lady Jessica (type: Lady_Jessica)``); a player is never ``mod``, the console's moderator, so a player of that
    name cannot moderate the copy (play-test I4.6)."""
    tables = doc["state"]["tables"]
    game = tables["games"][0]
    world = World()
    taken: set[str] = {DEFAULT_MODERATOR}
    players = []
    for row in tables.get("players", []):
        shown = str(row["name"])
        handle = shown if re.fullmatch(NAME, shown) else typeable(shown)
        name = _free(handle if handle.lower() != DEFAULT_MODERATOR else f"{handle}-player", taken)
        world.adopt("user", name, int(row["user_id"]))
        world.user(name)
        players.append(name if name == shown else f"{shown} (type: {name})")
    taken.discard(DEFAULT_MODERATOR)
    known = {int(row["user_id"]) for row in tables.get("players", [])}
    moderators = []
    for event in doc["events"]:
        actor = event.get("actor")
        if actor is not None and int(actor) not in known:
            known.add(int(actor))
            name = _free("mod", taken)
            world.adopt("user", name, int(actor))
            world.make_moderator(name)
            moderators.append(name)
    channel = slug(str(game["name"]))
    channels = [f"#{channel}"]
    world.adopt("channel", channel, int(game["channel_id"]))
    world.place(channel, None)
    mods = (game.get("settings") or {}).get(MODERATOR_CHANNEL)
    if isinstance(mods, int) and mods != game["channel_id"]:
        name = "mods" if channel != "mods" else "moderators"
        world.adopt("channel", name, mods)
        world.place(name, None)
        channels.append(f"#{name}")
    for row in tables.get("posted_messages", []):
        key = str(row["key"])
        if key.startswith("thread:") and int(row["channel_id"]) == int(game["channel_id"]):
            thread = f"{channel}/{slug(key[len('thread:'):])}"
            world.adopt("thread", thread, int(row["message_id"]))
            world.thread(int(row["channel_id"]), key[len("thread:"):])
            channels.append(f"#{thread}")
    if game.get("moderator_role_id") is not None:
        world.adopt("role", "moderators", int(game["moderator_role_id"]))
    return world, {"channels": channels, "players": players, "moderators": moderators}


async def open_copy(doc: dict[str, Any], url: str, plugins: Plugins, seed: int) -> tuple[Copied, list[str]]:
    """Restore ``doc`` into the database of ``url``; returns what it is and where the copy's own export differs
    from ``doc`` (nothing, for an export as /game export wrote it)."""
    engine = make_engine(url)
    try:
        copied = await restore_copy(engine, doc, plugins.all_rulesets, guild_id=GUILD_ID)
    finally:
        await engine.dispose()
    async with clerk_on(url, ManualClock(copied.exported_at), seed, plugins=plugins) as app:
        again = json.loads(json.dumps(await app.clerk.exports.export(copied.game_id)))
    return copied, differences(doc, again)


INTRO = """\
Rehearsal on a copy of {name} ({ruleset}) as exported at {at}: nothing typed here reaches the live game.
  channels:   {channels}
  players:    {players}
  moderators: {moderators}
  dice:       seeded with {seed}"""


def run_rehearsal(settings: Settings, file: str, save_files: Path | None = None) -> int:
    _logging(settings)
    plugins = load_plugins(settings.plugins)
    seed = settings.seed if settings.seed is not None else 0
    try:
        doc = read_export(Path(file))
        check_export(doc, plugins.all_rulesets)
    except CopyRefused as refused:
        print(f"clerk: cannot open {file} as a copy of a game: {refused}", file=sys.stderr)
        return 2
    world, names = world_for(doc)
    with tempfile.TemporaryDirectory(prefix="clerk-rehearse-") as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'copy.db'}"
        try:
            copied, differ = asyncio.run(open_copy(doc, url, plugins, seed))
        except CopyRefused as refused:
            print(f"clerk: cannot open {file} as a copy of a game: {refused}", file=sys.stderr)
            return 2
        if differ:
            print(f"clerk: warning: the copy's export differs from {file} in {', '.join(differ[:5])}"
                  + (f" and {len(differ) - 5} more" if len(differ) > 5 else "")
                  + " (was the file edited? a copy is made from its state and events only)", file=sys.stderr)
        intro = INTRO.format(name=copied.name, ruleset=copied.ruleset, at=when(copied.exported_at),
                             channels=", ".join(names["channels"]), players=", ".join(names["players"]) or "none",
                             moderators=", ".join(names["moderators"] or ["mod"]), seed=seed)
        return console(url, seed, sys.stdin, _print, start=copied.exported_at, plugins=plugins,
                       save_files=save_files, world=world, intro=intro, shown_url=f"a copy of {file}")


__all__ = ["open_copy", "read_export", "run_rehearsal", "world_for"]
