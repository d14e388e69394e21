"""A game copied whole through its export (docs/export.md, ``state``): the rows of every table that holds the game's
state, written into the export beside the events, and restored from it into a fresh database for a rehearsal
(``python -m bot console --from export.json``, docs/transcripts.md).

The state tables are the truth the commands read (the event log is written beside them, not folded into them), so a
copy restores both: the shared tables (``SHARED_TABLES``), each ruleset's own (``Ruleset.tables``) and the events.
Rows keep their ids, so every reference between them, and every Discord id, is the original's. The rows are
written at the schema revision they were exported at, then the newer migrations run, so an export made by an older
Clerk (of the same export format) opens too."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import MetaData, Table, select
from sqlalchemy.exc import DBAPIError, InvalidRequestError, StatementError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.sql import sqltypes

from engine.service.clock import utc
from engine.store.migrate import head_revision, known_revisions, upgrade
from engine.store.models import Base, Game, Player, PostedMessage

if TYPE_CHECKING:
    from engine.service.ruleset import Ruleset

EXPORT_VERSION = 2
"""The version of the export's format (``export_version``): 2 added ``exported_at`` and ``state``."""

SHARED_TABLES: tuple[type[Base], ...] = (Game, Player, PostedMessage)
"""The state every game has, whatever its ruleset: the game, its players, the messages and threads the bot keeps."""
NOT_GAME_STATE = frozenset({"events", "pending_dms", "closed_dms", "leases", "owed_messages", "game_marks",
                            "dm_channels", "processes", "dice_seeds", "dice_rolls"})
"""Tables a copy does not take from ``state``: the events (the export's ``events``), the delivery bookkeeping of
the live bot (DMs waiting for a menu choice, closed DMs, leases, messages owed to Discord, its marks of what it told
a game's channel or moderators, users' DM channels, the processes running on the database), which is no game's, and
the dice seeds and rolls (docs/dice.md): a seed not yet revealed is secret, so it is never in an export; a copy
rolls under seeds of its own, made when it first rolls."""
MUST_DIFFER = ("exported_at", "state.tables.games[].guild_id", "dice")
"""What the export of a copy may change from the export it was made from: when it was written, the server (the
copy is in the console's own) and the dice section (the copy has its own seeds)."""


class CopyRefused(Exception):
    """The document cannot be opened as a copy; ``str()`` says what is wrong and what is accepted."""


def state_tables(rulesets: Iterable[Ruleset]) -> list[Table]:
    """Every table a copy carries, the shared ones first, each once."""
    tables = [model.__table__ for model in SHARED_TABLES]
    for ruleset in rulesets:
        tables += [model.__table__ for model in ruleset.tables if model.__table__ not in tables]
    return [t for t in tables if isinstance(t, Table)]


def _of_game(table: Table, game_id: int) -> Any:
    """The rows of ``table`` that belong to the game: by its ``game_id``, or through the row it hangs from (a ballot
    from its round, a contribution from its chain)."""
    if table.name == "games":
        return select(table).where(table.c.id == game_id).order_by(table.c.id)
    if "game_id" in table.c:
        return select(table).where(table.c.game_id == game_id).order_by(*table.primary_key.columns)
    for fk in sorted(table.foreign_keys, key=lambda f: f.parent.name):
        parent = fk.column.table
        if isinstance(parent, Table) and "game_id" in parent.c:
            ids = select(fk.column).where(parent.c.game_id == game_id)
            return select(table).where(fk.parent.in_(ids)).order_by(*table.primary_key.columns)
    raise ValueError(f"table {table.name} has no game_id and hangs from no table that has one")


def _encode(value: Any) -> Any:
    return utc(value).isoformat() if isinstance(value, datetime) else value


