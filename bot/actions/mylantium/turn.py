"""The Republic of Mylantium on Discord, part 2: a turn. The Election Round (/election ...; realignment, Primary and
General Election choices by DM), what happened (/event ...), the Business Phase's close, and the DM forms (the
revolution's among them; its commands are in revolution.py). Deadlines close elections and contributions through
``close_overdue``."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any

from bot.actions.commands import App, CommandFlags, Option, game_of_user, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as, reminded_reply, reminder_messages
from bot.actions.drawing import Picture, picture
from bot.actions.moderators import moderator_target
from bot.actions.mylantium import charts
from bot.actions.mylantium.disclosure_render import coarse_card, exposure_warning, held_card
from bot.actions.mylantium.render import (
    business_card,
    choice_text,
    election_opened_card,
    election_status_card,
    locks_text,
    pledge_text,
    realign_text,
    realigned_public,
    result_card,
)
from bot.actions.mylantium.revolution import answer_coup, chain_outgoings, close_contributions_due
from bot.actions.outbox import EXPLAINS, POSTED, TIMED, WARNED, AnswerWith, Outgoing, ToChannel, ToThread, marked, reply
from bot.actions.owed_files import ChartKind, charted
from bot.actions.recovery import receipts_again
from bot.actions.routes import Routes, first_line
from bot.metrics import ballot_recorded
from engine.core.disclosure import shown
from engine.core.errors import GameClosed, ParseError, RuleError
from engine.core.stamps import stamp
from engine.mylantium.business import SUBJECTS, Happening, happening
from engine.mylantium.forms import (
    CoupAnswer,
    Form,
    GeneralChoice,
    Pledge,
    PrimaryChoice,
    Realign,
    check_one_choice,
    looks_like_form,
    names_a_form,
    parse_form,
)
from engine.mylantium.model import PARTY_CHOICES, party_of
from engine.service.announcements import card_tag, posted_marker, warning_marker
from engine.service.followed import Followed
from engine.service.mylantium.service import history_in
from engine.service.mylantium.state import NAME
from engine.service.mylantium.views import (
    BusinessView,
    ChoiceReceipt,
    HistoryView,
    MylElectionView,
    PledgeReceipt,
    RealignReceipt,
)
from engine.service.reminders import Reminder
from engine.service.views import GameView

log = logging.getLogger("clerk.mylantium")
M: CommandFlags = {"moderator": True, "ruleset": NAME}
ROUTES = Routes()
"""The Election Round's and the Business Phase's commands, and the DM forms."""
command = ROUTES.command


async def result_picture(e: MylElectionView) -> Picture:
    """The closed election's totals by source as a chart (charts.py), drawn off the loop."""
    return await picture(f"{e.stage}-{e.turn}.png", charts.election_png, charts.election_alt, e)


async def election_closed(app: App, e: MylElectionView) -> list[Outgoing]:
    """The result card and its chart, with its announcement marker (``primary:<game>:<turn>`` or
    ``general:<game>:<turn>``; its Discord nonce adds the close's token, ``marked``), marked posted once sent, and
    posted again at start if a kill kept it from Discord (recovery.py). When the disclosure check found a choice
    given away, the moderators' warning first (again after a kill: it may have been lost with the card), and the
    card the ``disclosure`` setting asks."""
    found = (e.result or {}).get("disclosure")
    how = shown(found)
    if how == "held":  # no marker: the release announces it (/election release)
        return held_news(await moderator_target(app, e.game), e)
    out: list[Outgoing] = []
    if found and not found.get("released"):
        out.append(Outgoing(await moderator_target(app, e.game), text=exposure_warning(e),
                            extra=marked(WARNED, warning_marker(e.stage, e.game.id, e.turn, e.closing), e.post_token)))
    marker = marked(POSTED, posted_marker(e.stage, e.game.id, e.turn, e.closing), e.post_token)
    if how == "coarse":
        return [*out, Outgoing(ToChannel(e.game.channel_id), card=coarse_card(e), extra=marker)]
    chart = await result_picture(e)
    return [*out, Outgoing(ToChannel(e.game.channel_id), card=result_card(e), file=chart.file, alt=chart.alt,
                           extra=marker)]


