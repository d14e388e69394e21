"""``/why`` in Mylantium games (docs/commands.md, "Mylantium: /why"): the subjects it explains, each asking
``clerk.mylantium.explain`` for the whole derivation (the common command keeps what the asker may see)."""

from __future__ import annotations

from bot.actions.commands import App
from bot.actions.context import Ctx
from bot.actions.front import Explainer, PostAsks, WhyAsk
from engine.core.derivation import Derivation
from engine.core.errors import RuleError
from engine.service.announcements import Announced
from engine.service.views import GameView


async def election(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """A closed election's totals: ``round`` the turn, ``name`` primary or general (the latest closed if left out)."""
    return await app.clerk.mylantium.explain.election(game.id, turn=ask.round, stage=ask.name)


async def approval(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The Approval Rating's change at a Business Phase's close: ``round`` the turn (the latest if left out)."""
    return await app.clerk.mylantium.explain.business(game.id, "approval", turn=ask.round)


async def fervor(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """Revolutionary Fervor's rise at a Business Phase's close: ``round`` the turn (the latest if left out)."""
    return await app.clerk.mylantium.explain.business(game.id, "fervor", turn=ask.round)


def _now_only(ask: WhyAsk, measure: str) -> None:
    if ask.round is not None:
        raise RuleError(f"/why {measure}-level explains the figure now and takes no round; a Business Phase's "
                        f"change is `/why {measure} round:{ask.round}`.")


async def fervor_level(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """Revolutionary Fervor now, as ``/status`` shows it: every recorded change with its event."""
    _now_only(ask, "fervor")
    return await app.clerk.mylantium.explain.level(game.id, "fervor")


async def approval_level(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """The Approval Rating now, as ``/status`` shows it: every recorded change with its event."""
    _now_only(ask, "approval")
    return await app.clerk.mylantium.explain.level(game.id, "approval")


async def revolution(app: App, ctx: Ctx, game: GameView, ask: WhyAsk) -> Derivation:
    """An attempt of the latest Revolution chain: ``round`` its number (the latest resolved if left out)."""
    return await app.clerk.mylantium.explain.revolution(game.id, attempt=ask.round)


async def _standing(app: App, game: GameView, card: Announced, stage: str) -> list[WhyAsk]:
    """An election's card, unless its result was withdrawn since (``/election reopen``): the card of an earlier close
    is not answered with the result that replaced it, nor with one still to come."""
    now = await app.clerk.mylantium.elections.election_of(game.id, card.number, stage)
    if now is not None and (now.status != "closed" or now.closing != card.closing):
        title = "Primary" if stage == "primary" else "General Election"
        later = ("it is open again" if now.status != "closed" else
                 f"its result now is the one posted after it closed again: `/why election round:{card.number} "
                 f"name:{stage}`")
        raise RuleError(f"That card's result was withdrawn: the moderators reopened the {title} of turn "
                        f"{card.number} after it was posted, and {later}.")
    return [WhyAsk("election", round=card.number, name=stage)]


async def primary(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    return await _standing(app, game, card, "primary")


async def general(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    return await _standing(app, game, card, "general")


async def business(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """A Business Phase's card: its approval change, then its Fervor's."""
    return [WhyAsk("approval", round=card.number), WhyAsk("fervor", round=card.number)]


async def attempt(app: App, game: GameView, card: Announced) -> list[WhyAsk]:
    """A Revolution's (or coup's) attempt, ``card.detail`` its chain: ``/why revolution`` explains the latest
    chain's attempts, so one of an earlier chain is refused rather than answered with another attempt."""
    latest = await app.clerk.mylantium.explain.latest_chain(game.id)
    if card.detail is not None and latest is not None and card.detail != latest:
        raise RuleError(f"That card is of Revolution #{card.detail}, not the latest; Clerk explains the attempts of "
                        f"the latest one, #{latest}: `/why revolution round:<attempt>`.")
    return [WhyAsk("revolution", round=card.number)]


POSTS: dict[str, str | PostAsks] = {"primary": primary, "general": general, "business": business,
                                    "revolution": attempt}
"""Announcement kind (an election's marker; ``card_tag`` of a Business Phase's card, of a Revolution's attempt) ->
what **Explain this** asks of it."""


EXPLAIN: dict[str, Explainer] = {"election": election, "approval": approval, "fervor": fervor,
                                 "revolution": revolution, "fervor-level": fervor_level,
                                 "approval-level": approval_level}
HELP = {"election": "a Primary's or General Election's totals; round: the turn, name: primary or general",
        "approval": "the Approval Rating's change at a Business Phase's close; round: the turn",
        "fervor": "Revolutionary Fervor's rise at a Business Phase's close; round: the turn",
        "revolution": "a Revolution's or coup's treasuries; round: the attempt in the latest chain",
        "fervor-level": "Revolutionary Fervor now, as /status shows it: every change that made it",
        "approval-level": "the Approval Rating now, as /status shows it: every change that made it"}
