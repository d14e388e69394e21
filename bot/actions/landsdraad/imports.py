"""``/game import`` in a Landsdraad game: players and holdings from a file (docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.imports import import_line, imported_lines, resolve_users
from bot.actions.landsdraad.edited import edited
from bot.actions.outbox import Outgoing, ToChannel, reply
from engine.core.words import plural
from engine.landsdraad.import_file import parse
from engine.service.landsdraad.edits import Edited
from engine.service.landsdraad.imports import import_records
from engine.service.views import GameView


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    """The import, the majority check after it, the players as it left them and whether the game is still being
    set up (its line's words; the set-up summary is not edited, as before) in one transaction, which owes the
    line in the game channel and the majority notice (``edited``)."""
    records = parse(upload.filename, upload.data)
    cells = [(r.line, r.kind, str(r.get("user") if r.kind == "player" else r.get("player"))) for r in records]
    names = {str(r.get("user")): str(r.get("name")) for r in records if r.kind == "player" and r.get("name")}
    users = await resolve_users(upload, cells, names)
    touched = {users[cell][0] for _, _, cell in cells}  # the file's players and those it gave holdings

    def said(e: Edited[dict[str, int]], _place: object) -> list[Outgoing]:
        """Made of the import's result in its transaction (``edited``), with the players as it left them."""
        players = e.players or ()
        lines = [f"{p.name}: D {p.diplomacy} / C {p.command} / I {p.intrigue}, d3 {p.roll}, {p.votes} votes"
                 for p in players if p.user_id in touched]
        what = f"{plural(e.done.get('player', 0), 'player')} and {plural(e.done.get('holding', 0), 'holding')}"
        line = import_line(g, what, f" {plural(len(players), 'player')} in all.", setting_up=e.setup is not None)
        return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines), ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=line)]

    return await edited(app, ctx, g, lambda: import_records(
        app.clerk.landsdraad.ledger, g.id, filename=upload.filename, records=records, users=users,
        actor=ctx.actor.id, source_id=ctx.source_id), said, setup=True, summary=False, players=True,
        joins=tuple(users[str(r.get("user"))][0] for r in records if r.kind == "player"))
