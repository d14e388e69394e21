"""The slash commands: one table that the Discord adapter registers and the console parses, and the
dispatcher that checks who may run what, finds the game, and maps errors to replies."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypedDict

from bot.actions.context import Ctx, UserRef
from bot.actions.errors import apology, logged
from bot.actions.outbox import Outgoing, reply
from bot.logs import note
from bot.metrics import command_run
from engine.core.errors import ClerkError, GameClosed, RuleError
from engine.core.text import typed_back
from engine.service import Clerk
from engine.service.views import GameView

if TYPE_CHECKING:  # the fronts and routes import this module; here only their types are needed
    from bot.actions.front import Front
    from bot.actions.routes import Routes

log = logging.getLogger("clerk.commands")


def shipped_fronts() -> tuple[Front, ...]:
    from bot.actions.rulesets import FRONTS  # here: the ruleset fronts import this module (a real cycle)

    return FRONTS


def shipped_routes(fronts: Sequence[Front]) -> Routes:
    from bot.actions.rulesets import FRONTS, ROUTES, routes_of  # here: as in shipped_fronts

    if tuple(fronts) == FRONTS:
        return ROUTES
    routes = routes_of(fronts)
    names = tuple(f.name for f in fronts)
    for name, spec in routes.commands.items():  # a merged table of its own: its entries may be replaced
        if any(o.lists_rulesets for o in spec.options):
            options = tuple(ruleset_choices(o, names) if o.lists_rulesets else o for o in spec.options)
            routes.commands[name] = replace(spec, options=options)
    return routes


def ruleset_choices(option: Option, names: Sequence[str]) -> Option:
    """``option`` choosing among the rulesets ``names`` (an app's fronts), its description listing them."""
    listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)
    return replace(option, choices=tuple(names), description=listed)


@dataclass
class App:
    """What handlers need: the service, and a hook to tell the deadline scheduler that deadlines changed. ``fronts``
    are the rulesets it plays (the shipped ones, ``bot/actions/rulesets.py``, unless given) and ``routes`` their
    commands, forms, buttons and menus, merged with the shared ones."""

    clerk: Clerk
    deadlines_changed: Callable[[], None] = lambda: None
    game_moved: Callable[[int, int], Awaitable[int]] = field(default=lambda old, new: _none_held())
    """A game moved from a channel to another (``/game move``): the front end sends there what it held for the old
    one (Discord: bot/discord/lost_channels.py) and says how many messages; the console holds nothing."""
    settings: dict[str, Any] = field(default_factory=dict)
    fronts: tuple[Front, ...] = field(default_factory=shipped_fronts)
    routes: Routes = field(init=False)

    def __post_init__(self) -> None:
        self.routes = shipped_routes(self.fronts)

    def front(self, ruleset: str) -> Front | None:
        return next((f for f in self.fronts if f.name == ruleset), None)


async def _none_held() -> int:
    return 0


Handler = Callable[[App, Ctx, GameView | None, dict[str, Any]], Awaitable[list[Outgoing]]]
Reads = bool | Callable[[dict[str, Any]], bool]
"""Whether a command only reads the game (``Command.reads``): always, never, or as its options say."""


class Role(int):
    """A role id as an option value."""


class Channel(int):
    """A channel id as an option value (``moderator_channel:#mods``)."""


@dataclass(frozen=True)
class Upload:
    """A file attached to a command (an attachment option): its name and bytes, as the front end read them (the
    Discord adapter downloads the attachment, at most ``MAX_UPLOAD`` bytes; the console reads a path)."""

    filename: str
    data: bytes
    users: Callable[[str], Awaitable[UserRef | None]] = field(default=lambda cell: _nobody())
    """The user a cell of the file (``@name``, ``<@id>`` or an id) means, where the front end can tell (the
    console's users, a server's members): their name, and the id of a ``@name``; None where it cannot."""
    members: bool = False
    """Whether ``users`` knows the server's members, so that None for an id means the id is no member's (Discord:
    it asks the server for the member). The console cannot know: any name is a console user, so an id stands for
    whoever has it (play-test I1.4)."""


async def _nobody() -> UserRef | None:
    return None


MAX_UPLOAD = 256 * 1024
"""The largest attachment a command reads."""


