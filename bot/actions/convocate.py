"""The Convocate on Discord (rules-spec §4): the board commands, /board, /commit, /push, /statute, Motions
(``Motion: <name> by <Convocant>`` in the game channel, or /motion move) with the offer to second by DM
(``Second: <Convocant>`` / ``Second: no``, or /motion second), the Motion of Repeal (``Motion of Repeal: <Statute>
by <Convocant>``, or /repeal), /phase next, and the offer's timeout. Every command refuses in a game of another
ruleset."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.actions.commands import AmbiguousGame, App, Handler, Option, game_of_user, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.convocate_render import (
    board_card,
    committed_text,
    declared_card,
    destroyed_text,
    moved_card,
    offer_moves_text,
    offer_text,
    phase_text,
    pushed_text,
    repeal_card,
    resolved_card,
    section_text,
)
from bot.actions.front import Front
from bot.actions.outbox import CUSTOM_ID_MAX, Button, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import button_action, command, dm_form, thread_form
from engine.convocate.board import SOVEREIGNTIES, Kind
from engine.convocate.motions import MotionCard
from engine.convocate.parsing import MoveMotion, MoveRepeal, SecondAnswer, looks_like, parse, parse_names
from engine.convocate.rulings import SETTINGS
from engine.core.errors import NotFoundError, RuleError
from engine.service.convocate_views import MotionView
from engine.service.uow import Duplicate
from engine.service.views import GameView

RULESET = "convocate"
KINDS = tuple(k.value for k in Kind)
SOVEREIGNTY_NAMES = tuple(name for name, _ in SOVEREIGNTIES.values())
TWICE = "That message reached me twice; it was recorded once, the first time. Nothing was changed."


def _cv(game: GameView | None, name: str) -> GameView:
    """The game, if it plays the Convocate; a clear refusal otherwise (forms; commands are refused by dispatch)."""
    if game is None:
        raise RuleError("This command needs a game.")
    if game.ruleset != RULESET:
        raise RuleError(f"{name} is a Convocate command; {game.name} plays {game.ruleset.capitalize()}.")
    return game


def cv_command(name: str, description: str, *options: Option, moderator: bool = False, game: str = "channel"
               ) -> Callable[[Handler], Handler]:
    """``@command`` for the Convocate: ``dispatch`` refuses it in a game of another ruleset."""
    def register(handler: Handler) -> Handler:
        async def guarded(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
            return await handler(app, ctx, _cv(g, f"/{name}"), o)

        command(name, description, *options, moderator=moderator, game=game, ruleset=RULESET)(guarded)
        return handler

    return register


def _mod(ctx: Ctx, g: GameView | None) -> bool:
    return g is not None and ctx.actor.moderates(g.moderator_role_id)


def _user(o: dict[str, Any], name: str) -> int | None:
    value = o.get(name)
    return value.id if isinstance(value, UserRef) else None


# -- the board ------------------------------------------------------------------------------------------------


@cv_command("board", "The Convocate board: Standing Vote, political control, Seats, lockouts, Factors, Statutes.",
            Option("cards", bool, "also list every card on the board"))
async def board(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    view = await app.clerk.cv_board(g.id)
    return [reply(card=board_card(view, app.clerk.clock.now(), cards=bool(o.get("cards"))))]


@cv_command("convocate player", "Seat a player at the table, or change their sovereignty, turn order, Homeworld or "
            "temporary Vote.",
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
    p = await app.clerk.cv_set_player(g.id, user_id=user.id, name=user.name, sovereignty_name=o.get("sovereignty"),
                                      order=o.get("order"), homeworld=o.get("homeworld"), temp=o.get("temp"),
                                      actor=ctx.actor.id, source_id=ctx.source_id)
    home = f", Homeworld {p.homeworld}" if p.homeworld else ""
    temp = f", {p.temp:+d} Vote until end of turn" if p.temp else ""
    return [reply(f"{p.name}: {p.sovereignty}, turn order {p.order}{home}{temp}.", ephemeral=True)]


@cv_command("convocate rulings", "Show the Convocate rulings this game plays by, or change one (moderators).",
            Option("ruling", str, "the ruling to change", choices=tuple(SETTINGS)),
            Option("value", str, "its new value"))
async def convocate_rulings(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    if o.get("ruling") is None and o.get("value") is None:
        rows = await app.clerk.cv_rulings(g.id)
        lines = [f"**{name}** ({ruling}) = {value}{' (default)' if default else ''}: {about}"
                 for name, ruling, value, default, about in rows]
        return [reply(f"Convocate rulings of {g.name}:\n" + "\n".join(lines), ephemeral=True)]
    if not _mod(ctx, g):
        raise RuleError(f"Only the moderators of {g.name} can change its rulings.")
    if o.get("ruling") is None or o.get("value") is None:
        raise RuleError("Give both `ruling` and `value` to change one, or neither to see them all.")
    name, old, new = await app.clerk.cv_change_ruling(g.id, name=o["ruling"], value=o["value"], actor=ctx.actor.id,
                                                      source_id=ctx.source_id)
    return [reply(f"{g.name}: {name} changed from {old} to {new}.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"The moderators changed the Convocate ruling **{name}** from "
                                                   f"{old} to {new}.")]


_CARD_OPTIONS = (
    Option("vote", int, "its printed Vote (a Pallarch prints 2, other Characters 1 or 0, Homeworlds 1)", min_value=0),
    Option("pallarch", bool, "a Character that is one of the Ten"),
    Option("at", str, "where a Character or Ground Unit stands: a Location, Homeworld or Seat", autocomplete="place"),
    Option("morality", str, "a Character's Morality"),
    Option("penalty", str, "a Character's Penalty, as printed"),
    Option("sovereignty", str, "a Homeworld's or Seat's sovereignty", choices=SOVEREIGNTY_NAMES),
    Option("faces", str, "a Seat's faces, e.g. prime: 0..4 directive; contested: 0..4 (default: its bloc's range)"),
)


@cv_command("card add", "Put a card on the Convocate board (players: cards they control; moderators: any).",
            Option("kind", str, "the kind of card", True, KINDS),
            Option("name", str, "its name, unique on the board", True),
            Option("controller", UserRef, "who controls it (default: you)"),
            *_CARD_OPTIONS,
            Option("readied", bool, "false if it is activated"),
            Option("owner", UserRef, "whose deck it came from (default: its controller)"))
async def card_add(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    card = await app.clerk.cv_add_card(
        g.id, actor=ctx.actor.id, moderator=_mod(ctx, g), kind=o["kind"], name=o["name"], controller=_user(o,
                                                                                                          "controller"),
        owner=_user(o, "owner"), vote=o.get("vote"), pallarch=bool(o.get("pallarch")), at=o.get("at"),
        morality=o.get("morality"), penalty=o.get("penalty"), sovereignty_name=o.get("sovereignty"),
        faces=o.get("faces"), readied=o.get("readied"), source_id=ctx.source_id)
    from engine.service.convocate_views import card_line

    return [reply(f"On the board: {card_line(card)}.", ephemeral=True)]


@cv_command("card set", "Change a card on the board (its controller, or a moderator; only moderators move control).",
            Option("name", str, "the card", True, autocomplete="card"),
            Option("controller", UserRef, "its new controller (moderators)"),
            *_CARD_OPTIONS,
            Option("readied", bool, "readied (true) or activated (false)"),
            Option("on_map", bool, "whether it is on the Map"),
            Option("suppressed", bool, "whether its Vote is suppressed"),
            Option("bonus", int, "a temporary +N Vote on it until end of turn (0 ends it)"),
            Option("face", str, "a Seat's face now up, e.g. contested"))
async def card_set(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    changes = {k: v for k, v in o.items() if k != "name"}
    if "controller" in changes:
        changes["controller"] = _user(o, "controller")
    card = await app.clerk.cv_set_card(g.id, actor=ctx.actor.id, moderator=_mod(ctx, g), name=o["name"],
                                       changes=changes, source_id=ctx.source_id)
    from engine.service.convocate_views import card_line

    return [reply(f"Now: {card_line(card)}.", ephemeral=True)]


@cv_command("card remove", "Take a card off the board (its controller, or a moderator).",
            Option("name", str, "the card", True, autocomplete="card"))
async def card_remove(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    card = await app.clerk.cv_remove_card(g.id, actor=ctx.actor.id, moderator=_mod(ctx, g), name=o["name"],
                                          source_id=ctx.source_id)
    return [reply(f"Removed {card.name} from the board.", ephemeral=True)]


@cv_command("factor set", "Set a Galactic Factor, −4..+4 (a new name adds a Factor).",
            Option("name", str, "the Factor, e.g. GOVT", True, autocomplete="factor"),
            Option("value", int, "its value", True, min_value=-4, max_value=4),
            moderator=True)
async def factor_set(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    name, old, new = await app.clerk.cv_set_factor(g.id, name=o["name"], value=o["value"], actor=ctx.actor.id,
                                                   source_id=ctx.source_id)
    was = "added" if old is None else f"was {old:+d}".replace("+0", "0")
    return [reply(f"{name} set.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), text=f"The moderators set **{name}** to {new:+d} ({was}).".replace(
                "+0 ", "0 "))]


@cv_command("directive", "Set your current Directive (a Galactic Factor, or none); moderators set anyone's.",
            Option("factor", str, "the Factor, e.g. GOVT, or none", True, autocomplete="factor"),
            Option("player", UserRef, "whose Directive (moderators; default: yours)"))
async def directive(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    target = _user(o, "player") or ctx.actor.id
    player, value = await app.clerk.cv_set_directive(g.id, actor=ctx.actor.id, moderator=_mod(ctx, g),
                                                     user_id=target, factor=o["factor"], source_id=ctx.source_id)
    text = f"{player}'s current Directive is now {value or 'none'}."
    return [reply(text, ephemeral=True), Outgoing(ToChannel(g.channel_id), text=text)]


# -- committing, pushing, Statutes, phases ---------------------------------------------------------------------


@cv_command("commit", "Activate cards you control to add their Vote to your Resource Pool (your turn).",
            Option("cards", str, "the cards, e.g. P_A, K_A", True, autocomplete="cards"),
            Option("add", int, "Votes a card effect adds to your pool", min_value=0))
async def commit(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    done = await app.clerk.cv_commit(g.id, user_id=ctx.actor.id, cards=parse_names(o["cards"]),
                                     added=int(o.get("add") or 0), source_id=ctx.source_id)
    return [reply(committed_text(done))]


@cv_command("push", "Push a Galactic Factor, paying each step in full from your pool (your Action Phase).",
            Option("factor", str, "the Factor, e.g. GOVT", True, autocomplete="factor"),
            Option("direction", str, "up (towards +4) or down (towards −4)", True, ("up", "down")),
            Option("steps", int, "how many steps (default 1)", min_value=1, max_value=8))
async def push(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    way = str(o["direction"]).lower()
    if way not in ("up", "down"):
        raise RuleError("Push a Factor up (towards +4) or down (towards −4).")
    done = await app.clerk.cv_push(g.id, user_id=ctx.actor.id, factor=o["factor"], direction=1 if way == "up" else -1,
                                   steps=int(o.get("steps") or 1), source_id=ctx.source_id)
    return [reply(pushed_text(done))]


@cv_command("statute declare", "Declare a Statute from an active Seat you control (political control needed).",
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
    view = await app.clerk.cv_declare(g.id, user_id=ctx.actor.id, statute=o["statute"], character=o["character"],
                                      section=o["section"], sections=o["sections"], one_time=o.get("one_time"),
                                      cost=o.get("cost"), owner=_user(o, "owner"), source_id=ctx.source_id)
    return [reply(f"{view.statute.name} is declared and announced.", ephemeral=True),
            Outgoing(ToChannel(g.channel_id), card=declared_card(view))]


@cv_command("statute section", "Select a different Section of a Statute you control (your Admin Phase).",
            Option("statute", str, "the Statute", True, autocomplete="statute"),
            Option("section", int, "the Section to put in force", True, min_value=1))
async def statute_section(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    view = await app.clerk.cv_change_section(g.id, user_id=ctx.actor.id, statute=o["statute"], section=o["section"],
                                             source_id=ctx.source_id)
    return [reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=section_text(view))]


@cv_command("statute destroy", "Destroy a Statute you control (your Admin Phase).",
            Option("statute", str, "the Statute", True, autocomplete="statute"))
async def statute_destroy(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    view = await app.clerk.cv_destroy_statute(g.id, user_id=ctx.actor.id, statute=o["statute"],
                                              source_id=ctx.source_id)
    return [reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=destroyed_text(view))]


@cv_command("phase next", "End the Phase (the active player, or a moderator): the pool empties; Ready readies.")
async def phase_next(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    changed = await app.clerk.cv_next_phase(g.id, user_id=ctx.actor.id, moderator=_mod(ctx, g),
                                            source_id=ctx.source_id)
    return [reply("Done.", ephemeral=True), Outgoing(ToChannel(g.channel_id), text=phase_text(changed))]


# -- Motions, the offer to second, Repeals ---------------------------------------------------------------------


def motion_outgoings(app: App, m: MotionView, *, first: bool) -> list[Outgoing]:
    """What a Motion's step announces: the Motion when moved, where the offer is now (and the DM to the player
    asked), or its resolution."""
    now = app.clerk.clock.now()
    out: list[Outgoing] = []
    channel = m.game.channel_id
    if m.kind == "repeal":
        return [Outgoing(ToChannel(channel), card=repeal_card(m))]
    if first:
        out.append(Outgoing(ToChannel(channel), card=moved_card(m, now)))
    elif not m.resolved:
        out.append(Outgoing(ToChannel(channel), text=offer_moves_text(m, now)))
    if m.resolved:
        out.append(Outgoing(ToChannel(channel), card=resolved_card(m)))
    elif m.offer_user is not None:
        out.append(Outgoing(ToUser(m.offer_user), text=offer_text(m, now), buttons=offer_buttons(m)))
    return out


SECOND_BUTTON = "clerk:second"


def offer_buttons(m: MotionView) -> tuple[Button, ...]:
    """One button per Convocant who could second (``Second with Dorn``) and ``Decline``; each custom_id names the
    game, the Motion and the offer's place in the turn order, so a press of an offer that has moved on is
    refused. A Convocant whose name would not fit Discord's 100 characters gets no button (the DM reply works)."""
    head = f"{SECOND_BUTTON}:{m.game.id}:{m.number}:{m.offer_index}:"
    buttons = [Button(f"Second with {name}"[:80], head + "yes:" + name, "success")
               for name in m.candidates[:24] if len(head + "yes:" + name) <= CUSTOM_ID_MAX]
    return (*buttons, Button("Decline", head + "no", "secondary"))


