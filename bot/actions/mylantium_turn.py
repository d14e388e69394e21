"""The Republic of Mylantium on Discord, part 2: a turn. The Election Round (/election ...; realignment, Primary and
General Election choices by DM), what happened (/event ...), the Business Phase's close, and the revolution chain
(the coup offer and the contributions by DM). Deadlines close elections and contributions through ``close_due``."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, game_of_user, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import reminded
from bot.actions.front import Front
from bot.actions.mylantium_render import (
    business_card,
    chain_status_card,
    chain_texts,
    choice_text,
    contribution_request_text,
    coup_offer_text,
    election_opened_card,
    election_status_card,
    locks_text,
    pledge_text,
    realign_text,
    realigned_public,
    result_card,
)
from bot.actions.outbox import POSTED, Button, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import button_action, command, dm_form, first_line
from engine.core.durations import parse_deadline
from engine.core.errors import RuleError
from engine.mylantium.business import SUBJECTS, Happening, happening
from engine.mylantium.forms import (
    CoupAnswer,
    GeneralChoice,
    Pledge,
    PrimaryChoice,
    Realign,
    looks_like_form,
    parse_form,
)
from engine.mylantium.model import PARTY_CHOICES, party_of
from engine.mylantium.revolution import Waiting, contributors
from engine.service.announcements import posted_marker
from engine.service.mylantium_state import RULESET
from engine.service.mylantium_views import ChainView, MylElectionView
from engine.service.views import GameView

log = logging.getLogger("clerk.mylantium")
M: CommandFlags = {"moderator": True, "ruleset": RULESET}



def chain_outgoings(app: App, c: ChainView) -> list[Outgoing]:
    """The chain's public news, the coup offer to the Brass Hats' player and the requests for contributions (each
    to its Faction's player), for what this step made new."""
    now = app.clerk.clock.now()
    out = [Outgoing(ToChannel(c.game.channel_id), text=t) for t in chain_texts(c, now)]
    current = c.chain.current
    if current is None or current.number < c.first_new:
        return out
    if c.chain.waiting is Waiting.COUP and "BH" in {k.name for k in c.users}:
        bh = next(k for k in c.users if k.name == "BH")
        out.append(Outgoing(ToUser(c.users[bh]), text=coup_offer_text(c), buttons=coup_buttons(c)))
    elif c.chain.waiting is Waiting.CONTRIBUTIONS:
        for code in contributors(c.chain, c.factions):
            if code in c.users:
                out.append(Outgoing(ToUser(c.users[code]), text=contribution_request_text(c, code, now)))
    return out


COUP_BUTTON = "clerk:coup"


def coup_buttons(c: ChainView) -> tuple[Button, ...]:
    """``Attempt a coup`` and ``No coup``; each custom_id names the game, the chain and its attempt, so a press
    after the offer is settled is refused."""
    current = c.chain.current
    assert current is not None
    head = f"{COUP_BUTTON}:{c.game.id}:{c.number}:{current.number}:"
    return (Button("Attempt a coup", head + "yes", "danger"), Button("No coup", head + "no", "secondary"))


@button_action(COUP_BUTTON)
async def coup_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of a coup offer's button: the same answer as `Coup: yes` or `Coup: no` by DM."""
    parts = custom_id.split(":")
    if len(parts) != 6 or not all(p.isdigit() for p in parts[2:5]) or parts[5] not in ("yes", "no"):
        raise RuleError("This button is not one of Clerk's coup offers.")
    return await _coup(app, ctx, int(parts[2]), parts[5] == "yes", expected=(int(parts[3]), int(parts[4])))


async def _coup(app: App, ctx: Ctx, game_id: int, accept: bool, *,
                expected: tuple[int, int] | None = None) -> list[Outgoing]:
    c = await app.clerk.answer_coup(game_id, accept=accept, user_id=ctx.actor.id, actor=ctx.actor.id,
                                    source_id=ctx.source_id, expected=expected)
    app.deadlines_changed()
    said = "attempt a coup" if accept else "let the Revolution go on"
    return [reply(f"Recorded: the Brass Hats {said}."), *chain_outgoings(app, c)]


def election_closed(app: App, e: MylElectionView) -> list[Outgoing]:
    """The result card, with its announcement marker (``primary:<game>:<turn>`` or ``general:<game>:<turn>``): a
    Discord nonce, marked posted once sent, and posted again at start if a kill kept it from Discord
    (recovery.py)."""
    return [Outgoing(ToChannel(e.game.channel_id), card=result_card(e),
                     extra={POSTED: posted_marker(e.stage, e.game.id, e.turn)})]


# -- the Election Round -------------------------------------------------------------------------------------------


@command("election start", "Start the next turn's Election Round: the realignment locks are taken now.", **M)
async def election_start(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    turn, locks = await app.clerk.start_election_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    return [reply(f"Turn {turn}'s Election Round has started.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=locks_text(g.name, turn, locks))]


async def _open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any], stage: str) -> list[Outgoing]:
    g = require_game(game)
    now = app.clerk.clock.now()
    deadline = parse_deadline(o["deadline"], now) if o.get("deadline") else None
    e = await app.clerk.open_myl_election(g.id, stage=stage, deadline=deadline, actor=ctx.actor.id,
                                          source_id=ctx.source_id)
    app.deadlines_changed()
    return [reply(f"The {e.title} is open.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), card=election_opened_card(e, now))]


async def _close(app: App, ctx: Ctx, game: GameView | None, stage: str) -> list[Outgoing]:
    g = require_game(game)
    current = await app.clerk.myl_election(g.id)
    if current is None or current.status != "open" or current.stage != stage:
        raise RuleError(f"The {'Primary' if stage == 'primary' else 'General Election'} is not open in {g.name}.")
    e = await app.clerk.close_myl_election(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    if e is None:
        raise RuleError("That was already done.")
    app.deadlines_changed()
    return [reply(f"The {e.title} is closed; the result is posted.", ephemeral=True), *election_closed(app, e)]


DEADLINE = Option("deadline", str, "a duration such as 24h, or a UTC time such as 2026-03-01 20:00")


@command("election primary open", "Open the Primary: each Faction DMs `Primary: <Candidate>`.", DEADLINE, **M)
async def primary_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _open(app, ctx, game, o, "primary")


@command("election primary close", "Close the Primary now and announce the totals and nominees.", **M)
async def primary_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _close(app, ctx, game, "primary")


@command("election general open", "Open the General Election: each Faction DMs `General: <Party>`.", DEADLINE, **M)
async def general_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _open(app, ctx, game, o, "general")


@command("election general close", "Close the General Election now and announce the totals and the winner.", **M)
async def general_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _close(app, ctx, game, "general")


@command("election nominee", "Name a party's nominee after a tied Primary (or correct it).",
         Option("party", str, "Whig or Federalist", True, PARTY_CHOICES),
         Option("candidate", str, "the candidate", True, autocomplete="nominee"), **M)
async def election_nominee(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    party = party_of(o["party"])
    e = await app.clerk.name_nominee(g.id, party=party, candidate=o["candidate"], actor=ctx.actor.id,
                                     source_id=ctx.source_id)
    name = (e.result or {}).get("nominees", {}).get(party.value)
    return [reply("Recorded.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"The moderators name **{name}** the {party.title} nominee.")]


@command("election remind", "DM the player of every Faction that has not chosen in the open election a reminder now.",
         **M)
async def election_remind(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.myl_election(g.id)
    if e is None or e.status != "open":
        raise RuleError(f"No election is open in {g.name}; there is nobody to remind.")
    reminder = await app.clerk.send_reminder(g.id, kind=e.stage, number=e.turn, actor=ctx.actor.id,
                                             source_id=ctx.source_id)
    return reminded(app, [reminder])


@command("election status", "The open election: who has chosen (not what) and the deadline.", ruleset=RULESET)
async def election_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.myl_election(g.id)
    if e is None:
        return [reply(f"No election has been held in {g.name} yet.")]
    if e.status == "closed":
        return [reply(card=result_card(e))]
    return [reply(card=election_status_card(e, app.clerk.clock.now()))]


# -- what happened: /event ------------------------------------------------------------------------------------------

NOTE = Option("note", str, "what it was, for the record (e.g. the bill's name)")
AMOUNT_HELP = {"income-tax": ("points", "for created: the rate in %; for raised or cut: the percentage points"),
               "fiat-money": ("dollars", "the dollars created by fiat"),
               "war-table": ("result", "the Conducting-a-War table's movement of the approval, e.g. -3 or 5")}
SUBJECT_TEXT = {"income-tax": "the Income Tax", "war": "a war", "pension": "pensions", "monopoly": "Monopolies",
                "faction-tax": "Faction Taxes", "subsidy": "subsidies", "tariff": "Tariffs", "scandal": "a scandal",
                "cover-up": "a cover-up exposed", "fiat-money": "money created by fiat",
                "missed-orders": "the President's missing Business Round orders",
                "war-table": "the Conducting-a-War table's result"}


def _event_command(subject: str, kinds: tuple[Happening, ...]) -> None:
    changes = tuple(k.change for k in kinds if k.change)
    options: list[Option] = []
    if changes:
        options.append(Option("change", str, " or ".join(changes), True, changes))
    if subject in AMOUNT_HELP:
        name, about = AMOUNT_HELP[subject]
        required = subject != "income-tax"
        options.append(Option(name, int, about, required))
    elif subject != "missed-orders":
        options.append(Option("count", int, "how many (default 1)", min_value=1))
    options.append(NOTE)

    async def handler(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
        g = require_game(game)
        what = happening(subject, o.get("change"))
        amount = o.get("points", o.get("dollars", o.get("result", o.get("count"))))
        if amount is None:
            if what is Happening.INCOME_TAX_CREATED or what in (Happening.INCOME_TAX_RAISED,
                                                                Happening.INCOME_TAX_CUT):
                raise RuleError("Give the points: the new rate for created, the percentage points for raised or "
                                "cut.")
            amount = 1
        view, _ = await app.clerk.record_happening(g.id, what=what, amount=int(amount), note=o.get("note"),
                                                       actor=ctx.actor.id, source_id=ctx.source_id)
        return [reply(f"Recorded for turn {view.turn}: {view.text}. It counts when the Business Phase closes "
                      "(/phase business close); /event undo takes back the latest.", ephemeral=True)]

    command(f"event {subject}", f"Record {SUBJECT_TEXT[subject]} (counted at the Business Phase's close).",
            *options, **M)(handler)


for _subject, _kinds in SUBJECTS.items():
    _event_command(_subject, _kinds)


@command("event list", "What has been recorded this turn, and what is in play.", **M)
async def event_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    turn, views, state = await app.clerk.happenings(g.id)
    lines = [f"{v.text}" + (f" ({v.note})" if v.note else "") for v in views] or ["nothing yet"]
    tax = f"{state.income_tax}%" if state.income_tax is not None else "none"
    return [reply(f"Turn {turn}:\n" + "\n".join(lines) + f"\nIn play: Monopolies {state.monopolies}, Income Tax "
                  f"{tax}, Faction Taxes {state.faction_taxes}, Tariffs {state.tariffs}, subsidies "
                  f"{state.subsidies}, pensions {state.pensions}, wars {state.wars}.", ephemeral=True)]


@command("event undo", "Take back the latest happening recorded this turn.", **M)
async def event_undo(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    view, _ = await app.clerk.undo_happening(require_game(game).id, actor=ctx.actor.id, source_id=ctx.source_id)
    return [reply(f"Taken back: {view.text}.", ephemeral=True)]


@command("phase business close", "Close the Business Phase: approval, Fervor, VP, then Social Collapse and "
                                 "revolutions.", **M)
async def business_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    b = await app.clerk.close_business(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    out = [reply(f"Turn {b.turn}'s Business Phase is closed.", ephemeral=True),
           Outgoing(ToChannel(g.channel_id), card=business_card(b))]
    if b.chain is not None:
        app.deadlines_changed()
        out += chain_outgoings(app, b.chain)
    return out


# -- revolutions ----------------------------------------------------------------------------------------------------


@command("revolution status", "The revolution under way: its attempts and who has sent a contribution (not how "
                              "much).", ruleset=RULESET)
async def revolution_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    c = await app.clerk.revolution(g.id)
    if c is None:
        return [reply(f"There has been no revolution in {g.name}.")]
    return [reply(card=chain_status_card(c, app.clerk.clock.now(),
                                         moderator=ctx.actor.moderates(g.moderator_role_id)), ephemeral=True)]


@command("revolution coup", "Answer the coup offer for the Brass Hats (their player answers `Coup: yes|no` by DM).",
         Option("answer", str, "yes or no", True, ("yes", "no")), **M)
async def revolution_coup(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    c = await app.clerk.answer_coup(g.id, accept=o["answer"] == "yes", user_id=None, actor=ctx.actor.id,
                                    source_id=ctx.source_id)
    app.deadlines_changed()
    return [reply("Recorded.", ephemeral=True), *chain_outgoings(app, c)]


@command("revolution deadline", "Set or move the deadline for contributions (P1-22).",
         Option("deadline", str, "a duration such as 24h, or a UTC time", True), **M)
async def revolution_deadline(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    when = parse_deadline(o["deadline"], app.clerk.clock.now())
    c = await app.clerk.set_chain_deadline(g.id, deadline=when, actor=ctx.actor.id, source_id=ctx.source_id)
    app.deadlines_changed()
    return [reply("Deadline moved.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"Contributions to revolution #{c.number} now close "
                                                   f"{when:%Y-%m-%d %H:%M} UTC.")]


@command("revolution resolve", "Close the contributions now and resolve the Revolution or coup.", **M)
async def revolution_resolve(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    c = await app.clerk.resolve_revolution(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    if c is None:
        raise RuleError("That was already done.")
    app.deadlines_changed()
    return [reply("Resolved.", ephemeral=True), *chain_outgoings(app, c)]


# -- DM forms ----------------------------------------------------------------------------------------------------


@dm_form(looks_like_form)
async def mylantium_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """``Primary:``, ``General:``, ``Realign:``, ``Contribute:`` and ``Coup:``, only for players of a Mylantium
    game (a player of another ruleset is told so)."""
    form = parse_form(first_line(text))
    head = first_line(text).split(":", 1)[0].strip().capitalize()
    game = await game_of_user(app, ctx.actor.id, form.game, RULESET, what=f"`{head}:`",
                              example=f"{head}: …")
    now = app.clerk.clock.now()
    if isinstance(form, PrimaryChoice | GeneralChoice):
        stage = "primary" if isinstance(form, PrimaryChoice) else "general"
        choice = form.candidate if isinstance(form, PrimaryChoice) else form.party.value
        receipt = await app.clerk.choose(game.id, user_id=ctx.actor.id, stage=stage, choice=choice, at=ctx.at,
                                         source_id=ctx.source_id)
        return [reply(choice_text(receipt, now))]
    if isinstance(form, Realign):
        done = await app.clerk.realign(game.id, user_id=ctx.actor.id, party=form.party, source_id=ctx.source_id)
        out = [reply(realign_text(done))]
        if not done.duplicate:
            out.append(Outgoing(ToChannel(game.channel_id), text=realigned_public(done)))
        return out
    if isinstance(form, Pledge):
        pledge = await app.clerk.pledge(game.id, user_id=ctx.actor.id, amount=form.amount,
                                        to_vanguard=form.to_vanguard, at=ctx.at, source_id=ctx.source_id)
        return [reply(pledge_text(pledge, now))]
    assert isinstance(form, CoupAnswer)
    return await _coup(app, ctx, game.id, form.accept)


# -- deadlines -------------------------------------------------------------------------------------------------


async def close_mylantium_due(app: App, now: datetime) -> list[Outgoing]:
    """Elections and contributions whose deadline has passed, each closed once (``close_due`` calls this)."""
    out: list[Outgoing] = []
    for game_id, turn, stage, deadline in await app.clerk.pending_myl_elections():
        if deadline > now:
            break
        try:
            e = await app.clerk.close_myl_election(game_id, actor=None, expected=(turn, stage),
                                                   source_id=f"myl-election-deadline:{game_id}:{turn}:{stage}")
        except Exception:
            log.exception("closing the %s of turn %s of game %s at its deadline failed", stage, turn, game_id)
            continue
        if e is not None:
            out += election_closed(app, e)
    for game_id, number, attempt, deadline in await app.clerk.pending_contributions():
        if deadline > now:
            break
        try:
            c = await app.clerk.resolve_revolution(game_id, actor=None, expected=(number, attempt),
                                                   source_id=f"myl-revolution-deadline:{game_id}:{number}:{attempt}")
        except Exception:
            log.exception("resolving revolution %s (attempt %s) of game %s at its deadline failed", number, attempt,
                          game_id)
            continue
        if c is not None:
            out += chain_outgoings(app, c)
    return out


async def election_again(app: App, game_id: int, number: int, stage: str) -> list[Outgoing]:
    """A primary or general election closed but never announced (the bot was killed): its result again."""
    myl = await app.clerk.myl_election_of(game_id, number, stage)
    return election_closed(app, myl) if myl is not None and myl.status == "closed" else []


async def primary_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    return await election_again(app, game_id, number, "primary")


async def general_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    return await election_again(app, game_id, number, "general")


FRONT = Front(
    RULESET,
    dm_help=(
        ("Realign: Whig", "your Faction changes party (until the Primary opens, once a turn)"),
        ("Primary: <Candidate>", "your Faction's choice in the Primary"),
        ("General: Federalist", "your Faction's choice in the General Election"),
        ("Contribute: 20", "to the Counter-Revolutionary Treasury (`Contribute: 5 to the Vanguard`)"),
        ("Coup: yes", "the Brass Hats answer the coup offer (`Coup: no`)"),
    ),
    next_steps=("Register the Factions with /faction register, the territories with /territory add and /building add, "
                "the candidates with /candidate add and the President's Faction with /government set; then "
                "/election start begins the first Election Round."),
    due=(close_mylantium_due,),
    recover={"primary": primary_again, "general": general_again},
)