def held_news(place: ToChannel | ToThread, e: MylElectionView | None) -> list[Outgoing]:
    """What the close of a result the disclosure check holds back posts (``disclosure: hold``): the moderators'
    warning, in their place (``place``, looked up before the write, as a Revolution's warning is), and the card
    saying the result is held, which has no marker (the release announces the result): nothing posts them again
    after a kill, so the close owes them in its transaction (``AnswerWith`` with ``warns``). Nothing for any other
    close (its card, marked, and its warning are owed after it, and posted again at start after a kill:
    ``election_closed``)."""
    if e is None or shown((e.result or {}).get("disclosure")) != "held":
        return []
    return [Outgoing(place, text=exposure_warning(e),
                     extra=marked(WARNED, warning_marker(e.stage, e.game.id, e.turn, e.closing), e.post_token)),
            Outgoing(ToChannel(e.game.channel_id), card=held_card(e))]


async def history_picture(app: App, game: GameView) -> Picture:
    """The approval and Fervor over the turns as a chart (charts.py), drawn off the loop."""
    return await history_drawn(await app.clerk.mylantium.history(game.id))


async def history_drawn(history: HistoryView) -> Picture:
    return await picture("history.png", charts.history_png, charts.history_alt, history)


async def _history_now(app: App, game_id: int) -> HistoryView:
    return await app.clerk.mylantium.history(game_id)


HISTORY_CHART: ChartKind[HistoryView] = ChartKind(
    "history", _history_now, lambda h: (h.game.name, h.turn, h.approval, h.fervor), history_drawn)
"""The Business Phase card's chart (``history.png``), drawn again at start for a card a kill left owed without it."""


# -- the Election Round -------------------------------------------------------------------------------------------


@command("election start", "Start the next turn's Election Round: the realignment locks are taken now.", **M)
async def election_start(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)

    def said(started: tuple[int, dict[str, str]]) -> list[Outgoing]:  # owed in the start's transaction
        turn, locks = started
        return [reply(f"Turn {turn}'s Election Round has started.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=locks_text(g.name, turn, locks))]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.mylantium.elections.start_election_round(
        g.id, actor=ctx.actor.id, source_id=ctx.source_id, answer=answered.owed))


