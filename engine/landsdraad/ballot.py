"""Reading a crisis ballot from a player's text (R0-10..R0-12, P0-01, P0-03).

``Vote: Aye, 14`` / ``Revote: Nay`` / ``Vote: Abstain`` / ``vote: yes`` ... optionally ending in
``#game`` for a player in several games."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import (
    MAX_DIGITS,
    collapsed,
    first_line,
    game_tags,
    later_lines,
    several_games,
    split_game_tag,
    whole_number,
)
from engine.landsdraad.model import Option
from engine.landsdraad.motions import AG_NO_COLON

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

_KEYWORD = re.compile(r"[a-z][a-z -]*", re.IGNORECASE)
_REST = re.compile(r"^(?P<opt>[^\s,;.!?]*+)[\s,;]*+(?:(?P<n>[^\s.!?]++)(?:\s*votes?)?)?[.!?]*$", re.IGNORECASE)
"""Possessive (``*+``): the separators before the count are never given back, so a long run of them cannot make
the match backtrack (the line is collapsed: at most one space in a row)."""
_NO_COLON = re.compile(r"^\s*(re[- ]?vote|vote)\s+(?=[a-z])", re.IGNORECASE)
"""``Vote Aye`` (no colon): the intent is clear, so it is read as ``Vote: Aye``."""
_ABSTAIN_MEANT = frozenset({"none", "neither", "abstention", "abstained", "pass", "withdraw", "nothing"})
"""Words that mean abstaining, some spelt like ``No`` (Nay): the suggestion for them is Abstain (play-test P4.6)."""
_KEYWORDS = {"vote": False, "revote": True, "re-vote": True, "re vote": True}
_TAKE_BACK = frozenset({"unvote", "un-vote", "withdraw", "retract", "cancel", "unvote my ballot", "withdraw my vote",
                        "withdraw vote", "cancel vote", "cancel my vote", "retract vote", "delete vote"})
"""Words for taking a ballot back, which a crisis ballot cannot be (play-test P5.2)."""
TAKE_BACK = "a crisis ballot cannot be taken back, but `Vote: Abstain` makes yours count for neither side"


@dataclass(frozen=True)
class BallotCommand:
    """What the text asked for. ``declared`` is the player's own statement of their count, never the weight."""

    option: Option
    declared: int | None
    revote: bool
    game: str | None = None


def looks_like_ballot(text: str) -> bool:
    """True when the text is plausibly an attempt at a crisis ballot (so a parse error should be shown): a keyword
    (or a near miss) before a colon, or ``vote aye`` without the colon (only before an option word, so that
    ``vote for pizza`` is chat)."""
    line = first_line(text)
    bare = _NO_COLON.match(line)
    if bare is not None and ":" not in line.split(" ", 2)[1]:
        word = line[bare.end():].split(" ", 1)[0].strip(",;.!()").lower()
        return word in OPTION_WORDS or nearest(word, ("aye", "nay", "abstain"), cutoff=0.8) is not None
    head = line.split(":", 1)[0].strip().lower()
    return bool(head) and (head in _KEYWORDS or nearest(head, _KEYWORDS, cutoff=0.75) is not None)


def _split_form(line: str) -> tuple[str, str] | None:
    """``Re-vote: Aye`` -> (``Re-vote``, ``Aye``): the keyword is the longest run of letters, spaces and hyphens
    that is followed by ``:``, or else ends at its last ``-`` (``Vote - Aye``). Found in one pass (a pattern with
    both choices backtracks over every hyphen: quadratic)."""
    run = _KEYWORD.match(line)
    if run is None:
        return None
    end = run.end()
    if line[end:end + 1] == ":":
        return line[:end], line[end + 1:]
    dash = line.rfind("-", 0, end)
    return (line[:dash], line[dash + 1:]) if dash > 0 else None


def _later_ballot(text: str) -> str | None:
    """The first of a message's further lines (up to a few) that is a ballot by itself, as typed; None if none is."""
    for _, row in later_lines(text):
        if _split_form(row) is not None:
            try:
                parse_ballot(row)
            except ParseError:
                continue
            return row[:60]
    return None


