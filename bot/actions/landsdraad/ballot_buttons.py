"""Crisis ballots with buttons: when a round opens each active player gets a DM with the crisis, their votes and
Aye / Nay / Abstain buttons (``/vote`` without a choice answers with the same buttons). A press casts the ballot
with the same ``cast_ballot`` call as a DM ``Vote:``; its custom_id ``clerk:ballot:<game>:<round>:<option>`` names
the round, so a press for a round that is over is refused. The buttons stay usable after a press: another press
changes the ballot like a Revote, until the deadline."""

from __future__ import annotations

from datetime import datetime

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.landsdraad.render import receipt_text
from bot.actions.outbox import LIVE, Button, Here, Outgoing, ToUser
from bot.actions.render import deadline_text
from bot.actions.routes import Routes
from bot.metrics import ballot_recorded
from engine.core.errors import RuleError
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.model import Option
from engine.service.landsdraad.views import PlayerView, RoundView
from engine.service.views import GameView

ROUTES = Routes()
"""The ballot buttons' press (the package's ``ROUTES`` merges it)."""
BALLOT_BUTTON = "clerk:ballot"
CHOICES = (("Aye", "aye", "success"), ("Nay", "nay", "danger"), ("Abstain", "abstain", "secondary"))
VALUES = {value for _, value, _ in CHOICES}


def ballot_buttons(game_id: int, number: int) -> tuple[Button, ...]:
    return tuple(Button(text, f"{BALLOT_BUTTON}:{game_id}:{number}:{value}", style)
                 for text, value, style in CHOICES)


def ballot_offer_text(view: RoundView, votes: int, now: datetime) -> str:
    return (f"Round {view.number} of {view.game.name} is open: {view.crisis}\n"
            f"Your ballot carries your {votes} votes. Deadline: {deadline_text(view.deadline, now)}.\n"
            "Press a button to vote (or DM me `Vote: Aye|Nay|Abstain`); press another one to change your ballot "
            f"until {'the deadline' if view.deadline is not None else 'the round closes'}. Ballots are secret.")


def round_open_dms(view: RoundView, players: list[PlayerView], now: datetime) -> list[Outgoing]:
    """One DM with the ballot buttons to every active player of the round just opened."""
    buttons = ballot_buttons(view.game.id, view.number)
    return [Outgoing(ToUser(p.user_id), text=ballot_offer_text(view, p.votes, now), buttons=buttons)
            for p in players if p.active]


async def ballot_offer(app: App, ctx: Ctx, g: GameView) -> list[Outgoing]:
    """``/vote`` without a choice: the open round's ballot buttons, to the player only."""
    player = await app.clerk.landsdraad.ledger.player(g.id, ctx.actor.id)
    status = await app.clerk.landsdraad.rounds.round_status(g.id)
    view = status.round
    if view.status != "open":
        raise RuleError(f"No round is open in {g.name}, so there is nothing to vote on yet.")
    return [Outgoing(Here(), ballot_offer_text(view, player.votes, app.clerk.clock.now()), ephemeral=True,
                     buttons=ballot_buttons(g.id, view.number))]


@ROUTES.button(BALLOT_BUTTON)
async def ballot_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of Aye, Nay or Abstain: the same ballot as a DM ``Vote:``, for the round the button was sent for;
    the interaction is the source id, so a redelivered or doubled press counts once."""
    parts = custom_id.split(":")
    if len(parts) != 5 or not parts[2].isdigit() or not parts[3].isdigit() or parts[4] not in VALUES:
        raise RuleError("This button is not one of Clerk's ballots.")
    game_id, number = int(parts[2]), int(parts[3])
    command = BallotCommand(Option(parts[4]), None, False)
    receipt = await app.clerk.landsdraad.ballots.cast_ballot(game_id, user_id=ctx.actor.id, command=command,
                                                             received_at=ctx.at, source_id=ctx.source_id,
                                                             expected_round=number)
    if not receipt.duplicate:
        ballot_recorded("landsdraad", "crisis")
    return [Outgoing(Here(), receipt_text(receipt, app.clerk.clock.now()), ephemeral=True,
                     extra={LIVE: "yes"})]
