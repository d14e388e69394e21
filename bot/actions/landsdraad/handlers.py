"""The Landsdraad players, holdings and rounds: ``/player``, ``/holding``, ``/round open|status|close``,
``/faction add``, ``/vote`` and ``/me``. Guard, call a service, render."""

from __future__ import annotations

from typing import Any

from bot.actions.commands import App, Option, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.deadlines import game_deadline, read_as
from bot.actions.landsdraad import victory_posts
from bot.actions.landsdraad.ballot_buttons import ballot_offer, round_open_dms
from bot.actions.landsdraad.closing import held_answer, round_closed
from bot.actions.landsdraad.edited import edited
from bot.actions.landsdraad.render import (
    holding_words,
    player_card,
    receipt_text,
    round_opened_card,
    setup_card,
    status_card,
)
from bot.actions.landsdraad.ruleset import commands_on
from bot.actions.outbox import AnswerWith, Card, Keep, Outgoing, ToChannel, ToUser, reply
from bot.actions.players import removal_dm
from bot.actions.render import waiting_text
from bot.actions.routes import Routes
from bot.metrics import ballot_recorded
from engine.core.errors import RuleError
from engine.core.text import inert_name
from engine.landsdraad.ballot import BallotCommand
from engine.landsdraad.model import ATTRIBUTE_MAX, ATTRIBUTE_MIN
from engine.landsdraad.model import Option as Choice
from engine.service.dice import GAME_SCOPE
from engine.service.landsdraad.edits import Edited
from engine.service.landsdraad.removal import Removal
from engine.service.landsdraad.rounds import CrisisCorrected, RoundOpened, RoundVoided
from engine.service.landsdraad.views import FactionView, PlayerView, RoundView
from engine.service.views import GameView

ROUTES = Routes()
"""The commands of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)
OPTIONS = ("aye", "nay", "abstain")


async def setup_summary(app: App, game: GameView) -> Card | None:
    """``Front.setup``: a Landsdraad game is being set up until its first round is opened. (The ledger's edits read
    the same in their own transaction: ``edited``.)"""
    if not await app.clerk.landsdraad.rounds.setting_up(game.id):
        return None
    return setup_card(game, await app.clerk.landsdraad.ledger.players(game.id),
                      await app.clerk.seals.seal(game.id, GAME_SCOPE))


def opening_card_key(number: int) -> str:
    """The kept message of round ``number``'s opening card, which ``/faction add`` edits."""
    return f"round-card:{number}"



