"""Reading a crisis ballot from a player's text (R0-10..R0-12, P0-01, P0-03).

``Vote: Aye, 14`` / ``Revote: Nay`` / ``Vote: Abstain`` / ``vote: yes`` ... optionally ending in
``#game`` for a player in several games."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import MAX_DIGITS, whole_number
from engine.landsdraad.model import Option

OPTION_WORDS: dict[str, Option] = {
    "aye": Option.AYE,
    "yes": Option.AYE,
    "nay": Option.NAY,
    "no": Option.NAY,
    "abstain": Option.ABSTAIN,
}
ACCEPTED = (
    "`Vote: Aye`, `Vote: Nay` or `Vote: Abstain` (Yes and No work too), optionally with your count "
    "(`Vote: Aye, 14`); `Revote: Nay` changes your ballot"
)

_GAME = r"(?:\s+#(?P<game>[\w-]+))?"
_FORM = re.compile(
    r"^\s*(?P<kw>[a-z][a-z -]*)\s*[:\-]\s*(?P<rest>.*?)" + _GAME + r"\s*$",
    re.IGNORECASE | re.DOTALL,
)
_REST = re.compile(r"^(?P<opt>[^\s,;.!]*)[\s,;]*(?:(?P<n>[^\s.!]+)(?:\s*votes?)?)?[.!]*$", re.IGNORECASE)
_NO_COLON = re.compile(r"^\s*(re[- ]?vote|vote)\s+(?=[a-z])", re.IGNORECASE)
"""``Vote Aye`` (no colon): the intent is clear, so it is read as ``Vote: Aye``."""
_KEYWORDS = {"vote": False, "revote": True, "re-vote": True, "re vote": True}


@dataclass(frozen=True)
class BallotCommand:
    """What the text asked for. ``declared`` is the player's own statement of their count, never the weight."""

    option: Option
    declared: int | None
    revote: bool
    game: str | None = None


def looks_like_ballot(text: str) -> bool:
    """True when the text is plausibly an attempt at a crisis ballot (so a parse error should be shown)."""
    head = text.strip().split(":", 1)[0].strip().lower()
    return bool(head) and (head in _KEYWORDS or nearest(head, _KEYWORDS, cutoff=0.75) is not None)


def parse_ballot(text: str) -> BallotCommand:
    line = text.strip().splitlines()[0] if text.strip() else ""
    form = _FORM.match(_NO_COLON.sub(r"\1: ", line, count=1))
    if not form:
        raise ParseError(text, ACCEPTED, problem="it is not a ballot")
    keyword = " ".join(form["kw"].lower().split())
    if keyword not in _KEYWORDS:
        near = nearest(keyword, ("vote", "revote"))
        suggestion = f"{near.capitalize()}: {form['rest'].strip()}".strip() if near else None
        raise ParseError(text, ACCEPTED, suggestion=suggestion)
    rest = form["rest"].strip()
    if not rest:
        raise ParseError(text, ACCEPTED, problem="it names no option")
    parts = _REST.match(rest)
    if not parts:
        raise ParseError(text, ACCEPTED)
    word = parts["opt"].lower()
    option = OPTION_WORDS.get(word)
    if option is None:
        near = nearest(word, ("Aye", "Nay", "Abstain", "Yes", "No"))
        label = "Revote" if _KEYWORDS[keyword] else "Vote"
        raise ParseError(
            text,
            ACCEPTED,
            suggestion=f"{label}: {near}" if near else None,
            problem=f"“{parts['opt']}” is not Aye, Nay or Abstain",
        )
    declared: int | None = None
    if parts["n"] is not None:
        number = whole_number(parts["n"])
        if number is None:
            longer = f" of at most {MAX_DIGITS} digits" if parts["n"].isdecimal() else ""
            raise ParseError(text, ACCEPTED, problem=f"“{parts['n'][:20]}” is not a whole number of votes{longer}")
        declared = number
    return BallotCommand(option=option, declared=declared, revote=_KEYWORDS[keyword], game=form["game"])
