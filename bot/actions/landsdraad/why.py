"""``/why`` in Landsdraad games (docs/commands.md, "Explaining a number"): the subjects ``result`` (a round's result),
``votes`` (a player's votes), ``audit`` (an audit's fee), ``forecast`` and ``score`` (victory points), each
answered by ``clerk.landsdraad.explain``; the common command (``bot/actions/why.py``) keeps what the asker may see."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx, UserRef
from bot.actions.front import Explainer, PostAsks, WhyAsk
from engine.core.derivation import Derivation
from engine.core.errors import RuleError
from engine.service.announcements import Announced
from engine.service.views import GameView


async def result(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """A round's result: each faction's vote, each player's block (theirs only), the sums, the threshold."""
    return await app.clerk.landsdraad.explain.result(game.id, ask.round)


async def votes(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """A player's votes (the asker's own if no player is named), now or as a round's close read them. A player's
    votes are theirs and the moderators' to see (the secrecy matrix): another player is refused."""
    if ask.player is None:
        if ask.viewer is None:
            raise RuleError("Name the player whose votes to explain: `/why votes player:@jenny`." if ask.moderator
                            else f"You play no part in {game.name}, so you have no votes to explain.")
        user_id = ctx.actor.id
    elif not ask.moderator and ask.player.id != ctx.actor.id:
        raise RuleError(f"A player's votes are private: only {ask.player.name} and the moderators may see how "
                        "they are made up. `/why votes` explains your own.")
    else:
        user_id = ask.player.id
    return await app.clerk.landsdraad.explain.votes(game.id, user_id, ask.round)


async def audit(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """An audit's fee and each player's share (audit results are public)."""
    return await app.clerk.landsdraad.explain.audit(game.id, ask.player.id if ask.player else None, ask.round)


async def forecast(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The Victory Point Forecast now (it is public; each player's own measures are theirs): every category, or
    the one (or the award) ``name`` names."""
    return await app.clerk.landsdraad.explain.forecast(game.id, ask.name)


async def score(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """A player's score (the asker's own if no player is named), or one category or award of it (``name``): the
    final one once the game is scored (its table is public), before that the score if it ended now, which is the
    player's and the moderators' only."""
    user_id = ask.player.id if ask.player is not None else ctx.actor.id
    if ask.player is None and ask.viewer is None:
        raise RuleError("Name the player whose score to explain: `/why score player:@jenny`." if ask.moderator
                        else f"You play no part in {game.name}, so you have no score to explain.")
    derivation, final = await app.clerk.landsdraad.explain.score(game.id, user_id, ask.name)
    if not final and not ask.moderator and user_id != ctx.actor.id:
        raise RuleError("Until the game is scored, a player's score is theirs and the moderators' to see. "
                        "`/why score` explains your own.")
    return derivation


async def ag(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """An AG election's result (``round``: the election's number; the latest closed one if left out): each ballot
    (public; weighted, its V(p) is the voter's own), the standings, the tie-break and the winner."""
    return await app.clerk.landsdraad.explain.ag(game.id, ask.round)


EXPLAIN: dict[str, Explainer] = {"result": result, "votes": votes, "forecast": forecast, "score": score,
                                 "audit": audit, "ag": ag}
EXPLAIN_HELP = {
    "result": "a round's result: each faction's vote, your own ballot, the totals and the threshold; `round`",
    "votes": "your votes (a moderator: anyone's) and how they are made up; `round` for the votes its close read, "
             "`player` (moderators)",
    "forecast": "the Victory Point Forecast now: the Pot, each category's value, what is in play and the rate; "
                "`name` for one category or award",
    "score": "your score (final once the game is scored; a final one of anyone): each category, award, goals, "
             "prestige, place and title; `player`, `name` for one category or award",
    "audit": "an audit's fee and each player's share; `player` (the audited), `round`",
    "ag": "an Adjutant General election's result: each ballot, the standings, the tie-break, the winner; "
          "`round` (the election's number)",
}
async def audited(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """An audit's card: that audit (its round, and the audited player when the card recorded them)."""
    names = await app.clerk.games.player_names(game.id)
    who = UserRef(card.detail, names.get(card.detail, "?")) if card.detail is not None else None
    return [WhyAsk("audit", round=card.number, player=who)]


async def the_forecast(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """A Forecast's card: the Forecast now (the one the latest card shows; the Pot only grows between cards)."""
    return [WhyAsk("forecast")]


async def scores(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """The final scores' table: the asker's own score (a moderator is told to name the player)."""
    return [WhyAsk("score")]


POSTS: dict[str, str | PostAsks] = {"round": "result", "audit": audited, "forecast": the_forecast, "score": scores,
                                    "ag": "ag"}
"""Announcement kind (``engine.service.announcements``) -> the subject that explains it (``Explain this``)."""
