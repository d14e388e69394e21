"""Per-game settings for rulings a group may play differently (shared/RULINGS.md). Each default is the ruling;
a moderator may change it, and the change is recorded in the event log."""

from __future__ import annotations

from engine.core import disclosure
from engine.core.errors import ParseError
from engine.core.settings import Setting, format_offset, format_offsets, parse_offsets

__all__ = ["SETTINGS", "Setting", "format_offset", "format_offsets", "parse_offsets", "setting"]


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("ag_weighted", False, "AG election weighted by each voter's Landsdraad votes instead of one ballot "
                                  "per player.", ruling="P0-06"),
    Setting("end_game_penalty", 20, "Percent taken off the Victory Pot when an End Game vote is enacted.",
            low=0, high=100, ruling="R0-61"),
    Setting("audit_share_rounding", "up", "How each player's share of an audit fee is rounded when the fee does "
                                          "not divide evenly.", choices=("up", "down"),
            ruling="P0-10"),
    Setting("perk_ties", "none", "Perks when players tie in votes: none (a tied position is not awarded) or "
                                 "base-vote (the higher Base Vote wins the tie).", choices=("none", "base-vote"),
            ruling="P0-12"),
    Setting("reminders", "24h,2h", "When to DM the players who have not voted yet, before a round's or an AG "
                                   "election's deadline: durations such as `24h,2h`, or `none`.", durations=True),
    disclosure.setting("how a player voted", "passed or failed and how wide the margin was"),
)}


def setting(name: str) -> Setting:
    found = SETTINGS.get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None:
        raise ParseError(name, "a setting: " + ", ".join(SETTINGS))
    return found
