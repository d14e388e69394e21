"""The Republic of Mylantium on Discord: a moderator's step of the Election Round taken back (play-test U1.2, U1.5).
``/election reopen`` reopens the election that closed last (its result withdrawn in the game channel, each Faction's
player told by DM that they may choose again); ``/election cancel`` calls off an Election Round started too early.
The service decides what may be taken back (``engine/service/mylantium/takebacks.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, ToUser, reply
from bot.actions.render import deadline_line
from bot.actions.routes import Routes
from engine.core.stamps import stamp
from engine.core.words import plural
from engine.mylantium.model import FactionCode, Party
from engine.service.mylantium.state import NAME
from engine.service.mylantium.views import ChoiceAgain, Reopened, RoundCalledOff
from engine.service.views import GameView

M: CommandFlags = {"moderator": True, "ruleset": NAME}
ROUTES = Routes()
command = ROUTES.command
REASON = Option("reason", str, "why (said in the announcement and kept in the record)")
FORMS = {"primary": "`Primary: <Candidate>`", "general": "`General: Whig` or `General: Federalist`"}


def decided(stage: str, result: Mapping[str, Any]) -> str:
    """What a withdrawn result had decided, as its card showed it: the nominees, or the winner and the Presidency."""
    nominees = result.get("nominees") or {}
    if stage == "primary":
        named = [f"{nominees[p.value]} ({p.title})" for p in Party if nominees.get(p.value)]
        tied = [p.title for p in Party if (result.get("ties") or {}).get(p.value) and not nominees.get(p.value)]
        parts = ([f"the nominee{'s' if len(named) > 1 else ''} {' and '.join(named)}"] if named else []) + [
            f"the {party} Primary's tie" for party in tied]
        return " and ".join(parts) or "no nominee"
    winner = Party(result["winner"])
    president = result.get("president")
    held = f", and {nominees.get(winner.value)} (the {FactionCode[president].plural}) to the Presidency" \
        if president else ""
    return f"the {winner.title}s' win{held}"


def closes(deadline: datetime | None) -> str:
    """When a reopened election closes: ``at 2026-03-03 18:00 UTC``, or by a moderator."""
    return (f"at {stamp(deadline)}" if deadline is not None
            else "by a moderator (it has no deadline; /election deadline sets one)")


UNDECIDED = {"primary": "nobody is a nominee until it closes again",
             "general": "no party has won until it closes again"}


def reopened_answer(r: Reopened) -> str:
    e = r.election
    what = "held back and never posted" if r.shown == "held" else decided(e.stage, r.withdrawn)
    lines = [f"The {e.title} of turn {e.turn} is open again. Its result is withdrawn ({what}); the choices made "
             f"stay and may be changed, and it is counted afresh when it closes, {closes(e.deadline)}."]
    named = r.withdrawn.get("named_by_moderator") or []
    if named:
        lines.append(f"The {' and '.join(Party(p).title for p in named)} nominee you named goes with it: name it "
                     "again after the close if the Primary is tied again (/election nominee).")
    if r.president is not None:
        lines.append(f"The Presidency is the {r.president[1].plural}' again (the close had given it to the "
                     f"{r.president[0].plural}).")
    if r.happenings_since:
        lines.append(f"The {plural(r.happenings_since, 'happening')} recorded since the close stay (/event list).")
    lines.append("Each Faction's player is told by DM.")
    return " ".join(lines)


def reopened_public(r: Reopened) -> str:
    e = r.election
    why = f" ({r.reason})" if r.reason else ""
    if r.shown == "held":
        withdrawn = f"Its result, held back and never posted, is withdrawn: {UNDECIDED[e.stage]}."
    else:
        card = f" ({r.link})" if r.link else ""
        withdrawn = (f"Its result{card} is withdrawn and no longer stands ({decided(e.stage, r.withdrawn)}): "
                     f"{UNDECIDED[e.stage]}.")
    president = (f" The Presidency is the {r.president[1].plural}' again meanwhile, as before the close."
                 if r.president is not None else "")
    return (f"**{e.game.name}: the {e.title} of turn {e.turn} is reopened** by the moderators{why}. {withdrawn}"
            f"{president} Choices already made stay and can be changed by DM ({FORMS[e.stage]}); it is counted "
            f"afresh when it closes, {closes(e.deadline)}.")


def reopened_dm(r: Reopened, p: ChoiceAgain, now: datetime) -> str:
    e = r.election
    why = f" ({r.reason})" if r.reason else ""
    if p.choice is None:
        mine = f"The {p.faction.plural} have not chosen: DM me {FORMS[e.stage]}."
        change = "You can choose until then."
    else:
        shown = p.choice if e.stage == "primary" else Party(p.choice).title
        mine = f"Your Faction's choice, **{shown}**, stands: DM me {FORMS[e.stage]} to change it."
        change = "You can change it until then."
    return (f"{e.game.name}: the moderators reopened the {e.title} of turn {e.turn}{why}; the result of its close is "
            f"withdrawn and it is counted afresh when it closes. {mine}\n"
            + deadline_line(e.deadline, now, change, "election"))


@command("election reopen", "Reopen this turn's election that closed last (closed by mistake or too early).",
         Option("deadline", str, "a duration such as 24h, a time or a Discord timestamp (default: the one it had, if "
                                 "to come)"), REASON, **M)
async def election_reopen(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test U1.2: a Primary or General Election closed by mistake could not be reopened; its result stood."""
    g = require_game(game)
    read = await game_deadline(app, g.id, o["deadline"]) if o.get("deadline") else None

    def said(r: Reopened) -> list[Outgoing]:  # owed in the reopening's transaction (``AnswerWith``)
        now = app.clerk.clock.now()
        return [reply(reopened_answer(r) + read_as(o.get("deadline"), read), ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=reopened_public(r)),
                *(Outgoing(ToUser(p.user_id), text=reopened_dm(r, p, now)) for p in r.players)]

    answered = AnswerWith(ctx.answering, said)
    r = await app.clerk.mylantium.takebacks.reopen_election(g.id, deadline=read.when if read else None,
                                                            reason=o.get("reason"), actor=ctx.actor.id,
                                                            source_id=ctx.source_id, answer=answered.owed)
    app.deadlines_changed()
    return answered.out(r)


