"""The Convocate board on Discord (rules-spec §4.1): /board, the players (/convocate player), the per-game rulings
(/convocate rulings), the cards (/card add, set, remove), the Galactic Factors (/factor set) and Directives."""

from __future__ import annotations

from typing import Any

from bot.actions.admin import change_setting
from bot.actions.commands import App, Option, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate import charts, errata
from bot.actions.convocate.guard import command, moderates, user_id_of
from bot.actions.convocate.render import board_card, setup_card
from bot.actions.drawing import picture
from bot.actions.moderators import moderator_target
from bot.actions.outbox import AnswerWith, Card, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from bot.actions.setup import quietly_owed, summary_post
from engine.convocate.board import SOVEREIGNTIES, Kind, PlayerState
from engine.convocate.board import Card as CardState
from engine.convocate.rulings import SETTINGS
from engine.core.errors import RuleError
from engine.service.convocate.board import setup_in
from engine.service.convocate.errata import RepealConsequences, consequences_in
from engine.service.convocate.views import BoardView, CardDone, FactorSet, card_line
from engine.service.followed import Followed
from engine.service.views import GameView

ROUTES = Routes()
"""The board's commands (the package's ``ROUTES`` merges them)."""
KINDS = tuple(k.value for k in Kind)
SOVEREIGNTY_NAMES = tuple(name for name, _ in SOVEREIGNTIES.values())
MOVED = ("The rulings now live under /game settings (its Convocate section), which shows and changes them; "
         "/convocate rulings is kept as an alias.")


async def setup_summary(app: App, game: GameView) -> Card | None:
    """``Front.setup``: a Convocate table is being set up until its first turn begins (the first /phase next)."""
    view = await app.clerk.convocate.board.board(game.id)
    if view.board.active is not None or view.board.turn:
        return None
    return setup_card(view, app.clerk.clock.now())


@command(ROUTES, "board", "The Convocate board: Standing Vote, political control, Seats, lockouts, Factors, Statutes.",
                 Option("cards", bool, "also list every card on the board"), reads=True, public=True)