def _contrary_ballot(text: str, option: Option) -> tuple[int, Option] | None:
    """The first of a message's further lines (up to a few) that is a ballot for another option than ``option``, as
    (its line number from 1, its option); None if none is. ``Vote: Aye`` then ``Vote: Nay``: which one is meant is
    not clear (R0-40), so neither is counted (play-test P3.1)."""
    for number, row in later_lines(text):
        try:
            other = parse_ballot(row).option
        except ParseError:
            continue
        if other is not option:
            return number, other
    return None


def _tagged(text: str, rest: str) -> tuple[str, str | None]:
    """``Aye #sirius, 11`` -> (``Aye, 11``, ``sirius``): the option and count without the ``#game``, wherever it stands
    after the option (play-test P5.3; ``game_tags``). Two different games are refused: a ballot is for one game."""
    body, tags = game_tags(rest, anywhere=True)
    if len(tags) > 1:
        raise ParseError(text, ACCEPTED, problem=several_games(tags, "ballot"))
    return body, (tags[0] if tags else None)


def parse_ballot(text: str) -> BallotCommand:
    line = _NO_COLON.sub(r"\1: ", first_line(text), count=1)
    split = _split_form(line)
    if split is None or " ".join(split[0].lower().split()) not in _KEYWORDS:
        bare = _bare_option(line)
        if bare is not None:  # ``Yes`` alone: an option without its keyword
            raise ParseError(text, ACCEPTED, suggestion=f"Vote: {bare}", problem="a ballot starts with `Vote:`")
    if split is None and collapsed(line.lower().strip(" .!?")) in _TAKE_BACK:
        raise ParseError(text, ACCEPTED, suggestion="Vote: Abstain", problem=TAKE_BACK)
    if split is None:
        later = _later_ballot(text)
        if later is not None:  # ``Hello`` then ``Vote: Aye``: only the first line is read
            raise ParseError(text, ACCEPTED, suggestion=later, problem="a ballot goes on the first line, which is "
                                                                        "the only one I read")
        raise ParseError(text, ACCEPTED, problem="it is not a ballot", suggestion=_meant(line))
    rest, game = _tagged(text, split[1].strip())
    keyword = " ".join(split[0].lower().split())
    if keyword in _TAKE_BACK:  # ``Unvote: Aye``, ``Withdraw: Nay``
        raise ParseError(text, ACCEPTED, suggestion="Vote: Abstain" + (f" #{game}" if game else ""), problem=TAKE_BACK)
    if keyword not in _KEYWORDS:
        near = nearest(keyword, ("vote", "revote"))
        suggestion = _meant(line) or (f"{near.capitalize()}: {rest}".strip() if near else None)
        raise ParseError(text, ACCEPTED, suggestion=suggestion)
    if not rest:
        raise ParseError(text, ACCEPTED, problem="it names no option")
    label = "Revote" if _KEYWORDS[keyword] else "Vote"
    rest = collapsed(rest.replace("(", " ").replace(")", " "))  # ``Vote: Aye (16)`` reads as ``Vote: Aye 16``
    if not rest:
        raise ParseError(text, ACCEPTED, problem="it names no option")
    parts = _REST.match(rest)
    typed = parts["opt"] if parts else rest.split(" ", 1)[0].rstrip(",;.!?")
    option = OPTION_WORDS.get(typed.lower())
    if option is None:
        if not parts:
            raise ParseError(text, ACCEPTED)
        near = "Abstain" if typed.lower() in _ABSTAIN_MEANT else nearest(typed.lower(), ("Aye", "Nay", "Abstain",
                                                                                       "Yes", "No"))
        shown = typed if len(typed) <= 40 else typed[:37] + "..."
        foreign = next((ch for ch in typed if ord(ch) > 127 and ch.isalpha()), None)
        problem = f"“{shown}” is not Aye, Nay or Abstain"
        if foreign is not None and near is not None:  # ``Аye`` with a Cyrillic А: it looks like Aye (play-test P4.4)
            alphabet = unicodedata.name(foreign, "another alphabet").split(" ")[0].capitalize()
            problem = (f"“{shown}” has a letter that only looks like a Latin one ({foreign}, {alphabet}); type it "
                       "with Latin letters")
        if typed.lower() in _TAKE_BACK:  # ``Vote: withdraw``
            problem = f"{problem}; {TAKE_BACK}"
        tag = f" #{game}" if game else ""
        raise ParseError(text, ACCEPTED, suggestion=f"{label}: {near}{tag}" if near else None, problem=problem)
    read = option.value.capitalize()
    if not parts:  # ``vote: aye, count me in``: the option, then words that are no count
        _not_a_count(text, f"{label}: {read}", rest[len(typed):].strip(" ,;.!"), game)
    assert parts is not None
    declared: int | None = None
    if parts["n"] is not None:
        number = whole_number(parts["n"])
        if number is None:
            if not any(ch.isdecimal() for ch in parts["n"]):
                _not_a_count(text, f"{label}: {read}", parts["n"], game)
            if parts["n"].lstrip().startswith("-"):
                raise ParseError(text, ACCEPTED, suggestion=f"{label}: {read}" + (f" #{game}" if game else ""),
                                 problem=f"the count “{parts['n'][:20]}” is below zero; a count is 0 or more")
            longer = f" of at most {MAX_DIGITS} digits" if parts["n"].isdecimal() else ""
            raise ParseError(text, ACCEPTED, problem=f"“{parts['n'][:20]}” is not a whole number of votes{longer}")
        declared = number
    contrary = _contrary_ballot(text, option)
    if contrary is not None:
        number, other = contrary
        raise ParseError(text, ACCEPTED, problem=f"your message holds two ballots, {read} on its first line and "
                                                 f"{other.value.capitalize()} on line {number}; send the one you "
                                                 "mean, alone")
    return BallotCommand(option=option, declared=declared, revote=_KEYWORDS[keyword], game=game)


