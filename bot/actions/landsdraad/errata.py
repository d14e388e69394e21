"""Corrections with their consequences on Discord (issue 19): after a correction, the moderators are told privately
which closed rounds would have come out differently (round, posted and corrected totals, outcome changed or not,
and whose votes moved: a voter's weight and ballot, so only in the moderators' place and the corrector's private
answer); ``/round erratum`` (or the notice's button) posts in the game channel a short card with the corrected totals
and a link to the original result card. The original card is never edited or deleted."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx
from bot.actions.landsdraad.render import either, label
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.moderators import erratum_offer, moderator_target
from bot.actions.outbox import INSTEAD, AnswerWith, Button, Card, Outgoing, ToChannel, ToThread, reply
from bot.actions.routes import Routes
from engine.core.disclosure import margin_band, shown
from engine.core.errors import RuleError
from engine.landsdraad.errata import Recount
from engine.landsdraad.tally import Tally
from engine.service.landsdraad.ag_errata import AgCorrection
from engine.service.landsdraad.errata import AgErratum, Consequences, Erratum
from engine.service.views import GameView

ROUTES = Routes()
command = commands_on(ROUTES)
ERRATUM_BUTTON = "clerk:erratum"
AG_ERRATUM_BUTTON = "clerk:ag-erratum"
PASSED, FAILED = 0x2ECC71, 0xE74C3C


def totals(t: Tally) -> str:
    return f"Aye {t.aye}, Nay {t.nay}, Abstain {t.abstain} ({'passed' if t.passed else 'failed'})"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def recount_lines(r: Recount, names: dict[int, str]) -> list[str]:
    if r.restores:
        assert r.stated is not None
        lines = [f"• Round {r.round}: posted {totals(r.posted)}; the erratum posted for it said {totals(r.stated)}; "
                 "under the corrected ledger it comes out as posted again: **the erratum no longer holds**."]
    else:
        verdict = "**the outcome changes**" if r.outcome_changed else "the outcome stands"
        said = f"; the latest erratum said {totals(r.stated)}" if r.stated is not None else ""
        lines = [f"• Round {r.round}: posted {totals(r.posted)}{said}; under the corrected ledger "
                 f"{totals(r.corrected)}: {verdict}."]
        if r.outcome_changed:  # the posted result stands everywhere else (docs/rulings.md, Weathervane)
            lines.append(f"  Weathervane still counts round {r.round} as {'passed' if r.posted.passed else 'failed'}, "
                         "as posted: victory points are not recounted (award prestige to make up for it if you "
                         "decide to).")
    if r.changes:
        whys = sorted({c.why for c in r.changes})
        moved = ", ".join(f"{names.get(c.user_id, str(c.user_id))} {signed(c.votes)} ({label(_ballot(r, c.user_id))})"
                          for c in r.changes)
        lines.append(f"  {'; '.join(whys)}: {moved}")
    return lines


def _ballot(r: Recount, user_id: int) -> str | None:
    b = r.ballots.get(user_id)
    return b.value if b is not None else None


def _standings(s: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{c} {n}" for c, n in s) or "no ballots"


def ag_lines(r: AgCorrection) -> list[str]:
    """A weighted AG election the correction changes (moderators only: it names voters' V(p))."""
    winner = (f"**the winner would be {r.recounted[0][0]}, not {r.posted[0][0]}**" if r.winner_changed
              else "the winner stands")
    moved = ", ".join(f"{name} {was} → {now}" for name, (was, now) in sorted(r.weights.items()))
    return [f"• AG election {r.number}: posted {_standings(r.posted)}; under the corrected ledger "
            f"{_standings(r.recounted)}: {winner} (the office stays with whoever holds it).",
            f"  V(p) counted: {moved}"]


def notice_text(c: Consequences) -> str:
    if not c.recounts and not c.ag_recounts:
        why = f" ({c.note})" if c.note else ""
        return f"{c.subject}: no closed result of {c.game.name} comes out differently{why}."
    lines = [f"{c.subject} changes closed results of {c.game.name} (nothing posted has been changed):"]
    for r in c.recounts:
        lines += recount_lines(r, dict(c.names))
    for a in c.ag_recounts:
        lines += ag_lines(a)
    if c.ag_recounts:
        lines.append(f"Post an AG erratum with the button or `/ag erratum election:{c.ag_recounts[-1].number}`: it "
                     "shows the ballots and standings, not anyone's votes.")
    if c.recounts:
        first = c.recounts[0].round
        lines.append(f"Post an erratum in the game channel with the button or `/round erratum round:{first}`. An "
                     "erratum shows how each total moved: the players this correction concerns may tell from it how "
                     "the others concerned voted.")
    return "\n".join(lines)


def erratum_buttons(c: Consequences) -> tuple[Button, ...]:
    rounds = tuple(Button(f"Post erratum: round {r.round}", f"{ERRATUM_BUTTON}:{c.game.id}:{r.round}", "secondary")
                   for r in c.recounts[:5])
    ag = tuple(Button(f"Post erratum: AG election {r.number}", f"{AG_ERRATUM_BUTTON}:{c.game.id}:{r.number}",
                      "secondary") for r in c.ag_recounts)
    return (rounds + ag)[:5]


def told_in(place: ToChannel | ToThread, c: Consequences | None) -> list[Outgoing]:
    """What correction ``c`` changes: in the corrector's private answer and, when a closed result comes out
    differently, in the moderators' place ``place`` (read before the write, ``moderator_target``) with a button per
    round; made of the correction's result in its transaction (``bot/actions/landsdraad/edited.py``). Nothing
    without a correction (``c`` None), nor for the correction of a transfer that was never applied (money, or a
    holding never moved: it changed nothing a close read)."""
    if c is None or c.never_applied:
        return []
    text = notice_text(c)
    if not c.recounts and not c.ag_recounts:
        return [reply(text, ephemeral=True)]
    buttons = erratum_buttons(c)
    return [reply(text, ephemeral=True),
            Outgoing(place, text=text, buttons=buttons,
                     extra={INSTEAD: "(Post an erratum with /round erratum in the game channel.)"})]


def erratum_card(e: Erratum) -> Card:
    r = e.recount
    passed = r.corrected.passed
    original = (f"[the original result card]({e.link})" if e.link is not None
                else "the original result card (Clerk did not keep where it was posted)")
    if r.restores:  # a later correction undid the one the latest erratum was posted for (docs/rulings.md)
        assert r.stated is not None
        title = f"{e.game.name}, round {r.round}: erratum withdrawn"
        description = (f"A moderator corrected the ledger again after round {r.round} closed: the round comes out as "
                       f"first posted, and the erratum posted for it no longer holds. The measure "
                       f"{'passed' if passed else 'failed'}, as {original} says.")
        fields: tuple[tuple[str, str, bool], ...] = tuple(
            (name, f"{now} (as posted; the erratum said {said})", True) for name, now, said in (
                ("Aye", r.corrected.aye, r.stated.aye), ("Nay", r.corrected.nay, r.stated.nay),
                ("Abstain", r.corrected.abstain, r.stated.abstain)))
    else:
        outcome = (f"The measure would have {'PASSED' if passed else 'FAILED'}, not "
                   f"{'passed' if r.posted.passed else 'failed'} as posted (victory points still count it as "
                   "posted)." if r.outcome_changed
                   else f"The outcome stands: the measure {'passed' if passed else 'failed'}.")
        replaces = " It replaces the erratum posted for the round before it." if r.stated is not None else ""
        title = f"{e.game.name}, round {r.round}: erratum"
        description = (f"A moderator corrected the ledger after round {r.round} closed. {outcome} "
                       f"It corrects {original}, which stays as it was posted.{replaces}")
        fields = (("Aye", f"{r.corrected.aye} (posted {r.posted.aye})", True),
                  ("Nay", f"{r.corrected.nay} (posted {r.posted.nay})", True),
                  ("Abstain", f"{r.corrected.abstain} (posted {r.posted.abstain})", True))
    fields += (("Needed to pass", str(r.corrected.needed), True),)
    footer = "Individual ballots are secret; only the totals are published."
    if shown(e.disclosure) != "full":  # the corrected totals would give a ballot away (docs/rulings.md)
        fields = (("Margin", margin_band(abs(r.corrected.aye - r.corrected.nay), r.corrected.aye + r.corrected.nay),
                   True),)
        footer = ("Individual ballots are secret; the corrected totals are not published, since they would give one "
                  "away.")
    return Card(title=title, description=description, fields=fields, color=PASSED if passed else FAILED,
                footer=footer)


def erratum_warning(e: Erratum) -> str:
    """For the moderators only: whose ballot the erratum's corrected totals give away, whole or in part, and what
    was done with the erratum (the same words as a result's warning)."""
    d = e.disclosure or {}
    r = e.recount
    lines = []
    if d.get("exposed"):
        who = ", ".join(f"{name} ({label(option)})" for name, option in d["exposed"])
        lines.append(f"**Moderators:** the corrected totals of the erratum for round {r.round} of {e.game.name} (Aye "
                     f"{r.corrected.aye}, Nay {r.corrected.nay}, Abstain {r.corrected.abstain}) give away how these "
                     f"players voted: {who}.")
    if d.get("ruled_out"):
        head = ("They also give away part of these ballots" if d.get("exposed") else
                f"**Moderators:** the corrected totals of the erratum for round {r.round} of {e.game.name} give away "
                "part of these ballots")
        parts = "; ".join(f"{name} ({votes} votes): the totals show {name} did not vote "
                          f"{either([label(o) for o in out])}" for name, votes, out in d["ruled_out"])
        lines.append(f"{head}: {parts}.")
    if not d.get("exposed"):
        lines.append("A ballot given away only in part does not coarsen an erratum: it was posted in full.")
    elif shown(d) != "full":
        lines.append(f"The erratum was posted with the outcome and the margin's band, without the totals (setting "
                     f"`disclosure: {d.get('setting', d.get('mode'))}`; an erratum is never held, since nothing "
                     "releases it).")
    else:
        lines.append("The erratum was posted in full (setting `disclosure: post`).")
    return "\n".join(lines)


async def post_erratum(app: App, ctx: Ctx, game: GameView, number: int) -> list[Outgoing]:
    if not ctx.actor.moderates(game.moderator_role_id):
        raise RuleError(f"Only the moderators of {game.name} can post an erratum.")
    place = await moderator_target(app, game)
    answered: AnswerWith[Erratum] = AnswerWith(ctx.answering, lambda e: [  # owed in the erratum's transaction
        reply(f"The erratum for round {number} is posted in the game channel.", ephemeral=True),
        *([Outgoing(place, text=erratum_warning(e))] if e.disclosure is not None else []),
        Outgoing(ToChannel(game.channel_id), card=erratum_card(e))])
    e = await app.clerk.landsdraad.errata.post_erratum(game.id, number=number, actor=ctx.actor.id,
                                                       source_id=ctx.source_id, answer=answered.owed)
    return answered.out(e)


@command("round erratum", "Post an erratum for a closed round that the corrected ledger changes.",
         Option("round", int, "the closed round whose result the corrections change", True, min_value=1),
         moderator=True)
async def round_erratum(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await post_erratum(app, ctx, require_game(game), o["round"])


@ROUTES.button(ERRATUM_BUTTON)
async def erratum_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A moderator presses "Post erratum" under the notice."""
    game_id, number = erratum_offer(custom_id)
    return await post_erratum(app, ctx, await app.clerk.games.game(game_id), number)


def ag_erratum_card(e: AgErratum) -> Card:
    """Public: the ballots (public, R0-30), the standings posted and recounted, and the winner, as the AG result card
    shows them; no voter's V(p) (PRIVATE to them)."""
    r = e.correction
    winner = (f"The winner would have been {r.recounted[0][0]}, not {r.posted[0][0]} as posted."
              if r.winner_changed else f"The winner stands: {r.recounted[0][0]}.")
    original = (f"[the original result card]({e.link})" if e.link is not None
                else "the original result card (Clerk did not keep where it was posted)")
    ballots = "\n".join(f"{voter} → {candidate}" for voter, candidate in r.ballots) or "none"
    return Card(
        title=f"{e.game.name}: Adjutant General election #{r.number}: erratum",
        description=(f"A moderator corrected the ledger after election #{r.number} closed; its ballots weigh each "
                     f"voter's votes. {winner} It corrects {original}, which stays as it was posted; the office stays "
                     "with whoever holds it until the moderators decide."),
        fields=(("Standings", _standings(r.recounted), False), ("Posted", _standings(r.posted), False),
                ("Ballots", ballots, False)),
        color=PASSED,
        footer="Each voter's own votes are theirs alone; only the standings are published.",
    )


@command("ag erratum", "Post an erratum for a closed weighted AG election that the corrected ledger changes.",
         Option("election", int, "the closed election (default: the latest that comes out differently)",
                min_value=1),
         moderator=True)
async def ag_erratum(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await post_ag_erratum(app, ctx, require_game(game), o.get("election"))


@ROUTES.button(AG_ERRATUM_BUTTON)
async def ag_erratum_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A moderator presses "Post erratum: AG election N" under the notice."""
    game_id, number = erratum_offer(custom_id)
    return await post_ag_erratum(app, ctx, await app.clerk.games.game(game_id), number)


async def post_ag_erratum(app: App, ctx: Ctx, g: GameView, number: int | None) -> list[Outgoing]:
    if not ctx.actor.moderates(g.moderator_role_id):
        raise RuleError(f"Only the moderators of {g.name} can post an erratum.")
    answered: AnswerWith[AgErratum] = AnswerWith(ctx.answering, lambda e: [  # owed in the erratum's transaction
        reply(f"The erratum for AG election {e.correction.number} is posted in the game channel.", ephemeral=True),
        Outgoing(ToChannel(g.channel_id), card=ag_erratum_card(e))])
    e = await app.clerk.landsdraad.errata.post_ag_erratum(g.id, number=number, actor=ctx.actor.id,
                                                          source_id=ctx.source_id, answer=answered.owed)
    return answered.out(e)
