"""``/game import file``: a moderator's bulk set-up from a CSV or TOML file (docs/import.md). The command is
shared; the file's format and what it sets up are the game's ruleset's (``Front.importer``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.actions.commands import App, Option, Upload, require_game
from bot.actions.context import Ctx
from bot.actions.front import Front
from bot.actions.outbox import Outgoing, reply
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.core.importing import ImportRefused, collect, fits, kept_names, user_id_of
from engine.service.views import GameView

ROUTES = Routes()
command = ROUTES.command


@command("game import", "Set the game up from a CSV or TOML file: players, holdings, ... (docs/import.md).",
         Option("file", Upload, "the .csv or .toml file (at most 256 KB)", True), moderator=True)
async def game_import(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    upload = o["file"]
    assert isinstance(upload, Upload)
    front = app.front(g.ruleset)
    if front is None or front.importer is None:
        raise RuleError(f"{g.ruleset.capitalize()} games have no set-up file to import.")
    try:
        done = await front.importer(app, ctx, g, upload)
    except ImportRefused:
        other = _ruleset_of(app, front, upload)
        if other is None:
            raise
        kinds = _or(sorted({k.name for k in other.import_kinds}))
        raise RuleError(f"Nothing was imported from {upload.filename}: this is a {other.name.capitalize()} set-up "
                        f"file (its records are {kinds}, as a {other.name.capitalize()} game takes them), and "
                        f"{g.name} is a {g.ruleset.capitalize()} game. Import it into a {other.name.capitalize()} "
                        f"game; docs/import.md shows what a {g.ruleset.capitalize()} file holds.") from None
    kept = kept_names(collect(upload.filename, upload.data, front.import_kinds)[0])
    if kept:  # a name kept without its markdown (play-test P4.1)
        done.append(reply("Clerk keeps names without Discord markdown (`*`, `_`, `~~`, `||`, backticks, a leading "
                          "`#`, `-#` or `>`, links, mentions, a leading @), so they show as plain text in every post "
                          "and can be typed in forms (docs/input.md):\n" + imported_lines(kept), ephemeral=True))
    return done


def _ruleset_of(app: App, front: Front, upload: Upload) -> Front | None:
    """The other ruleset whose set-up file this is, when it is one and not a file of ``front``'s with bad lines."""
    if fits(upload.filename, upload.data, front.import_kinds):
        return None
    return next((f for f in app.fronts if f is not front and f.import_kinds
                 and fits(upload.filename, upload.data, f.import_kinds)), None)


def _or(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


SNOWFLAKE = range(17, 21)
"""How many digits a Discord user id has (a snowflake: milliseconds since 2015 shifted left by 22 bits)."""


async def resolve_users(upload: Upload, cells: Iterable[tuple[int, str, str]],
                  names: dict[str, str] | None = None) -> dict[str, tuple[int, str]]:
    """Each user cell (``line``, ``kind``, ``cell``) -> (user id, name): ``<@id>`` and ids as they are (named by
    ``names``, cell -> the record's own name, else by the id), ``@name`` as the front end knows it.
    ImportRefused names the cells that name nobody known: an id that cannot be a Discord user's (not 17-20
    digits), an id that the server has no member for where the front end knows the members (``Upload.members``;
    play-test I1.4), and a ``@name`` no member has. A user written two ways in two records of the same kind (``@alice``
    and ``<@id>``) is named as the same user as the first record (play-test I4.5)."""
    found: dict[str, tuple[int, str]] = {}
    first: dict[tuple[str, int], tuple[int, str]] = {}
    problems: list[str] = []
    for line, kind, cell in cells:
        if cell not in found:
            uid = user_id_of(cell)
            if uid is not None and len(str(uid)) not in SNOWFLAKE:
                problems.append(f"line {line} ({kind}): {cell} cannot be a Discord user: a Discord id has 17 to 20 "
                                "digits. Write the user as @name, <@id> or their id (Developer Mode: Copy User ID).")
                continue
            user = await upload.users(cell)
            own = (names or {}).get(cell)
            if uid is not None and user is None and upload.members:
                problems.append(f"line {line} ({kind}): {cell} is no member of this server; a player must be one. "
                                "Check the id (Developer Mode: Copy User ID), or invite them first.")
                continue
            if uid is not None:
                found[cell] = (uid, own or (user.name if user is not None and user.id == uid else f"user {uid}"))
            elif user is None:
                problems.append(f"line {line} ({kind}): no member of this server is called {cell}; write the user as "
                                "<@id> or their id (Developer Mode: Copy User ID).")
                continue
            else:
                found[cell] = (user.id, own or user.name)
        uid = found[cell][0]
        earlier = first.setdefault((kind, uid), (line, cell))
        if earlier[1] != cell and earlier[0] != line and kind in ONE_EACH:
            problems.append(f"line {line} ({kind}): this is the same user as line {earlier[0]} ({earlier[1]}).")
    if problems:
        raise ImportRefused(upload.filename, problems)
    return found


ONE_EACH = frozenset({"player", "faction"})
"""The records a user has at most one of (their seat in the game): the same user in two of them is a mistake."""


LISTED = 20
"""Records named in the moderator's answer to an import; the rest are counted (a long file's list would not fit in
a Discord message, which is cut at 2,000 characters)."""


def imported_lines(lines: Sequence[str]) -> str:
    """The lines of what a file imported (each imported record's own, not the game's others), the first ``LISTED``
    of them and how many more (import play-test)."""
    more = len(lines) - LISTED
    return "\n".join([*lines[:LISTED], *([f"…and {more} more."] if more > 0 else [])])


def import_line(g: GameView, what: str, more: str = "", *, setting_up: bool) -> str:
    """The game channel's line for an import: during set-up the game is set up from a file; once play has begun
    (a round open, a turn under way) the file adds to a running game, and says so (import play-test). Whether the
    game is being set up is read in the import's transaction."""
    if setting_up:
        return f"The moderators set up {g.name} from a file: {what}.{more}"
    return f"The moderators added {what} to {g.name} from a file.{more}"
