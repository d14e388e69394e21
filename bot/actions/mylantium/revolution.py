"""The Republic of Mylantium on Discord, part 3: the revolution chain. Its news, the coup offer to the Brass Hats'
player (by DM, with buttons) and the requests for contributions; /revolution ...; contributions closed at their
deadline (``close_contributions_due``)."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as
from bot.actions.moderators import moderator_target
from bot.actions.mylantium.render import (
    called_off_notice,
    chain_status_card,
    chain_texts,
    contribution_request_text,
    coup_offer_in_channel_text,
    coup_offer_text,
)
from bot.actions.outbox import (
    EXPLAINS,
    IF_CLOSED,
    IF_CLOSED_IN,
    TIMED,
    AnswerWith,
    Button,
    Outgoing,
    ToChannel,
    ToThread,
    ToUser,
    reply,
)
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.core.stamps import stamp
from engine.mylantium.revolution import Waiting, contributors
from engine.service.announcements import card_tag
from engine.service.mylantium.state import NAME
from engine.service.mylantium.views import ChainView
from engine.service.views import GameView

log = logging.getLogger("clerk.mylantium")
M: CommandFlags = {"moderator": True, "ruleset": NAME}
ROUTES = Routes()
"""The revolution's commands and the coup offer's buttons."""
command = ROUTES.command


def chain_outgoings(app: App, c: ChainView) -> list[Outgoing]:
    """The chain's public news, the coup offer to the Brass Hats' player and the requests for contributions (each
    to its Faction's player), for what this step made new."""
    now = app.clerk.clock.now()
    attempts = [a.number for a in c.chain.attempts[c.first_new - 1:]]  # chain_texts begins with theirs, in order
    out = [Outgoing(ToChannel(c.game.channel_id), text=t,
                    extra={EXPLAINS: card_tag("revolution", c.game.id, attempts[i], c.number)} if i < len(attempts)
                    else {})
           for i, t in enumerate(chain_texts(c, now))]
    o = c.called_off
    if o is not None:  # the Brass Hats' offer lapses; or the Vanguard and each contributor hear what is undone
        told = [k for k in c.users if k.name == "BH"] if not o.begun else [
            f.code for f in c.factions if f.in_play or f.code is o.vanguard]
        out += [Outgoing(ToUser(c.users[k]), text=called_off_notice(c, k)) for k in told if k in c.users]
    current = c.chain.current
    if current is None or current.number < c.first_new:
        return out
    if c.chain.waiting is Waiting.COUP and "BH" in {k.name for k in c.users}:
        bh = next(k for k in c.users if k.name == "BH")
        out.append(Outgoing(ToUser(c.users[bh]), text=coup_offer_text(c), buttons=coup_buttons(c),
                            extra={IF_CLOSED: coup_offer_in_channel_text(c.users[bh]),
                                   IF_CLOSED_IN: str(c.game.channel_id)}))
    elif c.chain.waiting is Waiting.CONTRIBUTIONS:
        for code in contributors(c.chain, c.factions):
            if code in c.users:
                out.append(Outgoing(ToUser(c.users[code]), text=contribution_request_text(c, code, now)))
    return out


COUP_BUTTON = "clerk:coup"


def coup_buttons(c: ChainView) -> tuple[Button, ...]:
    """``Attempt a coup`` and ``No coup``; each custom_id names the game, the chain and its attempt, so a press
    after the offer is settled is refused."""
    current = c.chain.current
    assert current is not None
    offs = len(c.chain.called_off)  # after a call-off the next offer may have the same attempt number
    head = f"{COUP_BUTTON}:{c.game.id}:{c.number}:{current.number}:" + (f"{offs}:" if offs else "")
    return (Button("Attempt a coup", head + "yes", "danger"), Button("No coup", head + "no", "secondary"))


@ROUTES.button(COUP_BUTTON)
async def coup_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of a coup offer's button: the same answer as `Coup: yes` or `Coup: no` by DM."""
    parts = custom_id.split(":")
    if len(parts) not in (6, 7) or not all(p.isdigit() for p in parts[2:-1]) or parts[-1] not in ("yes", "no"):
        raise RuleError("This button is not one of Clerk's coup offers.")
    offs = int(parts[5]) if len(parts) == 7 else 0
    return await answer_coup(app, ctx, int(parts[2]), parts[-1] == "yes",
                             expected=(int(parts[3]), int(parts[4]), offs))


async def answer_coup(app: App, ctx: Ctx, game_id: int, accept: bool, *,
                      expected: tuple[int, int, int] | None = None, dm: bool = False) -> list[Outgoing]:
    """The Brass Hats' player answers the coup offer (by a button, or by DM: ``dm``, when the time the DM was
    sent tells which offer it answered)."""
    said = "attempt a coup" if accept else "let the Revolution go on"
    # what the answer moves on (the chain's news, the requests for contributions) is owed with it (play-test S4.5)
    answered: AnswerWith[ChainView] = AnswerWith(ctx.answering, lambda c: [
        reply(f"Recorded: the Brass Hats {said}."), *chain_outgoings(app, c)])
    c = await app.clerk.mylantium.revolutions.answer_coup(game_id, accept=accept, user_id=ctx.actor.id,
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          expected=expected, sent_at=ctx.at if dm else None,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(c)


# -- revolutions ----------------------------------------------------------------------------------------------------


@command("revolution status", "The revolution under way: its attempts and who has sent a contribution (not how "
                              "much).", ruleset=NAME, reads=True)
async def revolution_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    c = await app.clerk.mylantium.revolutions.revolution(g.id)
    if c is None:
        return [reply(f"There has been no revolution in {g.name}.")]
    return [reply(card=chain_status_card(c, app.clerk.clock.now(),
                                         moderator=ctx.actor.moderates(g.moderator_role_id)), ephemeral=True)]


@command("revolution coup",
         "Answer the coup offer for the Brass Hats (their player answers `Coup: yes|no` by DM).",
         Option("answer", str, "yes or no", True, ("yes", "no")), **M)
async def revolution_coup(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    # what the answer moves on (the chain's news, the requests for contributions), owed in its transaction
    answered: AnswerWith[ChainView] = AnswerWith(ctx.answering, lambda c: [
        reply("Recorded.", ephemeral=True), *chain_outgoings(app, c)])
    c = await app.clerk.mylantium.revolutions.answer_coup(g.id, accept=o["answer"] == "yes", user_id=None,
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(c)


@command("revolution deadline", "Set or move the deadline for contributions.",
         Option("deadline", str, "a duration such as 24h, a time or a Discord timestamp", True), **M)
async def revolution_deadline(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    read = await game_deadline(app, g.id, o["deadline"])
    when = read.when
    answered: AnswerWith[ChainView] = AnswerWith(ctx.answering, lambda c: [  # owed in the move's transaction
        reply(f"Deadline moved.{read_as(o['deadline'], read)}", ephemeral=True),
        Outgoing(ToChannel(g.channel_id), text=f"Contributions to revolution #{c.number} now close {stamp(when)}.")])
    c = await app.clerk.mylantium.revolutions.set_chain_deadline(g.id, deadline=when, actor=ctx.actor.id,
                                                                 source_id=ctx.source_id, answer=answered.owed)
    app.deadlines_changed()
    return answered.out(c)


@command("revolution resolve", "Close the contributions now and resolve the Revolution or coup.", **M)
async def revolution_resolve(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    # the moderators' warning and what the resolution moves on, owed in its transaction (``AnswerWith``)
    answered: AnswerWith[ChainView | None] = AnswerWith(ctx.answering,
                                                        partial(resolved_news, app, await moderator_target(app, g)))
    c = await app.clerk.mylantium.revolutions.resolve_revolution(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                                 answer=answered.owed)
    if c is None:
        raise RuleError("That was already done.")
    app.deadlines_changed()
    return [reply("Resolved.", ephemeral=True), *answered.out(c)]


def resolved_news(app: App, place: ToChannel | ToThread, c: ChainView | None) -> list[Outgoing]:
    """What a Revolution's resolution posts: the moderators' warning of the contributions its result gives away (in
    their place, ``place``, looked up before the write, as a transfer's notice is), then what it moves on
    (``chain_outgoings``); nothing when it was resolved already."""
    return [*contribution_warnings(place, c), *chain_outgoings(app, c)] if c is not None else []


# -- deadlines -------------------------------------------------------------------------------------------------


async def close_contributions_due(app: App, now: datetime) -> list[Outgoing]:
    """Contributions whose deadline has passed: each attempt resolved once."""
    out: list[Outgoing] = []
    for game_id, number, attempt, deadline in await app.clerk.mylantium.revolutions.pending_contributions():
        if deadline > now:
            break
        try:  # the warning and the news owed with its write, as /revolution resolve's
            place = await moderator_target(app, await app.clerk.games.game(game_id))
            answered = AnswerWith(TIMED.get(), partial(resolved_news, app, place))
            c = await app.clerk.mylantium.revolutions.resolve_revolution(
                game_id, actor=None, expected=(number, attempt),
                source_id=f"myl-revolution-deadline:{game_id}:{number}:{attempt}", answer=answered.owed)
        except Exception:
            log.exception("resolving revolution %s (attempt %s) of game %s at its deadline failed", number, attempt,
                          game_id)
            continue
        if c is not None:
            out += answered.out(c)
    return out


def contribution_warnings(place: ToChannel | ToThread, c: ChainView) -> list[Outgoing]:
    """For the moderators only, in their place (``moderator_target``): each contribution the result just resolved
    gives away (docs/rulings.md). The totals are posted anyway: the outcome rests on them and the chain goes on at
    once."""
    current = c.chain.attempts[c.first_new - 1] if c.disclosed else None
    if current is None:
        return []
    funds = {"crt": "to the Counter-Revolutionary Treasury", "vanguard": f"to the {current.vanguard.plural}"}
    what = "; ".join(f"the {code.plural} gave ${amount} {funds[fund]}" for code, fund, amount in c.disclosed)
    return [Outgoing(place, text=(
        f"**Moderators:** the result of the {current.vanguard.plural}' {'coup' if current.coup else 'Revolution'} in "
        f"{c.game.name} gives away contributions that are secret: {what} (who sent one is public, and a Faction "
        "that sent none gave $0, so the totals leave no other amounts). The totals were posted, since the outcome "
        "rests on them."))]