@command("player add", "Add a player with their Diplomacy, Command, Intrigue and d3 roll.",
         Option("user", UserRef, "the player", True),
         Option("diplomacy", int, "Diplomacy (D), 1 to 5", True, min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("command", int, "Command (C), 1 to 5", True, min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("intrigue", int, "Intrigue (I), 1 to 5", True, min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("roll", int, "the d3 for the base vote (rolled by Clerk if left out)", min_value=1, max_value=3),
         Option("faction", str, "the player's faction or house"),
         Option("name", str, "the name Clerk shows for them (their Discord name if left out)"),
         moderator=True)
async def player_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    user = user_option(o, "user")
    rolled = "" if o.get("roll") is not None else " (rolled by Clerk)"

    def said(e: Edited[PlayerView], _place: object) -> list[Outgoing]:
        p = e.done
        added = [reply(f"Added {p.name} to {g.name}: D {p.diplomacy} / C {p.command} / I {p.intrigue}, "
                       f"d3 {p.roll}{rolled}. Base vote {p.breakdown.base}, {p.votes} votes in all.", ephemeral=True)]
        if e.setup is None:  # the game is under way: the players are told, as of a removal (play-test W5)
            house = f" ({p.faction})" if p.faction else ""
            added.append(Outgoing(ToChannel(g.channel_id), f"**{p.name}**{house} has joined **{g.name}** (added by "
                                                           f"<@{ctx.actor.id}>)."))
        return added

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.ledger.add_player(
        g.id, user_id=user.id, name=o.get("name") or user.name, diplomacy=o["diplomacy"], command=o["command"],
        intrigue=o["intrigue"], roll=o.get("roll"), faction=o.get("faction"), actor=ctx.actor.id,
        source_id=ctx.source_id), said, setup=True, joins=(user.id,))


@command("player set", "Change a player's name, faction, attributes, d3 roll, misc votes or active flag.",
         Option("user", UserRef, "the player", True),
         Option("name", str, "a new name Clerk shows for them (the channel is told)"),
         Option("faction", str, "a new faction or house (the channel is told); none clears it"),
         Option("roll", int, "the d3 of their base vote, entered wrong", min_value=1, max_value=3),
         Option("diplomacy", int, "new Diplomacy, 1 to 5", min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("command", int, "new Command, 1 to 5", min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("intrigue", int, "new Intrigue, 1 to 5", min_value=ATTRIBUTE_MIN, max_value=ATTRIBUTE_MAX),
         Option("misc", int, "miscellaneous votes", min_value=0),
         Option("active", bool, "whether the player is active"),
         Option("since", int, "a correction: the round it should have counted from (moderators are told what it "
                "changes)", min_value=1),
         moderator=True)
async def player_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """The change, the open player votes judged again when ``active`` changes, the set-up summary, the majority
    check and what a correction (``since``) changes in the closed results: one transaction, its messages owed in it
    (``edited``)."""
    g = require_game(game)
    user = user_option(o, "user")

    def said(e: Edited[PlayerView], _place: object) -> list[Outgoing]:
        p = e.done
        b = p.breakdown
        kept = [f"{label} {held}" for label, held, now in (("Diplomacy", p.diplomacy_max, p.diplomacy),
                                                            ("Intrigue", p.intrigue_max, p.intrigue)) if held > now]
        why = (f" The base counts the highest {' and '.join(kept)} held in play, which a fall does not lower."
               if kept else "")
        if kept and o.get("since") is None:  # a typo in play is corrected, not a fall (docs/rulings.md)
            why += (" If that was a mistake, set the score again with `since:` the round it first counted in (the "
                    "next round if none is open): the highest held is then what was held before that round.")
        out = [reply(f"{p.name}{p.state}: D {p.diplomacy} / C {p.command} / I {p.intrigue}, d3 {p.roll}. Votes "
                     f"{p.votes} = base {b.base} + electors {b.electors} + planets {b.planets} + misc {b.misc} + "
                     f"bonus {b.bonus}.{why}", ephemeral=True)]
        if p.renamed and e.setup is None:  # names and houses are public (as /player add's join line); set-up is quiet
            was = {k: old for k, old, _ in p.renamed}
            now = {k: new for k, _, new in p.renamed}
            said_name = f"**{was['name']}** is now called **{p.name}**" if "name" in was else f"**{p.name}**"
            house = ("" if "faction" not in now else f" and is of {now['faction']}" if now["faction"] and "name" in was
                     else f" is now of {now['faction']}" if now["faction"] else
                     " and has no faction" if "name" in was else " now has no faction")
            out.append(Outgoing(ToChannel(g.channel_id), f"{said_name}{house} in **{g.name}** (corrected by "
                                                         f"<@{ctx.actor.id}>)."))
        return out

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.ledger.set_player(
        g.id, user_id=user.id, diplomacy=o.get("diplomacy"), command=o.get("command"), intrigue=o.get("intrigue"),
        misc=o.get("misc"), active=o.get("active"), since=o.get("since"), name=o.get("name"),
        faction=None if o.get("faction") is None else "" if o["faction"].strip().lower() == "none" else o["faction"],
        roll=o.get("roll"), actor=ctx.actor.id, source_id=ctx.source_id), said,
        reevaluate=o.get("active") is not None, correction=True, setup=True)


async def remove_player(app: App, ctx: Ctx, g: GameView, user: UserRef) -> list[Outgoing]:
    """``Front.remover`` (``/player remove``, ``bot/actions/players.py``): the player leaves the Landsdraad game
    (``engine/service/landsdraad/removal.py``); open player-majority votes are judged again on the new count, in the
    same transaction, which owes what it all posts (``edited``)."""

    def said(e: Edited[Removal], _place: object) -> list[Outgoing]:
        r = e.done
        public = f"**{r.name}** has left **{g.name}** (removed by <@{ctx.actor.id}>); votes in play now {r.in_play}."
        if r.was_ag:
            public += " The office of Adjutant General is vacant."
        if r.ag_ballots:
            public += (f" {r.ag_ballots} ballot{'s' if r.ag_ballots != 1 else ''} of the open AG election "
                       f"(by or for {r.name}) no longer count{'s' if r.ag_ballots == 1 else ''}.")
        private = [f"Removed {r.name} from {g.name}. Votes in play now {r.in_play}."]
        theirs: list[str] = []
        if r.round_ballot:
            private.append("Their ballot in the open round no longer counts.")
            theirs.append("Your ballot in the open round no longer counts.")
        if r.supports:
            private.append(f"Their support of {r.supports} open player-majority vote{'s' if r.supports != 1 else ''}"
                           " was withdrawn.")
            theirs.append("Your support of open player-majority votes was withdrawn.")
        if r.was_ag:
            theirs.append("The office of Adjutant General you held is vacant.")
        private.append("Their history stays in /log and the export; /player add brings them back.")
        if e.setup is not None:  # during set-up the summary is edited instead (quiet set-up; play-test Y2)
            private.append("The game is being set up, so the channel is not told: the set-up summary is edited, and "
                           "a player removed before the first round opens does not count for the Pot.")
            return [reply(" ".join(private), ephemeral=True), removal_dm(user.id, g, ctx, theirs)]
        return [reply(" ".join(private), ephemeral=True), Outgoing(ToChannel(g.channel_id), public),
                removal_dm(user.id, g, ctx, theirs)]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.removal.remove_player(
        g.id, user_id=user.id, actor=ctx.actor.id, source_id=ctx.source_id), said, reevaluate=True, setup=True,
        joins=(user.id,))


@command("holding add", "Give a player an Elector or a planet.",
         Option("player", UserRef, "the player who controls it", True),
         Option("kind", str, "elector or planet", True, ("elector", "planet")),
         Option("name", str, "its name, e.g. Count Jasek or Deneb", True),
         Option("tier", str, "an Elector's tier", choices=("weak", "average", "strong")),
         Option("quality", str, "a planet's quality (a Homeworld needs none)", choices=("poor", "average", "rich")),
         Option("votes", int, "an Elector's votes", min_value=0),
         Option("homeworld", bool, "the planet is the player's Homeworld (no votes, no bonus)"),
         Option("since", int, "a correction: the round it should have counted from (moderators are told what it "
                "changes)", min_value=1),
         moderator=True)
async def holding_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    user = user_option(o, "player")
    kind = o["kind"]
    wanted, other = ("tier", "quality") if kind == "elector" else ("quality", "tier")
    if o.get(other) is not None:
        raise RuleError(f"An {kind} has a {wanted}, not a {other}." if kind == "elector"
                        else f"A {kind} has a {wanted}, not a {other}.")
    grade = o.get(wanted)  # the service asks for it, except for a Homeworld, which needs no quality
    homeworld = bool(o.get("homeworld"))
    what = holding_words(kind, grade, homeworld)

    def said(e: Edited[PlayerView], _place: object) -> list[Outgoing]:
        return [reply(f"{o['name'].strip()} ({what}) now belongs to {e.done.name}, who has {e.done.votes} votes.",
                      ephemeral=True)]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.ledger.add_holding(
        g.id, user_id=user.id, kind=kind, name=o["name"].strip(), grade=grade, votes=o.get("votes"),
        homeworld=homeworld, since=o.get("since"), actor=ctx.actor.id, source_id=ctx.source_id), said,
        correction=True, setup=True)


@command("holding set", "Correct an Elector's tier or votes, or a planet's quality or Homeworld mark.",
         Option("player", UserRef, "the player who controls it", True),
         Option("name", str, "the holding's name", True, autocomplete="holding"),
         Option("tier", str, "an Elector's tier", choices=("weak", "average", "strong")),
         Option("votes", int, "an Elector's votes", min_value=0),
         Option("quality", str, "a planet's quality", choices=("poor", "average", "rich")),
         Option("homeworld", bool, "the planet is the player's Homeworld (no votes, no bonus)"),
         Option("since", int, "a correction: the round it should have counted from (moderators are told what it "
                "changes)", min_value=1),
         moderator=True)
async def holding_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """What ``/holding remove`` then ``/holding add`` would do, in one transaction (``LedgerService.set_holding``);
    a tier is an Elector's, a quality a planet's (the service knows which the holding is)."""
    g = require_game(game)
    user = user_option(o, "player")
    named = inert_name(o["name"]) or o["name"].strip()
    tier, quality = o.get("tier"), o.get("quality")

    def said(e: Edited[PlayerView], _place: object) -> list[Outgoing]:
        h = next((h for h in e.done.holdings if h.name.lower() == named.lower()), None)
        what = "" if h is None else f" ({holding_words(h.kind, h.grade, h.homeworld)}, {h.votes} votes)"
        return [reply(f"Corrected {h.name if h else named}{what}; {e.done.name} now has {e.done.votes} votes.",
                      ephemeral=True)]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.ledger.set_holding(
        g.id, user_id=user.id, name=o["name"].strip(), tier=tier, quality=quality, votes=o.get("votes"),
        homeworld=o.get("homeworld"), since=o.get("since"), actor=ctx.actor.id, source_id=ctx.source_id), said,
        correction=True, setup=True)


