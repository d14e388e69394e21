"""``/game import`` in a Convocate game: the players at the table and the cards on the board from a file
(docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.convocate.render import setup_card
from bot.actions.imports import import_line, imported_lines, resolve_users
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.setup import summary_post
from engine.convocate.import_file import parse
from engine.service.convocate.board import board_in
from engine.service.convocate.imports import import_records
from engine.service.convocate.views import BoardView
from engine.service.followed import Followed
from engine.service.views import GameView


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    """The import and the board as it leaves it, read in its transaction (``clerk.followed``), which owes its line
    in the game channel (during set-up the set-up summary instead, edited in place: ``quietly_owed``)."""
    records = parse(upload.filename, upload.data)
    cells = [(r.line, r.kind, str(r.get(f))) for r in records for f in ("user", "controller", "owner")
             if r.get(f) is not None]
    names = {str(r.get("user")): str(r.get("name")) for r in records if r.kind == "player" and r.get("name")}
    users = await resolve_users(upload, cells, names)
    seated = {users[str(r.get("user"))][0] for r in records if r.kind == "player"}

    def said(f: Followed[dict[str, int], BoardView]) -> list[Outgoing]:  # in the import's transaction
        counts, view = f.done, f.seen
        lines = [f"{s.player}: {s.sovereignty}, turn order {s.order}" + (f", Homeworld {s.homeworld}" if s.homeworld
                                                                           else "") for s in view.standings
                 if s.user_id in seated]
        what = (f"{_count(counts.get('player', 0), 'player', 'players')} and "
                f"{_count(counts.get('card', 0), 'card', 'cards')}")
        setting_up = view.board.active is None and not view.board.turn  # as ``setup_summary`` tells
        public = (summary_post(g, setup_card(view, app.clerk.clock.now())) if setting_up
                  else Outgoing(ToChannel(g.channel_id), text=import_line(g, what, setting_up=False)))
        return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines),
                      ephemeral=True), public]

    answered: AnswerWith[Followed[dict[str, int], BoardView]] = AnswerWith(ctx.answering, said)
    before = {s.user_id: s.player for s in (await app.clerk.convocate.board.board(g.id)).standings}
    return answered.out(await app.clerk.followed.write(g.id, lambda: import_records(
        app.clerk.convocate.board, g.id, filename=upload.filename, records=records, users=users, actor=ctx.actor.id,
        source_id=ctx.source_id, seated=before), board_in, source_id=ctx.source_id, answer=answered.owed,
        joins=lambda _counts: tuple(seated)))
