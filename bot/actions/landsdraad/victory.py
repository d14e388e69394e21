"""Victory points on Discord (rules-spec §3): what moderators track, goals and prestige, the category
percentages, `/forecast`, a player's own `/score`, `/game end` and the final table. The posts other modules make
(the Forecast at a round's start, the scores after an End Game vote, the Majority Victory notice) and the charts are
in ``victory_posts``.

Secrecy: goals are private to their player (P3-09): `/goal list` and `/score` answer only the asker (ephemeral,
or in a DM), a goal's changes go to its player by DM, and no public card ever names one. A player's tracked
holdings are shown only to the moderators and, through `/score`, to that player."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.actions.commands import App, Option, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.drawing import drawn
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.landsdraad.victory_posts import Charted, chart, charted_cards, final_posts, landsdraad
from bot.actions.landsdraad.victory_render import (
    change_text,
    final_card,
    forecast_card,
    goal_line,
    prestige_text,
    score_card,
    settings_card,
    track_text,
)
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.landsdraad.victory import ASSET_KINDS, COUNTERS, LUXURIES, UNIT_KINDS, Award, Category
from engine.service.landsdraad.victory_state import COUNTER_LABELS, ECONOMY, parse_award, parse_category, pretty
from engine.service.landsdraad.victory_views import FinalOrPending, FinalView, GoalChange, PrestigeReceipt
from engine.service.owed import OwedWith
from engine.service.views import GameView

ROUTES = Routes()
"""The commands of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)


def _game(game: GameView | None) -> GameView:
    game = require_game(game)
    if not landsdraad(game):
        raise RuleError(f"Victory points as Clerk keeps them are a Landsdraad rule; {game.name} plays "
                        f"{game.ruleset}.")
    return game


# -- tracking -------------------------------------------------------------------------------------------------------

async def _track(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any], kinds: tuple[str, ...]
                 ) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")
    change = await app.clerk.landsdraad.victory.set_tracked(g.id, user_id=user.id, values={k: o.get(k) for k in kinds},
                                                            actor=ctx.actor.id, source_id=ctx.source_id)
    return [reply(change_text(change), ephemeral=True)]


@command("forces set", "Set a player's Force units (Military: 1 per militia, 3 standard, 4 upgraded, 5 elite).",
         Option("player", UserRef, "the player", True),
         *(Option(k, int, f"{k} units", min_value=0) for k in UNIT_KINDS),
         moderator=True)
async def forces_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _track(app, ctx, game, o, UNIT_KINDS)


@command("assets set", "Set how many Primary Assets of each kind a player owns (Luxury Goods: locations).",
         Option("player", UserRef, "the player", True),
         *(Option(k, int, f"{pretty(k)}" + (" locations (0-5)" if k in LUXURIES else ""), min_value=0,
                  max_value=5 if k in LUXURIES else None) for k in ASSET_KINDS),
         moderator=True)
async def assets_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _track(app, ctx, game, o, ASSET_KINDS)


@command("economy set", "Set a player's income per round, CHOAM shares, wealth (MS) and heroes.",
         Option("player", UserRef, "the player", True),
         Option("income", int, "income per round in MS (negative counts as 0)"),
         Option("stock", int, "CHOAM shares owned", min_value=0),
         Option("wealth", int, "MS on hand (negative counts as 0)"),
         Option("heroes", int, "heroes", min_value=0),
         moderator=True)
async def economy_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _track(app, ctx, game, o, ECONOMY)


@command("record", "Record a game-long count for a singular award: a successful seizure, raid, assassination…",
         Option("player", UserRef, "the player who did it", True),
         Option("counter", str, "what they did", True, COUNTERS),
         Option("amount", int, "how many (default 1; negative corrects a mistake)"),
         moderator=True)
