"""``/game import`` in a Convocate game: the players at the table and the cards on the board from a file
(docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.imports import announced, imported_lines, resolve_users
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.setup import quietly
from engine.convocate.import_file import parse
from engine.service.convocate.imports import import_records
from engine.service.views import GameView


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    records = parse(upload.filename, upload.data)
    cells = [(r.line, r.kind, str(r.get(f))) for r in records for f in ("user", "controller", "owner")
             if r.get(f) is not None]
    names = {str(r.get("user")): str(r.get("name")) for r in records if r.kind == "player" and r.get("name")}
    users = await resolve_users(upload, cells, names)
    counts = await import_records(app.clerk.convocate.board, g.id, filename=upload.filename, records=records,
                                  users=users, actor=ctx.actor.id, source_id=ctx.source_id)
    view = await app.clerk.convocate.board.board(g.id)
    seated = {users[str(r.get("user"))][0] for r in records if r.kind == "player"}
    lines = [f"{s.player}: {s.sovereignty}, turn order {s.order}" + (f", Homeworld {s.homeworld}" if s.homeworld
                                                                       else "") for s in view.standings
             if s.user_id in seated]
    what = (f"{_count(counts.get('player', 0), 'player', 'players')} and "
            f"{_count(counts.get('card', 0), 'card', 'cards')}")
    return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines), ephemeral=True),
            *await quietly(app, g, Outgoing(ToChannel(g.channel_id),
                                            text=await announced(app, g, what)))]
