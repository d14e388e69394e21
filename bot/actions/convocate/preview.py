"""``/motion preview``: a Motion of Repeal counted before it is moved, for the moderators: the two Standing Votes
it compares, whether the Statute would fall, and what would turn it. Only the asker sees it; nothing is recorded
(``engine/service/convocate/previews.py``)."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate.guard import command
from bot.actions.outbox import Card, Outgoing, reply
from bot.actions.render import NEUTRAL
from bot.actions.routes import Routes
from engine.service.convocate.previews import RepealPreviewView
from engine.service.views import GameView

ROUTES = Routes()


def repeal_preview_card(v: RepealPreviewView) -> Card:
    p = v.preview
    counted = (f"{p.mover} {p.mover_votes} against {p.controller} {p.controller_votes} (Standing Vote"
               + (", after the mover's Convocant is activated)" if p.counted_after else
                  ", as the board stands)" if p.refused else ", before the activation: this game's ruling)"))
    fields: list[tuple[str, str, bool]] = [("Count", counted, False)]
    if p.refused:
        fields.insert(0, ("Cannot be moved now", f"{p.mover} would be told: {p.refused}", False))
    if p.mover_votes > p.controller_votes:
        outcome = f"{p.statute} would be repealed." if not p.refused else f"{p.mover} counts more."
        turn = (f"{p.controller} would need {p.to_turn} more Standing Vote to keep it (a tie goes to the "
                f"controller), or {p.mover} {p.to_turn} less.")
    else:
        outcome = (f"{p.statute} would stay" + (" (a tie goes to the controller)." if p.mover_votes ==
                                                p.controller_votes else "."))
        turn = f"{p.mover} would need {p.to_turn} more Standing Vote to repeal it, or {p.controller} {p.to_turn} less."
    fields += [("If it were moved now", outcome, False), ("What would turn it", turn, False)]
    return Card(title=f"{v.game.name}: a Motion of Repeal against {p.statute} by {p.mover} with {p.convocant}",
                description=f"{p.statute} is {p.controller}'s. Only you see this, and nothing is recorded.",
                fields=tuple(fields), color=NEUTRAL)


@command(ROUTES, "motion preview", "What a Motion of Repeal by a player would count and do if moved now (only you "
                 "see it).",
         Option("player", UserRef, "the player who would move it", True),
         Option("statute", str, "the Statute", True, autocomplete="statute"),
         Option("convocant", str, "the player's Convocant who would move it", True, autocomplete="character"),
         moderator=True)
async def motion_preview(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    v = await app.clerk.convocate.previews.repeal(g.id, mover_user=user_option(o, "player").id, statute=o["statute"],
                                                  convocant=o["convocant"])
    return [reply(card=repeal_preview_card(v), ephemeral=True)]
