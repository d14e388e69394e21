"""``/game import`` in a Mylantium game: Factions, territories, buildings, units, Candidates and Faction Votes from
a file (docs/import.md)."""

from __future__ import annotations

from bot.actions.commands import App, Upload
from bot.actions.context import Ctx
from bot.actions.imports import import_line, imported_lines, resolve_users
from bot.actions.mylantium.render import faction_line, setup_card
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.setup import summary_post
from engine.mylantium.import_file import KINDS, parse
from engine.service.followed import Followed
from engine.service.mylantium.imports import import_records
from engine.service.mylantium.records import government_in
from engine.service.mylantium.views import GovernmentView
from engine.service.views import GameView

NOUNS = {"faction": ("Faction", "Factions"), "territory": ("territory", "territories"),
         "building": ("building line", "building lines"), "unit": ("unit", "units"),
         "candidate": ("Candidate", "Candidates"), "votes": ("Faction Votes line", "Faction Votes lines")}


async def import_setup(app: App, ctx: Ctx, g: GameView, upload: Upload) -> list[Outgoing]:
    """The import and the government page as it leaves it, read in its transaction (``clerk.followed``), which owes
    its line in the game channel (during set-up the set-up summary instead, edited in place: ``quietly_owed``)."""
    records = parse(upload.filename, upload.data)
    users = await resolve_users(upload, [(r.line, r.kind, str(r.get("user"))) for r in records
                                         if r.kind == "faction"])
    registered = {str(r.get("faction")) for r in records if r.kind == "faction"}

    def said(f: Followed[dict[str, int], GovernmentView]) -> list[Outgoing]:  # in the import's transaction
        counts, v = f.done, f.seen
        what = ", ".join(f"{counts[k.name]} {NOUNS[k.name][counts[k.name] != 1]}" for k in KINDS
                         if counts.get(k.name))
        lines = [faction_line(faction, private=True) for faction in v.factions if faction.code.name in registered]
        public = (summary_post(g, setup_card(v)) if v.setting_up
                  else Outgoing(ToChannel(g.channel_id), text=import_line(g, what, setting_up=False)))
        return [reply(f"Imported {upload.filename} into {g.name}: {what}.\n" + imported_lines(lines),
                      ephemeral=True), public]

    answered: AnswerWith[Followed[dict[str, int], GovernmentView]] = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.followed.write(g.id, lambda: import_records(
        app.clerk.mylantium, g.id, filename=upload.filename, records=records, users=users, actor=ctx.actor.id,
        source_id=ctx.source_id), government_in, source_id=ctx.source_id, answer=answered.owed,
        joins=lambda _counts: tuple(uid for uid, _ in users.values())))
