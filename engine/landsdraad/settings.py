"""Per-game settings for rulings a group may play differently (shared/RULINGS.md). Each default is the ruling;
a moderator may change it, and the change is recorded in the event log."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import ParseError


@dataclass(frozen=True)
class Setting:
    name: str
    default: bool | int | str
    description: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def parse(self, text: str) -> bool | int | str:
        value = text.strip().lower()
        if isinstance(self.default, bool):
            if value in ("true", "yes", "on", "1"):
                return True
            if value in ("false", "no", "off", "0"):
                return False
            raise ParseError(text, f"`{self.name}` is true or false")
        if isinstance(self.default, int):
            if not value.lstrip("-").isdigit():
                raise ParseError(text, f"`{self.name}` is a whole number from {self.low} to {self.high}")
            number = int(value)
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                raise ParseError(text, f"`{self.name}` is a whole number from {self.low} to {self.high}")
            return number
        if value not in self.choices:
            raise ParseError(text, f"`{self.name}` is one of: {', '.join(self.choices)}")
        return value


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("ag_weighted", False, "AG election weighted by each voter's Landsdraad votes instead of one ballot "
                                  "per player (P0-06: not weighted)."),
    Setting("end_game_penalty", 20, "Percent taken off the Victory Pot when an End Game vote is enacted (R0-61).",
            low=0, high=100),
    Setting("audit_share_rounding", "up", "How each player's share of an audit fee is rounded when the fee does "
                                          "not divide evenly (P0-10: up).", choices=("up", "down")),
    Setting("perk_ties", "none", "Perks when players tie in votes: none (P0-12: a tied position is not awarded) or "
                                 "base-vote (the higher Base Vote wins the tie).", choices=("none", "base-vote")),
)}


def setting(name: str) -> Setting:
    found = SETTINGS.get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None:
        raise ParseError(name, "a setting: " + ", ".join(SETTINGS))
    return found