@command("holding remove", "Take an Elector or planet away from a player.",
         Option("player", UserRef, "the player who controls it", True),
         Option("name", str, "the holding's name", True, autocomplete="holding"),
         Option("since", int, "a correction: the round it should have counted from (moderators are told what it "
                "changes)", min_value=1),
         moderator=True)
async def holding_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    user = user_option(o, "player")
    named = inert_name(o["name"]) or o["name"].strip()  # as it was kept: typed with markdown, it was found (P4.1)

    def said(e: Edited[PlayerView], _place: object) -> list[Outgoing]:
        return [reply(f"Removed {named} from {e.done.name}, who now has {e.done.votes} votes.", ephemeral=True)]

    return await edited(app, ctx, g, lambda: app.clerk.landsdraad.ledger.remove_holding(
        g.id, user_id=user.id, name=o["name"].strip(), since=o.get("since"), actor=ctx.actor.id,
        source_id=ctx.source_id), said, correction=True, setup=True)


@command("round open", "Open the next round's crisis vote.",
         Option("crisis", str, "the crisis text", True),
         Option("deadline", str, "a duration such as 2h30m, a time such as 2026-03-01 20:00, or a Discord timestamp"),
         moderator=True)
async def round_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    now = app.clerk.clock.now()
    read = await game_deadline(app, g.id, o["deadline"]) if o.get("deadline") else None

    cards: list[victory_posts.Charted] = []

    def announced(opened: RoundOpened) -> list[Outgoing]:
        """The announcement, the Forecast (R3-08: read in the opening's transaction; its chart added to its row
        after the commit, ``charted_cards``), the ballot DMs and the Adjutant General's note, owed in the opening's
        transaction (``AnswerWith``: a kill after its commit loses none of them)."""
        view = opened.round
        # A careful moderator would want to know that nobody can vote yet (docs/rulings.md "A round opened with no
        # players"): the round stands, players added while it is open can vote in it.
        empty = (f"\nNote: {g.name} has no players yet, so nobody can vote in this round. Players you add with "
                 "/player add while it is open can vote in it (`Vote: Aye` by DM, or /vote).") if not opened.players \
            else ""
        out = [reply(f"Round {view.number} is open and announced.{read_as(o.get('deadline'), read)}{empty}",
                     ephemeral=True),
               Outgoing(ToChannel(g.channel_id), card=round_opened_card(view, now),
                        keep=Keep(g.id, opening_card_key(view.number)))]
        cards.clear()
        if opened.forecast is not None:
            forecast = victory_posts.forecast_post(opened.forecast, taken=f"start of round {view.number}")
            cards.append((forecast, opened.forecast))
            out.append(forecast)
        out += round_open_dms(view, opened.players, now)
        if opened.adjutant is not None:
            out.append(Outgoing(ToUser(opened.adjutant), text=(
                f"As Adjutant General of {g.name} you have one free Court Gossip action in round {view.number}. "
                "Tell the moderator how you use it.")))
        return out

    answered = AnswerWith(ctx.answering, announced)
    opened = await app.clerk.landsdraad.rounds.open_round_announced(
        g.id, crisis=o["crisis"], deadline=read.when if read else None, actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answered.owed)
    app.deadlines_changed()
    return await victory_posts.charted_cards(app, answered, answered.out(opened), cards)


