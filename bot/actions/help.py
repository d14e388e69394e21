"""``/help`` and the DM ``help``: for a game's ruleset, what players can DM (with examples) and which slash commands
it takes, the moderators' ones marked; split to fit Discord's 2,000 characters a message."""

from __future__ import annotations

from typing import Any

from bot.actions.admin import split_messages
from bot.actions.commands import COMMON, App, Command, Option, exclusive
from bot.actions.context import Ctx
from bot.actions.message_commands import reading_lines
from bot.actions.outbox import Card, Outgoing, reply
from bot.actions.render import NEUTRAL
from bot.actions.routes import Routes
from engine.core.errors import GameClosed, RuleError
from engine.core.suggest import nearest
from engine.service.views import GameView

ROUTES = Routes()
"""``/help`` (``bot/actions/rulesets.py`` merges it)."""
command = ROUTES.command

def takes(app: App, ruleset: str, spec: Command) -> bool:
    """Does a game of ``ruleset`` take the command (the same rule as ``commands.ruleset_refusal``)?"""
    if spec.name == "game import":  # only where its ruleset reads a set-up file
        front = app.front(ruleset)
        return front is not None and front.importer is not None
    if spec.name == "player remove":  # only where its ruleset says what leaving means
        front = app.front(ruleset)
        return front is not None and front.remover is not None
    if spec.name == "verify":  # only where its ruleset rolls dice (play-test M5.6)
        return any(r.dice for r in app.clerk.backend.rulesets if r.name == ruleset)
    if spec.name in COMMON:
        return True
    if spec.ruleset is not None:
        return spec.ruleset == ruleset
    return not exclusive(app, ruleset)


def command_line(spec: Command) -> str:
    options = " ".join(o.name if o.required else f"[{o.name}]" for o in spec.options)
    mark = " (m)" if spec.moderator else ""
    return f"`/{spec.name}{' ' + options if options else ''}`{mark}: {spec.description}"


def dm_lines(app: App, ruleset: str) -> list[str]:
    """The DM forms of the ruleset, with an example each (``Front.dm_help``)."""
    front = app.front(ruleset)
    return [f"`{example}`: {about}" for example, about in (front.dm_help if front else ())]


def thread_lines(app: App, ruleset: str) -> list[str]:
    """The forms read in the game channel's threads (``Front.thread_help``), with an example each."""
    front = app.front(ruleset)
    return [f"`{example}`: {about}" for example, about in (front.thread_help if front else ())]


FIELD_VALUE = 1024
EMBED_TOTAL = 6000
"""Discord's limits on an embed (bot/discord/limits.py has them all; a test checks these agree)."""


def fields_of(name: str, lines: list[str]) -> list[tuple[str, str, bool]]:
    """``lines`` under ``name`` in as few fields as fit Discord's 1,024 characters a field value."""
    values = split_messages("", lines, FIELD_VALUE)
    return [(name if i == 0 else f"{name} (continued)", value, False) for i, value in enumerate(values)]


FIRST = ("game", "player")
"""The moderators' groups a game starts with (setting it up, its players), listed before the rest."""


def grouped(specs: list[Command]) -> list[str]:
    """``/round` open · close · extend``: one line a command group; a game's set-up first (FIRST), then in the
    order the table defines them, ``new`` first in its group."""
    groups: dict[str, list[str]] = {head: [] for head in FIRST}
    for spec in specs:
        head, _, rest = spec.name.partition(" ")
        groups.setdefault(head, []).append(rest)
    for rests in groups.values():  # `/game new` and `import` before `end` (play-test D5.7): a game is made first
        rests.sort(key=lambda rest: {"new": 0, "import": 1}.get(rest, 2))
    return [f"`/{head}`" + (" " + " · ".join(r for r in rests if r) if any(rests) else "")
            + (" (and `/" + head + "` alone)" if "" in rests and any(rests) else "")
            for head, rests in groups.items() if rests]