@button_action(SECOND_BUTTON)
async def second_button(app: App, ctx: Ctx, custom_id: str) -> list[Outgoing]:
    """A press of a button of the offer to second: the same answer as `Second: <Convocant>` or `Second: no`."""
    parts = custom_id.split(":", 6)
    if len(parts) < 6 or not all(p.isdigit() for p in parts[2:5]):
        raise RuleError("This button is not one of Clerk's offers to second.")
    game_id, number, index = int(parts[2]), int(parts[3]), int(parts[4])
    accept = parts[5] == "yes"
    convocant = parts[6] if accept and len(parts) > 6 else None
    return await _answer(app, ctx, game_id, accept, convocant, expected=(number, index))


async def _move(app: App, ctx: Ctx, g: GameView, motion: MotionCard, convocant: str) -> list[Outgoing]:
    m = await app.clerk.cv_move_motion(g.id, user_id=ctx.actor.id, motion=motion, convocant=convocant,
                                       source_id=ctx.source_id)
    if m.duplicate:
        return [reply(TWICE)]
    return [reply(f"Motion #{m.number} ({m.name}) is moved and announced.", ephemeral=True),
            *motion_outgoings(app, m, first=True)]


async def _repeal(app: App, ctx: Ctx, g: GameView, statute: str, convocant: str) -> list[Outgoing]:
    m = await app.clerk.cv_repeal(g.id, user_id=ctx.actor.id, statute=statute, convocant=convocant,
                                  source_id=ctx.source_id)
    if m.duplicate:
        return [reply(TWICE)]
    return [reply(f"Motion of Repeal #{m.number} is moved; the outcome is announced.", ephemeral=True),
            *motion_outgoings(app, m, first=True)]


