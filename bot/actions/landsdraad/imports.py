"""``/game import`` in a Landsdraad game: players and holdings from a file (docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.imports import announced, imported_lines, resolve_users
from bot.actions.landsdraad import victory_posts
from bot.actions.outbox import Outgoing, ToChannel, reply
from engine.core.words import plural
from engine.landsdraad.import_file import parse
from engine.service.landsdraad.imports import import_records
from engine.service.views import GameView


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    records = parse(upload.filename, upload.data)
    cells = [(r.line, r.kind, str(r.get("user") if r.kind == "player" else r.get("player"))) for r in records]
    names = {str(r.get("user")): str(r.get("name")) for r in records if r.kind == "player" and r.get("name")}
    users = await resolve_users(upload, cells, names)
    counts = await import_records(app.clerk.landsdraad.ledger, g.id, filename=upload.filename, records=records,
                                  users=users, actor=ctx.actor.id, source_id=ctx.source_id)
    players = await app.clerk.landsdraad.ledger.players(g.id)
    touched = {users[cell][0] for _, _, cell in cells}  # the file's players and those it gave holdings
    lines = [f"{p.name}: D {p.diplomacy} / C {p.command} / I {p.intrigue}, d3 {p.roll}, {p.votes} votes"
             for p in players if p.user_id in touched]
    what = f"{plural(counts.get('player', 0), 'player')} and {plural(counts.get('holding', 0), 'holding')}"
    return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines), ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=await announced(app, g, what, f" {plural(len(players), 'player')} "
                                                                                   "in all.")),
            *await victory_posts.majority_check(app, g, ctx)]
