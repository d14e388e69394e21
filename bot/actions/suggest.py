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
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.actions.commands import COMMANDS, App, Command, find_game, ruleset_refusal
from bot.actions.context import Ctx, UserRef
from engine.convocate.board import Board, Kind
from engine.convocate.votes import is_convocant
from engine.core.errors import ClerkError
from engine.service.convocate_views import BoardView
from engine.service.views import GameView

log = logging.getLogger("clerk.suggest")

MAX_CHOICES = 25
"""Discord shows at most 25 choices."""
MAX_NAME = 100
"""A choice's name and value are at most 100 characters."""


@dataclass(frozen=True)
class Suggestion:
    name: str
    """What the asker sees, e.g. ``Alice (House Atreides)``."""
    value: str
    """What the option gets if it is picked, e.g. ``Alice``."""
    aliases: tuple[str, ...] = ()
    """Other texts that find it as they are typed, e.g. the faction ``House Atreides``."""


@dataclass(frozen=True)
class Asking:
    """Who asks, in which game, with the other options typed so far (what a source may narrow by)."""

    app: App
    ctx: Ctx
    game: GameView
    options: Mapping[str, Any]

    @property
    def moderator(self) -> bool:
        return self.ctx.actor.moderates(self.game.moderator_role_id)


Source = Callable[[Asking], Awaitable[list[Suggestion]]]
SOURCES: dict[str, Source] = {}
"""What each kind of name lists. ``game`` is handled by ``suggest`` itself (it needs no game)."""
GAME = "game"


def source(kind: str) -> Callable[[Source], Source]:
    def register(fn: Source) -> Source:
        SOURCES[kind] = fn
        return fn

    return register


def ranked(found: Iterable[Suggestion], typed: str) -> list[Suggestion]:
    """Prefix matches first, then substring matches (of the value or an alias; not of what the shown name adds,
    like a card's kind), each sorted case-insensitively; duplicates and over-long choices dropped; at most 25."""
    wanted = " ".join(typed.split()).casefold()
    starts: dict[str, Suggestion] = {}
    contains: dict[str, Suggestion] = {}
    for s in found:
        if not s.name or not s.value or len(s.name) > MAX_NAME or len(s.value) > MAX_NAME:
            continue
        texts = [t.casefold() for t in (s.value, *s.aliases)]
        if any(t.startswith(wanted) for t in texts):
            starts.setdefault(s.value, s)
        elif any(wanted in t for t in texts):
            contains.setdefault(s.value, s)
    contains = {v: s for v, s in contains.items() if v not in starts}

    def order(s: Suggestion) -> tuple[str, str]:
        return s.name.casefold(), s.name

    return (sorted(starts.values(), key=order) + sorted(contains.values(), key=order))[:MAX_CHOICES]


async def suggest(app: App, ctx: Ctx, command: str, option: str, typed: str,
                  options: Mapping[str, Any] | None = None) -> list[Suggestion]:
    """Up to 25 suggestions for ``option`` of ``/command`` as ``typed`` so far; [] when there are none, when the
    option takes free text, or when anything fails (logged)."""
    spec = COMMANDS.get(command)
    kind = None if spec is None else getattr(spec.option(option), "autocomplete", None)
    if spec is None or kind is None:
        return []
    given = dict(options or {})
    try:
        if kind == GAME:
            return ranked(await _games(app, ctx, spec), typed)
        fetch = SOURCES.get(kind)
        if fetch is None:
            log.warning("/%s %s: no suggestions for the kind %r", command, option, kind)
            return []
        game = await find_game(app, ctx, spec, given)
        if game is None or ruleset_refusal(spec, game) is not None:
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
    """The asker's own games that take the command, never the other games of the server."""
    games = await app.clerk.games_of_user(ctx.actor.id)
    return [Suggestion(f"#{g.name} ({g.ruleset.capitalize()})", g.name, (f"#{g.name}",)) for g in games
            if ruleset_refusal(spec, g) is None]


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


# -- Landsdraad --------------------------------------------------------------------------------------------------


@source("player")
async def _players(a: Asking) -> list[Suggestion]:
    """The game's active players (their names are public: ballots for the AG name them)."""
    return [Suggestion(p.name + (f" ({p.faction})" if p.faction else ""), p.name, (p.faction or "",))
            for p in await a.app.clerk.players(a.game.id) if p.active]


@source("holding")
async def _holdings(a: Asking) -> list[Suggestion]:
    """Electors and planets, of the player named in the ``player`` option if one is."""
    owner = a.options.get("player")
    found = []
    for p in await a.app.clerk.players(a.game.id):
        if isinstance(owner, UserRef) and p.user_id != owner.id:
            continue
        found += [Suggestion(f"{h.name} ({h.kind}, {p.name})", h.name) for h in p.holdings]
    return found


