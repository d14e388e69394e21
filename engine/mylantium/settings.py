"""Per-game settings of a Mylantium game: the rulings a group may play differently (shared/RULINGS.md), each
defaulting to its proposal, and ``Rules``, the same values as the pure rules take them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import disclosure
from engine.core.errors import ParseError
from engine.core.settings import Setting

SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("independent_rounding", "half-up", "How the Independent Vote (F/2) and the incumbent party's share of it "
                                               "are rounded; the opposition always gets the remainder.",
            choices=("half-up", "down", "up"), ruling="P1-01, P1-02"),
    Setting("initial_approval", 50, "The Approval Rating before a moderator sets one or a Business Phase changes it.",
            ruling="P1-20", low=0, high=100),
    Setting("cover_up_fervor", "once", "Fervor for cover-ups exposed in a turn: once (+1 in all) or each "
                                       "(+1 per cover-up).", choices=("once", "each"), ruling="P1-09"),
    Setting("primary_choice", "own-party", "Which candidates a Faction may choose in the Primary: own-party (its "
                                           "party's candidates) or any.", choices=("own-party", "any")),
    Setting("contribution_hours", 48, "Hours the Factions have to send counter-revolutionary contributions once a "
                                      "Revolution begins or a coup is attempted.",
            low=1, high=336, ruling="P1-22"),
    Setting("reminders", "24h,2h", "When to DM the players whose Faction has not chosen yet, before a Primary's or "
                                   "General Election's deadline: durations such as `24h,2h`, or `none`.",
            durations=True),
    disclosure.setting("what a Faction chose", "each party's nominee in a Primary, or the winning party in a General "
                       "Election, and how wide its lead was, without the totals"),
)}


def setting(name: str) -> Setting:
    found = SETTINGS.get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None:
        raise ParseError(name, "a setting: " + ", ".join(SETTINGS))
    return found


@dataclass(frozen=True)
class Rules:
    """The proposals as switches (rules-spec §6 note 3); the defaults are the proposals."""

    rounding: str = "half-up"
    initial_approval: int = 50
    cover_up_each: bool = False
    primary_any_party: bool = False

    @staticmethod
    def of(settings: Mapping[str, Any]) -> Rules:
        def value(name: str) -> Any:
            return settings.get(name, SETTINGS[name].default)

        return Rules(rounding=str(value("independent_rounding")), initial_approval=int(value("initial_approval")),
                     cover_up_each=value("cover_up_fervor") == "each",
                     primary_any_party=value("primary_choice") == "any")


DEFAULT = Rules()
"""Every proposal as the rules-spec makes it."""
