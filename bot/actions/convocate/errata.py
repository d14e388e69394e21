"""Corrections with their consequences in the Convocate on Discord (issue 19): after ``/card set ... since:T`` the
moderators are told privately which resolved Motions of Repeal would have come out differently (both Standing
Votes as announced and as corrected, the Statute destroyed or kept), and so after ``/game settings`` changes the
ruling ``repeal_count`` or ``committed_cards`` (``Front.after_setting``); ``/motion erratum`` (or the notice's button)
posts the corrected count in the game channel with a link to the Repeal's card. What was announced is never edited,
and a Statute is not restored by an erratum: the moderators decide what follows."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option
from bot.actions.context import Ctx
from bot.actions.convocate.guard import command
from bot.actions.front import AfterSetting
from bot.actions.moderators import erratum_notice, erratum_offer
from bot.actions.outbox import AnswerWith, Card, Outgoing, ToChannel, ToThread, reply
from bot.actions.routes import Routes
from engine.convocate.errata import RepealRecount, Unrecounted
from engine.convocate.repeal import variant_key
from engine.core.errors import RuleError
from engine.service.convocate.errata import RepealConsequences, RepealErratum, setting_consequences_in
from engine.service.views import GameView

ROUTES = Routes()
BUTTON = "clerk:cv-erratum"


def fate(destroyed: bool) -> str:
    return "destroyed" if destroyed else "kept"


def ruled(r: RepealRecount) -> str:
    """`` under repeal_count before (counted after at the resolution)``: the rulings a recount read, when they are
    not the resolution's; empty otherwise."""
    (count, committed), (was_count, was_committed) = r.ruled, r.closed.ruled
    said = [f"{name} {now} (counted {then} at the resolution)"
            for name, now, then in (("repeal_count", count, was_count), ("committed_cards", committed, was_committed))
            if now != then and then is not None]
    return f" under {' and '.join(said)}" if said else ""


def recount_line(r: RepealRecount) -> str:
    c = r.closed
    verdict = "**the outcome changes**" if r.outcome_changed else "the outcome stands"
    return (f"• Motion #{c.motion} (Repeal of {c.statute}, turn {c.turn}): announced {c.mover} {c.mover_votes} "
            f"against {c.controller} {c.controller_votes} ({fate(c.destroyed)}); "
            f"{'counted again' + ruled(r) if ruled(r) else 'corrected'} "
            f"{r.mover_votes} against {r.controller_votes} ({fate(r.destroyed)}): {verdict}.")


def unknown_line(u: Unrecounted) -> str:
    c = u.closed
    return (f"• Not recounted: Motion #{c.motion} (Repeal of {c.statute}, turn {c.turn}): {u.reason}; judge it by "
            "hand.")


def notice_text(c: RepealConsequences) -> str:
    unknown = [unknown_line(u) for u in c.unknown]
    if not c.recounts:
        return "\n".join([f"{c.subject}: no resolved Motion of Repeal of {c.game.name} that Clerk can recount comes "
                          "out differently." if c.unknown else
                          f"{c.subject}: no resolved Motion of Repeal of {c.game.name} comes out differently.",
                          *unknown])
    return "\n".join([f"{c.subject} changes resolved Repeals of {c.game.name} (nothing announced has been changed):",
                      *(recount_line(r) for r in c.recounts), *unknown,
                      f"Post an erratum in the game channel with the button or `/motion erratum "
                      f"number:{c.recounts[0].closed.motion}`."])


AFTER_SETTING = AfterSetting(setting_consequences_in, lambda game, place, c: told_in(place, game, c))
"""After ``/game settings`` changed a setting: what it changes, privately, read in the change's transaction
(``Front.after_setting``)."""


def told_in(place: ToChannel | ToThread | None, game: GameView, c: RepealConsequences | None) -> list[Outgoing]:
    """The private notice of what a correction changes, with a button per result to post its erratum, to the
    moderators' place, read before the write whose transaction owes it
    (``/card set ... since:``, ``/game settings``); ``place`` may be None only when ``c`` changes nothing."""
    if c is None:
        return []
    offers = [(f"Post erratum: Motion #{r.closed.motion}", f"{BUTTON}:{game.id}:{r.closed.motion}")
              for r in c.recounts]
    return erratum_notice(place, notice_text(c), offers, "/motion erratum")


def cause(r: RepealRecount) -> str:
    """Why the erratum's count differs from the card's, in a sentence for the players."""
    c = r.closed
    ruling = ruled(r)
    if not ruling:
        return f"A moderator corrected the board after the Motion of Repeal of {c.statute} (turn {c.turn}) was resolved"
    count, committed = r.ruled
    corrected = c.by_ruling is not None and committed is not None and (
        (r.mover_votes, r.controller_votes) != c.by_ruling.get(variant_key(count, committed)))
    return (f"The moderators changed the ruling after the Motion of Repeal of {c.statute} (turn {c.turn}) was "
            f"resolved: it is counted again{ruling}" + (", and with a correction of the board" if corrected else ""))


def erratum_card(e: RepealErratum) -> Card:
    r, c = e.recount, e.recount.closed
    outcome = (f"{c.statute} would have been {fate(r.destroyed)}, not {fate(c.destroyed)} as announced; the "
               "moderators say what follows." if r.outcome_changed else f"The outcome stands: {c.statute} "
               f"{'is destroyed' if r.destroyed else 'stays'}.")
    original = (f"[the announcement]({e.link})" if e.link is not None
                else "the announcement (Clerk did not keep where it was posted)")
    return Card(title=f"{e.game.name}, Motion #{c.motion}: erratum",
                description=(f"{cause(r)}. {outcome} It corrects {original}, which stays as it was posted."),
                fields=((f"{c.mover} (mover)", f"{r.mover_votes} (announced {c.mover_votes})", True),
                        (f"{c.controller} (controller)", f"{r.controller_votes} (announced {c.controller_votes})",
                         True)))


async def post_erratum(app: App, ctx: Ctx, game: GameView, number: int) -> list[Outgoing]:
    if not ctx.actor.moderates(game.moderator_role_id):
        raise RuleError(f"Only the moderators of {game.name} can post an erratum.")
    # the erratum, owed in its transaction (``AnswerWith``): it is not posted twice, so a kill after the commit
    # would lose it for good
    answered: AnswerWith[RepealErratum] = AnswerWith(ctx.answering, lambda e: [
        reply(f"The erratum for Motion #{number} is posted in the game channel.", ephemeral=True),
        Outgoing(ToChannel(game.channel_id), card=erratum_card(e))])
    return answered.out(await app.clerk.convocate.errata.post_erratum(
        game.id, number=number, actor=ctx.actor.id, source_id=ctx.source_id, answer=answered.owed))


@command(ROUTES, "motion erratum", "Post an erratum for a resolved Motion of Repeal that a correction changes.",
         Option("number", int, "the Motion's number (/motion status)", True, min_value=1), moderator=True)
async def motion_erratum(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await post_erratum(app, ctx, g, o["number"])


@ROUTES.button(BUTTON)
async def erratum_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    game_id, number = erratum_offer(custom_id)
    return await post_erratum(app, ctx, await app.clerk.games.game(game_id), number)