# -- Mylantium (the government page is public, rules-spec §2.2.7) ------------------------------------------------


@source("territory")
async def _territories(a: Asking) -> list[Suggestion]:
    return [Suggestion(t.name, t.name) for t in (await a.app.clerk.government(a.game.id)).territories]


@source("building")
async def _buildings(a: Asking) -> list[Suggestion]:
    """Named buildings, in the territory of the ``territory`` option if one is given."""
    where = str(a.options.get("territory") or "").strip().casefold()
    kind = str(a.options.get("kind") or "").strip().casefold()
    found = []
    for t in (await a.app.clerk.government(a.game.id)).territories:
        if where and t.name.casefold() != where:
            continue
        for plural, names in t.names.items():
            if kind and not plural.casefold().startswith(kind):
                continue
            found += [Suggestion(f"{n} ({plural}, {t.name})", n) for n in names]
    return found


@source("unit")
async def _units(a: Asking) -> list[Suggestion]:
    return [Suggestion(f"{u.name} ({u.territory})", u.name) for u in (await a.app.clerk.government(a.game.id)).units]


@source("candidate")
async def _candidates(a: Asking) -> list[Suggestion]:
    """Candidates not discarded, running or not."""
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title}{'' if c.running else ', not running'})",
                       c.name)
            for c in (await a.app.clerk.government(a.game.id)).candidates if not c.discarded]


@source("nominee")
async def _nominees(a: Asking) -> list[Suggestion]:
    """Running candidates, of the party of the ``party`` option if one is given."""
    party = str(a.options.get("party") or "").strip().casefold()
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title})", c.name)
            for c in (await a.app.clerk.government(a.game.id)).candidates
            if c.running and not c.discarded and (not party or c.party.value == party)]


# -- the Convocate (the board is public: /board lists every card) ------------------------------------------------


async def _board(a: Asking) -> tuple[Board, str | None]:
    """The board, and the asker's name at the table (None if they have no seat)."""
    view: BoardView = await a.app.clerk.cv_board(a.game.id)
    me = next((s.player for s in view.standings if s.user_id == a.ctx.actor.id), None)
    return view.board, me


def _card(name: str, what: str) -> Suggestion:
    return Suggestion(f"{name} ({what})", name)


@source("card")
async def _cards(a: Asking) -> list[Suggestion]:
    """Cards the asker may change: their own; every card for a moderator."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label + (f", {c.controller}" if c.controller else "")) for c in board.cards
            if a.moderator or (me is not None and c.controller == me)]


@source("cards")
async def _own_cards(a: Asking) -> list[Suggestion]:
    """The readied cards the asker controls (what /commit activates)."""
    board, me = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if me is not None and c.controller == me and c.readied]


@source("place")
async def _places(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.kind.label) for c in board.cards if c.kind.place]


@source("homeworld")
async def _homeworlds(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.sovereignty or "Homeworld") for c in board.cards if c.kind is Kind.HOMEWORLD]


@source("character")
async def _characters(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [_card(c.name, c.controller or "Character") for c in board.cards if c.kind is Kind.CHARACTER]


@source("own-character")
async def _own_characters(a: Asking) -> list[Suggestion]:
    """The readied Characters the asker controls."""
    board, me = await _board(a)
    return [_card(c.name, "readied") for c in board.cards
            if c.kind is Kind.CHARACTER and me is not None and c.controller == me and c.readied]


@source("convocant")
async def _convocants(a: Asking) -> list[Suggestion]:
    """The asker's readied Convocants on the Map (R4-02): who could move or second."""
    board, me = await _board(a)
    return [_card(c.name, "Pallarch" if c.pallarch else f"Vote {c.vote}") for c in board.cards
            if me is not None and c.controller == me and c.readied and c.on_map and is_convocant(c)]


@source("factor")
async def _factors(a: Asking) -> list[Suggestion]:
    board, _ = await _board(a)
    return [Suggestion(f"{name} ({value:+d})", name) for name, value in board.factors]


@source("statute")
async def _statutes(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker controls (every one for a moderator)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes
            if a.moderator or (me is not None and s.controller == me)]


@source("repealable")
async def _repealable(a: Asking) -> list[Suggestion]:
    """Statutes in force the asker does not control (a Motion of Repeal is against another's)."""
    board, me = await _board(a)
    return [_card(s.name, f"Section {s.section}, {s.controller}") for s in board.statutes if s.controller != me]