@dataclass(frozen=True)
class Option:
    name: str
    kind: type
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    autocomplete: str | None = None
    """What the option names, for suggestions as it is typed (``bot.actions.suggest_sources.SOURCES``): ``game``,
    ``player``, ``holding``, ``territory``, ``card``, ``statute``, ...; None for free text."""
    lists_rulesets: bool = False
    """Its choices are the rulesets of the app (``/game new``'s ``ruleset``): the shipped ones in the table, those an
    app plays (``App.fronts``) in its own."""


@dataclass(frozen=True)
class Command:
    name: str
    description: str
    options: tuple[Option, ...]
    handler: Handler
    moderator: bool = False
    game: str = "channel"
    """How the game is found: ``channel`` (the game channel or one of its threads), ``any`` (the channel,
    else the caller's own game, named by the ``game`` option if they play in several), ``named`` (the server's game
    named by the ``game`` option, from any channel: ``/game move``) or ``none``."""
    ruleset: str | None = None
    """The ruleset whose games the command belongs to; None for the commands every game has."""
    reads: Reads = False
    """It only reads the game (``/vp show``, ``/log``), so it still answers once the game has ended; a predicate
    on the options for a command that reads or changes (``/game settings`` without options). Every other command
    is refused in an ended game with the closed line (``closed_refusal``)."""
    closing: bool = False
    """It ends, reopens or moves the game (``/game end``, ``/game reopen``, ``/game move``): it runs in an ended game,
    its service decides."""
    public: bool = False
    """Its answer is for everyone in the channel (``/round status``, ``/forecast``, ``/board``), not only the caller:
    a slow one is deferred publicly, since Discord gives the first follow-up the deferred response's visibility
    (bot/discord/client.py). Refusals are still ephemeral; the adapter sends an answer whose visibility differs
    from the deferral's anew (bot/discord/delivery.py)."""

    @property
    def in_dms(self) -> bool:
        """It can be used in a DM with the bot: it finds the game without a game channel (``game`` ``any`` or
        ``none``) and is not for moderators (who act in the game channel). Discord offers it in servers and the bot's
        DMs (``contexts``); every other command in servers only (bot/discord/tree.py)."""
        return self.game != "channel" and not self.moderator

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


COMMON = frozenset({"game new", "game import", "game export", "game settings", "game list", "game moderators",
                    "game reopen", "game close", "game announce", "game move", "log", "help", "cast-for",
                    "player remove", "player dms", "why", "verify"})
"""Commands every game has, whatever its ruleset."""


class CommandFlags(TypedDict, total=False):
    """``command``'s keyword flags, for a ruleset module that gives the same ones to all its commands (``**M``)."""
    moderator: bool
    game: str
    ruleset: str | None


def exclusive(app: App, ruleset: str) -> bool:
    """Do games of ``ruleset`` take only their own commands (and ``COMMON``)? (``Front.exclusive``)"""
    front = app.front(ruleset)
    return front is not None and front.exclusive


def names_itself(app: App, ruleset: str) -> bool:
    """Do games of other rulesets refuse the commands of ``ruleset`` naming it? (``Front.names_itself``)"""
    front = app.front(ruleset)
    return front is None or front.names_itself


def closed_refusal(spec: Command, game: GameView | None, options: dict[str, Any]) -> str | None:
    """The closed line if ``game`` has ended and ``spec`` would change it (``Command.reads``), else None. The event
    append refuses the same change anyway (``engine.service.uow``); this says it before the options are judged."""
    if game is None or game.ended_at is None or spec.closing:
        return None
    if spec.reads(options) if callable(spec.reads) else spec.reads:
        return None
    return str(GameClosed(game.name, game.ended_at))


def ruleset_refusal(app: App, spec: Command, game: GameView | None) -> str | None:
    """Why ``spec`` cannot run in ``game`` (a command of another ruleset), or None."""
    if game is None or spec.name in COMMON or spec.ruleset == game.ruleset:
        return None
    if spec.ruleset is not None and names_itself(app, spec.ruleset):
        return f"/{spec.name} is a {spec.ruleset.capitalize()} command; {game.name} plays {game.ruleset.capitalize()}."
    if exclusive(app, game.ruleset):
        from bot.actions.help import takes  # /help's rule of which commands a game takes (it imports this module)

        table = app.routes.commands  # the groups a game of the ruleset takes, its own and every game's (/why ...)
        own = sorted({f"/{n.split()[0]}" for n, c in table.items() if takes(app, game.ruleset, c)})  # not import order
        return (f"/{spec.name} is not used in {game.ruleset.capitalize()} games like {game.name}. Its commands: "
                f"{', '.join(own)}.")
    return None


