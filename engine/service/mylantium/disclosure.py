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
    posted Faction Votes give a choice away, whole or in part: the ``mode`` (the setting when a choice is given away
    whole, else ``post``), who is exposed and how (Faction codes), whose choice is given away in part (``ruled_out``:
    code, Faction Votes and the choices ruled out), whether only the quick check ran, and whether the result is held
    until a moderator releases it."""
    try:
        found, exposures, leaks = election_check({c: votes.get(c, 0) for c in options}, options, totals)
    except InconsistentError:  # a choice the options do not know (a setting changed during the election): no check
        return result
    if exposures or leaks:
        setting = str(value_of(game.settings, "disclosure", SETTINGS))
        mode = setting if exposures else "post"  # a choice given away only in part warns, nothing more
        result["disclosure"] = {"mode": mode, "setting": setting, "exposed": [[e.name, e.choice] for e in exposures],
                                "ruled_out": [[leak.name, votes.get(FactionCode[leak.name], 0), sorted(leak.ruled_out)]
                                              for leak in leaks],
                                "partial": not found.complete, "held": mode == "hold"}
    return result
