"""``/verify``: anyone checks the dice of a round (or the game's base rolls) against the commitment Clerk posted
before them (docs/dice.md); and the lines a ruleset's cards use to post a commitment and its reveal. Shared code."""

from __future__ import annotations

from typing import Any

from bot.actions.admin import split_messages
from bot.actions.commands import App, Option, require_game
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing, reply
from bot.actions.routes import Routes
from engine.core.dice import Checked
from engine.core.errors import RuleError
from engine.service.dice import GAME_SCOPE, DiceReport, SealView, require_dice
from engine.service.views import GameView

ROUTES = Routes()
GUIDE = "docs/dice.md says how to check it by hand"


def scope_name(scope: int) -> str:
    return "the base rolls (outside rounds)" if scope == GAME_SCOPE else f"round {scope}"


def commitment_text(seal: SealView) -> str:
    """What an opening card says of a sealed seed."""
    when = "when the game ends" if seal.scope == GAME_SCOPE else "with the result"
    return f"commitment `{seal.commitment}`, its seed revealed {when}"


def reveal_text(seal: SealView) -> str:
    """What a result card says of the revealed seed."""
    return (f"seed `{seal.seed}`, salt `{seal.salt}` (commitment `{seal.commitment}`). "
            f"Check every roll with /verify round:{seal.scope}; {GUIDE}.")


def roll_line(c: Checked, replaced: bool = False) -> str:
    """``replaced``: a moderator's face that a later one of the same purpose replaced (its faction was removed and
    added again, ``/faction remove``): kept and checked, but not the face the close used."""
    r = c.roll
    mark = "✓" if c.ok else "✗"
    if r.sealed is not None:
        line = f"{mark} {r.purpose}: {r.face}, set by a moderator, sealed `{r.sealed}`"
        if replaced:
            line += " (not used: the faction was removed and added again, with the face below)"
    else:
        line = f"{mark} {r.purpose} (roll {r.index}, d{r.sides}): {r.face}"
    return line + (f": {c.problem}" if c.problem else "")


def report_lines(rep: DiceReport) -> tuple[str, list[str]]:
    head, body = _report_lines(rep)
    return (head if rep.note is None else f"{head} {rep.note}"), body


def _report_lines(rep: DiceReport) -> tuple[str, list[str]]:
    what = f"The dice of {scope_name(rep.scope)} of {rep.game}"
    if rep.seal is None:
        return f"{what}: Clerk rolled nothing there and sealed no seed.", []
    if rep.verdict is None:
        when = "when the game ends" if rep.scope == GAME_SCOPE else "when the round closes"
        rolled = f"{rep.rolls} roll{'' if rep.rolls == 1 else 's'} made so far" if rep.rolls else "no roll yet"
        return (f"{what} are sealed by commitment `{rep.seal.commitment}`; the seed is revealed {when}, and can be "
                f"checked then ({rolled}).", [])
    v = rep.verdict
    good = sum(1 for c in v.rolls if c.ok)
    if v.ok:
        if not v.rolls:
            head = f"{what}: no die was rolled, and sha256(seed|salt) is the commitment posted before."
        else:
            count = "its one roll matches" if len(v.rolls) == 1 else f"all {len(v.rolls)} rolls match"
            head = (f"{what}: {count}. sha256(seed|salt) is the commitment posted before the rolls, and every face "
                    "is the one the seed gives.")
    else:
        seal = "matches" if v.commitment_ok else "does NOT match"
        head = (f"{what} do NOT check out: sha256(seed|salt) {seal} the commitment, and {good} of {len(v.rolls)} "
                "rolls match.")
    body = [f"Seed `{rep.seal.seed}`", f"Salt `{rep.seal.salt}`", f"Commitment `{rep.seal.commitment}`"
            + ("" if v.commitment_ok else " (not what sha256(seed|salt) gives)"),
            *(roll_line(c, any(later.roll.sealed is not None and later.roll.purpose == c.roll.purpose
                                   for later in v.rolls[n + 1:]) and c.roll.sealed is not None)
              for n, c in enumerate(v.rolls)),
            f"({GUIDE}, or run scripts/verify_dice.py on the export.)"]
    return head, body


@ROUTES.command("verify", "Check that Clerk's dice of a round were the ones it committed to (anyone).",
                Option("round", int, "the round; 0 for the base rolls made outside rounds; the latest if left out",
                       min_value=0),
                Option("game", str, "the game, if you play in several", autocomplete="game"),
                game="any", reads=True)
async def verify(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    require_dice(app.clerk.backend.ruleset(g.ruleset), g.name)  # before the round: a game with no dice has none
    number = o.get("round")
    scope = g.current_round if number is None else int(number)
    if scope > g.current_round:
        raise RuleError(f"{g.name} has no round {scope} yet (its latest is {g.current_round}); give a round that "
                        "has opened, or 0 for the base rolls.")
    head, rest = report_lines(await app.clerk.seals.verify(g.id, scope))
    return [reply(t, ephemeral=True) for t in split_messages(head, rest)]