async def find_game(app: App, ctx: Ctx, spec: Command, options: dict[str, Any]) -> GameView | None:
    if spec.game == "none":
        return None
    if spec.game == "named":
        return await game_named(app, ctx, spec, options.get("game"))
    if ctx.place.channel_id is not None:
        found = await app.clerk.games.game_in_channel(ctx.place.channel_id)
        if found is not None:
            return found
    if spec.game == "channel":
        where = "in a DM" if ctx.place.is_dm else "here: this channel has no game"
        raise RuleError(f"/{spec.name} works in a game channel (or one of its threads), not {where}."
                        + await lost_hint(app, ctx))
    among = spec.ruleset if spec.ruleset is not None and names_itself(app, spec.ruleset) else None
    return await game_of_user(app, ctx.actor.id, options.get("game"), among, example=f"/{spec.name}")


async def lost_hint(app: App, ctx: Ctx) -> str:
    """For a command run where no game is: the server's games whose channel was deleted, and how to move one here
    (play-test R4.2); empty when there are none."""
    if ctx.place.guild_id is None:
        return ""
    lost = await app.clerk.marks.lost_channels(ctx.place.guild_id)
    if not lost:
        return ""
    names = ", ".join(f"**{name}**" for name in lost)
    several = len(lost) > 1
    return (f" The game channel{'s' if several else ''} of {names} {'were' if several else 'was'} deleted: a "
            f"moderator moves {'a' if several else 'the'} game to a channel with `/game move game:{lost[0]}`, run in "
            "that channel.")


async def game_named(app: App, ctx: Ctx, spec: Command, named: str | None) -> GameView:
    """The game of this server called ``named`` (``Command.game`` ``named``), wherever the command is run."""
    if ctx.place.guild_id is None:
        raise RuleError(f"/{spec.name} works in a server channel, not in a DM.")
    games = [listing.game for listing in await app.clerk.games.games_in_guild(ctx.place.guild_id)]
    wanted = (named or "").strip().lstrip("#").casefold()
    found = next((g for g in games if g.name.casefold() == wanted), None)
    if found is None:
        listed = ", ".join(g.name for g in games) or "none"
        raise RuleError(f"There is no game called {typed_back(named or '')} on this server. Its games: {listed}.")
    return found


async def game_of_user(app: App, user_id: int, named: str | None, ruleset: str | None = None,
                       what: str = "That", example: str = "Vote: Aye", form: str | None = None) -> GameView:
    """The caller's game, named by ``named`` if they play in several. With ``ruleset``, only games of that ruleset
    count (a DM form of one ruleset never goes to a game of another), and ``what`` names the form in the refusal.
    With ``form`` (a DM form's first line), a caller of several games who named none is asked only among those
    whose ruleset says the form is open there (``Front.dm_open``: a round, an election, an offer), and of those, the
    ones whose names it fits when it fits any (``Front.dm_fits``: a candidate of the game): the only such game is the
    one, and with none open the answer says at once why each does not take it."""
    games = await app.clerk.games.games_of_user(user_id)
    try:
        return choose_game(games, named, ruleset, what, example)
    except AmbiguousGame as error:
        front = app.front(ruleset) if ruleset is not None else None
        if form is None or front is None or front.dm_open is None:
            raise
        closed = {g.id: why for g in error.games if (why := await front.dm_open(app, g, user_id, form)) is not None}
        open_in = [g for g in error.games if g.id not in closed]
        if len(open_in) > 1 and front.dm_fits is not None:  # `Primary: Ann Oakes`: the game where she runs
            open_in = [g for g in open_in if await front.dm_fits(app, g, user_id, form)] or open_in
        if len(open_in) == 1:
            return open_in[0]
        if open_in:
            raise ambiguous(open_in, example) from None
        by_reason: dict[str, list[str]] = {}  # one reason said once: "in #sirius and #vega no round has opened yet"
        for g in error.games:
            by_reason.setdefault(closed[g.id], []).append(f"#{g.name}")
        reasons = "; ".join(f"in {_and(names)} {why}" for why, names in by_reason.items())
        raise RuleError(f"None of your games can take that now: {reasons}.") from None


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def choose_game(games: Sequence[GameView], named: str | None, ruleset: str | None = None, what: str = "That",
                example: str = "Vote: Aye") -> GameView:
    """``game_of_user`` on the games already looked up. ``example``: what the caller sent (a DM form's first line,
    or ``/name`` for a slash command), shown with the game named. Unless one is named, a game that has ended counts
    only when the caller plays in no running one: a DM ballot goes to the running game, and only to an ended one (to
    be answered with the closed line) when there is no other."""
    if named:
        wanted = named.strip().lstrip("#").lower()
        for g in games:
            if g.name.lower() == wanted:
                if ruleset is not None and g.ruleset != ruleset:
                    raise RuleError(f"{what} is for {ruleset.capitalize()} games; #{g.name} plays "
                                    f"{g.ruleset.capitalize()}.")
                return g
        names = ", ".join(f"#{g.name}" for g in games) or "none"
        raise RuleError(f"You are not a player in a game called {typed_back(named)}. Your games: {names}.")
    if not games:
        raise RuleError("You are not a player in any game here. A moderator adds players with /player add.")
    if ruleset is not None:
        fitting = [g for g in games if g.ruleset == ruleset]
        if not fitting:
            names = ", ".join(f"#{g.name} ({g.ruleset.capitalize()})" for g in games)
            raise RuleError(f"{what} is for {ruleset.capitalize()} games, and yours {'are' if len(games) > 1 else 'is'}"
                            f" {names}.")
        games = fitting
    running = [g for g in games if not g.ended]
    if running:  # an ended game is closed: what names no game goes to the caller's running ones (docs/rulings.md)
        games = running
    if len(games) > 1:
        raise ambiguous(games, example)
    return games[0]


