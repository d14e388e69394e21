"""A DM that fits several of the sender's games (issue 7): it is kept in the database and answered with a menu
of those games; choosing one runs the DM as if it had ended with ``#thatgame``.

The choice records under the original DM's source id, so a DM counts once: choosing the same game again, or a
redelivered choice, changes nothing, and once it counted in one game a choice of another is refused (send the
message again naming that game). It is received when the game is chosen (docs/rulings.md)."""

from __future__ import annotations

import dataclasses

from bot.actions.commands import AmbiguousGame, App
from bot.actions.context import Ctx
from bot.actions.outbox import LIVE, SETTLED, Choice, Here, Outgoing, Select
from bot.actions.routes import Routes
from engine.service.pending_dms import PendingDmView

ROUTES = Routes()
"""The menu of games for a DM that fits several (``bot/actions/rulesets.py`` merges it)."""
select_action = ROUTES.select

MENU = "clerk-menu:dm"
"""The custom_id of the menu is ``clerk-menu:dm:<pending DM id>`` (not ``clerk:``: that prefix is the buttons')."""
PLACEHOLDER = "Choose the game for this message"


def menu_id(pending_id: int) -> str:
    return f"{MENU}:{pending_id}"


def with_game(text: str, game: str) -> str:
    """``text`` as if it named the game: ``#game`` at the end of its first line, where every DM form reads it."""
    first, newline, rest = text.strip().partition("\n")
    return f"{first.rstrip()} #{game}{newline}{rest}"


def quoted(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return f"“{line[:97]}...”" if len(line) > 100 else f"“{line}”"


async def ask_which(app: App, ctx: Ctx, text: str, error: AmbiguousGame) -> list[Outgoing]:
    """Keep the DM and answer with the refusal's text and a menu of the games it fits."""
    if ctx.source_id is not None:  # the DM arrived again after it counted through the menu
        counted = await app.clerk.pending_dms.recorded_in(ctx.source_id)
        if counted is not None:
            return [Outgoing(Here(), f"Your message {quoted(text)} was already counted in "
                                     f"{await _name(app, ctx.actor.id, counted)}; nothing was changed.")]
    held = await app.clerk.pending_dms.hold_dm(ctx.actor.id, text.strip(), ctx.source_id, ctx.at)
    options = tuple(Choice(f"#{g.name} ({g.ruleset.capitalize()})"[:100], str(g.id)) for g in error.games[:25])
    return [Outgoing(Here(), f"{error}\nYour message is kept: choose its game in the menu below (it counts from the "
                             "moment you choose), or send it again ending with `#game`. Nothing was recorded yet.",
                     select=Select(menu_id(held.id), options, PLACEHOLDER))]


@select_action(MENU)
async def choose_game(app: App, ctx: Ctx, custom_id: str, values: tuple[str, ...]) -> list[Outgoing]:
    """Run the kept DM for the game chosen, under the DM's own source id, received now."""
    held = await _held(app, custom_id)
    if held is None:
        return [_settled("That menu belongs to a message I no longer have; nothing was recorded. Send the message "
                         "again ending with `#game`.")]
    if held.user_id != ctx.actor.id:
        return [_settled("That menu answers another player's message; nothing was recorded.")]
    games = {str(g.id): g for g in await app.clerk.games.games_of_user(ctx.actor.id)}
    if len(values) != 1 or values[0] not in games:
        names = ", ".join(f"#{g.name}" for g in games.values()) or "none"
        return [_live(f"That is not one of your games (choose one game from the menu; your games: {names}). "
                      "Nothing was recorded.")]
    game = games[values[0]]
    source = held.choice_source
    counted = await app.clerk.pending_dms.recorded_in(source)
    if counted == game.id:
        return [_settled(f"Your message {quoted(held.text)} already counted in #{game.name}; it counts once, "
                         "nothing was changed.")]
    if counted is not None:
        return [_settled(f"Your message {quoted(held.text)} already counted in "
                         f"{await _name(app, ctx.actor.id, counted)}; one message counts in one game, so nothing "
                         f"was recorded in #{game.name}. To do the same there, send it again ending with "
                         f"`#{game.name}`.")]
    from bot.actions.messages import handle_dm  # messages imports this module

    # what the DM's form posts is owed in its write's transaction, as for the DM itself (the choice's ``answering``)
    out = await handle_dm(app, Ctx(ctx.actor, ctx.place, source, ctx.at, ctx.answering),
                          with_game(held.text, game.name))
    mark = SETTLED if await app.clerk.pending_dms.recorded_in(source) is not None else LIVE
    return [dataclasses.replace(o, extra={**o.extra, mark: "yes"}) if isinstance(o.to, Here) else o for o in out]


async def _held(app: App, custom_id: str) -> PendingDmView | None:
    number = custom_id.removeprefix(MENU + ":")
    return await app.clerk.pending_dms.pending_dm(int(number)) if number.isdigit() else None


async def _name(app: App, user_id: int, game_id: int) -> str:
    for g in await app.clerk.games.games_of_user(user_id):
        if g.id == game_id:
            return f"#{g.name}"
    return "another game"


def _settled(text: str) -> Outgoing:
    return Outgoing(Here(), text, extra={SETTLED: "yes"})


def _live(text: str) -> Outgoing:
    return Outgoing(Here(), text, extra={LIVE: "yes"})
