"""Counting words for what people read: ``plural(1, "planet")`` is "1 planet", ``plural(2, "planet")`` "2 planets".
Every renderer says a count this way, never "planet(s)" (issue 17)."""

from __future__ import annotations

_IRREGULAR = {"Faction Tax": "Faction Taxes", "tax": "taxes", "Monopoly": "Monopolies", "monopoly": "monopolies",
              "subsidy": "subsidies", "city": "cities", "Tax": "Taxes"}


def plural_of(word: str) -> str:
    """The plural of a noun Clerk counts (a regular -s plural unless it is listed, or ends in -s, -x, -ch, -sh,
    or a consonant and -y)."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n word`` with the word in the plural unless ``n`` is 1 (``many`` gives an irregular plural)."""
    return f"{n} {word if n == 1 else (many or plural_of(word))}"


def either(names: list[str] | tuple[str, ...], *, one: str = "", any_of: str = "one of ") -> str:
    """``Junction`` for one name, ``one of Junction, Deneb`` for several (``one``/``any_of`` come before)."""
    return f"{one}{names[0]}" if len(names) == 1 else f"{any_of}{', '.join(names)}"
