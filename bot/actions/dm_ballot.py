"""A crisis ballot by DM (``Vote: Aye``): the sender's game, then the ballot.

Every DM ballot needs the sender's games. The last lookup is remembered (``Clerk.known_games``,
engine/service/membership.py), so a player's second and later ballots skip that read: the game is chosen from
the remembered games, and the ballot's own transaction checks that the player still plays in exactly those
(``plays_in``). If not (they joined a game through another process, say), nothing was recorded and the game is
chosen again from a fresh lookup. Any refusal of the choice itself (no game, several games, a wrong ``#name``) is
also answered from a fresh lookup, so what the player is told never rests on a remembered list."""

from __future__ import annotations

from bot.actions.commands import App, choose_game, game_of_user
from bot.actions.context import Ctx
from engine.core.errors import RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.service.landsdraad.views import BallotReceipt
from engine.service.membership import StaleGames

WHAT = "A crisis ballot (`Vote: Aye|Nay|Abstain`)"


async def cast_dm_ballot(app: App, ctx: Ctx, command: BallotCommand) -> BallotReceipt:
    """Record the ballot in the sender's game (``AmbiguousGame`` or another ``RuleError`` when there is none to
    choose); the receipt exists only after the commit."""
    receipt = await _cast_in_known_game(app, ctx, command)
    if receipt is not None:
        return receipt
    game = await game_of_user(app, ctx.actor.id, command.game, "landsdraad", what=WHAT)
    return await app.clerk.landsdraad.ballots.cast_ballot(game.id, user_id=ctx.actor.id, command=command,
                                                          received_at=ctx.at, source_id=ctx.source_id)


async def _cast_in_known_game(app: App, ctx: Ctx, command: BallotCommand) -> BallotReceipt | None:
    """The ballot cast in the game chosen from the sender's remembered games; None (nothing recorded) when nothing
    is remembered, the choice is refused (it is answered from a fresh lookup) or the sender's games changed
    meanwhile (``StaleGames``: the caller chooses again from a fresh lookup)."""
    known = app.clerk.known_games(ctx.actor.id)
    if known is None:
        return None
    try:
        game = choose_game(known, command.game, "landsdraad", what=WHAT)
    except RuleError:
        return None
    try:
        return await app.clerk.landsdraad.ballots.cast_ballot(game.id, user_id=ctx.actor.id, command=command,
                                                              received_at=ctx.at, source_id=ctx.source_id,
                                                              plays_in=[g.id for g in known])
    except StaleGames:
        return None
