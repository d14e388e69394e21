"""A Convocate turn on Discord: committing Votes (/commit), pushing Factors (/push), Statutes (/statute declare,
section, destroy, restore), ending the Phase (/phase next) and taking that back (/phase back)."""

from __future__ import annotations

from functools import partial
from typing import Any

from bot.actions.commands import App, Option
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate.guard import command, moderates, user_id_of
from bot.actions.convocate.render import (
    back_text,
    committed_text,
    declared_card,
    destroyed_text,
    phase_text,
    pushed_text,
    section_text,
)
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from engine.convocate.parsing import parse_names
from engine.convocate.turns import PhaseChanged, PhaseReturned
from engine.core.errors import RuleError
from engine.service.convocate.views import StatuteView
from engine.service.views import GameView

ROUTES = Routes()
"""A turn's commands (the package's ``ROUTES`` merges them)."""


@command(ROUTES, "commit", "Activate cards you control to add their Vote to your Resource Pool (your turn).",
                 Option("cards", str, "the cards, e.g. P_A, K_A", True, autocomplete="cards"),
                 Option("add", int, "Votes a card effect adds to your pool", min_value=0), public=True)
async def commit(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    done = await app.clerk.convocate.turns.commit(g.id, user_id=ctx.actor.id, cards=parse_names(o["cards"]),
                                                  added=int(o.get("add") or 0), source_id=ctx.source_id)
    return [reply(committed_text(done))]


@command(ROUTES, "push", "Push a Galactic Factor, paying each step in full from your pool (your Action Phase).",
                 Option("factor", str, "the Factor, e.g. GOVT", True, autocomplete="factor"),
                 Option("direction", str, "up (towards +4) or down (towards −4)", True, ("up", "down")),
                 Option("steps", int, "how many steps (default 1)", min_value=1, max_value=8), public=True)
async def push(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    way = str(o["direction"]).lower()
    if way not in ("up", "down"):
        raise RuleError("Push a Factor up (towards +4) or down (towards −4).")
    done = await app.clerk.convocate.turns.push(g.id, user_id=ctx.actor.id, factor=o["factor"],
                                                direction=1 if way == "up" else -1, steps=int(o.get("steps") or 1),
                                                source_id=ctx.source_id)
    return [reply(pushed_text(done))]


@command(ROUTES, "statute declare", "Declare a Statute from an active Seat you control (political control needed).",
                 Option("statute", str, "the Statute, e.g. Statute 3498C", True),
                 Option("character", str, "the readied Character on your active Seat who declares it", True,
                        autocomplete="own-character"),
                 Option("section", int, "the Section you select", True, min_value=1),
                 Option("sections", int, "how many Sections it prints", True, min_value=1, max_value=9),
                 Option("one_time", str, "its one-time Sections and their costs, e.g. 1; 2: Rank + 1 = 3"),
                 Option("cost", str, "the printed cost you pay, e.g. 2 Currency"),
                 Option("owner", UserRef, "whose deck it came from (default: you)"))
async def statute_declare(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    # the announcement, owed in the declaration's transaction (``AnswerWith``: a kill after its commit loses none)
    answered: AnswerWith[StatuteView] = AnswerWith(ctx.answering, lambda view: [
        reply(f"{view.statute.name} is declared and announced.", ephemeral=True),
        Outgoing(ToChannel(g.channel_id), card=declared_card(view))])
    view = await app.clerk.convocate.turns.declare(g.id, user_id=ctx.actor.id, statute=o["statute"],
                                                   character=o["character"], section=o["section"],
                                                   sections=o["sections"], one_time=o.get("one_time"),
                                                   cost=o.get("cost"), owner=user_id_of(o, "owner"),
                                                   source_id=ctx.source_id, answer=answered.owed)
    return answered.out(view)


@command(ROUTES, "statute section", "Select a different Section of a Statute you control (your Admin Phase).",
                 Option("statute", str, "the Statute", True, autocomplete="statute"),
                 Option("section", int, "the Section to put in force", True, min_value=1))
async def statute_section(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    answered: AnswerWith[StatuteView] = AnswerWith(ctx.answering, lambda view: [  # owed as /statute declare's
        reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=section_text(view))])
    view = await app.clerk.convocate.turns.change_section(g.id, user_id=ctx.actor.id, statute=o["statute"],
                                                          section=o["section"], source_id=ctx.source_id,
                                                          answer=answered.owed)
    return answered.out(view)


@command(ROUTES, "statute destroy", "Destroy a Statute you control (your Admin Phase).",
                 Option("statute", str, "the Statute", True, autocomplete="statute"))
async def statute_destroy(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    answered: AnswerWith[StatuteView] = AnswerWith(ctx.answering, lambda view: [  # owed as /statute declare's
        reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=destroyed_text(view))])
    view = await app.clerk.convocate.turns.destroy_statute(g.id, user_id=ctx.actor.id, statute=o["statute"],
                                                           source_id=ctx.source_id, answer=answered.owed)
    return answered.out(view)


def _reason(o: dict[str, Any]) -> str | None:
    """A correction's ``reason`` option (announced and kept in the log): at most 200 characters."""
    reason = (o.get("reason") or "").strip() or None
    if reason is not None and len(reason) > 200:
        raise RuleError(f"The reason is {len(reason)} characters; at most 200. Nothing was recorded.")
    return reason


@command(ROUTES, "statute set", "Correct the owner of a Statute declared with the wrong one (moderators).",
                 Option("statute", str, "the Statute", True, autocomplete="statute"),
                 Option("owner", UserRef, "its owner (whose Depleted Pile it goes to)", True),
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def statute_set(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    reason = _reason(o)
    owner = user_id_of(o, "owner")
    assert owner is not None  # a required option

    def said(done: tuple[str, str, str]) -> list[Outgoing]:  # owed in the correction's transaction (``AnswerWith``)
        name, was, now = done
        text = (f"The moderators corrected the owner of **{name}**: {now}, not {was}"
                f"{f' ({reason})' if reason else ''}. Its controller and Section are unchanged.")
        return [reply(f"{name}'s owner is now {now}; announced.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=text)]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.turns.set_statute_owner(
        g.id, user_id=ctx.actor.id, statute=o["statute"], owner=owner, reason=reason, source_id=ctx.source_id,
        answer=answered.owed))


@command(ROUTES, "statute restore", "Put back in force a Statute repealed or destroyed by mistake (moderators).",
                 Option("statute", str, "the Statute", True, autocomplete="ended-statute"),
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def statute_restore(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    reason = _reason(o)

    def said(done: tuple[StatuteView, str]) -> list[Outgoing]:  # owed in the correction's transaction
        view, was = done
        s = view.statute
        text = (f"The moderators put **{s.name}** back in force (a correction: it was {was} by mistake"
                f"{f'; {reason}' if reason else ''}): Section {s.section} is in force, controlled by {s.controller}. "
                "Nothing resolves again, and no card is readied or activated by it.")
        return [reply(f"{s.name} is back in force and announced.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=text)]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.turns.restore_statute(
        g.id, user_id=ctx.actor.id, statute=o["statute"], reason=reason, source_id=ctx.source_id,
        answer=answered.owed))


@command(ROUTES, "phase next", "End the Phase (the active player, or a moderator): the pool empties; Ready readies.")
async def phase_next(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    # whose Phase it is now, owed in the change's transaction (``AnswerWith``: a kill after its commit loses none)
    answered: AnswerWith[PhaseChanged] = AnswerWith(ctx.answering, partial(phase_news, g))
    changed = await app.clerk.convocate.turns.next_phase(g.id, user_id=ctx.actor.id, moderator=moderates(ctx, g),
                                                         source_id=ctx.source_id, answer=answered.owed)
    return answered.out(changed)


def phase_news(g: GameView, changed: PhaseChanged) -> list[Outgoing]:
    """What ending the Phase answers and announces: whose Phase it is now."""
    return [reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=phase_text(changed))]


@command(ROUTES, "phase back", "Take back the latest /phase next, while nothing is recorded since (moderators).",
                 Option("reason", str, "why (announced and kept in the log)"), moderator=True)
async def phase_back(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    reason = _reason(o)

    def said(done: tuple[PhaseReturned, int]) -> list[Outgoing]:  # owed in the step back's transaction
        back, seq = done
        player, phase = back.back
        return [reply(f"Back in {player}'s {phase.label} of turn {back.turn} (the /phase next #{seq} is taken back); "
                      "announced.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=back_text(back, reason))]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.turns.back_phase(g.id, user_id=ctx.actor.id, reason=reason,
                                                                   source_id=ctx.source_id, answer=answered.owed))
