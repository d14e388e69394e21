"""``/game import`` in a Mylantium game: Factions, territories, buildings, units, Candidates and Faction Votes from
a file (docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.imports import announced, imported_lines, resolve_users
from bot.actions.mylantium.render import faction_line
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.setup import quietly
from engine.mylantium.import_file import KINDS, parse
from engine.service.mylantium.imports import import_records
from engine.service.views import GameView

NOUNS = {"faction": ("Faction", "Factions"), "territory": ("territory", "territories"),
         "building": ("building line", "building lines"), "unit": ("unit", "units"),
         "candidate": ("Candidate", "Candidates"), "votes": ("Faction Votes line", "Faction Votes lines")}


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    records = parse(upload.filename, upload.data)
    users = await resolve_users(upload, [(r.line, r.kind, str(r.get("user"))) for r in records
                                         if r.kind == "faction"])
    counts = await import_records(app.clerk.mylantium, g.id, filename=upload.filename, records=records,
                                  users=users, actor=ctx.actor.id, source_id=ctx.source_id)
    what = ", ".join(f"{counts[k.name]} {NOUNS[k.name][counts[k.name] != 1]}" for k in KINDS if counts.get(k.name))
    v = await app.clerk.mylantium.government(g.id)
    registered = {str(r.get("faction")) for r in records if r.kind == "faction"}
    lines = [faction_line(f, private=True) for f in v.factions if f.code.name in registered]
    return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines), ephemeral=True),
            *await quietly(app, g, Outgoing(ToChannel(g.channel_id),
                                            text=await announced(app, g, what)))]
