"""Finding a player from what people type: a name, a faction, or a Discord mention (``<@123>``).

Used wherever a player names another in text: AG ballots, player votes, transfers, audit quotes. Matching
ignores case and runs of spaces. In order: a mention; the exact name; the exact faction (``House Atreides``,
or ``Atreides`` without the ``House``); a name or faction that starts with what was typed (two letters at
least). The first step that finds exactly one player decides; a step that finds several is ambiguous."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.suggest import nearest
from engine.core.text import inert_name, typed_back
from engine.store.models import Game, Player

_MENTION = re.compile(r"^<@!?(\d+)>$")
MAX_ID_DIGITS = 20
"""A Discord id (a 64-bit snowflake) has at most 20 digits: a longer "mention" is refused before ``int()`` (which
refuses more than 4,300 digits with a ValueError: issue 21)."""
_HOUSE = re.compile(r"^(?:house|the)\s+", re.IGNORECASE)


def _norm(text: str) -> str:
    """A name as it is matched: read as a kept name is (``inert_name``: no markdown, so ``**Result: PASSED**``,
    typed or kept before names were kept without markdown, is ``Result: PASSED``; play-test P4.2), any case."""
    return " ".join(inert_name(text).lower().split())


def player_label(player: Player) -> str:
    """``Alice (House Atreides)``, or just the name."""
    return player.name + (f" ({player.faction})" if player.faction else "")


def candidates_text(players: Sequence[Player]) -> str:
    """The active players, as a reply lists them: ``Alice (House Atreides), Bob``."""
    return ", ".join(player_label(p) for p in players if p.active) or "none yet"


def _matches(players: Sequence[Player], wanted: str) -> list[Player]:
    lowered = _norm(wanted)
    if not lowered:
        return []
    bare = " ".join(_HOUSE.sub("", lowered).split())

    def name(p: Player) -> str:
        return _norm(p.name)

    def faction(p: Player) -> str:
        return _norm(p.faction or "")

    steps: list[Callable[[Player], bool]] = [
        lambda p: name(p) == lowered,
        lambda p: p.faction is not None and faction(p) == lowered,
        lambda p: p.faction is not None and _norm(_HOUSE.sub("", faction(p))) == bare,
        lambda p: len(lowered) >= 2 and (name(p).startswith(lowered) or faction(p).startswith(lowered)),
        lambda p: len(lowered) >= 3 and any(word.startswith(lowered) for word in (name(p) + " " + faction(p)).split()),
    ]
    for step in steps:
        found = [p for p in players if step(p)]
        if found:
            return found
    return []


async def find_player_by_name(session: AsyncSession, game: Game, name: str) -> Player:
    """The player called ``name`` (or with that faction, or that mention), case-insensitive. An unknown or
    ambiguous name raises RuleError listing the candidates: the game's active players."""
    players = list((await session.execute(
        select(Player).where(Player.game_id == game.id).order_by(Player.id))).scalars())
    typed = name.strip()
    mention = _MENTION.match(typed)
    wanted = inert_name(typed)
    if mention and len(mention[1]) > MAX_ID_DIGITS:
        raise RuleError(f"That mention is not a Discord user (a user's id has at most {MAX_ID_DIGITS} digits). Name "
                        f"a player, their faction or @mention them. Players: {candidates_text(players)}.")
    if mention:
        found = [p for p in players if p.user_id == int(mention[1])]
        if not found:
            raise RuleError(f"The user mentioned is not a player in {game.name}. Players: {candidates_text(players)}.")
    else:
        found = _matches(players, wanted)
    if len(found) == 1:
        return found[0]
    if not wanted:
        raise RuleError(f"Name a player. Players in {game.name}: {candidates_text(players)}.")
    if not found:
        near = nearest(wanted, [p.name for p in players if p.active] + [p.faction for p in players
                                                                          if p.active and p.faction])
        hint = f" Did you mean {near}?" if near else ""
        raise RuleError(f"No player in {game.name} is called {typed_back(wanted)}.{hint} "
                        f"Players: {candidates_text(players)}.")
    which = ", ".join(player_label(p) for p in found)
    raise RuleError(f"“{wanted}” could be {which}; give the full name, the faction or an @mention.")
