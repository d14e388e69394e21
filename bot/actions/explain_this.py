"""**Explain this**: the message context-menu entry (right-click a message, Apps) on a result Clerk posted, which
answers, privately, what ``/why`` would for that result (docs/commands.md, "Explaining a number").

Shared code: the message is found among the announcements Clerk recorded as posted (``ResultPosted`` keeps the
message's id, ``engine.service.announcements``); its kind goes to a subject through the game's front
(``Front.explains_posts``), and ``bot/actions/why.py`` answers it."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.front import WhyAsk
from bot.actions.outbox import Outgoing, reply
from engine.core.errors import ClerkError

EXPLAIN_THIS = "Explain this"
"""The entry's name in Discord's menu."""


def explains_posts(app: App) -> bool:
    """Some ruleset explains what it posts: the entry is registered."""
    return any(f.explains_posts for f in app.fronts)


async def explain_this(app: App, ctx: Ctx, message_id: int) -> list[Outgoing]:
    """What ``/why`` says of the result the message ``message_id`` announced, to the asker only; a message that
    announced no result Clerk recorded is answered with what ``/why`` explains instead."""
    # Here, not at the top: /why's module reads admin's, which reads the message commands' (this module's user).
    from bot.actions.why import answer, explain, subjects_line
    game = (await app.clerk.games.game_in_channel(ctx.place.channel_id)
            if ctx.place.channel_id is not None else None)
    if game is None:
        return [reply(f"**{EXPLAIN_THIS}** explains a result Clerk posted in a game channel; this channel has no "
                      "game.", ephemeral=True)]
    front = app.front(game.ruleset)
    found = await app.clerk.announcements.announced_by(game.id, message_id)
    subject = front.explains_posts.get(found.kind) if front is not None and found is not None else None
    if front is None or found is None or subject is None:
        listed = f" `/why` explains: {subjects_line(front)}." if front is not None and front.explain else ""
        return [reply(f"I cannot tell which result that message announced: **{EXPLAIN_THIS}** works on the result "
                      f"cards Clerk posted in {game.name}.{listed}", ephemeral=True)]
    out: list[Outgoing] = []
    try:
        asks = [WhyAsk(subject, round=found.number)] if isinstance(subject, str) else await subject(app, game, found)
        for ask in asks:
            out += answer(await explain(app, ctx, game, ask), ctx.actor.moderates(game.moderator_role_id))
    except ClerkError as error:
        out.append(reply(str(error), ephemeral=True))
    return out
