"""Convocate Motions on Discord (rules-spec §4.2): a Motion is moved with ``Motion: <name> by <Convocant>`` in the
game channel or /motion move; the offer to second goes round by DM (``Second: <Convocant>`` / ``Second: no``, a
button, or /motion second), and passes on at its timeout; the Motion of Repeal (``Motion of Repeal: <Statute> by
<Convocant>``, or /repeal) resolves at once."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import Any

from bot.actions.commands import App, Option, game_of_user
from bot.actions.context import Ctx
from bot.actions.convocate.guard import RULESET, TWICE, command, convocate_game
from bot.actions.convocate.render import (
    deadline,
    moved_card,
    offer_in_channel_text,
    offer_moves_text,
    offer_text,
    repeal_card,
    resolved_card,
)
from bot.actions.convocate.turns import _reason
from bot.actions.option_text import checked
from bot.actions.outbox import (
    CUSTOM_ID_MAX,
    EXPLAINS,
    IF_CLOSED,
    IF_CLOSED_IN,
    TIMED,
    AnswerWith,
    Button,
    Outgoing,
    ToChannel,
    ToUser,
    reply,
)
from bot.actions.routes import Routes, first_line
from engine.convocate.motions import MotionCard
from engine.convocate.parsing import MoveMotion, MoveRepeal, SecondAnswer, looks_like, parse
from engine.core.errors import GameClosed, NotFoundError, RuleError
from engine.service.announcements import card_tag
from engine.service.convocate.motions import Withdrawn
from engine.service.convocate.views import MotionView
from engine.service.uow import Duplicate
from engine.service.views import GameView

ROUTES = Routes()
"""The Motions' commands, forms and buttons (the package's ``ROUTES`` merges them)."""


def motion_outgoings(app: App, m: MotionView, *, first: bool) -> list[Outgoing]:
    """What a Motion's step announces: the Motion when moved, where the offer is now (and the DM to the player
    asked), or its resolution."""
    now = app.clerk.clock.now()
    out: list[Outgoing] = []
    channel = m.game.channel_id
    if m.kind == "repeal":
        return [Outgoing(ToChannel(channel), card=repeal_card(m),
                         extra={EXPLAINS: card_tag("repeal", m.game.id, m.number)})]
    if first:
        out.append(Outgoing(ToChannel(channel), card=moved_card(m, now)))
    elif not m.resolved:
        out.append(Outgoing(ToChannel(channel), text=offer_moves_text(m, now)))
    return [*out, *offer_or_resolution(m, now)]


def offer_or_resolution(m: MotionView, now: datetime) -> list[Outgoing]:
    """The Motion's resolution in the game channel, or the offer to the player asked now, by DM."""
    channel = m.game.channel_id
    if m.resolved:
        return [Outgoing(ToChannel(channel), card=resolved_card(m),
                         extra={EXPLAINS: card_tag("motion", m.game.id, m.number)})]
    if m.offer_user is not None:
        return [Outgoing(ToUser(m.offer_user), text=offer_text(m, now), buttons=offer_buttons(m),
                         extra={IF_CLOSED: offer_in_channel_text(m, now), IF_CLOSED_IN: str(channel)})]
    return []


SECOND_BUTTON = "clerk:second"


def offer_buttons(m: MotionView) -> tuple[Button, ...]:
    """One button per Convocant who could second (``Second with Dorn``) and ``Decline``; each custom_id names the
    game, the Motion and the offer's place in the turn order, so a press of an offer that has moved on is
    refused. A Convocant whose name would not fit Discord's 100 characters gets no button (the DM reply works)."""
    head = f"{SECOND_BUTTON}:{m.game.id}:{m.number}:{m.offer_index}:"
    buttons = [Button(f"Second with {name}"[:80], head + "yes:" + name, "success")
               for name in m.candidates[:24] if len(head + "yes:" + name) <= CUSTOM_ID_MAX]
    return (*buttons, Button("Decline", head + "no", "secondary"))


