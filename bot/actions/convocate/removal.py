"""``/player remove`` at the Convocate table (``Front.remover``; ``engine/service/convocate/removal.py``): the seat
leaves the table; the moderator's receipt and the game channel say what left, what went back to its owner, the
standing votes and political control now; an offer to second that was with the player moves on (the move and the
offer DMed to the next player, or the Motion's resolution); the player is told by DM. All of it is owed in the
removal's transaction (``quietly_owed``)."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate.motions import motion_outgoings
from bot.actions.convocate.render import setup_card
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.players import removal_dm
from bot.actions.setup import quietly_owed
from engine.service.convocate.board import setup_in
from engine.service.convocate.removal import CvRemoval
from engine.service.views import GameView


def _names(items: tuple[str, ...]) -> str:
    return ", ".join(items)


async def remove_player(app: App, ctx: Ctx, g: GameView, user: UserRef) -> list[Outgoing]:
    def said(r: CvRemoval) -> tuple[list[Outgoing], ...]:  # owed with the removal (``quietly_owed``)
        standing = ", ".join(f"{n} {v}" for n, v in r.standing) or "nobody is seated"
        control = r.control or "nobody (a tie)" if r.standing else "nobody"
        public = [f"**{r.name}** has left **{g.name}** (removed by <@{ctx.actor.id}>); their seat leaves the table."]
        if r.left:
            public.append(f"Their cards leave the board: {_names(r.left)}.")
        if r.returned:
            public.append("Back to their owners: " + ", ".join(f"{c} to {o}" for c, o in r.returned) + ".")
        if r.statutes_ended:
            public.append(f"Their Statutes leave with them: {_names(r.statutes_ended)}.")
        if r.statutes_returned:
            public.append("Statutes back to their owners: "
                          + ", ".join(f"{s} to {o}" for s, o in r.statutes_returned) + ".")
        if r.turn_to is not None:
            public.append(f"Their turn ends; it is {r.turn_to}'s Ready Phase.")
        public.append(f"Standing Vote now: {standing}. Political control: {control}.")
        private = [f"Removed {r.name} from {g.name}."]
        if r.offer is not None:
            number, to = r.offer
            private.append(f"They no longer count in the offer to second Motion #{number}"
                           f"{f' (now with {to})' if to else ''}.")
        private.append("Their history stays in /log and the export; /convocate player seats them again"
                       + (", without the cards that left with them (/card add puts them back)."
                          if r.left or r.returned else "."))
        moved = motion_outgoings(app, r.motion, first=False) if r.motion is not None else []
        return ([reply(" ".join(private), ephemeral=True)], [Outgoing(ToChannel(g.channel_id), " ".join(public))],
                [removal_dm(user.id, g, ctx, ["Your seat and your cards have left the table."]), *moved])

    done: list[CvRemoval] = []

    async def write() -> CvRemoval:
        done.append(await app.clerk.convocate.removal.remove_player(g.id, user_id=user.id, actor=ctx.actor.id,
                                                                    source_id=ctx.source_id))
        return done[-1]

    # during set-up the set-up summary instead of the line, made of the board read in the removal's transaction;
    # the offer's move (or the Motion's resolution) owed there too
    out = await quietly_owed(app, ctx, g, write, setup_in, lambda view: setup_card(view, app.clerk.clock.now()),
                             said, joins=lambda _r: (user.id,))
    if done[-1].motion is not None:
        app.deadlines_changed()
    return out