def help_card(app: App, ruleset: str, game_name: str | None = None, *, slash: bool = True) -> Card:
    """The help for ``ruleset`` as ONE answer, in the order a player learns: what to DM first, what to post in a
    thread, the commands everyone has (with what each does), then the moderators' commands by what they act on.
    Within Discord's limits for one embed (a test checks every ruleset)."""
    title = next((r.title for r in app.clerk.backend.rulesets if r.name == ruleset), ruleset.capitalize())
    heading = f"Clerk in {game_name} ({title})" if game_name else f"Clerk: {title} games"
    dms = [*(dm_lines(app, ruleset) or ["nothing: this ruleset takes slash commands only"]), "`help`: this help"]
    lines = ["**1. DM me** (add `#game` at the end if you play in several games):", *dms]
    threads = thread_lines(app, ruleset)
    if threads:
        lines += ["", "**2. In a thread of the game channel**, as the first line of your message:", *threads,
                  *reading_lines(app, ruleset)]
    fields: list[tuple[str, str, bool]] = []
    footer = "Only you can see this."
    if slash:
        specs = [c for c in app.routes.commands.values() if takes(app, ruleset, c)]  # the table's order
        everyone = [c for c in specs if not c.moderator]
        fields += fields_of("Slash commands for everyone", [command_line(c) for c in everyone])
        fields += fields_of("Moderators' commands", grouped([c for c in specs if c.moderator]))
        footer = "`/help command:<name>` explains one command and its options. " + footer
    else:
        lines += ["", "`/help` in the game channel also lists the slash commands."]
        footer = ""
    return Card(title=heading, description="\n".join(lines), fields=tuple(fields), footer=footer or None,
                color=NEUTRAL)


def reads_when_ended(spec: Command) -> bool:
    """Does ``spec`` still answer once the game has ended? A reading command (``Command.reads``; one that reads
    without options, such as ``/game settings``, too), or one that ends, reopens or moves the game
    (``Command.closing``): the same rule as ``commands.closed_refusal``."""
    return bool(spec.reads) or spec.closing


def ended_card(app: App, ruleset: str, ended: list[GameView], *, slash: bool = True) -> Card:
    """The help for games of ``ruleset`` that have all ended (play-test W7): their ledger is closed, so it says so
    first, then what still answers (the reading commands, ``/game export``, ``/game reopen`` for moderators),
    rather than the forms and commands each of which would answer with the closed line."""
    title = next((r.title for r in app.clerk.backend.rulesets if r.name == ruleset), ruleset.capitalize())
    names = ", ".join(f"#{g.name}" for g in ended)
    lines = [*(f"**{GameClosed(g.name, g.ended_at)}**" for g in ended),
             "Nothing you DM me or post in its threads is recorded now (ballots, votes, transfers, every form): "
             "each is answered with that line. What still answers:"]
    specs = [c for c in app.routes.commands.values() if takes(app, ruleset, c) and reads_when_ended(c)]
    everyone = [c for c in specs if not c.moderator]
    fields: list[tuple[str, str, bool]] = []
    footer = "Only you can see this."
    if slash:
        fields += fields_of("Slash commands that still answer", [command_line(c) for c in everyone])
        fields += fields_of("Moderators' commands that still answer", [
            "`/game export`: everything the game recorded, to download",
            "`/game reopen [reason]`: opens the game again to correct a mistake (recorded and announced)",
            *grouped([c for c in specs if c.moderator and c.name not in ("game export", "game reopen")])])
        footer = "`/help command:<name>` explains one command and its options. " + footer
    else:
        lines += ["- in the game channel, the slash commands that read: "
                  + " · ".join(f"`/{c.name}`" for c in everyone) + " (`/help` there explains each);",
                  "- for moderators, `/game export` (everything the game recorded) and `/game reopen` (opens the "
                  "game again to correct a mistake);", "- `help`: this help."]
        footer = ""
    return Card(title=f"Clerk in {names} ({title}): ended", description="\n".join(lines), fields=tuple(fields),
                footer=footer or None, color=NEUTRAL)