_SLIPPED = re.compile(r"^(?:i )?(?P<kw>re-?vote|vote) ?[;,.]? ?(?P<opt>[a-z]+)[.!?]?$", re.IGNORECASE)
"""``Vote; Nay`` (the key beside the colon), ``I vote aye``, ``vote, nay``: a ballot meant, but not one of the forms
read as one (a hint only: nothing is counted from it)."""
_AUDIT_NO_COLON = re.compile(r"^audit(?: quote)?[ ;,.-]+(?P<rest>[^ ;:,.-].*)$", re.IGNORECASE)
"""``audit bob`` by DM: the quote (its answer says how the audit is called, in a thread)."""


def _meant(line: str) -> str | None:
    """The form a line that is no ballot most likely meant, or None: ``Vote: Nay`` for ``Vote; Nay`` or
    ``I vote nay``; ``AG Vote: Jenny`` for ``AG vote Jenny`` (a vote in an Adjutant General election); ``Audit
    quote: Bob`` for ``audit bob``."""
    body, game = split_game_tag(line)  # the line is collapsed (``first_line``): one space at most between words
    tag = f" #{game}" if game else ""
    slipped = _SLIPPED.match(body)
    if slipped is not None and slipped["opt"].lower() in OPTION_WORDS:
        keyword = "Revote" if slipped["kw"].lower() != "vote" else "Vote"
        return f"{keyword}: {OPTION_WORDS[slipped['opt'].lower()].value.capitalize()}{tag}"
    ag = AG_NO_COLON.match(body)
    if ag is not None:
        return f"AG Vote: {ag['name'][:60]}{tag}"
    audit = _AUDIT_NO_COLON.match(body)
    return f"Audit quote: {audit['rest'][:60]}{tag}" if audit is not None else None


def _not_a_count(text: str, meant: str, unread: str, game: str | None) -> None:
    """``vote: nay please``: the option was read (``meant``: ``Vote: Nay``), the words after it were not (only a
    count may follow it)."""
    shown = unread if len(unread) <= 40 else unread[:37] + "..."
    raise ParseError(text, ACCEPTED, suggestion=meant + (f" #{game}" if game else ""),
                     understood=meant.split(": ", 1)[1],
                     problem=f"“{shown}”: only your count may follow the option, in digits, as in `{meant}, 14`")


def _bare_option(line: str) -> str | None:
    """``Yes``, ``aye, 14``, ``Nay.``: an option word first, with no keyword before it: the line as meant."""
    word = line.split(" ", 1)[0].rstrip(",;.!?:").lower()
    if word not in OPTION_WORDS or len(line) > 40:
        return None
    return line[0].upper() + line[1:].rstrip(".!?")