async def _open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any], stage: str) -> list[Outgoing]:
    g = require_game(game)
    now = app.clerk.clock.now()
    read = await game_deadline(app, g.id, o["deadline"]) if o.get("deadline") else None
    answered: AnswerWith[MylElectionView] = AnswerWith(ctx.answering, lambda e: [  # owed in the opening's transaction
        reply(f"The {e.title} is open.{read_as(o.get('deadline'), read)}", ephemeral=True),
        Outgoing(ToChannel(g.channel_id), card=election_opened_card(e, now))])
    e = await app.clerk.mylantium.elections.open_election(g.id, stage=stage, deadline=read.when if read else None,
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(e)


async def _close(app: App, ctx: Ctx, game: GameView | None, stage: str) -> list[Outgoing]:
    g = require_game(game)
    current = await app.clerk.mylantium.elections.election(g.id)
    if current is None or current.status != "open" or current.stage != stage:
        raise RuleError(f"The {'Primary' if stage == 'primary' else 'General Election'} is not open in {g.name}.")
    # a held result's warning and card, owed in the close's transaction (``held_news``); any other card after it
    answered = AnswerWith(ctx.answering, partial(held_news, await moderator_target(app, g)), warns=True)
    e = await app.clerk.mylantium.elections.close_election(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                           answer=answered.owed)
    if e is None:
        raise RuleError("That was already done.")
    app.deadlines_changed()
    how = shown((e.result or {}).get("disclosure"))
    posted = {"held": "the result is held: see the moderators' warning",
              "coarse": "the result is posted without its totals"}.get(how, "the result is posted")
    return [reply(f"The {e.title} is closed; {posted}.", ephemeral=True),
            *(answered.out(e) if how == "held" else await election_closed(app, e))]


@command("election release", "Post an election result the disclosure check held back, in full.",
         Option("stage", str, "primary or general (default: the last one held)", choices=("primary", "general")),
         **M)
async def election_release(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.mylantium.elections.release_result(g.id, stage=o.get("stage"), actor=ctx.actor.id,
                                                           source_id=ctx.source_id)
    return [reply(f"The {e.title}'s result is released and posted in full.", ephemeral=True),
            *await election_closed(app, e)]


DEADLINE = Option("deadline", str, "a duration such as 24h, a time such as 2026-03-01 20:00, or a Discord timestamp")


@command("election primary open", "Open the Primary: each Faction DMs `Primary: <Candidate>`.", DEADLINE, **M)
async def primary_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _open(app, ctx, game, o, "primary")


@command("election primary close", "Close the Primary now and announce the totals and nominees.", **M)
async def primary_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _close(app, ctx, game, "primary")


@command("election general open", "Open the General Election: each Faction DMs `General: <Party>`.", DEADLINE,
         **M)
async def general_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _open(app, ctx, game, o, "general")


@command("election general close", "Close the General Election now and announce the totals and the winner.", **M)
async def general_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _close(app, ctx, game, "general")


@command("election deadline", "Set or move the open Primary's or General Election's deadline.",
         Option("deadline", str, "a duration from now such as 24h, a time such as 2026-03-01 20:00, or a Discord "
                                 "timestamp", True), **M)
async def election_deadline(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test U1.2: an election opened with the wrong deadline (2m for 2d) is corrected before it closes."""
    g = require_game(game)
    read = await game_deadline(app, g.id, o["deadline"])

    def said(moved: tuple[MylElectionView, datetime | None]) -> list[Outgoing]:  # owed in the move's transaction
        e, was = moved
        before = f" (it was {stamp(was)})" if was is not None else " (it had none)"
        return [reply(f"Deadline moved.{read_as(o['deadline'], read)}", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=f"The {e.title} of turn {e.turn} in {g.name} now closes "
                                                       f"{stamp(read.when)}{before}; choices can be sent or changed "
                                                       "until then.")]

    answered = AnswerWith(ctx.answering, said)
    moved = await app.clerk.mylantium.elections.move_deadline(g.id, deadline=read.when, actor=ctx.actor.id,
                                                              source_id=ctx.source_id, answer=answered.owed)
    app.deadlines_changed()
    return answered.out(moved)


@command("election nominee", "Name a party's nominee after a tied Primary (or correct it).",
         Option("party", str, "Whig or Federalist", True, PARTY_CHOICES),
         Option("candidate", str, "the candidate", True, autocomplete="nominee"), **M)
async def election_nominee(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    party = party_of(o["party"])

    def said(e: MylElectionView) -> list[Outgoing]:  # owed in the naming's transaction (``AnswerWith``)
        name = (e.result or {}).get("nominees", {}).get(party.value)
        return [reply("Recorded.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=f"The moderators name **{name}** the {party.title} nominee.")]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.mylantium.elections.name_nominee(
        g.id, party=party, candidate=o["candidate"], actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answered.owed))


@command("election remind",
         "DM the player of every Faction that has not chosen in the open election a reminder now.",
         **M)
async def election_remind(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.mylantium.elections.election(g.id)
    if e is None or e.status != "open":
        raise RuleError(f"No election is open in {g.name}; there is nobody to remind.")
    now = app.clerk.clock.now()  # the DMs owed in the reminder's transaction (``AnswerWith``), as /round remind's
    answered: AnswerWith[Reminder] = AnswerWith(ctx.answering, lambda r: reminder_messages(app, r, now))
    reminder = await app.clerk.reminders.send_reminder(g.id, kind=e.stage, number=e.turn, actor=ctx.actor.id,
                                                       source_id=ctx.source_id, answer=answered.owed)
    return [reminded_reply(app, [reminder]), *answered.out(reminder)]


@command("election status", "The open election: who has chosen (not what) and the deadline.", ruleset=NAME, reads=True,
         public=True)
async def election_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.mylantium.elections.election(g.id)
    if e is None:
        return [reply(f"No election has been held in {g.name} yet.")]
    if e.status == "closed":
        how = shown((e.result or {}).get("disclosure"))
        if how != "full":  # the disclosure check keeps its totals back (docs/rulings.md)
            return [reply(card=held_card(e) if how == "held" else coarse_card(e))]
        chart = await result_picture(e)
        return [reply(card=result_card(e), file=chart.file, alt=chart.alt)]
    return [reply(card=election_status_card(e, app.clerk.clock.now()))]


# -- what happened: /event ------------------------------------------------------------------------------------------

NOTE = Option("note", str, "what it was, for the record (e.g. the bill's name)")
AMOUNT_HELP = {"income-tax": ("points", "for created: the rate in %; for raised or cut: the percentage points"),
               "fiat-money": ("dollars", "the dollars created by fiat"),
               "war-table": ("result", "the Conducting-a-War table's movement of the approval, e.g. -3 or 5")}
AMOUNT_RANGE: dict[str, tuple[int | None, int | None]] = {"income-tax": (0, 100), "fiat-money": (1, None)}
"""An Income Tax rate or change is 0 to 100 percentage points; fiat money is $1 or more (the service says the
same: ``Occurrence``). The war table's result is as rolled (rules-spec: "± as rolled"), so it has no range."""
SUBJECT_TEXT = {"income-tax": "the Income Tax", "war": "a war", "pension": "pensions", "monopoly": "Monopolies",
                "faction-tax": "Faction Taxes", "subsidy": "subsidies", "tariff": "Tariffs", "scandal": "a scandal",
                "cover-up": "a cover-up exposed", "fiat-money": "money created by fiat",
                "missed-orders": "the President's missing Business Round orders",
                "war-table": "the Conducting-a-War table's result"}


def _event_command(subject: str, kinds: tuple[Happening, ...]) -> None:
    changes = tuple(k.change for k in kinds if k.change)
    options: list[Option] = []
    if len(changes) == 1:  # its only change (a cover-up is exposed): optional, and the default when left out
        options.append(Option("change", str, f"{changes[0]} (its only change; the default)", False, changes))
    elif changes:
        options.append(Option("change", str, " or ".join(changes), True, changes))
    if subject in AMOUNT_HELP:
        name, about = AMOUNT_HELP[subject]
        required = subject != "income-tax"
        low, high = AMOUNT_RANGE.get(subject, (None, None))
        options.append(Option(name, int, about, required, min_value=low, max_value=high))
    elif subject != "missed-orders":
        options.append(Option("count", int, "how many (default 1)", min_value=1))
    options.append(NOTE)

    async def handler(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
        g = require_game(game)
        what = happening(subject, o.get("change") or (changes[0] if len(changes) == 1 else None))
        amount = o.get("points", o.get("dollars", o.get("result", o.get("count"))))
        if amount is None:
            if what is Happening.INCOME_TAX_CREATED or what in (Happening.INCOME_TAX_RAISED,
                                                                Happening.INCOME_TAX_CUT):
                raise RuleError("Give the points: the new rate for created, the percentage points for raised or "
                                "cut.")
            amount = 1
        view, _ = await app.clerk.mylantium.business.record_happening(g.id, what=what, amount=int(amount),
                                                                      note=o.get("note"), actor=ctx.actor.id,
                                                                      source_id=ctx.source_id)
        return [reply(f"Recorded for turn {view.turn}: {view.text}. It counts when the Business Phase closes "
                      "(/phase business close); /event undo takes back the latest.", ephemeral=True)]

    command(f"event {subject}", f"Record {SUBJECT_TEXT[subject]} (counted at the Business Phase's close).",
            *options, **M)(handler)


for _subject, _kinds in SUBJECTS.items():
    _event_command(_subject, _kinds)


@command("event list", "What has been recorded this turn, and what is in play.", **M, reads=True)
async def event_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    turn, views, state = await app.clerk.mylantium.business.happenings(g.id)
    lines = [f"{n}. {v.text}" + (f" ({v.note})" if v.note else "") for n, v in enumerate(views, 1)] or ["nothing yet"]
    tax = f"{state.income_tax}%" if state.income_tax is not None else "none"
    return [reply(f"Turn {turn}:\n" + "\n".join(lines) + f"\nIn play: Monopolies {state.monopolies}, Income Tax "
                  f"{tax}, Faction Taxes {state.faction_taxes}, Tariffs {state.tariffs}, subsidies "
                  f"{state.subsidies}, pensions {state.pensions}, wars {state.wars}.", ephemeral=True)]


@command("event undo", "Take back a happening recorded this turn: the latest, or the one numbered in /event list.",
         Option("number", int, "its number in /event list (default: the latest)", min_value=1), **M)
async def event_undo(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    number = o.get("number")
    view, _ = await app.clerk.mylantium.business.undo_happening(require_game(game).id, number=number,
                                                                actor=ctx.actor.id, source_id=ctx.source_id)
    later = " Any entries after it are counted as if it had never been recorded." if number is not None else ""
    return [reply(f"Taken back: {view.text}.{later}", ephemeral=True)]


@command("phase business close", "Close the Business Phase: approval, Fervor, VP, then Social Collapse and "
                                 "revolutions.", **M)
async def business_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The card and what a chain the close begins moves on are owed in the close's transaction (``AnswerWith``), and
    the approval and Fervor over the turns, the card's chart, are read there too (``clerk.followed``); the chart,
    drawn off the event loop after it, is added to the card's row before it is queued (``charted``: a kill in between
    leaves the card owed without it, and the recovery at start draws it, ``HISTORY_CHART``)."""
    g = require_game(game)
    card: list[Outgoing] = []

    def said(f: Followed[BusinessView, HistoryView]) -> list[Outgoing]:
        b = f.done
        card[:] = [Outgoing(ToChannel(g.channel_id), card=business_card(b),
                            extra={EXPLAINS: card_tag("business", g.id, b.turn), **HISTORY_CHART.marker(g.id, f.seen)})]
        return [reply(f"Turn {b.turn}'s Business Phase is closed.", ephemeral=True), *card,
                *(chain_outgoings(app, b.chain) if b.chain is not None else [])]

    answered = AnswerWith(ctx.answering, said)
    closed = await app.clerk.followed.write(g.id, lambda: app.clerk.mylantium.business.close_business(
        g.id, actor=ctx.actor.id, source_id=ctx.source_id), history_in, source_id=ctx.source_id, answer=answered.owed)
    if closed.done.chain is not None:
        app.deadlines_changed()
    out = answered.out(closed)
    return await charted(app, answered, out, card[0], await history_drawn(closed.seen))


# -- DM forms ----------------------------------------------------------------------------------------------------


@ROUTES.dm_form(looks_like_form)
async def answer_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    """``Primary:``, ``General:``, ``Realign:``, ``Contribute:`` and ``Coup:``, only for players of a Mylantium
    game (a player of another ruleset is told so)."""
    form = parse_form(first_line(text))
    check_one_choice(text, form)
    head = first_line(text).split(":", 1)[0].strip().capitalize()
    game = await game_of_user(app, ctx.actor.id, form.game, NAME, what=f"`{head}:`", example=first_line(text)[:60],
                              form=first_line(text))
    try:
        return await _answer_form(app, ctx, game, form)
    except RuleError as error:
        others = await _others(app, ctx, game)
        if form.game is not None or isinstance(error, GameClosed) or not others:
            raise
        # the DM went to the one game of several where it is open (play-test Q4.1), or where its candidate runs: a
        # refusal names it
        line = first_line(text)
        also_open = [g for g in others if await form_open(app, g, ctx.actor.id, line) is None]
        why = (f"with a candidate called {form.candidate}" if also_open and isinstance(form, PrimaryChoice)
               else f"where `{head}:` is open now")
        raise RuleError(f"In #{game.name}, the one of your games {why} (end the message with `#game` for another): "
                        f"{error}") from None


async def _others(app: App, ctx: Ctx, game: GameView) -> list[GameView]:
    """The caller's other running Mylantium games than ``game``."""
    games = await app.clerk.games.games_of_user(ctx.actor.id)
    return [g for g in games if g.id != game.id and g.ruleset == NAME and not g.ended]


async def _answer_form(app: App, ctx: Ctx, game: GameView, form: Form) -> list[Outgoing]:
    """Each form's answer, and what it posts elsewhere (a realignment's public line, what a coup's answer moves on),
    is owed in its write's transaction (``AnswerWith``: play-test S4.5)."""
    now = app.clerk.clock.now()
    if isinstance(form, PrimaryChoice | GeneralChoice):
        stage = "primary" if isinstance(form, PrimaryChoice) else "general"
        choice = form.candidate if isinstance(form, PrimaryChoice) else form.party.value
        named = form.candidate if isinstance(form, PrimaryChoice) else None
        chosen: AnswerWith[ChoiceReceipt] = AnswerWith(ctx.answering, lambda r: [reply(choice_text(r, now, named))])
        receipt = await app.clerk.mylantium.elections.choose(game.id, user_id=ctx.actor.id, stage=stage, choice=choice,
                                                             at=ctx.at, source_id=ctx.source_id, answer=chosen.owed)
        if not receipt.duplicate:
            ballot_recorded("mylantium", stage)
        return chosen.out(receipt)
    if isinstance(form, Realign):
        def realign_news(r: RealignReceipt) -> list[Outgoing]:  # the public line too (told when it first came)
            return [reply(realign_text(r)), *([] if r.duplicate else [Outgoing(ToChannel(game.channel_id),
                                                                               text=realigned_public(r))])]

        realigned: AnswerWith[RealignReceipt] = AnswerWith(ctx.answering, realign_news)
        done = await app.clerk.mylantium.elections.realign(game.id, user_id=ctx.actor.id, party=form.party,
                                                           source_id=ctx.source_id, answer=realigned.owed)
        return realigned.out(done)
    if isinstance(form, Pledge):
        pledged: AnswerWith[PledgeReceipt] = AnswerWith(ctx.answering, lambda r: [reply(pledge_text(r, now))])
        pledge = await app.clerk.mylantium.revolutions.pledge(game.id, user_id=ctx.actor.id, amount=form.amount,
                                                              to_vanguard=form.to_vanguard, at=ctx.at,
                                                              source_id=ctx.source_id, answer=pledged.owed)
        if not pledge.duplicate:
            ballot_recorded("mylantium", "pledge")
        return pledged.out(pledge)
    assert isinstance(form, CoupAnswer)
    return await answer_coup(app, ctx, game.id, form.accept, dm=True)


async def form_open(app: App, game: GameView, user_id: int, form: str) -> str | None:
    """``Front.dm_open``: `Primary:` and `General:` are open in a game whose election of that stage is open; the
    other forms are not judged (their refusals say what is wrong)."""
    try:
        parsed = parse_form(form)
    except ParseError:
        return None
    if not isinstance(parsed, PrimaryChoice | GeneralChoice):
        return None
    stage = "primary" if isinstance(parsed, PrimaryChoice) else "general"
    election = await app.clerk.mylantium.elections.election(game.id)
    if election is not None and election.status == "open" and election.stage == stage:
        return None
    return f"the {'Primary' if stage == 'primary' else 'General Election'} is not open"


async def form_fits(app: App, game: GameView, user_id: int, form: str) -> bool:
    """``Front.dm_fits``: a `Primary:` fits a game one of whose candidates it names exactly (case and spaces aside;
    `Primary: Ann Oakes` in two games, where only one has her). The other forms name nothing of a game."""
    try:
        parsed = parse_form(form)
    except ParseError:
        return False
    return isinstance(parsed, PrimaryChoice) and await app.clerk.mylantium.elections.names_candidate(game.id,
                                                                                                   parsed.candidate)


async def meant_refusal(app: App, game: GameView, user_id: int, meant: str) -> str | None:
    """``Front.dm_meant_refusal``: the refusal a suggested `Primary:`, `General:` or `Realign:` would get in ``game``
    now (a candidate of the other party, a Faction already of that party, no election open, no coup offered to
    them), checked as ``choose``, ``realign`` and the Revolution's answers check it; None if it would be taken."""
    try:
        parsed = parse_form(meant)
    except ParseError:
        return None
    elections = app.clerk.mylantium.elections
    now = app.clerk.clock.now()
    if isinstance(parsed, PrimaryChoice):
        return await elections.refusal(game.id, user_id=user_id, stage="primary", choice=parsed.candidate, at=now)
    if isinstance(parsed, GeneralChoice):
        return await elections.refusal(game.id, user_id=user_id, stage="general", choice=parsed.party.value, at=now)
    if isinstance(parsed, Realign):
        return await elections.refusal(game.id, user_id=user_id, stage="realign", choice=parsed.party.value, at=now)
    return await app.clerk.mylantium.revolutions.refusal(game.id, user_id=user_id, coup=isinstance(parsed, CoupAnswer))


# -- deadlines -------------------------------------------------------------------------------------------------


async def close_overdue(app: App, now: datetime) -> list[Outgoing]:
    """Elections and contributions whose deadline has passed, each closed once (``FRONT.due``: the scheduler's
    ``close_due`` runs it)."""
    out: list[Outgoing] = []
    for game_id, turn, stage, deadline in await app.clerk.mylantium.elections.pending_elections():
        if deadline > now:
            break
        try:  # a held result's warning and card owed with the close, as /election ... close's (``held_news``)
            place = await moderator_target(app, await app.clerk.games.game(game_id))
            answered = AnswerWith(TIMED.get(), partial(held_news, place), warns=True)
            e = await app.clerk.mylantium.elections.close_election(
                game_id, actor=None, expected=(turn, stage),
                source_id=await app.clerk.mylantium.elections.deadline_source(game_id, turn, stage),
                answer=answered.owed)
        except Exception:
            log.exception("closing the %s of turn %s of game %s at its deadline failed", stage, turn, game_id)
            continue
        if e is not None:
            held = shown((e.result or {}).get("disclosure")) == "held"
            out += answered.out(e) if held else await election_closed(app, e)
    return out + await close_contributions_due(app, now)


async def election_again(app: App, game_id: int, number: int, stage: str) -> list[Outgoing]:
    """A primary or general election closed but never announced (the bot was killed): its result again."""
    myl = await app.clerk.mylantium.elections.election_of(game_id, number, stage)
    return await election_closed(app, myl) if myl is not None and myl.status == "closed" else []


async def primary_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    return await election_again(app, game_id, number, "primary")


async def general_again(app: App, game_id: int, number: int) -> list[Outgoing]:
    return await election_again(app, game_id, number, "general")


@ROUTES.thread_form(names_a_form, anywhere=True, proxy=False)
async def form_in_public(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    """A Mylantium form posted in the game channel or a thread (play-test M5.9): it goes by DM, and a choice or a
    contribution is secret, so the sender is told it was not recorded."""
    if game.ruleset != NAME:
        return []
    head = first_line(text).split(":", 1)[0].strip().capitalize()
    return [reply(f"`{head}:` goes to me by DM (choices and contributions are secret): DM me the same line instead. "
                  "This message was NOT recorded, and you may want to delete it.")]


async def unanswered_receipts(app: App, now: datetime, up_to: int) -> list[tuple[int, str, Outgoing]]:
    """(message id, source id, receipt) of every ``Primary:`` or ``General:`` DM recorded in the last day (up to the
    event ``up_to``) whose receipt was never owed: the bot was killed between the choice's commit and owing its
    receipt (play-test S4.5; ``Front.receipts``, as a Landsdraad ballot's), by a version that owed it after the
    commit (every DM form's answer is owed with its write now, ``AnswerWith``)."""
    async def remake(game_id: int, _user_id: int, payload: dict[str, Any]) -> str:
        return choice_text(await app.clerk.mylantium.elections.recorded_receipt(game_id, payload), now)

    return await receipts_again(app, now, up_to, "ChoiceMade", remake)