def called_off_answer(c: RoundCalledOff) -> str:
    if c.turn_now == c.turn:
        where = (f"{c.game.name} is being set up again (your changes edit its set-up card); /election start begins "
                 "the first Election Round, taking the locks afresh.")
    else:
        where = (f"{c.game.name} is back in turn {c.turn_now}, after its Business Phase; /election start begins turn "
                 f"{c.turn}'s Election Round again, taking the locks afresh.")
    moved = (f" The {plural(c.relabelled, 'change')} of VP, approval or Fervor (or Revolutions) made since the start "
             f"count in turn {c.turn_now} again, as they would have without it." if c.relabelled else "")
    return f"Turn {c.turn}'s Election Round is called off: {where}{moved}"


def called_off_public(c: RoundCalledOff) -> str:
    why = f" ({c.reason})" if c.reason else ""
    locks = " The realignment locks it took no longer hold." if c.locks else ""
    return (f"**{c.game.name}: turn {c.turn}'s Election Round is called off** by the moderators{why}: it started "
            f"too early.{locks} `Realign:` is not open until the Round starts again (/election start), when the "
            "locks are taken afresh from the Factions as they stand then.")


@command("election cancel", "Call off an Election Round started too early (before any realignment or election).",
         REASON, **M)
async def election_cancel(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test U1.5: ``/election start`` made too early could not be taken back, and its locks stood."""
    g = require_game(game)
    def said(c: RoundCalledOff) -> list[Outgoing]:  # owed in the calling off's transaction (``AnswerWith``)
        return [reply(called_off_answer(c), ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=called_off_public(c))]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.mylantium.takebacks.cancel_election_round(
        g.id, reason=o.get("reason"), actor=ctx.actor.id, source_id=ctx.source_id, answer=answered.owed))