def command_card(app: App, name: str) -> Card:
    """``/help command:round open``: one command, who may use it, and each option."""
    key = " ".join(name.strip().lstrip("/").lower().split())
    spec = app.routes.commands.get(key)
    if spec is None:
        near = nearest(key, list(app.routes.commands))
        hint = f" Did you mean `/{near}`?" if near else ""
        raise RuleError(f"There is no command `/{key}`.{hint} `/help` lists them all.")
    options = [f"`{o.name}`{' (required)' if o.required else ''}: {o.description}"
               + (f" ({', '.join(o.choices)})" if o.choices else "") for o in spec.options] or ["none"]
    where = f"{spec.ruleset.capitalize()} games" if spec.ruleset else "every game"
    if spec.name == "verify":  # as ``takes``
        where = "the games of a ruleset that rolls dice: " + ", ".join(r.title for r in app.clerk.backend.rulesets
                                                                        if r.dice)
    who = "moderators only" if spec.moderator else "anyone"
    return Card(title=f"/{spec.name}", description=spec.description,
                fields=(("Who", f"{who}, in {where}", False), *fields_of("Options", options)),
                footer="docs/commands.md has every command.", color=NEUTRAL)


def no_game(app: App, *, dm: bool = False) -> str:
    """The help where there is no game (``dm``: to someone who plays none): how to start one, with the rulesets this
    app plays."""
    titles = [r.title for r in app.clerk.backend.rulesets]
    listed = ", ".join(titles[:-1]) + f" or {titles[-1]}" if len(titles) > 1 else "".join(titles)
    none = "You are not a player in any game" if dm else "This channel has no game"
    return (f"I'm Clerk, the vote clerk of play-by-post games. {none}; a moderator starts one with "
            f"`/game new ruleset name` ({listed}). `/game list` shows the games of this server, and `/help` in a "
            "game channel says what its players can do.")


async def help_for(app: App, ctx: Ctx, *, slash: bool) -> list[Card | str]:
    games: list[GameView] = []
    if ctx.place.channel_id is not None:
        found = await app.clerk.games.game_in_channel(ctx.place.channel_id)
        if found is not None:
            games = [found]
    if not games and ctx.place.is_dm:
        games = await app.clerk.games.games_of_user(ctx.actor.id)
    if not games:
        if ctx.place.is_dm:
            return [no_game(app, dm=True)]
        return [no_game(app)]
    answers: list[Card | str] = []
    seen: set[str] = set()
    for g in games:  # one card a ruleset (a player of two rulesets by DM gets two)
        if g.ruleset in seen:
            continue
        seen.add(g.ruleset)
        same = [x for x in games if x.ruleset == g.ruleset]
        if all(x.ended for x in same):  # nothing but reading answers there (play-test W7)
            answers.append(ended_card(app, g.ruleset, same, slash=slash))
            continue
        names = ", ".join(f"#{x.name}" + (" (ended)" if x.ended else "") for x in same)
        answers.append(help_card(app, g.ruleset, names, slash=slash))
    return answers


def answer(item: Card | str, *, ephemeral: bool) -> Outgoing:
    return reply(card=item, ephemeral=ephemeral) if isinstance(item, Card) else reply(item, ephemeral=ephemeral)


@command("help", "What you can DM me and which commands this game takes, with examples (only you see it).",
         Option("command", str, "one command to explain, e.g. round open"),
         game="none", reads=True)
async def help_command(app: App, ctx: Ctx, _: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    if o.get("command"):
        return [reply(card=command_card(app, o["command"]), ephemeral=True)]
    return [answer(item, ephemeral=True) for item in await help_for(app, ctx, slash=True)]
