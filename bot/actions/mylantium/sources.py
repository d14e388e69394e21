"""What the Mylantium options list as they are typed (``FRONT.sources``): the government page is public
(rules-spec §2.2.7), so every name on it is suggested to anyone in the game."""

from __future__ import annotations

from bot.actions.suggest_sources import Asking, Source, Suggestion
from engine.mylantium.model import FactionCode


async def _factions(a: Asking) -> list[Suggestion]:
    """The eight Factions of the Republic by the rules' plural (``Plutocrats (PL)``); typing the singular or the code
    finds them too. Every ``faction`` option is free text read by ``faction_code``, so any of the three works."""
    return [Suggestion(f"{c.plural} ({c.name})", c.plural, (c.title, c.name)) for c in FactionCode]


async def _territories(a: Asking) -> list[Suggestion]:
    return [Suggestion(t.name, t.name) for t in (await a.app.clerk.mylantium.government(a.game.id)).territories]


async def _buildings(a: Asking) -> list[Suggestion]:
    """Named buildings, in the territory of the ``territory`` option if one is given."""
    where = str(a.options.get("territory") or "").strip().casefold()
    kind = str(a.options.get("kind") or "").strip().casefold()
    found = []
    for t in (await a.app.clerk.mylantium.government(a.game.id)).territories:
        if where and t.name.casefold() != where:
            continue
        for plural, names in t.names.items():
            if kind and not plural.casefold().startswith(kind):
                continue
            found += [Suggestion(f"{n} ({plural}, {t.name})", n) for n in names]
    return found


async def _units(a: Asking) -> list[Suggestion]:
    return [Suggestion(f"{u.name} ({u.territory})",
                       u.name) for u in (await a.app.clerk.mylantium.government(a.game.id)).units]


async def _candidates(a: Asking) -> list[Suggestion]:
    """Candidates not discarded, running or not."""
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title}{'' if c.running else ', not running'})",
                       c.name)
            for c in (await a.app.clerk.mylantium.government(a.game.id)).candidates if not c.discarded]


async def _nominees(a: Asking) -> list[Suggestion]:
    """Running candidates, of the party of the ``party`` option if one is given."""
    party = str(a.options.get("party") or "").strip().casefold()
    return [Suggestion(f"{c.name} ({c.faction.value}, {c.party.title})", c.name)
            for c in (await a.app.clerk.mylantium.government(a.game.id)).candidates
            if c.running and not c.discarded and (not party or c.party.value == party)]


SOURCES: dict[str, Source] = {
    "faction": _factions,
    "territory": _territories,
    "building": _buildings,
    "unit": _units,
    "candidate": _candidates,
    "nominee": _nominees,
}
