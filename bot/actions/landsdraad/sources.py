"""What the Landsdraad options suggest as they are typed (``Front.sources``): the game's players, their Electors and
planets."""

from __future__ import annotations

from bot.actions.context import UserRef
from bot.actions.suggest_sources import Asking, Source, Suggestion


async def _players(a: Asking) -> list[Suggestion]:
    """The game's active players (their names are public: ballots for the AG name them)."""
    return [Suggestion(p.name + (f" ({p.faction})" if p.faction else ""), p.name, (p.faction or "",))
            for p in await a.app.clerk.landsdraad.ledger.players(a.game.id) if p.active]


async def _holdings(a: Asking) -> list[Suggestion]:
    """Electors and planets, of the player named in the ``player`` option if one is."""
    owner = a.options.get("player")
    found = []
    for p in await a.app.clerk.landsdraad.ledger.players(a.game.id):
        if isinstance(owner, UserRef) and p.user_id != owner.id:
            continue
        found += [Suggestion(f"{h.name} ({h.kind}, {p.name})", h.name) for h in p.holdings]
    return found


SOURCES: dict[str, Source] = {"player": _players, "holding": _holdings}
