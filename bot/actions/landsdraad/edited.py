"""A moderator's edit of the ledger on Discord (``/player add|set|remove``, ``/holding add|remove``, ``/transfer
apply|correct``, the transfer's Apply button and ``/game import``) and what it makes follow, all owed in ONE transaction
(``clerk.landsdraad.edits``, ``AnswerWith``): the command's own messages, the player votes its new count passes
(their cards in the game channel), the set-up summary while the game is set up (edited in place), the majority notice
(R3-20) and what a correction changes in the closed results (the moderators' private notice, with its buttons). A
kill after the commit loses none of them (docs/reliability.md). The moderators' place is read before the write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.landsdraad.errata import told_in
from bot.actions.landsdraad.politics_render import passed_card
from bot.actions.landsdraad.render import setup_card
from bot.actions.landsdraad.victory_posts import majority_posts
from bot.actions.moderators import moderator_target
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, ToThread
from bot.actions.setup import summary_post
from engine.service.landsdraad.edits import Edited
from engine.service.views import GameView

T = TypeVar("T")


def followed(g: GameView, place: ToChannel | ToThread, e: Edited[Any], *, summary: bool = True) -> list[Outgoing]:
    """What follows an edit, made of its result: the passed votes' cards, the set-up summary (unless not
    ``summary``), the majority notice, the correction's consequences."""
    edit = [summary_post(g, setup_card(g, e.setup.players, e.setup.seal))] if summary and e.setup is not None else []
    return [*(Outgoing(ToChannel(g.channel_id), card=passed_card(v)) for v in e.passed), *edit,
            *majority_posts(e.majority, place), *told_in(place, e.consequences)]


async def edited(app: App, ctx: Ctx, g: GameView, write: Callable[[], Awaitable[T]],
                 said: Callable[[Edited[T], ToChannel | ToThread], list[Outgoing]], *, summary: bool = True,
                 **what: Any) -> list[Outgoing]:
    """Run ``write`` (the edit, under the command's source id) with what follows it (``what``: the flags of
    ``LedgerEdits.edit``) in one transaction; ``said`` makes the command's own messages of the result (given the
    moderators' place), then ``followed`` adds the rest (the set-up summary read with ``setup`` is edited unless
    not ``summary``), all owed in that transaction."""
    place = await moderator_target(app, g)
    answered: AnswerWith[Edited[T]] = AnswerWith(ctx.answering, lambda e: [
        *said(e, place), *followed(g, place, e, summary=summary)])
    e = await app.clerk.landsdraad.edits.edit(g.id, write, actor=ctx.actor.id, source_id=ctx.source_id,
                                              answer=answered.owed, **what)
    return answered.out(e)