@command("faction add", "Add a temporary faction to the open round.",
         Option("name", str, "the faction's name, e.g. Hawks", True),
         Option("votes", int, "its votes", True, min_value=1),
         Option("stance", str, "aye, nay, abstain, or d6 to roll on a table", True, ("aye", "nay", "abstain", "d6")),
         Option("table", str, "for d6: e.g. 1-3 nay, 4 abstain, 5-6 aye"),
         Option("roll", int, "for d6: the face rolled, if you rolled it yourself", min_value=1, max_value=6),
         moderator=True)
async def faction_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    note = " Your roll is kept secret until the close." if o.get("roll") is not None else ""
    # the opening card's edit, owed in the write's transaction
    answered: AnswerWith[RoundView] = AnswerWith(ctx.answering, lambda view: [
        reply(f"Added {o['name'].strip()} to round {view.number}; its opening card now shows it.{note}",
              ephemeral=True), opening_card(app, g, view)])
    view = await app.clerk.landsdraad.rounds.add_faction(g.id, name=o["name"], votes=o["votes"], stance=o["stance"],
                                                         table=o.get("table"), roll=o.get("roll"), actor=ctx.actor.id,
                                                         source_id=ctx.source_id, answer=answered.owed)
    return answered.out(view)


@command("faction remove", "Take a temporary faction out of the open round (to correct it: remove, then add again).",
         Option("name", str, "the faction's name (any case)", True), moderator=True)
