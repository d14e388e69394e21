"""Corrections with their consequences in Mylantium on Discord (issue 19): after ``/government set approval:X
since:T``, the moderators are told privately which closed General Elections would have come out differently
(turn, posted and corrected totals, the winner changed or not; read and owed in the correction's transaction);
``/election erratum`` (or the notice's button) posts the corrected totals in the game channel with a link to the
original result card, which is never edited."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, require_game
from bot.actions.context import Ctx
from bot.actions.front import AfterSetting
from bot.actions.moderators import erratum_notice, erratum_offer
from bot.actions.outbox import AnswerWith, Card, Outgoing, ToChannel, ToThread, reply
from bot.actions.routes import Routes
from engine.core.errors import RuleError
from engine.mylantium.errata import GeneralRecount
from engine.mylantium.model import Party
from engine.service.mylantium.errata import ElectionConsequences, ElectionErratum, setting_consequences_in
from engine.service.mylantium.state import NAME
from engine.service.views import GameView

M: CommandFlags = {"moderator": True, "ruleset": NAME}
ROUTES = Routes()
command = ROUTES.command
BUTTON = "clerk:myl-erratum"


def totals(t: Mapping[Party, int], winner: Party) -> str:
    return ", ".join(f"{p.title} {t.get(p, 0)}" for p in Party) + f" ({winner.title} won)"


def under(r: GeneralRecount) -> str:
    """What the recount changed: ``the corrected approval 55``, ``rounding down``, or both."""
    changed = [f"the corrected approval {r.corrected.approval}"] if r.corrected.approval != r.closed.approval else []
    if r.rounding != r.closed.rounding:
        changed.append(f"the Independent Vote rounded {r.rounding} (counted {r.closed.rounding} at the close)")
    return " and ".join(changed) or "the ledger as it is now"


def recount_line(r: GeneralRecount) -> str:
    verdict = "**the winner changes**" if r.outcome_changed else "the winner stands"
    if r.restores:  # play-test M4.5: compared with the latest erratum, as in Landsdraad
        verdict = "as first posted: **the erratum posted for it no longer holds** (post its withdrawal)"
    said = ""
    if r.stated is not None:
        said = f"; the latest erratum said {', '.join(f'{p.title} {r.stated.get(p, 0)}' for p in Party)}"
    return (f"• General Election of turn {r.turn}: posted {totals(r.closed.posted, r.closed.winner)} at approval "
            f"{r.closed.approval}{said}; under {under(r)}: {totals(r.totals, r.corrected.winner)}: {verdict}.")


def cause(r: GeneralRecount) -> str:
    """Why the erratum's totals differ from the card's, in a sentence for the players."""
    said = []
    if r.corrected.approval != r.closed.approval:
        said.append(f"a moderator corrected the Approval Rating after this election closed: it was "
                    f"{r.corrected.approval}, not {r.closed.approval}")
    if r.rounding != r.closed.rounding:
        said.append(f"the moderators changed how the Independent Vote is rounded ({r.rounding}, not "
                    f"{r.closed.rounding})")
    sentence = "; and ".join(said) or "the ledger was corrected"
    return sentence[0].upper() + sentence[1:]


def notice_text(c: ElectionConsequences) -> str:
    if not c.recounts:
        return f"{c.subject}: no closed General Election of {c.game.name} comes out differently."
    return "\n".join([f"{c.subject} changes closed results of {c.game.name} (nothing posted has been changed):",
                      *(recount_line(r) for r in c.recounts),
                      f"Post an erratum in the game channel with the button or `/election erratum "
                      f"turn:{c.recounts[0].turn}`."])


AFTER_SETTING = AfterSetting(setting_consequences_in, lambda game, place, c: told_in(place, game, c))
"""After ``/game settings`` changed a setting: what it changes, privately, read in the change's transaction
(``Front.after_setting``)."""


def told_in(place: ToChannel | ToThread | None, game: GameView, c: ElectionConsequences | None) -> list[Outgoing]:
    """The private notice of what a correction changes, with a button per result to post its erratum, to the
    moderators' place, read before the write whose transaction owes it
    (``/government set ... since:``, ``/game settings``); ``place`` may be None only when ``c`` changes nothing."""
    if c is None:
        return []
    offers = [(f"Post erratum: turn {r.turn}", f"{BUTTON}:{game.id}:{r.turn}") for r in c.recounts]
    return erratum_notice(place, notice_text(c), offers, "/election erratum")


PRESIDENCY = (" The Presidency stays as the moderators record it; they change it separately if they decide "
              "the erratum changes who holds it.")


def erratum_card(e: ElectionErratum) -> Card:
    r = e.recount
    original = (f"[the original result card]({e.link})" if e.link is not None
                else "the original result card (Clerk did not keep where it was posted)")
    if r.restores:  # play-test M4.5: a later correction undid the one the latest erratum was posted for
        assert r.stated is not None
        stated = r.stated
        return Card(
            title=f"{e.game.name}, General Election of turn {r.turn}: erratum withdrawn",
            description=(f"The moderators corrected the ledger again: the General Election of turn {r.turn} comes "
                         f"out as first posted, and the erratum posted for it no longer holds. The "
                         f"{r.corrected.winner.title} party won, as {original} says."),
            fields=() if e.shown != "full" else tuple(
                (p.title, f"{r.totals[p]} (as posted; the erratum said {stated.get(p, 0)})", True) for p in Party))
    outcome = (f"The {r.corrected.winner.title} party would have won, not the {r.closed.winner.title} party as "
               f"posted.{PRESIDENCY}" if r.outcome_changed
               else f"The winner stands: the {r.corrected.winner.title} party.")
    if r.stated is not None:
        outcome += " It replaces the erratum posted for this election before it."
    fields = tuple((p.title, f"{r.totals[p]} (posted {r.closed.posted.get(p, 0)})", True) for p in Party)
    footer = None
    if e.shown != "full":  # the result card withheld its totals (the disclosure check): so does its erratum
        fields = ()
        footer = ("The parties' totals are not published, since they would give away how a Faction chose; the "
                  "moderators have them.")
    return Card(
        title=f"{e.game.name}, General Election of turn {r.turn}: erratum",
        description=(f"{cause(r)}, so the Independent Vote splits differently. {outcome} It corrects {original}, "
                     "which stays as it was posted."),
        fields=(*fields, ("Independent Vote", str(r.corrected.independent), True)), footer=footer)


async def post_erratum(app: App, ctx: Ctx, game: GameView, turn: int) -> list[Outgoing]:
    if not ctx.actor.moderates(game.moderator_role_id):
        raise RuleError(f"Only the moderators of {game.name} can post an erratum.")
    # the erratum, owed in its transaction (``AnswerWith``)
    answered: AnswerWith[ElectionErratum] = AnswerWith(ctx.answering, lambda e: [
        reply(f"The erratum for the General Election of turn {turn} is posted in the game channel.", ephemeral=True),
        Outgoing(ToChannel(game.channel_id), card=erratum_card(e))])
    return answered.out(await app.clerk.mylantium.errata.post_erratum(game.id, turn=turn, actor=ctx.actor.id,
                                                                      source_id=ctx.source_id, answer=answered.owed))


@command("election erratum", "Post an erratum for a closed General Election that a correction changes.",
         Option("turn", int, "the turn of the General Election", True, min_value=1), **M)
async def election_erratum(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await post_erratum(app, ctx, require_game(game), o["turn"])


@ROUTES.button(BUTTON)
async def erratum_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    game_id, number = erratum_offer(custom_id)
    return await post_erratum(app, ctx, await app.clerk.games.game(game_id), number)
