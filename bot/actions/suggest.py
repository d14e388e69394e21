"""Suggestions while an option is typed (Discord's autocomplete): the names an option takes, from the game of the
channel, as the asker may see them.

An ``Option`` says what it names (``Option.autocomplete``, a key of ``SOURCES``). ``suggest`` finds the game as
the command would (the channel's game, or for ``game="any"`` commands the asker's own), lists what the kind offers
there, and ranks it against the text typed so far: names that start with it first, then names that contain it,
case-insensitively, each group sorted; nothing typed lists the first 25 sorted. Secrecy: a moderator-only
command suggests nothing to a player, and a kind lists only what the asker may see or act on (their own games,
Cards, Convocants and Statutes). A failing lookup suggests nothing: it is logged, never shown as an error."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from bot.actions.commands import App, Command, find_game, ruleset_refusal
from bot.actions.context import Ctx
from bot.actions.suggest_sources import GAME, SOURCES, Asking, Source, Suggestion
from engine.core.errors import ClerkError
from engine.core.text import inert_name, name_key

__all__ = ["GAME", "MAX_CHOICES", "MAX_NAME", "SOURCES", "Suggestion", "ranked", "suggest"]

log = logging.getLogger("clerk.suggest")

MAX_CHOICES = 25
"""Discord shows at most 25 choices."""
MAX_NAME = 100
"""A choice's name and value are at most 100 characters."""


def ranked(found: Iterable[Suggestion], typed: str) -> list[Suggestion]:
    """Prefix matches first, then substring matches (of the value or an alias; not of what the shown name adds,
    like a card's kind), each sorted case-insensitively; duplicates and over-long choices dropped; at most 25."""
    as_typed = name_key(typed)
    wanted = {as_typed, name_key(inert_name(typed)) or as_typed}  # typed with markdown, as names are kept (P4.1)
    starts: dict[str, Suggestion] = {}
    contains: dict[str, Suggestion] = {}
    for s in found:
        if not s.name or not s.value or len(s.name) > MAX_NAME or len(s.value) > MAX_NAME:
            continue
        texts = [t.casefold() for t in (s.value, *s.aliases)]
        if any(t.startswith(w) for t in texts for w in wanted):
            starts.setdefault(s.value, s)
        elif any(w in t for t in texts for w in wanted):
            contains.setdefault(s.value, s)
    contains = {v: s for v, s in contains.items() if v not in starts}

    def order(s: Suggestion) -> tuple[str, str]:
        return s.name.casefold(), s.name

    return (sorted(starts.values(), key=order) + sorted(contains.values(), key=order))[:MAX_CHOICES]


def sources_of(app: App) -> dict[str, Source]:
    """The shared sources and those of each of the app's fronts (``Front.sources``)."""
    return {**SOURCES, **{kind: fetch for front in app.fronts for kind, fetch in front.sources.items()}}


async def suggest(app: App, ctx: Ctx, command: str, option: str, typed: str,
                  options: Mapping[str, Any] | None = None) -> list[Suggestion]:
    """Up to 25 suggestions for ``option`` of ``/command`` as ``typed`` so far; [] when there are none, when the
    option takes free text, or when anything fails (logged)."""
    spec = app.routes.commands.get(command)
    kind = None if spec is None else getattr(spec.option(option), "autocomplete", None)
    if spec is None or kind is None:
        return []
    given = dict(options or {})
    try:
        if kind == GAME:
            return ranked(await _games(app, ctx, spec), typed)
        fetch = sources_of(app).get(kind)
        if fetch is None:
            log.warning("/%s %s: no suggestions for the kind %r", command, option, kind)
            return []
        game = await find_game(app, ctx, spec, given)
        if game is None or ruleset_refusal(app, spec, game) is not None:
            return []
        asking = Asking(app, ctx, game, given)
        if spec.moderator and not asking.moderator:
            return []
        found = await fetch(asking)
        return _listed(found, typed) if kind in LISTS else ranked(found, typed)
    except ClerkError:
        return []  # no game here, or several: nothing to suggest
    except Exception:
        log.exception("suggestions for /%s %s (%r) failed for %s (%s)", command, option, typed, ctx.actor.name,
                      ctx.actor.id)
        return []


async def _games(app: App, ctx: Ctx, spec: Command) -> list[Suggestion]:
    """The asker's own games that take the command, never the other games of the server; for a command that names
    a game of the server (``/game move``), the server's games the asker moderates."""
    if spec.game == "named":
        if ctx.place.guild_id is None:
            return []
        listed = await app.clerk.games.games_in_guild(ctx.place.guild_id)
        return [Suggestion(f"#{g.game.name} ({g.game.ruleset.capitalize()})", g.game.name, (f"#{g.game.name}",))
                for g in listed if ctx.actor.moderates(g.game.moderator_role_id)]
    games = await app.clerk.games.games_of_user(ctx.actor.id)
    return [Suggestion(f"#{g.name} ({g.ruleset.capitalize()})", g.name, (f"#{g.name}",)) for g in games
            if ruleset_refusal(app, spec, g) is None]


# -- several names in one option: ``P_A, K_A`` ------------------------------------------------------------------

LISTS = {"cards"}
"""Kinds whose option takes a comma-separated list: the last item is completed, the earlier ones kept."""


def _last_item(typed: str) -> str:
    return typed.rsplit(",", 1)[-1].strip()


def _listed(found: list[Suggestion], typed: str) -> list[Suggestion]:
    head, _, _ = typed.rpartition(",")
    done = [n.strip() for n in head.split(",") if n.strip()]
    taken = {n.casefold() for n in done}
    prefix = ", ".join(done) + (", " if done else "")
    fresh = [s for s in found if s.value.casefold() not in taken]
    return [Suggestion(prefix + s.name, prefix + s.value)
            for s in ranked(fresh, _last_item(typed))
            if len(prefix + s.name) <= MAX_NAME and len(prefix + s.value) <= MAX_NAME]