async def faction_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)

    def said(removed: tuple[RoundView, FactionView]) -> list[Outgoing]:  # owed in the write's transaction
        view, gone = removed
        was = f"{gone.votes} votes, {gone.table or gone.stance}"
        return [reply(f"Removed {gone.name} ({was}) from round {view.number}; its opening card now leaves it out. "
                      "/faction add puts it back as it should be.", ephemeral=True), opening_card(app, g, view)]

    answered = AnswerWith(ctx.answering, said)
    removed = await app.clerk.landsdraad.rounds.remove_faction(g.id, name=o["name"], actor=ctx.actor.id,
                                                               source_id=ctx.source_id, answer=answered.owed)
    return answered.out(removed)


def opening_card(app: App, g: GameView, view: RoundView) -> Outgoing:
    """The round's opening card, edited in place (its kept message) after a temporary faction is added or
    removed."""
    return Outgoing(ToChannel(g.channel_id), card=round_opened_card(view, app.clerk.clock.now()),
                    keep=Keep(g.id, opening_card_key(view.number)))


@command("round status", "Votes in play and who has voted (not how).", reads=True, public=True)
async def round_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    status = await app.clerk.landsdraad.rounds.round_status(require_game(game).id)
    return [reply(waiting_text(await app.clerk.outbox.owed_count()), card=status_card(status, app.clerk.clock.now()))]


@command("round close", "Close the open round now, tally it and announce the result.", moderator=True)
async def round_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    answered = await held_answer(app, ctx.answering, g)  # a held result's card and warning, owed with the close
    result = await app.clerk.landsdraad.rounds.close_round(g.id, actor=ctx.actor.id, source_id=ctx.source_id,
                                                           answer=answered.owed)
    app.deadlines_changed()
    posted = {"held": "The result is held: see the moderators' warning.",
              "coarse": "The result is posted without its totals."}.get(result.shown, "The result is posted.")
    return [reply(f"Round {result.round.number} closed: {result.outcome}. {posted}", ephemeral=True),
            *await round_closed(app, result, held=answered.out(result), answering=ctx.answering)]