@ROUTES.button(SECOND_BUTTON)
async def second_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of a button of the offer to second: the same answer as `Second: <Convocant>` or `Second: no`."""
    parts = custom_id.split(":", 6)
    if len(parts) < 6 or not all(p.isdigit() for p in parts[2:5]):
        raise RuleError("This button is not one of Clerk's offers to second.")
    game_id, number, index = int(parts[2]), int(parts[3]), int(parts[4])
    accept = parts[5] == "yes"
    convocant = parts[6] if accept and len(parts) > 6 else None
    return await _answer(app, ctx, game_id, accept, convocant, expected=(number, index))


async def _move(app: App, ctx: Ctx, g: GameView, moved: MoveMotion | MoveRepeal) -> list[Outgoing]:
    """A Motion or a Motion of Repeal moved (by a slash command or in the game channel): its announcement, and the
    offer to the first player asked (or the outcome), owed in its transaction (``AnswerWith``, play-test S4.5)."""
    def said(m: MotionView) -> list[Outgoing]:
        if m.duplicate:
            return [reply(TWICE)]
        done = (f"Motion of Repeal #{m.number} is moved; the outcome is announced." if m.kind == "repeal" else
                f"Motion #{m.number} ({m.name}) is moved and announced.")
        return [reply(done, ephemeral=True), *motion_outgoings(app, m, first=True)]

    answered = AnswerWith(ctx.answering, said)
    if isinstance(moved, MoveRepeal):
        m = await app.clerk.convocate.motions.repeal(g.id, user_id=ctx.actor.id, statute=moved.statute,
                                                     convocant=moved.convocant, source_id=ctx.source_id,
                                                     answer=answered.owed)
    else:
        m = await app.clerk.convocate.motions.move_motion(g.id, user_id=ctx.actor.id, motion=moved.motion,
                                                          convocant=moved.convocant, source_id=ctx.source_id,
                                                          answer=answered.owed)
    return answered.out(m)


async def _answer(app: App, ctx: Ctx, game_id: int, accept: bool, convocant: str | None, *,
                  expected: tuple[int, int] | None = None) -> list[Outgoing]:
    def said(m: MotionView) -> list[Outgoing]:
        if m.duplicate:
            return [reply(TWICE)]
        return [reply(f"You second Motion #{m.number} ({m.name}) with {m.seconder_convocant}." if accept else
                      f"You decline to second Motion #{m.number} ({m.name}).", ephemeral=True),
                *motion_outgoings(app, m, first=False)]  # where the offer is now, or the resolution

    # the answer, and what it moves on (the offer passed to the next player), owed in its transaction (play-test S4.5)
    answered = AnswerWith(ctx.answering, said)
    m = await app.clerk.convocate.motions.answer_offer(game_id, user_id=ctx.actor.id, accept=accept,
                                                       convocant=convocant, source_id=ctx.source_id, expected=expected,
                                                       answer=answered.owed)
    return answered.out(m)


@command(ROUTES, "motion move", "Move a Motion (like posting `Motion: <name> by <Convocant>` in the game channel).",
                 Option("name", str, "the Motion", True),
                 Option("convocant", str, "your Convocant who moves it", True, autocomplete="convocant"),
                 Option("moved", str, "its Moved text"),
                 Option("seconded", str,
                        "its Seconded text (none: it has no Seconded box; Instead…: it replaces Moved)"),
                 Option("morality", str, "its Morality"),
                 Option("targets", str, "the targets you choose"),
                 Option("only", str, "the Character it is restricted to, if its text says so",
                        autocomplete="character"))
async def motion_move(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    motion = MotionCard(" ".join(str(o["name"]).split()), o.get("morality"), o.get("moved", ""), o.get("seconded"),
                        o.get("only"), o.get("targets", ""))
    return await _move(app, ctx, g, MoveMotion(motion, o["convocant"]))


@command(ROUTES, "motion second", "Second the Motion you are offered, with one of your Convocants.",
                 Option("convocant", str, "your Convocant (needed if you have several with access)",
                        autocomplete="convocant"),
                 Option("game", str, "the game, if you play in several", autocomplete="game"), game="any")
async def motion_second(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _answer(app, ctx, g.id, True, o.get("convocant"))


@command(ROUTES, "motion decline", "Decline to second the Motion you are offered; the offer passes on.",
                 Option("game", str, "the game, if you play in several", autocomplete="game"), game="any")
async def motion_decline(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _answer(app, ctx, g.id, False, None)


@command(ROUTES, "motion skip", "Pass the offer to second on to the next player without an answer.", moderator=True)
async def motion_skip(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    # where the offer is now (the offer DMed to the next player), owed in its transaction (``AnswerWith``)
    answered: AnswerWith[MotionView | None] = AnswerWith(ctx.answering, lambda m: [
        reply("The offer is passed on.", ephemeral=True), *passed_on(app, m)])
    m = await app.clerk.convocate.motions.pass_offer(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                     answer=answered.owed)
    assert m is not None
    return answered.out(m)


def passed_on(app: App, m: MotionView | None) -> list[Outgoing]:
    """What an offer passed on without an answer announces (none when a late or repeated timer did nothing)."""
    return motion_outgoings(app, m, first=False) if m is not None else []


@command(ROUTES, "motion withdraw", "Withdraw the Motion being offered, moved by mistake: nothing of it resolves "
                                    "(moderators).",
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def motion_withdraw(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test U3.4: a Motion moved with the wrong Convocant or text is taken back while it is offered; the players
    who were sent the offer are told by DM that nothing they answer to it counts."""
    assert g is not None

    def said(done: Withdrawn) -> list[Outgoing]:  # owed in the withdrawal's transaction (``AnswerWith``)
        m, told = done
        names = ", ".join(name for name, _ in told)
        return [reply(f"Motion #{m.number} ({m.name}) is withdrawn and announced"
                      + (f"; told by DM: {names}." if names else "."), ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=withdrawn_text(m)),
                *(Outgoing(ToUser(user), text=withdrawn_dm(m)) for _, user in told)]

    answered = AnswerWith(ctx.answering, said)
    done = await app.clerk.convocate.motions.withdraw(g.id, actor=ctx.actor.id, reason=_reason(o),
                                                      source_id=ctx.source_id, answer=answered.owed)
    return answered.out(done)