async def record(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")
    amount = 1 if o.get("amount") is None else int(o["amount"])
    change = await app.clerk.landsdraad.victory.record_counter(g.id, user_id=user.id, counter=str(o["counter"]),
                                                               amount=amount, actor=ctx.actor.id,
                                                               source_id=ctx.source_id)
    _, old, new = change.changes[0]
    label = COUNTER_LABELS[str(o["counter"])]
    return [reply(f"{change.player.name}: {label} {old} → {new}.", ephemeral=True)]


@command("luxury in-play", "How many locations of each Luxury Good are in play (0-5 each).",
         *(Option(g, int, f"{pretty(g)} locations in play", min_value=0, max_value=5) for g in LUXURIES),
         moderator=True)
async def luxury_in_play(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    _, changes = await app.clerk.landsdraad.victory.set_luxuries(g.id, counts={k: o.get(k) for k in LUXURIES},
                                                                 actor=ctx.actor.id, source_id=ctx.source_id)
    changed = ", ".join(f"{pretty(k)} {old} → {new}" for k, old, new in changes)
    return [reply(f"Luxury Good locations in play: {changed}.", ephemeral=True)]


# -- goals (private) and prestige -------------------------------------------------------------------------------

def _goal_dm(c: GoalChange, game: GameView) -> Outgoing:
    what = {"added": "New goal", "achieved": "Goal achieved", "not achieved": "Goal no longer counted as achieved",
            "removed": "Goal removed"}[c.change]
    return Outgoing(ToUser(c.goal.user_id), text=f"{what} in {game.name}: {goal_line(c.goal)}. Only you and the "
                                                 "moderators see your goals; `/score` shows your projected score.")


def _updated_final(final: FinalView | None, cards: list[Charted]) -> list[Outgoing]:
    """The final table scored again by a change (a goal's, a prestige award) when there is one (``refresh_final``:
    never in practice, as an ended game's closed ledger refuses the change), without its chart (``cards``:
    ``charted_cards`` adds it after the commit)."""
    return [] if final is None else final_posts(final, cards, text="The final scores are updated:")


async def _goal_changed(app: App, ctx: Ctx, g: GameView, change: Callable[[OwedWith[GoalChange] | None],
                                                                         Awaitable[GoalChange]],
                        answer: Callable[[GoalChange], str]) -> list[Outgoing]:
    """A goal's change: the moderator's answer, the DM to its player and the final table scored again, if any
    (``_updated_final``), owed in the change's transaction (``AnswerWith``), the table's chart added to its row
    after."""
    cards: list[Charted] = []

    def said(c: GoalChange) -> list[Outgoing]:
        cards.clear()
        return [reply(answer(c), ephemeral=True), _goal_dm(c, g), *_updated_final(c.final, cards)]

    answered = AnswerWith(ctx.answering, said)
    return await charted_cards(app, answered, answered.out(await change(answered.owed)), cards)


@command("goal add", "Give a player a goal with fixed VP (private to them).",
         Option("player", UserRef, "the player", True),
         Option("description", str, "the goal, e.g. Own 4 Agri Fiefs", True),
         Option("vp", int, "what it is worth", True, min_value=1),
         moderator=True)
async def goal_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")
    return await _goal_changed(app, ctx, g, lambda answer: app.clerk.landsdraad.victory.add_goal(
        g.id, user_id=user.id, description=o["description"], vp=o["vp"], actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answer), lambda c: f"Goal #{c.goal.number} for {c.goal.player}: {c.goal.description} ({c.goal.vp} VP). "
                                  "They are told by DM.")


@command("goal achieved", "Mark a player's goal achieved (or, with achieved:false, not achieved).",
         Option("player", UserRef, "the player", True),
         Option("goal", int, "the goal's number (/goal list)", True, min_value=1),
         Option("achieved", bool, "false to undo"),
         moderator=True)
async def goal_achieved(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")
    achieved = o.get("achieved") is not False
    return await _goal_changed(app, ctx, g, lambda answer: app.clerk.landsdraad.victory.set_goal_achieved(
        g.id, user_id=user.id, number=o["goal"], achieved=achieved, actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answer), lambda c: f"{c.goal.player}'s goal #{c.goal.number} is {c.change} ({c.goal.vp} VP).")


@command("goal remove", "Remove a goal given by mistake.",
         Option("player", UserRef, "the player", True),
         Option("goal", int, "the goal's number (/goal list)", True, min_value=1),
         moderator=True)
async def goal_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")
    return await _goal_changed(app, ctx, g, lambda answer: app.clerk.landsdraad.victory.remove_goal(
        g.id, user_id=user.id, number=o["goal"], actor=ctx.actor.id, source_id=ctx.source_id, answer=answer),
        lambda c: f"Removed {c.goal.player}'s goal #{c.goal.number}.")


@command("goal list", "Your goals (only you see them); moderators: anyone's, or everyone's.",
         Option("player", UserRef, "moderators: whose goals"),
         Option("game", str, "the game, if you play in several", autocomplete="game"),
         game="any", reads=True)
async def goal_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    moderator = ctx.actor.moderates(g.moderator_role_id)
    who = o.get("player")
    if who is not None and not moderator and user_option(o, "player").id != ctx.actor.id:
        raise RuleError("Goals are private: you can see only your own (leave `player` out).")
    if who is not None:
        user_id: int | None = user_option(o, "player").id
    else:
        user_id = None if moderator else ctx.actor.id
    goals = await app.clerk.landsdraad.victory.goals(g.id, user_id=user_id)
    if user_id is None:
        lines = [f"{x.player}: {goal_line(x)}" for x in goals]
        head = f"Goals in {g.name} (moderators only):"
    else:
        lines = [goal_line(x) for x in goals]
        head = "Your goals" if user_id == ctx.actor.id else f"{user_option(o, 'player').name}'s goals"
        head += f" in {g.name} (private):"
    return [reply(head + "\n" + ("\n".join(lines) or "none recorded yet"), ephemeral=True)]


@command("prestige award", "Award prestige VP with a reason (negative takes some back).",
         Option("player", UserRef, "the player", True),
         Option("vp", int, "how many VP", True),
         Option("reason", str, "why, e.g. Bloodiest Ambush", True),
         Option("announce", bool, "also announce it in the game channel"),
         moderator=True)
async def prestige_award(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user = user_option(o, "player")

    cards: list[Charted] = []

    def said(r: PrestigeReceipt) -> list[Outgoing]:  # the DM, the announcement, an ended game's final table: owed
        a = r.award  # in the award's transaction (the table's chart added to its row after the commit)
        cards.clear()
        told = (f"{'You receive' if a.vp > 0 else 'The moderators take back'} {abs(a.vp)} prestige VP in {g.name}: "
                f"{a.reason}. Your prestige: {r.player_total} VP.")
        out = [reply(prestige_text(r), ephemeral=True), Outgoing(ToUser(a.user_id), text=told)]
        if o.get("announce") and a.vp > 0:
            out.append(Outgoing(ToChannel(g.channel_id),
                                text=f"**Prestige:** {a.player} receives {a.vp} VP: {a.reason}."))
        return out + _updated_final(r.final, cards)

    answered = AnswerWith(ctx.answering, said)
    r = await app.clerk.landsdraad.victory.award_prestige(g.id, user_id=user.id, vp=o["vp"], reason=o["reason"],
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    return await charted_cards(app, answered, answered.out(r), cards)


@command("prestige list", "Every prestige award and the pool (20 VP per player who joined).", moderator=True,
         reads=True)
async def prestige_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    awards, pool = await app.clerk.landsdraad.victory.prestige(g.id)
    lines = [f"#{a.id} {a.player}: {a.vp:+d} VP, {a.reason}" for a in awards]
    total = sum(a.vp for a in awards)
    return [reply(f"Prestige in {g.name}: {total} of the {pool} VP pool awarded.\n" + ("\n".join(lines) or "none yet"),
                  ephemeral=True)]


# -- percentages, weights and what is tracked -------------------------------------------------------------------

@command("vp percentage", "Change a category's share of the Pot, e.g. after a Severe Crisis (announced).",
         Option("category", str, "the category", True, tuple(c.value for c in Category)),
         Option("value", int, "percent of the Pot", True, min_value=0, max_value=100),
         moderator=True)
async def vp_percentage(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    category = parse_category(o["category"])
    old, view = await app.clerk.landsdraad.victory.set_percentage(g.id, category=category, value=o["value"],
                                                                  actor=ctx.actor.id, source_id=ctx.source_id)
    return _share_changed(g, category.label, old, o["value"], view.total)


@command("vp weight", "Change a singular award's share of the Pot (announced).",
         Option("award", str, "the award", True, tuple(a.title for a in Award)),
         Option("value", int, "percent of the Pot", True, min_value=0, max_value=100),
         moderator=True)
async def vp_weight(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    award = parse_award(o["award"])
    old, view = await app.clerk.landsdraad.victory.set_weight(g.id, award=award, value=o["value"], actor=ctx.actor.id,
                                                              source_id=ctx.source_id)
    return _share_changed(g, award.title, old, o["value"], view.total)


def _share_changed(g: GameView, what: str, old: int, new: int, total: int) -> list[Outgoing]:
    note = ""
    if total > 100:
        note = " That is more than 100%: the final scoring will wait for a moderator's confirmation."
    elif total < 100:
        note = " The rest of the Pot is not awarded."
    text = f"The moderators changed **{what}** from {old}% to {new}% of the Pot. In all: {total}%.{note}"
    return [reply(text, ephemeral=True), Outgoing(ToChannel(g.channel_id), text=text)]


@command("vp show", "The victory categories' and awards' shares of the Pot, and the Luxury Goods in play.",
         reads=True, public=True)
async def vp_show(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    view = await app.clerk.landsdraad.victory.vp_settings(_game(game).id)
    return [reply(card=settings_card(view))]


@command("vp holdings", "What is tracked for each player (or one): forces, assets, economy, counters.",
         Option("player", UserRef, "one player"), moderator=True, reads=True)
async def vp_holdings(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user_id = user_option(o, "player").id if o.get("player") is not None else None
    tracks = await app.clerk.landsdraad.victory.tracked(g.id, user_id)
    return [reply("\n".join(track_text(t) for t in tracks) or "No players yet.", ephemeral=True)]


# -- forecast, score, end --------------------------------------------------------------------------------------------

@command("forecast",
         "What everything is worth in VP if the game ended now (the Forecast); once ended, the final scores.",
         Option("game", str, "the game, if you play in several", autocomplete="game"), game="any", reads=True,
         public=True)
async def forecast(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    final = await app.clerk.landsdraad.victory.final(g.id)
    if final is not None:  # reopened: the scores posted at the end stand until /game end scores it again
        said = (f"{g.name} has ended." if g.ended else
                f"{g.name} was reopened to correct a mistake; these are the final scores posted when it ended, and "
                "they stand until a moderator ends it again (`/game end` scores it anew).")
        return [reply(said, card=final_card(final), file=await drawn(chart, "scores", final))]
    view = await app.clerk.landsdraad.victory.forecast(g.id)
    return [reply(card=forecast_card(view, taken=f"now, in round {view.round}" if view.round else "now"),
                  file=await drawn(chart, "forecast", view))]


@command("score", "Your own score if the game ended now, or your final score once it has (only you see it).",
         Option("player", UserRef, "moderators: whose score"),
         Option("game", str, "the game, if you play in several", autocomplete="game"), game="any", reads=True)
async def score(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = _game(game)
    user_id, who = ctx.actor.id, "You"
    if o.get("player") is not None and user_option(o, "player").id != ctx.actor.id:
        if not ctx.actor.moderates(g.moderator_role_id):
            raise RuleError("Your score is yours alone, and so is everyone else's: leave `player` out.")
        user_id, who = user_option(o, "player").id, "That user"
    projected = await app.clerk.landsdraad.victory.projected_score(g.id, user_id, who=who)
    card = score_card(projected)
    if user_id != ctx.actor.id:
        card = replace(card, footer="Moderators only: a player's score is private.")
    return [reply(card=card, ephemeral=True)]


@command("game end", "End the game now and post the final scores (or score a game an End Game vote ended).",
         Option("confirm", bool, "score even though the percentages add up to more than 100"),
         Option("majority", bool, "a Majority Victory: the holder becomes Chancellor of the Landsdraad"),
         moderator=True, closing=True)
async def game_end(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The final table (after a reopening, the correction's line first) is owed in the end's transaction
    (``AnswerWith``), its chart drawn off the event loop after the commit and added to its row before it is queued
    (``charted_cards``: a kill in between posts it without its chart)."""
    g = _game(game)
    cards: list[Charted] = []

    def said(result: FinalOrPending) -> list[Outgoing]:
        cards.clear()
        if isinstance(result, FinalView) and result.already:
            return [reply(f"{g.name} has already ended and been scored; these are its final scores.",
                          card=final_card(result), ephemeral=True)]
        if isinstance(result, FinalView) and result.correction is not None:
            changed = "\n".join(f"- {line}" for line in result.correction) or \
                "- nothing: the scores are as posted before"
            text = (f"**Correction: the final scores of {g.name}**, scored again after <@{ctx.actor.id}> reopened "
                    f"the game to correct a mistake. What changed:\n{changed}")
            return [reply(f"{g.name} has ended again; the corrected final scores are posted.", ephemeral=True),
                    Outgoing(ToChannel(g.channel_id), text), *final_posts(result, cards)]
        return [reply(f"{g.name} is over; the final scores are posted.", ephemeral=True),
                *final_posts(result, cards)]

    answered = AnswerWith(ctx.answering, said)
    result = await app.clerk.landsdraad.victory.end_game(g.id, actor=ctx.actor.id, confirm=bool(o.get("confirm")),
                                                         majority=bool(o.get("majority")), source_id=ctx.source_id,
                                                         answer=answered.owed)
    app.deadlines_changed()
    return await charted_cards(app, answered, answered.out(result), cards)
