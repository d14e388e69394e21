"""The rulings a group may play differently (rules-spec §6.1, P4-xx), as per-game settings.

Each default is the ruling. Fixed, not switchable: the Galactic Factor range and step cost (P4-02, P4-03,
P4-07: the printed table governs, RULINGS.md) and paying each step in full (P4-15). The alternative of P4-01
(an occupant's +1 in someone else's Seat) would bring back the retired infiltration rule, so it is not offered."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.durations import parse_duration
from engine.core.errors import ParseError
from engine.core.settings import Setting

GOVT_RANGE = "a range of GOVT values from -4 to +4 such as `0..4`, `-4..0` or `-4..-1`"


@dataclass(frozen=True)
class Rulings:
    """The switches the pure rules read. Build one from a game's settings with ``rulings_of``."""

    seat_range_plus: tuple[int, int] = (0, 4)
    """P4-14: where a + bloc Seat (Union, Republic) is active when its card data gives no range."""
    seat_range_minus: tuple[int, int] = (-4, 0)
    """P4-14: the same for a − bloc Seat (Kingdom, Hegemony, HLM)."""
    govt_zero_all_seats: bool = True
    """P4-12: at GOVT 0 every Seat is active, whatever its card data says."""
    statute_control_check: str = "before"
    """P4-04: political control for a Statute is checked before the declaring Character is activated."""
    statute_character: str = "any"
    """P4-10: any readied Character may declare a Statute (``convocant``: only a Character with Vote 1+)."""
    repeal_count: str = "after"
    """P4-05: a Repeal counts Standing Vote after the mover is activated."""
    repeals_per_turn: str = "per-convocant"
    """P4-06: any number of Repeals a turn, one per Convocant (``one``: one Repeal a turn per player)."""
    committed_cards: str = "out"
    """P4-08: every card activated to commit Votes leaves Standing Vote until it readies (``locations-count``:
    Locations, Homeworlds, Seats and other permanents count even when activated)."""
    temp_vote_convocant: bool = True
    """P4-09: a temporary +Vote on a Character counts towards its being a Convocant while it lasts."""
    emberates_govt: str = "none"
    """P4-11: the Emberates' preferred GOVT sign (``none``: never locked out)."""
    second_order: str = "from-mover"
    """P4-13: the offer to second goes round the turn order starting with the mover (``mover-last``: starting
    with the next player, the mover asked last)."""


def _range(text: str) -> str:
    low, high = parse_range(text)
    return f"{low}..{high}"


def _duration(text: str) -> str:
    parse_duration(text)
    return text.strip().lower()


def shown(value: Any) -> str:
    """A ruling's value as players read it: a GOVT range as ``0..4``, true or false in lower case."""
    if isinstance(value, tuple):
        return f"{value[0]}..{value[1]}"
    return str(value).lower() if isinstance(value, bool) else str(value)


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("seat_range_plus", "0..4", "GOVT values where a + bloc Seat (Union, Republic) is active when its card "
            "data gives none.", ruling="P4-14", reader=_range),
    Setting("seat_range_minus", "-4..0", "GOVT values where a − bloc Seat (Kingdom, Hegemony, HLM) is active when "
            "its card data gives none.", ruling="P4-14", reader=_range),
    Setting("govt_zero_all_seats", True, "At GOVT 0 every Seat is active, whatever its card data says.",
            ruling="P4-12"),
    Setting("statute_control_check", "before", "When political control is checked for a Statute: before or after "
            "the declaring Character is activated.", ("before", "after"), ruling="P4-04"),
    Setting("statute_character", "any", "Which readied Character may declare a Statute: any, or only a "
            "Convocant.", ("any", "convocant"), ruling="P4-10"),
    Setting("repeal_count", "after", "When a Repeal counts Standing Vote: after or before the mover is "
            "activated.", ("after", "before"), ruling="P4-05"),
    Setting("repeals_per_turn", "per-convocant", "Repeals a player may move in a turn: one per Convocant, or one.",
            ("per-convocant", "one"), ruling="P4-06"),
    Setting("committed_cards", "out", "Cards activated to commit Votes leave Standing Vote until they ready (out), "
            "or Locations and other permanents still count (locations-count).", ("out", "locations-count"),
            ruling="P4-08"),
    Setting("temp_vote_convocant", True, "A temporary +Vote on a Character can make it a Convocant while it "
            "lasts.", ruling="P4-09"),
    Setting("emberates_govt", "none", "The Emberates' preferred GOVT side: none (never locked out), plus or "
            "minus.", ("none", "plus", "minus"), ruling="P4-11"),
    Setting("second_order", "from-mover", "Who is offered the second first: the mover (from-mover), or the next "
            "player with the mover last (mover-last).", ("from-mover", "mover-last"), ruling="P4-13"),
    Setting("second_timeout", "24h", "How long each player has to answer the offer to second before it passes to "
            "the next player.", ruling="Clerk", reader=_duration),
)}
"""The Convocate's per-game settings (``/game settings``; ``/convocate rulings`` shows them with their P-numbers)."""


_RANGE = re.compile(r"^\s*([+-]?\d)\s*(?:\.\.|to|–)\s*([+-]?\d)\s*$")


def parse_range(text: str) -> tuple[int, int]:
    found = _RANGE.match(text)
    if found is None:
        raise ParseError(text, GOVT_RANGE)
    low, high = int(found[1]), int(found[2])
    if not (-4 <= low <= high <= 4):
        raise ParseError(text, GOVT_RANGE, problem="the range runs from low to high within -4..+4")
    return low, high


def setting(name: str) -> Setting:
    found = SETTINGS.get(name.strip().lower().replace("-", "_").replace(" ", "_"))
    if found is None:
        raise ParseError(name, "a Convocate ruling: " + ", ".join(SETTINGS))
    return found


def value_of(settings: Mapping[str, Any], name: str) -> Any:
    spec = SETTINGS[name]
    stored = settings.get(name)
    value = spec.default if stored is None else stored
    if spec.reader is _range:
        return parse_range(str(value))
    return value


def rulings_of(settings: Mapping[str, Any]) -> Rulings:
    """The Rulings of a game from its stored settings (anything not stored is the ruling's default)."""
    names = [f for f in Rulings.__dataclass_fields__ if f in SETTINGS]
    return Rulings(**{n: value_of(settings, n) for n in names})