def ambiguous(games: Sequence[GameView], example: str) -> AmbiguousGame:
    """The refusal of a command or DM form that fits each of ``games`` and named none of them."""
    names = ", ".join(f"#{g.name}" for g in games)
    how = (f"say which with the `game` option, e.g. `{example} game:{games[0].name}`" if example.startswith("/")
           else f"say which, e.g. `{example} #{games[0].name}`")  # a slash command, or a DM form
    return AmbiguousGame(f"You play in several games ({names}); {how}.", games)


class AmbiguousGame(RuleError):
    """The caller plays in several games the command or DM form fits and named none of them. A DM is then held and
    answered with a menu of ``games`` (bot/actions/dm_choice.py); a slash command is answered with the text."""

    def __init__(self, message: str, games: Sequence[GameView]) -> None:
        super().__init__(message)
        self.games = tuple(games)


async def dispatch(app: App, ctx: Ctx, name: str, options: dict[str, Any]) -> list[Outgoing]:
    """Run a slash command. Errors become an ephemeral reply to the caller; nothing is half-done."""
    spec = app.routes.commands.get(name)
    if spec is None:
        known = ", ".join(f"/{n}" for n in sorted(app.routes.commands))
        return [reply(f"There is no command /{name}. Commands: {known}.", ephemeral=True)]
    command_run(name)  # /metrics
    note(command=name, game=None, game_id=None)  # the log lines of this command say it (bot/logs.py)
    try:
        from bot.actions.option_text import checked_with_notes  # free text: limits, mentions, control characters

        options, notes = checked_with_notes(spec, options)
        game = await find_game(app, ctx, spec, options)
        if game is not None:
            note(game=game.name, game_id=game.id)
        refusal = ruleset_refusal(app, spec, game) or closed_refusal(spec, game, options)
        if refusal is not None:
            raise RuleError(refusal)
        if spec.moderator and not ctx.actor.moderates(game.moderator_role_id if game else None):
            where = f" of {game.name}" if game else " (members with Manage Server)"
            raise RuleError(f"Only the moderators{where} can use /{name}.")
        done = await spec.handler(app, ctx, game, options)
        return [*done, *(reply(n, ephemeral=True) for n in notes)]  # a name kept without its markdown (P4.1)
    except ClerkError as error:
        return [reply(str(error), ephemeral=True)]
    except Exception:
        error_id = logged("/%s failed for %s (%s) with %r", name, ctx.actor.name, ctx.actor.id, options)
        return [reply(apology("nothing was changed", error_id), ephemeral=True)]


def require_game(game: GameView | None) -> GameView:
    """The game a handler needs; the dispatcher has already found it for every command that takes one."""
    if game is None:
        raise RuleError("This command needs a game.")
    return game


def user_option(options: dict[str, Any], name: str) -> UserRef:
    value = options[name]
    assert isinstance(value, UserRef)
    return value