async def _answer(app: App, ctx: Ctx, game_id: int, accept: bool, convocant: str | None, *,
                  expected: tuple[int, int] | None = None) -> list[Outgoing]:
    m = await app.clerk.cv_answer_offer(game_id, user_id=ctx.actor.id, accept=accept, convocant=convocant,
                                        source_id=ctx.source_id, expected=expected)
    if m.duplicate:
        return [reply(TWICE)]
    said = f"You second Motion #{m.number} ({m.name}) with {m.seconder_convocant}." if accept else \
        f"You decline to second Motion #{m.number} ({m.name})."
    return [reply(said, ephemeral=True), *motion_outgoings(app, m, first=False)]


@cv_command("motion move", "Move a Motion (like posting `Motion: <name> by <Convocant>` in the game channel).",
            Option("name", str, "the Motion", True),
            Option("convocant", str, "your Convocant who moves it", True, autocomplete="convocant"),
            Option("moved", str, "its Moved text"),
            Option("seconded", str, "its Seconded text (none: it has no Seconded box; Instead…: it replaces Moved)"),
            Option("morality", str, "its Morality"),
            Option("targets", str, "the targets you choose"),
            Option("only", str, "the Character it is restricted to, if its text says so", autocomplete="character"))
async def motion_move(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    motion = MotionCard(" ".join(str(o["name"]).split()), o.get("morality"), o.get("moved", ""), o.get("seconded"),
                        o.get("only"), o.get("targets", ""))
    return await _move(app, ctx, g, motion, o["convocant"])


@cv_command("motion second", "Second the Motion you are offered, with one of your Convocants.",
            Option("convocant", str, "your Convocant (needed if you have several with access)",
                   autocomplete="convocant"),
            Option("game", str, "the game, if you play in several", autocomplete="game"), game="any")
async def motion_second(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _answer(app, ctx, g.id, True, o.get("convocant"))


@cv_command("motion decline", "Decline to second the Motion you are offered; the offer passes on.",
            Option("game", str, "the game, if you play in several", autocomplete="game"), game="any")
async def motion_decline(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _answer(app, ctx, g.id, False, None)


@cv_command("motion skip", "Pass the offer to second on to the next player without an answer.", moderator=True)
async def motion_skip(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    m = await app.clerk.cv_pass_offer(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    assert m is not None
    return [reply("The offer is passed on.", ephemeral=True), *motion_outgoings(app, m, first=False)]


@cv_command("motion status", "The Motion on the floor (or a numbered one) and where the offer to second is.",
            Option("number", int, "the Motion's number", min_value=1))
async def motion_status(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    m = await app.clerk.cv_motion(g.id, o.get("number"))
    now = app.clerk.clock.now()
    if m.kind == "repeal":
        return [reply(card=repeal_card(m))]
    return [reply(card=resolved_card(m) if m.resolved else moved_card(m, now))]


@cv_command("repeal", "Move a Motion of Repeal against a Statute you do not control (your Action Phase).",
            Option("statute", str, "the Statute", True, autocomplete="repealable"),
            Option("convocant", str, "your Convocant who moves it", True, autocomplete="convocant"))
async def repeal_command(app: App, ctx: Ctx, g: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    assert g is not None
    return await _repeal(app, ctx, g, o["statute"], o["convocant"])


# -- what players write ------------------------------------------------------------------------------------------


def _is_motion_form(line: str) -> bool:
    return looks_like(line) and not line.strip().lower().startswith("second")


@thread_form(_is_motion_form, anywhere=True)
async def motion_in_channel(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    g = _cv(game, "A Motion")
    parsed = parse(text)
    if isinstance(parsed, MoveRepeal):
        return await _repeal(app, ctx, g, parsed.statute, parsed.convocant)
    if isinstance(parsed, MoveMotion):
        return await _move(app, ctx, g, parsed.motion, parsed.convocant)
    raise RuleError("Move a Motion with `Motion: <name> by <Convocant>`.")


def _is_second(line: str) -> bool:
    return line.strip().lower().startswith("second") and looks_like(line)


@thread_form(_is_second, anywhere=True)
async def second_in_channel(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    g = _cv(game, "Seconding")
    answer = parse(text)
    assert isinstance(answer, SecondAnswer)
    return await _answer(app, ctx, g.id, answer.accept, answer.convocant)


@dm_form(_is_second)
async def second_by_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    answer = parse(text)
    assert isinstance(answer, SecondAnswer)
    game = await _offered_game(app, ctx.actor.id, answer.game)
    return await _answer(app, ctx, game.id, answer.accept, answer.convocant)


async def _offered_game(app: App, user_id: int, named: str | None) -> GameView:
    """The game named, else the one Convocate game whose offer to second waits for this player, else the player's
    only game (where a redelivered answer is recognised, or the reply says no offer waits)."""
    if named:
        return await game_of_user(app, user_id, named, RULESET, what="`Second:`", example="Second: no")
    waiting: list[GameView] = []
    for g in await app.clerk.games_of_user(user_id):
        if g.ruleset != RULESET:
            continue
        try:
            m = await app.clerk.cv_motion(g.id)
        except NotFoundError:
            continue
        if m.offer_user == user_id:
            waiting.append(g)
    if len(waiting) > 1:
        names = ", ".join(f"#{g.name}" for g in waiting)
        raise AmbiguousGame(f"Motions wait for your second in several games ({names}); say which, e.g. `Second: no "
                            f"#{waiting[0].name}`.", waiting)
    if waiting:
        return waiting[0]
    return await game_of_user(app, user_id, None, RULESET, what="`Second:`", example="Second: no")


async def offers_due(app: App, now: datetime) -> list[Outgoing]:
    """Offers to second whose time is up pass to the next player (each once, whatever timers repeat)."""
    out: list[Outgoing] = []
    for game_id, number, index, deadline in await app.clerk.cv_offer_deadlines():
        if deadline > now:
            break
        try:
            m = await app.clerk.cv_pass_offer(game_id, actor=None, reason="timed out", expected=(number, index),
                                              source_id=f"second-timeout:{game_id}:{number}:{index}")
        except Duplicate:
            continue
        if m is not None:
            out += motion_outgoings(app, m, first=False)
    return out


FRONT = Front(
    RULESET,
    dm_help=(
        ("Second: <Convocant>", "answers an offer to second a Motion (`Second: yes` for your only eligible "
                                "Convocant, `Second: no` declines)"),
    ),
    next_steps=("Seat the players with /convocate player, put the cards on the board with /card add and the "
                "Factors with /factor set; /board shows the table, and /phase next starts the first turn."),
    due=(offers_due,),
)