async def dump_state(session: AsyncSession, game_id: int, rulesets: Sequence[Ruleset]) -> dict[str, Any]:
    """The export's ``state``: the schema revision and, table by table, every row of the game, column by column."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in state_tables(rulesets):
        rows = (await session.execute(_of_game(table, game_id))).mappings().all()
        if rows:  # a table with none of the game's rows (another ruleset's) is left out
            tables[table.name] = [{k: _encode(v) for k, v in row.items()} for row in rows]
    return {"revision": head_revision(), "tables": tables}


def differences(original: Any, copy: Any, path: str = "") -> list[str]:
    """Where two exports differ (``players[0].votes``), but for what ``MUST_DIFFER`` allows."""
    if re.sub(r"\[\d+\]", "[]", path) in MUST_DIFFER:
        return []
    if isinstance(original, dict) and isinstance(copy, dict):
        found = []
        for key in [*original, *(k for k in copy if k not in original)]:
            if key not in original or key not in copy:
                found.append(f"{path}.{key}".lstrip("."))
            else:
                found += differences(original[key], copy[key], f"{path}.{key}".lstrip("."))
        return found
    if isinstance(original, list) and isinstance(copy, list) and len(original) == len(copy):
        return [d for n, (a, b) in enumerate(zip(original, copy, strict=True))
                for d in differences(a, b, f"{path}[{n}]")]
    return [] if original == copy and type(original) is type(copy) else [path or "the whole document"]


# -- opening a copy --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Copied:
    game_id: int
    name: str
    ruleset: str
    exported_at: datetime


def check_export(doc: Any, rulesets: Sequence[Ruleset]) -> Copied:
    """What the document is a copy of; CopyRefused, saying why, if it is not an export this Clerk can open."""
    if not isinstance(doc, dict) or "export_version" not in doc:
        raise CopyRefused("it is not a Clerk game export (a JSON object with export_version, written by /game export)")
    version = doc["export_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise CopyRefused(f"its export_version is {version!r}, not a number")
    if version > EXPORT_VERSION:
        raise CopyRefused(f"it is export format {version}, from a newer Clerk; this Clerk opens format "
                          f"{EXPORT_VERSION}: open it with that Clerk, or upgrade this one")
    if version < EXPORT_VERSION:
        raise CopyRefused(f"it is export format {version}, from an older Clerk, which did not write the game's whole "
                          f"state; this Clerk opens format {EXPORT_VERSION}: export the game again with /game export")
    state, events = doc.get("state"), doc.get("events")
    if not isinstance(state, dict) or not isinstance(state.get("tables"), dict) or not isinstance(events, list):
        raise CopyRefused("its state or events are missing (the file was cut short or edited?)")
    revision = state.get("revision")
    if revision not in known_revisions():
        raise CopyRefused(f"its database revision {revision!r} is not one this Clerk knows (a newer Clerk wrote "
                          f"it?); this Clerk knows {', '.join(known_revisions())}")
    known = {t.name for t in state_tables(rulesets)}
    unknown = sorted(set(state["tables"]) - known)
    if unknown:
        raise CopyRefused(f"its state has tables this Clerk does not know: {', '.join(unknown)}")
    games = state["tables"].get("games")
    if not isinstance(games, list) or len(games) != 1 or not isinstance(games[0], dict):
        raise CopyRefused("its state does not hold exactly one game")
    game = games[0]
    plays = [r.name for r in rulesets]
    if game.get("ruleset") not in plays:
        raise CopyRefused(f"its ruleset {game.get('ruleset')!r} is not one this Clerk plays ({', '.join(plays)}; "
                          "a ruleset of a plugin needs the same config.toml)")
    try:
        exported_at = datetime.fromisoformat(doc["exported_at"])
        return Copied(int(game["id"]), str(game["name"]), str(game["ruleset"]), utc(exported_at))
    except (KeyError, TypeError, ValueError):
        raise CopyRefused("its exported_at or its game's id is missing or malformed") from None


def _decode(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in row.items():
        if key not in table.c:
            raise CopyRefused(f"its table {table.name} has a column {key} that the schema of its revision lacks")
        column_type = table.c[key].type
        if isinstance(column_type, sqltypes.DateTime) and isinstance(value, str):
            value = utc(datetime.fromisoformat(value))
        out[key] = value
    return out


async def restore_copy(engine: AsyncEngine, doc: dict[str, Any], rulesets: Sequence[Ruleset], *,
                       guild_id: int) -> Copied:
    """Write the game of ``doc`` into the empty database of ``engine`` (migrated here) and bring it to the newest
    schema. ``guild_id`` is the server the copy is in. CopyRefused if the document is not one to open, or its rows
    do not fit."""
    copied = check_export(doc, rulesets)
    revision = doc["state"]["revision"]
    await upgrade(engine, "head" if revision == head_revision() else revision)
    metadata = MetaData()
    names = [*doc["state"]["tables"], "events"]
    try:
        async with engine.connect() as connection:
            await connection.run_sync(lambda sync: metadata.reflect(sync, only=names))
    except InvalidRequestError as error:
        raise CopyRefused(f"its tables are not those of its revision {revision} ({error})") from None
    rows = dict(doc["state"]["tables"])
    rows["games"] = [{**rows["games"][0], "guild_id": guild_id}]
    rows["events"] = [{"game_id": copied.game_id, **{k: e.get(k) for k in ("seq", "kind", "actor", "payload",
                                                                             "source_id", "at")}}
                      for e in doc["events"] if isinstance(e, dict)]
    try:
        async with engine.begin() as connection:
            for table in metadata.sorted_tables:
                found = rows.get(table.name) or []
                if not all(isinstance(row, dict) for row in found):
                    raise CopyRefused(f"its table {table.name} holds something that is not a row")
                if found:
                    await connection.execute(table.insert(), [_decode(table, row) for row in found])
    except (DBAPIError, StatementError, ValueError, TypeError) as error:
        detail = str(getattr(error, "orig", None) or error).splitlines()[0]
        raise CopyRefused(f"its rows do not fit together ({detail}); the file was edited or damaged?") from None
    if revision != head_revision():
        await upgrade(engine)
    return copied


__all__ = ["EXPORT_VERSION", "MUST_DIFFER", "CopyRefused", "check_export", "differences", "dump_state", "restore_copy"]
