"""``/help`` and the DM ``help``: for a game's ruleset, what players can DM (with examples) and which slash commands
it takes, the moderators' ones marked; split to fit Discord's 2,000 characters a message."""

from __future__ import annotations

from typing import Any

from bot.actions.admin import split_messages
from bot.actions.commands import COMMON, App, Command, exclusive
from bot.actions.context import Ctx
from bot.actions.outbox import Outgoing, reply
from bot.actions.routes import Routes
from engine.service.views import GameView

ROUTES = Routes()
"""``/help`` (``bot/actions/rulesets.py`` merges it)."""
command = ROUTES.command

LIMIT = 2000
"""Discord's characters in one message."""


def takes(app: App, ruleset: str, spec: Command) -> bool:
    """Does a game of ``ruleset`` take the command (the same rule as ``commands.ruleset_refusal``)?"""
    if spec.name == "game import":  # only where its ruleset reads a set-up file
        front = app.front(ruleset)
        return front is not None and front.importer is not None
    if spec.name == "player remove":  # only where its ruleset says what leaving means
        front = app.front(ruleset)
        return front is not None and front.remover is not None
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
    found = [f"`{example}`: {about}" for example, about in (front.thread_help if front else ())]
    return ["**In a thread of the game channel**, as the first line of your message:", *found] if found else []


def help_texts(app: App, ruleset: str, game_name: str | None = None, *, slash: bool = True) -> list[str]:
    """The help for ``ruleset`` as messages of at most LIMIT characters each."""
    title = f"**{game_name}** plays {ruleset.capitalize()}." if game_name else f"**{ruleset.capitalize()}** games."
    lines = [title, "**By DM** you can send me (add `#game` at the end if you play in several games):",
             *(dm_lines(app, ruleset) or ["nothing: this ruleset takes slash commands only"]), "`help`: this help",
             *thread_lines(app, ruleset)]
    if slash:
        specs = sorted((c for c in app.routes.commands.values() if takes(app, ruleset, c)), key=lambda c: c.name)
        lines += ["**Slash commands** ((m) = moderators only):", *(command_line(c) for c in specs)]
    else:
        lines.append("`/help` in the game channel also lists the slash commands.")
    return split_messages("", lines, LIMIT)


def no_game(app: App) -> str:
    """The help where there is no game: how to start one, with the rulesets this app plays."""
    titles = [r.title for r in app.clerk.backend.rulesets]
    listed = ", ".join(titles[:-1]) + f" or {titles[-1]}" if len(titles) > 1 else "".join(titles)
    return ("I'm Clerk, the vote clerk of play-by-post games. This channel has no game; a moderator starts one with "
            f"`/game new ruleset name` ({listed}). `/game list` shows the games of this server, and `/help` in a "
            "game channel says what its players can do.")


async def help_for(app: App, ctx: Ctx, *, slash: bool) -> list[str]:
    games: list[GameView] = []
    if ctx.place.channel_id is not None:
        found = await app.clerk.games.game_in_channel(ctx.place.channel_id)
        if found is not None:
            games = [found]
    if not games and ctx.place.is_dm:
        games = await app.clerk.games.games_of_user(ctx.actor.id)
    if not games:
        if ctx.place.is_dm:
            return [no_game(app).replace("This channel has no game", "You are not a player in any game")]
        return [no_game(app)]
    texts: list[str] = []
    seen: set[str] = set()
    for g in games:
        if g.ruleset in seen:
            continue
        seen.add(g.ruleset)
        names = ", ".join(f"#{x.name}" for x in games if x.ruleset == g.ruleset)
        texts += help_texts(app, g.ruleset, names, slash=slash)
    return texts


@command("help", "What you can DM me and which commands this game takes, with examples (only you see it).",
         game="none", reads=True)
async def help_command(app: App, ctx: Ctx, _: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return [reply(t, ephemeral=True) for t in await help_for(app, ctx, slash=True)]
