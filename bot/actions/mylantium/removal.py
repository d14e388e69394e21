"""``/player remove`` in a Mylantium game (``Front.remover``; ``engine/service/mylantium/removal.py``): the player's
Faction withdraws; the moderator's receipt says what stopped counting, the game channel what changed, the player by
DM."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx, UserRef
from bot.actions.mylantium.revolution import chain_outgoings
from bot.actions.outbox import Outgoing, ToChannel, reply
from bot.actions.players import removal_dm
from bot.actions.setup import quietly
from engine.service.views import GameView


async def remove_player(app: App, ctx: Ctx, g: GameView, user: UserRef) -> list[Outgoing]:
    r = await app.clerk.mylantium.removal.remove_player(g.id, user_id=user.id, actor=ctx.actor.id,
                                                       source_id=ctx.source_id)
    f = r.faction
    public = [f"**{r.name}** has left **{g.name}** (removed by <@{ctx.actor.id}>): the {f.plural} have withdrawn "
              f"from the game. Faction Votes in play now {r.faction_votes}, Independent Vote {r.independent}."]
    private = [f"Removed {r.name} from {g.name}: the {f.plural} are no longer in play."]
    theirs: list[str] = [f"The {f.plural} have withdrawn from the game."]
    if r.choice_dropped:
        private.append(f"Their choice in the open {r.election} no longer counts.")
        theirs.append(f"Your choice in the open {r.election} no longer counts.")
    if r.candidate is not None:
        line = f"Their Candidate {r.candidate} no longer runs."
        if r.nominee_of is not None:
            line += (f" {r.candidate} was the {r.nominee_of.capitalize()} nominee: name another with /election "
                     "nominee before the General Election opens (once it is open, that party has no Charisma).")
        private.append(line)
    if r.choosers_dropped:
        who = " and ".join(f"the {c}" for c in r.choosers_dropped)
        several = len(r.choosers_dropped) > 1
        public.append(f"The choice{'s' if several else ''} of {r.candidate} in the Primary by {who} no longer "
                      f"count{'' if several else 's'}; {'they choose' if several else 'they may choose'} again.")
    if r.pledge_dropped:
        private.append("Their pledge to the Revolution under way no longer counts.")
        theirs.append("Your pledge to the Revolution under way no longer counts.")
    private.append(f"Their history stays in /log and the export; /faction set faction:{f.plural} in_play:true "
                   "brings them back.")
    out = [reply(" ".join(private), ephemeral=True), *await quietly(app, g, Outgoing(ToChannel(g.channel_id),
                                                                                         " ".join(public))),
           removal_dm(user.id, g, ctx, theirs)]
    if r.chain is not None:
        app.deadlines_changed()
        out += chain_outgoings(app, r.chain)
    return out
