"""A decline made by mistake taken back on Discord (``/motion ask-again player [reason]``, moderators): the offer to
second goes back to the player, by a new DM; the channel is told with the reason; the player the offer was with is
told by DM that it went back and comes to them again in turn. The service decides what may be taken back
(``engine/service/convocate/takebacks.py``; docs/rulings.md)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.actions.commands import App, Option
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate.guard import command
from bot.actions.convocate.motions import AT_THE_TABLE, offer_or_resolution
from bot.actions.convocate.render import answers_text, deadline
from bot.actions.convocate.turns import _reason
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import Routes
from engine.service.convocate.takebacks import AskedBack
from engine.service.convocate.views import MotionView, what_was_taken
from engine.service.views import GameView

ROUTES = Routes()
"""``/motion ask-again`` (the package's ``ROUTES`` merges it)."""


@command(ROUTES, "motion ask-again", "Take back a decline or /motion skip made by mistake: the offer to second goes "
                                     "back (moderators).",
                 Option("player", UserRef, "the player whose decline, or skip, was the mistake", True),
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def motion_ask_again(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """A decline entered for the wrong player (a `/cast-for`), a Decline pressed by mistake, or a `/motion skip` of a
    player about to answer took their chance to second: the moderators give it back."""
    assert g is not None
    player = o["player"]
    assert isinstance(player, UserRef)

    def said(done: AskedBack) -> list[Outgoing]:  # owed in the write's transaction (``AnswerWith``)
        m, told = done
        now = app.clerk.clock.now()
        t = m.asked_again[-1]
        taken = what_was_taken(t.player, t.answer)
        where = (f"{t.player} is asked when the offer reaches them (it is with {m.offer_to} now)" if t.when_reached
                 else f"the offer to second is with {m.offer_to} now")
        out = [reply(f"Motion #{m.number} ({m.name}): {taken} is taken back and announced; {where}."
                     + (f" Told by DM: {told[0]}." if told else ""), ephemeral=True),
               Outgoing(ToChannel(g.channel_id), text=asked_again_text(m, now))]
        if told:
            out.append(Outgoing(ToUser(told[1]), text=gone_back_dm(m)))
        if not t.when_reached:
            out += offer_or_resolution(m, now)
        return out

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.takebacks.ask_again(
        g.id, actor=ctx.actor.id, user_id=player.id, reason=_reason(o), source_id=ctx.source_id,
        answer=answered.owed))


def _standing(m: MotionView) -> str:
    """The answers that stand, as the card says answers: `` (carol declined)``."""
    return f" ({answers_text(replace(m, answers=m.standing))})" if m.standing else ""


def asked_again_text(m: MotionView, now: datetime) -> str:
    """The game channel's line: whose answer is taken back and why, where the offer is, and what stands."""
    t = m.asked_again[-1]
    taken = what_was_taken(t.player, t.answer)
    why = f"; {t.reason}" if t.reason else ""
    correction = f"(a correction: it was made by mistake{why})"
    if t.when_reached:
        return (f"**Motion #{m.number} ({m.name})**: the moderators took back {taken} {correction}. {t.player} is "
                f"asked again when the offer to second reaches them in turn order; it is with **{m.offer_to}** now.")
    asked = f"**{t.player}** is asked again, by DM, until {deadline(m.deadline, now)}"
    after = (f"If {t.player} does not second it, the offer goes on in turn order: the answers given after "
             f"{t.player}'s stand{_standing(m)}")
    if t.reopened:
        return (f"**Motion #{m.number} ({m.name}) is reopened** by the moderators: {taken} is taken back "
                f"{correction}, and the Motion, which had resolved without a second, has not resolved. "
                f"{AT_THE_TABLE} {asked}. {after}, and it resolves again once the offer has gone round.")
    back = f", and {t.offer_was_with}, whom it was with, is asked again" if t.offer_was_with else ""
    return (f"**Motion #{m.number} ({m.name}): the offer to second goes back to {t.player}**. The moderators took "
            f"back {taken} {correction}. {asked}. {after}{back}.")


def gone_back_dm(m: MotionView) -> str:
    """To the player the offer was with when it went back: not to answer now, and that it comes to them again."""
    t = m.asked_again[-1]
    taken = what_was_taken(t.player, t.answer)
    return (f"{m.game.name}: the offer to second Motion #{m.number} ({m.name}) has gone back to {t.player}: the "
            f"moderators took back {taken} as a mistake{f' ({t.reason})' if t.reason else ''}. It is not yours to "
            "answer now; if nobody before you seconds it, it comes to you again by DM, with a new deadline.")
