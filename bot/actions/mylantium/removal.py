"""``/player remove`` in a Mylantium game (``Front.remover``; ``engine/service/mylantium/removal.py``): the player's
Faction withdraws; the moderator's receipt says what stopped counting, the game channel what changed, the player by
DM, and what a Revolution it begins moves on (Social Collapse, its news); all owed in the removal's transaction
(``quietly_owed``)."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx, UserRef
from bot.actions.mylantium.render import setup_card
from bot.actions.mylantium.revolution import chain_outgoings
from bot.actions.outbox import Outgoing, ToChannel, ToUser, reply
from bot.actions.players import removal_dm
from bot.actions.setup import quietly_owed
from engine.core.stamps import stamp
from engine.service.mylantium.records import setup_in
from engine.service.mylantium.removal import MylRemoval
from engine.service.views import GameView


async def remove_player(app: App, ctx: Ctx, g: GameView, user: UserRef) -> list[Outgoing]:
    def said(r: MylRemoval) -> tuple[list[Outgoing], ...]:  # owed with the removal (``quietly_owed``)
        f = r.faction
        public = [f"**{r.name}** has left **{g.name}** (removed by <@{ctx.actor.id}>): the {f.plural} have withdrawn "
                  f"from the game. Faction Votes in play now {r.faction_votes}, Independent Vote {r.independent}."]
        private = [f"Removed {r.name} from {g.name}: the {f.plural} are no longer in play."]
        theirs: list[str] = [f"The {f.plural} have withdrawn from the game."]
        if r.choice_dropped:
            private.append(f"Their choice in the open {r.election} no longer counts.")
            theirs.append(f"Your choice in the open {r.election} no longer counts.")
        told: list[Outgoing] = []
        if r.candidate is not None:
            line = f"Their Candidate {r.candidate} no longer runs."
            if r.nominee_of is not None:
                line += (f" {r.candidate} was the {r.nominee_of.capitalize()} nominee: name another with /election "
                         "nominee before the General Election opens (once it is open, that party has no Charisma).")
            private.append(line)
            public.append(f"Their Candidate {r.candidate} no longer runs" + (
                f"; a choice of {r.candidate} in the open Primary no longer counts, and a Faction that made one is "
                "told by DM and may choose again." if r.election == "Primary" else "."))
        if r.choosers_dropped:  # who chose is secret (the Primary's card): the moderator and each of them alone
            who = " and ".join(f"the {c}" for c in r.choosers_dropped)
            several = len(r.choosers_dropped) > 1
            private.append(f"{who[0].upper()}{who[1:]} had chosen {r.candidate} in the Primary; "
                           f"{'those choices' if several else 'that choice'} no longer "
                           f"count{'' if several else 's'}, and {'they are' if several else 'their player is'} told by "
                           "DM to choose again (only you are told who).")
            until = f" before the Primary closes {stamp(r.deadline)}" if r.deadline is not None else ""
            told = [Outgoing(ToUser(u), text=(
                f"{g.name}: {r.candidate} no longer runs (the {f.plural} have withdrawn from the game), so your "
                f"Faction's choice of {r.candidate} in the Primary no longer counts. Choose again{until}: DM me "
                "`Primary: <Candidate>`.")) for u in r.chooser_users]
        if r.pledge_dropped:
            private.append("Their pledge to the Revolution under way no longer counts.")
            theirs.append("Your pledge to the Revolution under way no longer counts.")
        private.append(f"Their history stays in /log and the export; /faction set faction:{f.plural} in_play:true "
                       "brings them back.")
        moved = chain_outgoings(app, r.chain) if r.chain is not None else []  # the Revolution's next step
        return ([reply(" ".join(private), ephemeral=True)], [Outgoing(ToChannel(g.channel_id), " ".join(public))],
                [removal_dm(user.id, g, ctx, theirs), *told, *moved])

    done: list[MylRemoval] = []

    async def write() -> MylRemoval:
        done.append(await app.clerk.mylantium.removal.remove_player(g.id, user_id=user.id, actor=ctx.actor.id,
                                                                    source_id=ctx.source_id))
        return done[-1]

    # during set-up the set-up summary instead of the line, made of the government page read in the removal's
    # transaction; what a Revolution it begins moves on owed there too
    out = await quietly_owed(app, ctx, g, write, setup_in, setup_card, said, joins=lambda _r: (user.id,))
    if done[-1].chain is not None:
        app.deadlines_changed()
    return out
