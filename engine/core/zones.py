"""A game's time zone (``/game settings timezone:Europe/Berlin``): an IANA name, read with ``zoneinfo`` (the
``tzdata`` package supplies the database where the system has none). Pure."""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from engine.core.errors import ParseError
from engine.core.suggest import nearest

ZONE_EXAMPLE = "an IANA time zone name such as `Europe/Berlin`, `America/New_York`, `Asia/Tokyo` or `UTC`"


@lru_cache(maxsize=1)
def _known() -> dict[str, str]:
    """Every zone name the database has, by its lower-case spelling."""
    return {name.lower(): name for name in available_timezones()}


def parse_zone(text: str) -> str:
    """The IANA name of the zone ``text`` names (any case: ``europe/berlin`` -> ``Europe/Berlin``), or a
    ``ParseError`` that says what is accepted and suggests a near miss."""
    cleaned = text.strip().replace(" ", "_")
    name = _known().get(cleaned.lower())
    if name is None and cleaned.upper() in ("UTC", "Z", "GMT"):
        name = "UTC"
    if name is not None:
        try:
            ZoneInfo(name)
            return name
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    guess = nearest(cleaned, _known().values(), cutoff=0.75) if 0 < len(cleaned) <= 64 else None
    raise ParseError(text, ZONE_EXAMPLE, suggestion=guess, problem="that is not a time zone I know")


def zone(name: str) -> ZoneInfo:
    """The zone of a name ``parse_zone`` accepted."""
    return ZoneInfo(name)
