"""A crisis ballot by DM (``Vote: Aye``), the DM fallback (a DM that no form matches is read as one): the sender's
game, then the ballot. And after a crash, the receipts of ballots recorded just before it that were never owed.

Every DM ballot needs the sender's games. The last lookup is remembered (``clerk.games.known_games``,
engine/service/membership.py), so a player's second and later ballots skip that read: the game is chosen from
the remembered games, and the ballot's own transaction checks that the player still plays in exactly those
(``plays_in``). If not (they joined a game through another process, say), nothing was recorded and the game is
chosen again from a fresh lookup. Any refusal of the choice itself (no game, several games, a wrong ``#name``) is
also answered from a fresh lookup, so what the player is told never rests on a remembered list."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.actions.commands import App, choose_game, game_of_user
from bot.actions.context import Ctx
from bot.actions.landsdraad.render import receipt_text
from bot.actions.outbox import AnswerWith, Outgoing, reply
from bot.actions.recovery import receipts_again
from bot.actions.routes import Routes
from bot.metrics import ballot_recorded
from engine.core.errors import ParseError, RuleError
from engine.core.text import first_line
from engine.landsdraad.ballot import BallotCommand, parse_ballot
from engine.landsdraad.motions import Motion, parse_motion
from engine.service.landsdraad.views import BallotReceipt
from engine.service.membership import StaleGames
from engine.service.owed import OwedWith

ROUTES = Routes()
"""The DM fallback (the package's ``ROUTES`` merges it)."""
WHAT = "A crisis ballot (`Vote: Aye|Nay|Abstain`)"


@ROUTES.dm_fallback
async def crisis_ballot(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """A DM that no form matches, read as a crisis ballot (a ``ParseError`` says what was wrong). A player vote
    (``Vote: No Confidence``) is not read here: the answer says where it goes."""
    try:
        motion = parse_motion(text)
    except ParseError:
        motion = None
    if isinstance(motion, Motion):
        # a player of no Landsdraad game is told so, as for `Vote: Aye` (play-test M4.7)
        games = await app.clerk.games.games_of_user(ctx.actor.id)
        if not any(g.ruleset == "landsdraad" for g in games):
            choose_game(games, None, "landsdraad", f"“{first_line(text)[:100]}” (a player vote)")
        raise RuleError(f"“{first_line(text)[:100]}” is a player vote: post it as the first line of a message in a "
                        "thread of the game channel, or use /pv support. A crisis ballot by DM is `Vote: Aye`, "
                        "`Vote: Nay` or `Vote: Abstain`.")
    command = parse_ballot(text)
    # owed with the ballot (in its transaction, a worker thread): the front end queues it, and owes it no second
    # time; a message that came again is answered after
    answered: AnswerWith[BallotReceipt] = AnswerWith(ctx.answering, lambda receipt: [
        reply(receipt_text(receipt, app.clerk.clock.now()))])
    return answered.out(await cast_dm_ballot(app, ctx, command, answered.owed))


async def cast_dm_ballot(app: App, ctx: Ctx, command: BallotCommand,
                         answer: OwedWith[BallotReceipt] | None = None) -> BallotReceipt:
    """Record the ballot in the sender's game (``AmbiguousGame`` or another ``RuleError`` when there is none to
    choose); the receipt exists only after the commit. ``answer``: the receipt's messages, owed in the ballot's
    transaction (``OwedWith``)."""
    receipt = await _cast_in_known_game(app, ctx, command, answer)
    if receipt is None:
        form = f"{'Revote' if command.revote else 'Vote'}: {command.option.value.capitalize()}" + (
            f", {command.declared}" if command.declared is not None else "")  # the menu's example: the sender's own
        game = await game_of_user(app, ctx.actor.id, command.game, "landsdraad", what=WHAT, example=form,
                                  form=form)  # asked only where a round is open
        receipt = await app.clerk.landsdraad.ballots.cast_ballot(game.id, user_id=ctx.actor.id, command=command,
                                                                 received_at=ctx.at, source_id=ctx.source_id,
                                                                 answer=answer)
    if not receipt.duplicate:
        ballot_recorded("landsdraad", "crisis")
    return receipt


async def _cast_in_known_game(app: App, ctx: Ctx, command: BallotCommand,
                              answer: OwedWith[BallotReceipt] | None) -> BallotReceipt | None:
    """The ballot cast in the game chosen from the sender's remembered games; None (nothing recorded) when nothing
    is remembered, the choice is refused (it is answered from a fresh lookup) or the sender's games changed
    meanwhile (``StaleGames``: the caller chooses again from a fresh lookup)."""
    known = app.clerk.games.known_games(ctx.actor.id)
    if known is None:
        return None
    try:
        game = choose_game(known, command.game, "landsdraad", what=WHAT)
    except RuleError:
        return None
    try:
        return await app.clerk.landsdraad.ballots.cast_ballot(game.id, user_id=ctx.actor.id, command=command,
                                                              received_at=ctx.at, source_id=ctx.source_id,
                                                              plays_in=[g.id for g in known], answer=answer)
    except StaleGames:
        return None


async def unanswered_receipts(app: App, now: datetime, up_to: int) -> list[tuple[int, str, Outgoing]]:
    """(message id, source id, receipt) of every DM ballot recorded in the last day (up to the event ``up_to``, the
    last before this start) whose receipt was never owed: the bot was killed between the ballot's commit and owing
    its receipt (engine/service/owed.py). The receipt reads as the first one would have, a reply to the ballot's
    message (``Front.receipts``)."""
    async def remake(game_id: int, user_id: int, payload: dict[str, Any]) -> str:
        receipt = await app.clerk.landsdraad.ballots.recorded_receipt(game_id, user_id, payload, duplicate=False)
        return receipt_text(receipt, now)

    return await receipts_again(app, now, up_to, "BallotCast", remake)