def readied_text(player: str, convocant: str, activated: str, not_readied: str | None) -> str:
    """``alice's Kista, activated to move it, is readied again.`` (or why Clerk did not ready it)."""
    if not_readied is None:
        return f"{player}'s {convocant}, activated to {activated} it, is readied again."
    return f"Clerk did not ready {player}'s {convocant}, activated to {activated} it: {not_readied}."


def withdrawn_text(m: MotionView) -> str:
    w = m.withdrawn
    assert w is not None
    why = f"; {w.reason}" if w.reason else ""
    return (f"**Motion #{m.number} ({m.name}) is withdrawn** by the moderators (a correction: it was moved by "
            f"mistake{why}). It does not resolve: none of its text happens and nobody pays a Penalty. "
            f"{readied_text(m.mover, m.convocant, 'move', w.not_readied)} The offer to second ends"
            + (f" (it was with {w.offer_was_with})" if w.offer_was_with else "") + "; no answer to it counts.")


def withdrawn_dm(m: MotionView) -> str:
    w = m.withdrawn
    assert w is not None
    return (f"{m.game.name}: Motion #{m.number} ({m.name}), which you were offered to second, is withdrawn by the "
            f"moderators{f' ({w.reason})' if w.reason else ''}. The offer has ended: nothing you answer to it counts.")