async def board(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    view = await app.clerk.convocate.board.board(g.id)
    chart = await picture("board.png", charts.board_png, charts.board_alt, view)  # the public board (§4.2.9)
    return [reply(card=board_card(view, app.clerk.clock.now(), cards=bool(o.get("cards"))), file=chart.file,
                  alt=chart.alt)]


async def final_board(app: App, game: GameView) -> list[Outgoing]:
    """``Front.final_post``: the board as the game ended, its final result (play-test X4.1). The rules name no end of
    the Convocate's politics, so its result is the public board (§4.2.9): each Standing Vote, who holds political
    control, the Statutes in force and whose, the Factors, and a Motion the end left on the floor."""
    view = await app.clerk.convocate.board.board(game.id)
    chart = await picture("board.png", charts.board_png, charts.board_alt, view)
    return [Outgoing(ToChannel(game.channel_id), f"The board of **{game.name}** as it ended:",
                     card=board_card(view, app.clerk.clock.now()), file=chart.file, alt=chart.alt)]


@command(ROUTES, "convocate player", "Seat a player at the table, or change their sovereignty, turn order, Homeworld "
                 "or temporary Vote.",
                 Option("user", UserRef, "the player", True),
                 Option("sovereignty", str, "their sovereignty (gives their preferred GOVT side)",
                        choices=SOVEREIGNTY_NAMES),
                 Option("order", int, "their place in turn order (default: after the others)", min_value=1),
                 Option("homeworld", str, "the Homeworld card that is theirs (default: the first of theirs put on)",
                        autocomplete="homeworld"),
                 Option("temp", int, "a temporary +N Vote until end of turn (0 ends it)"),
                 moderator=True)
async def convocate_player(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    user = user_option(o, "user")
    back = await app.clerk.convocate.removal.left_with(g.id, user.id)

    def said(p: PlayerState) -> tuple[list[Outgoing], list[Outgoing]]:  # owed with the write (``quietly_owed``)
        home = f", Homeworld {p.homeworld}" if p.homeworld else ""
        temp = f", {p.temp:+d} Vote until end of turn" if p.temp else ""
        answer = f"{p.name}: {p.sovereignty}, turn order {p.order}{home}{temp}."
        public: list[Outgoing] = []
        if back is not None:  # play-test U2.1: seated again, but what left the table with them did not come back
            left, returned = back
            lost = []
            if left:
                lost.append(f"the cards they owned, which left the board ({', '.join(left)}), are not back on it: "
                            "/card add puts each back as it was")
            if returned:
                lost.append("the cards they controlled went back to their owners and stay theirs ("
                            + ", ".join(f"{c} to {who}" for c, who in returned)
                            + "): /card set name:… controller:… gives one back")
            answer += (f" {p.name} is seated again" + (f"; {'; '.join(lost)}." if lost else ".")
                       + " Their Resource Pool starts empty.")
            public.append(Outgoing(ToChannel(g.channel_id), text=(
                f"**{p.name}** is back at the table of **{g.name}** ({p.sovereignty}, turn order {p.order})"
                + (": the cards that left with them are not back on the board until the moderators put them back."
                   if left else "."))))
        return [reply(answer, ephemeral=True)], public

    # the set-up summary made of the board as the write leaves it, read in its transaction, and owed there
    return await quietly_owed(app, ctx, g, lambda: app.clerk.convocate.board.set_player(
        g.id, user_id=user.id, name=user.name, sovereignty_name=o.get("sovereignty"), order=o.get("order"),
        homeworld=o.get("homeworld"), temp=o.get("temp"), actor=ctx.actor.id, source_id=ctx.source_id),
        setup_in, lambda view: setup_card(view, app.clerk.clock.now()), said, joins=lambda _p: (user.id,))


@command(ROUTES, "convocate rulings", "Show the Convocate rulings this game plays by, or change one (moderators).",
                 Option("ruling", str, "the ruling to change", choices=tuple(SETTINGS)),
                 Option("value", str, "its new value"),
                 reads=lambda o: o.get("ruling") is None and o.get("value") is None)
async def convocate_rulings(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    if o.get("ruling") is None and o.get("value") is None:
        rows = await app.clerk.convocate.board.rulings(g.id)
        lines = [f"**{name}** ({ruling}) = {value}{' (default)' if default else ''}: {about}"
                 for name, ruling, value, default, about in rows]
        return [reply(f"Convocate rulings of {g.name}:\n" + "\n".join(lines) + f"\n{MOVED}", ephemeral=True)]
    if not moderates(ctx, g):
        raise RuleError(f"Only the moderators of {g.name} can change its rulings.")
    if o.get("ruling") is None or o.get("value") is None:
        raise RuleError("Give both `ruling` and `value` to change one, or neither to see them all.")
    return await change_setting(app, ctx, g, o["ruling"], o["value"])  # /game settings' own path (found playing)


_CARD_OPTIONS = (
    Option("vote", int, "its printed Vote (a Pallarch prints 2, other Characters 1 or 0, Homeworlds 1)", min_value=0),
    Option("pallarch", bool, "a Character that is one of the Ten"),
    Option("at", str, "where a Character or Ground Unit stands: a Location, Homeworld or Seat", autocomplete="place"),
    Option("morality", str, "a Character's Morality"),
    Option("penalty", str, "a Character's Penalty, as printed"),
    Option("sovereignty", str, "a Homeworld's or Seat's sovereignty", choices=SOVEREIGNTY_NAMES),
    Option("faces", str, "a Seat's faces, e.g. prime: 0..4 directive; contested: 0..4 (default: its bloc's range)"),
)


@command(ROUTES, "card add", "Put a card on the Convocate board (players: cards they control; moderators: any).",
                 Option("kind", str, "the kind of card", True, KINDS),
                 Option("name", str, "its name, unique on the board", True),
                 Option("controller", UserRef, "who controls it (default: you)"),
                 *_CARD_OPTIONS,
                 Option("readied", bool, "false if it is activated"),
                 Option("owner", UserRef, "whose deck it came from (default: its controller)"))
async def card_add(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    answered: AnswerWith[CardDone] = AnswerWith(ctx.answering, lambda done: [
        reply(f"On the board: {card_line(done.card)}.", ephemeral=True), *_summary(app, g, done.setup)])
    return answered.out(await app.clerk.convocate.board.add_card(
        g.id, actor=ctx.actor.id, moderator=moderates(ctx, g), kind=o["kind"], name=o["name"], controller=user_id_of(o,
                                                                                                          "controller"),
        owner=user_id_of(o, "owner"), vote=o.get("vote"), pallarch=bool(o.get("pallarch")), at=o.get("at"),
        morality=o.get("morality"), penalty=o.get("penalty"), sovereignty_name=o.get("sovereignty"),
        faces=o.get("faces"), readied=o.get("readied"), source_id=ctx.source_id, answer=answered.owed))


def _summary(app: App, g: GameView, setup: BoardView | None) -> list[Outgoing]:
    """What a change to the board posts in the game channel while the table is being set up: the set-up summary,
    edited in place (``quietly_owed``), made of the board as the change left it (``setup``, read in its transaction), so
    it is owed with the change (``AnswerWith``); nothing once a turn has begun (None)."""
    return [summary_post(g, setup_card(setup, app.clerk.clock.now()))] if setup is not None else []


@command(ROUTES, "card set",
                 "Change a card on the board (its controller, or a moderator; only moderators move control).",
                 Option("name", str, "the card", True, autocomplete="card"),
                 Option("controller", UserRef, "its new controller (moderators)"),
                 *_CARD_OPTIONS,
                 Option("readied", bool, "readied (true) or activated (false)"),
                 Option("on_map", bool, "whether it is on the Map"),
                 Option("suppressed", bool, "whether its Vote is suppressed"),
                 Option("bonus", int, "a temporary +N Vote on it until end of turn (0 ends it)"),
                 Option("face", str, "a Seat's face now up, e.g. contested"),
                 Option("since", int, "moderators, a correction: the turn the card was wrong from", min_value=1))
async def card_set(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    changes = {k: v for k, v in o.items() if k not in ("name", "since")}
    if "controller" in changes:
        changes["controller"] = user_id_of(o, "controller")
    # a correction (``since``): what it changes in the resolved Repeals is told to the moderators privately, read in
    # the write's transaction and owed there with the rest (``clerk.followed``; their place is read before the write)
    place = await moderator_target(app, g) if o.get("since") is not None else None
    source_id = ctx.source_id

    async def read(session: Any, game_id: int) -> RepealConsequences | None:
        return await consequences_in(session, game_id, source_id)

    answered: AnswerWith[Followed[CardDone, RepealConsequences | None]] = AnswerWith(ctx.answering, lambda f: [
        reply(f"Now: {card_line(f.done.card)}.{_captured(f.done.card, changes)}", ephemeral=True),
        *_summary(app, g, f.done.setup), *errata.told_in(place, g, f.seen)])
    return answered.out(await app.clerk.followed.write(g.id, lambda: app.clerk.convocate.board.set_card(
        g.id, actor=ctx.actor.id, moderator=moderates(ctx, g), name=o["name"], changes=changes, since=o.get("since"),
        source_id=source_id), read, source_id=source_id, answer=answered.owed))


def _captured(card: CardState, changes: dict[str, Any]) -> str:
    """A Homeworld given another controller stays its owner's Homeworld, as a captured one does (its owner's
    sovereignty and Homeworld route): said, with the correction for one put on the board for the wrong player
    (play-test U2.3)."""
    if card.kind is not Kind.HOMEWORLD or "controller" not in changes or card.owner in (None, card.controller):
        return ""
    who = card.controller or "nobody"
    return (f"\n{card.name} stays {card.owner}'s Homeworld ({card.owner} owns it; sovereignty "
            f"{card.sovereignty or 'none'}): {who} controls it, as when a Homeworld is captured. If it was put on the "
            f"board for the wrong player, `/card remove name:{card.name}` and `/card add` it again with the right "
            "controller: its owner, its sovereignty and that player's Homeworld then follow.")


@command(ROUTES, "card remove", "Take a card off the board (its controller, or a moderator).",
                 Option("name", str, "the card", True, autocomplete="card"))
async def card_remove(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    answered: AnswerWith[CardDone] = AnswerWith(ctx.answering, lambda done: [
        reply(f"Removed {done.card.name} from the board.", ephemeral=True), *_summary(app, g, done.setup)])
    return answered.out(await app.clerk.convocate.board.remove_card(
        g.id, actor=ctx.actor.id, moderator=moderates(ctx, g), name=o["name"], source_id=ctx.source_id,
        answer=answered.owed))


@command(ROUTES, "factor set", "Set a Galactic Factor, −4..+4 (a new name adds a Factor).",
                 Option("name", str, "the Factor, e.g. GOVT", True, autocomplete="factor"),
                 Option("value", int, "its value", True, min_value=-4, max_value=4),
                 moderator=True)
async def factor_set(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None

    def said(f: FactorSet) -> list[Outgoing]:  # owed in the change's transaction (``AnswerWith``)
        was = "added" if f.old is None else f"was {f.old:+d}".replace("+0", "0")
        return [reply(f"{f.name} set.", ephemeral=True), *([] if f.setting_up else [Outgoing(
            ToChannel(g.channel_id), text=f"The moderators set **{f.name}** to {f.new:+d} ({was}).".replace("+0 ",
                                                                                                           "0 "))]),
                *_summary(app, g, f.setup)]  # during set-up the summary instead (as after /card add)

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.convocate.board.set_factor(
        g.id, name=o["name"], value=o["value"], actor=ctx.actor.id, source_id=ctx.source_id, answer=answered.owed))


@command(ROUTES, "directive", "Set your current Directive (a Galactic Factor, or none); moderators set anyone's.",
                 Option("factor", str, "the Factor, e.g. GOVT, or none", True, autocomplete="factor"),
                 Option("player", UserRef, "whose Directive (moderators; default: yours)"))
async def directive(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    target = user_id_of(o, "player") or ctx.actor.id

    def said(done: tuple[str, str | None]) -> list[Outgoing]:  # owed in the change's transaction (``AnswerWith``)
        text = f"{done[0]}'s current Directive is now {done[1] or 'none'}."
        return [reply(text, ephemeral=True), Outgoing(ToChannel(g.channel_id), text=text)]

    answered = AnswerWith(ctx.answering, said)
    done = await app.clerk.convocate.board.set_directive(g.id, actor=ctx.actor.id, moderator=moderates(ctx, g),
                                                         user_id=target, factor=o["factor"],
                                                         source_id=ctx.source_id, answer=answered.owed)
    return answered.out(done)
