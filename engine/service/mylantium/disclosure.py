"""The disclosure check of a closing Mylantium election (docs/rulings.md): engine/mylantium/disclosure.py on the
result's Faction Votes, and what the game's ``disclosure`` setting does with it."""

from __future__ import annotations

from typing import Any

from engine.core.disclosure import InconsistentError
from engine.mylantium.disclosure import election_check
from engine.mylantium.model import FactionCode
from engine.mylantium.settings import SETTINGS
from engine.service.settings import value_of
from engine.store.models import Game


def with_disclosure(game: Game, votes: dict[FactionCode, int], options: dict[FactionCode, frozenset[str]],
                    totals: dict[str, int], result: dict[str, Any]) -> dict[str, Any]:
    """The disclosure check of a closing election (docs/rulings.md), added to its result as ``disclosure`` when the
    posted Faction Votes give a choice away: the setting's ``mode``, who is exposed and how (Faction codes), whether
    only the quick check ran, and whether the result is held until a moderator releases it."""
    try:
        found, exposures = election_check({c: votes.get(c, 0) for c in options}, options, totals)
    except InconsistentError:  # a choice the options do not know (a setting changed during the election): no check
        return result
    if exposures:
        mode = str(value_of(game.settings, "disclosure", SETTINGS))
        result["disclosure"] = {"mode": mode, "exposed": [[e.name, e.choice] for e in exposures],
                                "partial": not found.complete, "held": mode == "hold"}
    return result