@command(ROUTES, "motion reopen", "Take back a second that resolved a Motion by mistake; the offer reopens "
                                  "(moderators).",
                 Option("number", int, "the Motion's number (/motion status)", True, min_value=1),
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def motion_reopen(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test U3.1: a second entered for the wrong player (a `/cast-for` mistake) resolved the Motion at once;
    the moderators take it back, and the offer goes round again from the player it had reached."""
    assert g is not None

    def said(m: MotionView) -> list[Outgoing]:  # owed in the reopening's transaction (``AnswerWith``)
        now = app.clerk.clock.now()
        where = ("it resolves again, since nobody left can second it" if m.resolved else
                 f"the offer to second is with {m.offer_to} now")
        return [reply(f"The second of Motion #{m.number} ({m.name}) is taken back and announced; {where}.",
                      ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=reopened_text(m, now)), *offer_or_resolution(m, now)]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.motions.reopen(
        g.id, actor=ctx.actor.id, number=o["number"], reason=_reason(o), source_id=ctx.source_id,
        answer=answered.owed))


AT_THE_TABLE = ("Clerk records a Motion's text but does not carry it out, and holds no hand, deck or target: whatever "
                "was done at the table when it resolved (a card drawn, a target exhausted or destroyed, a Penalty "
                "paid, Votes added to a pool) is not undone by this, and must be put right by hand.")


def reopened_text(m: MotionView, now: datetime) -> str:
    t = m.taken_back[-1]
    why = f"; {t.reason}" if t.reason else ""
    if m.resolved:
        offer = "Nobody left in the offer can second it now, so it resolves again (below)."
    else:
        offer = (f"The offer to second reopens where it had reached when the second came: it is with "
                 f"**{m.offer_to}** until {deadline(m.deadline, now)}, and the players after are asked again as at "
                 "the first offer.")
    return (f"**Motion #{m.number} ({m.name}) is reopened** by the moderators: {t.player}'s second with {t.convocant} "
            f"is taken back (a correction: it was entered by mistake{why}), and the Motion has not resolved. "
            f"{readied_text(t.player, t.convocant, 'second', t.not_readied)} {AT_THE_TABLE} {offer}")


@command(ROUTES, "motion status", "The Motion on the floor (or a numbered one) and where the offer to second is.",
                 Option("number", int, "the Motion's number", min_value=1), reads=True)
async def motion_status(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    m = await app.clerk.convocate.motions.motion(g.id, o.get("number"))
    now = app.clerk.clock.now()
    if m.kind == "repeal":
        return [reply(card=repeal_card(m))]
    return [reply(card=resolved_card(m) if m.resolved else moved_card(m, now))]


@command(ROUTES, "repeal", "Move a Motion of Repeal against a Statute you do not control (your Action Phase).",
                 Option("statute", str, "the Statute", True, autocomplete="repealable"),
                 Option("convocant", str, "your Convocant who moves it", True, autocomplete="convocant"))
async def repeal_command(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _move(app, ctx, g, MoveRepeal(o["statute"], o["convocant"]))


# -- what players write ------------------------------------------------------------------------------------------


def _is_motion_form(line: str) -> bool:
    return looks_like(line) and not line.strip().lower().startswith("second")


@ROUTES.thread_form(_is_motion_form, anywhere=True)
async def motion_in_channel(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    g = convocate_game(game, "A Motion")
    parsed = parse(text)
    if isinstance(parsed, MoveMotion | MoveRepeal):
        return await _move(app, ctx, g, _within_limits(app, parsed))
    raise RuleError("Move a Motion with `Motion: <name> by <Convocant>`.")


def _within_limits(app: App, moved: MoveMotion | MoveRepeal) -> MoveMotion | MoveRepeal:
    """A post is held to the limits of the slash command it stands for (``/motion move``, ``/repeal``: a name of at
    most 80 characters, a Moved text of at most 1000, no mention in a name...), checked by the same code, so a post
    cannot make a Motion that the command would refuse, nor announcements too long for a message. The Motion's name
    is read as the command reads it: without markdown (``inert_name``, play-test P4.1), as Clerk posts it."""
    options: dict[str, str | None]
    if isinstance(moved, MoveRepeal):
        name, options = "repeal", {"statute": moved.statute, "convocant": moved.convocant}
    else:
        m = moved.motion
        name = "motion move"
        options = {"name": m.name, "convocant": moved.convocant, "moved": m.moved or None, "seconded": m.seconded,
                   "morality": m.morality, "targets": m.targets or None, "only": m.only}
    try:
        read = checked(app.routes.commands[name], {k: v for k, v in options.items() if v is not None})
    except RuleError as error:
        form = "Motion of Repeal:" if isinstance(moved, MoveRepeal) else "Motion:"
        said = str(error).replace(f" of /{name} ", f" of your `{form}` post (the limits of /{name}) ")
        raise RuleError(said.removesuffix(" Nothing was changed.")) from None  # the answer says nothing was recorded
    if isinstance(moved, MoveMotion):
        return replace(moved, motion=replace(moved.motion, name=read["name"]))
    return moved


@ROUTES.dm_form(_is_motion_form)
async def motion_by_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """``Motion: …`` sent by DM: a Motion is moved where everyone sees it, so the answer points to the game channel
    (a post that cannot be read is answered as in the channel). Nothing is recorded."""
    parse(text)
    games = [g for g in await app.clerk.games.games_of_user(ctx.actor.id) if g.ruleset == RULESET]
    if not games:
        raise RuleError(f"“{first_line(text)[:80]}” is a Convocate form, and you play in no Convocate game.")
    running = [g for g in games if not g.ended]
    if not running:  # no channel to send them to: the closed line (play-test X4.2)
        ended = max(games, key=lambda g: g.ended_at or datetime.min.replace(tzinfo=UTC))
        raise GameClosed(ended.name, ended.ended_at)
    where = " or ".join(f"<#{g.channel_id}>" for g in running)
    return [reply(f"A Motion is moved in the game channel, where everyone sees it: post `{first_line(text)[:80]}` "
                  f"in {where} (its other lines under it), or use /motion move there. Nothing was recorded.")]


def _is_second(line: str) -> bool:
    return line.strip().lower().startswith("second") and looks_like(line)


def second_is_final(text: str) -> str | None:
    """``Front.final``: a second, or its refusal, ends the offer to that player at once (R4-13): the Motion resolves,
    or the offer goes to the next player, and only a moderator takes it back (play-test U3.1)."""
    if not _is_second(text.split("\n", 1)[0]):
        return None
    return ("A second, or declining one, cannot be changed once made: the Motion resolves, or the offer moves on, "
            "at once. Only a moderator can take one made by mistake back, while the Action Phase in which it was made "
            "goes on: a second with /motion reopen, a decline with /motion ask-again (the offer goes back to the "
            "player).")


@ROUTES.thread_form(_is_second, anywhere=True)
async def second_in_channel(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    g = convocate_game(game, "Seconding")
    answer = parse(text)
    assert isinstance(answer, SecondAnswer)
    return await _answer(app, ctx, g.id, answer.accept, answer.convocant)


@ROUTES.dm_form(_is_second)
async def second_by_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """``Second: …`` by DM. The game named, else the player's one Convocate game, else (``game_of_user`` with
    ``form_open``) the one whose offer to second waits for them: several such are asked about with a menu, and none
    is answered at once, with no menu of games none of which asks anything of them (play-test C5.3)."""
    answer = parse(text)
    assert isinstance(answer, SecondAnswer)
    line = first_line(text)
    game = await game_of_user(app, ctx.actor.id, answer.game, RULESET, what="`Second:`", example=line[:60], form=line)
    return await _answer(app, ctx, game.id, answer.accept, answer.convocant)


async def form_open(app: App, game: GameView, user_id: int, form: str) -> str | None:
    """``Front.dm_open``: `Second:` is open in a game whose offer to second waits for the sender (an offer comes by
    DM, with buttons, when it reaches them)."""
    if not _is_second(form):
        return None
    try:
        m = await app.clerk.convocate.motions.motion(game.id)
    except NotFoundError:
        m = None
    if m is not None and m.offer_user == user_id:
        return None
    return "no Motion waits for your second (an offer comes by DM, with buttons, when it reaches you)"


async def offers_due(app: App, now: datetime) -> list[Outgoing]:
    """Offers to second whose time is up pass to the next player (each once, whatever timers repeat); what each
    announces (the offer's move, the offer DMed to the next player) is owed in its transaction (``TIMED``)."""
    out: list[Outgoing] = []
    for game_id, number, index, due_at in await app.clerk.convocate.motions.offer_deadlines():
        if due_at > now:
            break
        source = f"second-timeout:{game_id}:{number}:{index}"
        for source_id in (source, f"{source}:{int(due_at.timestamp())}"):
            answered = AnswerWith(TIMED.get(), partial(passed_on, app))
            try:
                m = await app.clerk.convocate.motions.pass_offer(game_id, actor=None, reason="timed out",
                                                                 expected=(number, index), source_id=source_id,
                                                                 answer=answered.owed)
            except Duplicate:
                # this place in the order timed out before: a player removed since moved the next one into it after
                # the offer went back (/motion ask-again). Its new deadline names the timeout; a timer that repeats
                # that one, or finds the offer moved on, does nothing.
                continue
            out += answered.out(m)
            break
    return out