@command("round crisis", "Correct the open round's crisis text (opened with the wrong crisis or options, or a typo).",
         Option("text", str, "the crisis text as it should read", True),
         Option("reason", str, "why, e.g. the options were swapped (posted with the correction)"),
         moderator=True)
async def round_crisis(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test Y5: the opening card is edited, the channel told what it read and reads now, every active player
    DMed (a voter with their own ballot, which stands until they change it); owed in the write's transaction."""
    g = require_game(game)

    def said(c: CrisisCorrected) -> list[Outgoing]:
        n = c.round.number
        why = f" ({c.reason})" if c.reason else ""
        was = c.was if len(c.was) <= 300 else c.was[:299] + "…"
        public = (f"The moderators corrected the crisis of round {n}{why}: its opening card now shows it as it "
                  f"should read. It had read:\n> {was}\nA ballot already cast stands until its voter changes it "
                  "(`Revote:`) before the deadline.")
        dms = [Outgoing(ToUser(user), text=(
            f"The moderators corrected the crisis of round {n} of {g.name}{why}. It now reads:\n> {c.round.crisis}\n"
            + (f"Your ballot (**{ballot.capitalize()}**) stands; `Revote: Aye|Nay|Abstain` changes it until the "
               "deadline." if ballot else "You have not voted yet: DM me `Vote: Aye|Nay|Abstain`.")))
            for user, ballot in c.players]
        voted = sum(1 for _, b in c.players if b)
        return [reply(f"Round {n}'s crisis is corrected; its opening card is edited, the channel told, and each "
                      f"player DMed ({voted} who had voted: their ballots stand until they change them).",
                      ephemeral=True), opening_card(app, g, c.round), Outgoing(ToChannel(g.channel_id), public), *dms]

    answered = AnswerWith(ctx.answering, said)
    corrected = await app.clerk.landsdraad.rounds.correct_crisis(g.id, crisis=o["text"], reason=o.get("reason"),
                                                                 actor=ctx.actor.id, source_id=ctx.source_id,
                                                                 answer=answered.owed)
    return answered.out(corrected)


def _numbers(what: str, numbers: tuple[int, ...] | tuple[str, ...]) -> str:
    return f"{what} " + ", ".join(f"#{n}" if isinstance(n, int) else str(n) for n in numbers)


def void_news(g: GameView, v: RoundVoided) -> tuple[str, str, str]:
    """``/round void``'s public correction, the moderator's answer and each voter's DM (play-test Y6, Y7). No
    ballot is named anywhere: a voter's DM says only that theirs no longer counts."""
    n = v.round.number
    why = f" ({v.reason})" if v.reason else ""
    carried = []
    if v.carried_votes:
        carried.append(f"{v.carried_votes} open player vote{'' if v.carried_votes == 1 else 's'}")
    if v.carried_elections:
        carried.append(_numbers("AG election", v.carried_elections))
    goes_on = (f" What was open in it ({' and '.join(carried)}) stays open and goes on into the next round."
               if carried else "")
    if v.was == "open":
        public = (f"**Round {n} of {g.name} is void**: the moderators called it off{why} before it closed. Nothing in "
                  "it counts: it has no result, no Adjutant General check (no income is docked) and its ballots are "
                  f"void. Its dice seed is revealed: `/verify round:{n}` checks it.{goes_on} The moderators open its "
                  "crisis again as a new round if it is still to be voted, with new dice.")
        dm_what = "it was called off before its close"
    else:
        r = v.result
        if r is None or r.shown == "held":
            what = "The result held back from it will not be posted"
        else:
            what = f"The result posted for it (the measure {'PASSED' if r.outcome == 'passed' else 'FAILED'})"
            what += " no longer stands"
        penalty = (f", nor the {r.income_penalty} MS docked from every player's income for want of an Adjutant "
                   "General" if r is not None and r.income_penalty else "")
        stands = []
        if r is not None and r.elections_closed:
            stands.append(_numbers("AG election", r.elections_closed) + " closed with it")
        if r is not None and r.expired:
            stands.append(f"the player votes that expired at its end ({', '.join(r.expired)})")
        standing = (f" What its end did besides stands: {'; '.join(stands)}." if stands else "")
        public = (f"**Correction: round {n} of {g.name} is void.** The moderators voided it{why} after it closed. "
                  f"{what}: nothing it decided counts, not its outcome, not Weathervane{penalty}, and its ballots "
                  f"are void.{standing} The moderators open its crisis again as a new round if it is still to be "
                  "voted, with new dice.")
        dm_what = "its posted result was withdrawn" if r is None or r.shown != "held" else "its result was withdrawn"
    dm = (f"Round {n} of {g.name} was voided by the moderators{why}: {dm_what}. Your ballot in it no longer counts. "
          "If its crisis is put to the vote again as a new round, you vote again then.")
    voters = len(v.voters)
    card = " and its opening card edited" if v.was == "open" else ""
    answer = (f"Round {n} is void (it was {v.was}). The channel is told{card}, and "
              f"{voters} player{'' if voters == 1 else 's'} who had a ballot in it "
              f"{'is' if voters == 1 else 'are'} DMed that it no longer counts.{goes_on if v.was == 'open' else ''} "
              "`/round open` puts its crisis to the vote again as a new round, with new dice.")
    return public, answer, dm


@command("round void", "Void the latest round: opened by mistake, or closed too early (no later round opened).",
         Option("reason", str, "why, e.g. opened by mistake or closed too early (posted with the correction)"),
         Option("round", int, "the round (default: the latest; only the latest can be voided)", min_value=1),
         moderator=True)
async def round_void(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Play-test Y6, Y7: the channel told, an open round's opening card edited, every player who had a ballot in it
    DMed; owed in the write's transaction."""
    g = require_game(game)

    def said(v: RoundVoided) -> list[Outgoing]:
        public, answer, dm = void_news(g, v)
        card = [opening_card(app, g, v.round)] if v.was == "open" else []
        return [reply(answer, ephemeral=True), *card, Outgoing(ToChannel(g.channel_id), public),
                *(Outgoing(ToUser(user), text=dm) for user in v.voters)]

    answered = AnswerWith(ctx.answering, said)
    voided = await app.clerk.landsdraad.rounds.void_round(g.id, reason=o.get("reason"), number=o.get("round"),
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(voided)


@command("round release", "Post a result the disclosure check held back, in full.",
         Option("number", int, "the round (default: the last one)", min_value=1), moderator=True)
async def round_release(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    result = await app.clerk.landsdraad.rounds.release_result(g.id, number=o.get("number"), actor=ctx.actor.id,
                                                              source_id=ctx.source_id)
    return [reply(f"Round {result.round.number}'s result is released and posted in full.", ephemeral=True),
            *await round_closed(app, result, answering=ctx.answering)]


@command("vote", "Cast or change your crisis ballot (only you see the answer).",
         Option("choice", str, "Aye, Nay or Abstain (leave it out to get buttons)", False, OPTIONS),
         Option("game", str, "the game, if you play in several", autocomplete="game"),
         game="any")
async def vote(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    if o.get("choice") is None:
        return await ballot_offer(app, ctx, g)
    choice = str(o["choice"]).lower()
    if choice not in OPTIONS:
        raise RuleError(f"“{o['choice']}” is not a choice; pick Aye, Nay or Abstain.")
    ballot = BallotCommand(Choice(choice), None, False)
    receipt = await app.clerk.landsdraad.ballots.cast_ballot(g.id, user_id=ctx.actor.id, command=ballot,
                                                             received_at=ctx.at, source_id=ctx.source_id)
    if not receipt.duplicate:
        ballot_recorded("landsdraad", "crisis")
    return [reply(receipt_text(receipt, app.clerk.clock.now()), ephemeral=True)]


@command("me", "Your own votes and where they come from (only you see it).",
         Option("game", str, "the game, if you play in several", autocomplete="game"), game="any", reads=True)
async def me(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    p = await app.clerk.landsdraad.ledger.player(g.id, ctx.actor.id)
    return [reply(card=player_card(p, g.name), ephemeral=True)]
