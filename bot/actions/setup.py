"""Setting a game up quietly (issue 16): while a game is being set up, the moderators' additions (players, holdings,
territories, buildings, candidates, cards, ...) are answered to them only, and the game channel has ONE summary
message, kept under ``SETUP_KEY`` and edited in place as things are added (through the outbox, like a pinned tally:
``bot/discord/kept.py``; if it was deleted, the next addition posts a new one). ``/game announce`` posts the summary
again now, as a new message at the foot of the channel; the old one is edited to point to it.

What "being set up" means, and what the summary shows, is each ruleset's (``Front.setup``); a ruleset without one
posts as it always did. Once the set-up is over, additions are announced as they were before (``quietly_owed`` owes
the public posts it was given)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.actions.commands import App, require_game
from bot.actions.context import Ctx
from bot.actions.outbox import AnswerWith, Card, Keep, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.service.followed import Followed
from engine.service.views import GameView

T = TypeVar("T")
V = TypeVar("V")

SETUP_KEY = "setup"
"""The kept message of a game's set-up summary (``posted_messages.key``)."""
MOVED = "The set-up summary was posted again: see the newer message below."

ROUTES = Routes()
"""``/game announce`` (``bot/actions/rulesets.py`` merges it with the shared routes)."""


async def summary_card(app: App, game: GameView) -> Card | None:
    """The game's set-up summary while it is being set up, else None."""
    front = app.front(game.ruleset)
    if front is None or front.setup is None:
        return None
    return await front.setup(app, game)


def summary_post(game: GameView, card: Card) -> Outgoing:
    return Outgoing(ToChannel(game.channel_id), card=card, keep=Keep(game.id, SETUP_KEY))


async def quietly_owed(app: App, ctx: Ctx, game: GameView, write: Callable[[], Awaitable[T]],
                       read: Callable[[Any, int], Awaitable[V | None]], summary: Callable[[V], Card],
                       said: Callable[[T], tuple[list[Outgoing], ...]], *,
                       joins: Callable[[T], Sequence[int]] | None = None) -> list[Outgoing]:
    """What a moderator's addition posts in the game channel, owed with the write: during set-up, the summary (edited
    in place) instead of the public posts; after it, the public posts (a change to a running game is announced).
    ``write`` (a moderator's addition, under the command's source id), then
    ``read``, in its transaction, of what the set-up summary shows (None once the set-up is over: ``clerk.followed``);
    ``said`` makes the command's own messages, its public posts (and the messages that follow them) of the write's
    result: ``(own, public[, after])``. What it posts (during set-up
    the summary made by ``summary`` of what ``read`` found, edited in place, instead of the public posts) is owed in
    that transaction, so a kill after its commit cannot leave the summary out of date or lose the posts. ``joins``:
    as ``clerk.followed.write``'s."""
    def made(f: Followed[T, V | None]) -> list[Outgoing]:
        own, public, *after = said(f.done)
        return [*own, *([summary_post(game, summary(f.seen))] if f.seen is not None else public),
                *(item for part in after for item in part)]

    answered: AnswerWith[Followed[T, V | None]] = AnswerWith(ctx.answering, made)
    return answered.out(await app.clerk.followed.write(game.id, write, read, source_id=ctx.source_id,
                                                       answer=answered.owed, joins=joins))


@ROUTES.command("game announce", "Post the set-up summary now, as a new message in the game channel.",
                moderator=True)
async def game_announce(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    card = await summary_card(app, g)
    if card is None:
        raise RuleError(f"{g.name} is not being set up any more, so there is no set-up summary to post: "
                        "its changes are announced as they are made.")

    def said(old: str | None) -> list[Outgoing]:  # owed in the write's transaction (``AnswerWith``)
        moved = [Outgoing(ToChannel(g.channel_id), text=MOVED, keep=Keep(g.id, old))] if old is not None else []
        return [reply("The set-up summary is posted in the game channel; further additions edit that message.",
                      ephemeral=True), *moved, summary_post(g, card)]

    answered = AnswerWith(ctx.answering, said)
    old = await app.clerk.posts.post_again(g.id, SETUP_KEY, actor=ctx.actor.id, source_id=ctx.source_id,
                                           answer=answered.owed)
    return answered.out(old)
