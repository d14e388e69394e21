"""Reading player-majority votes and AG ballots from the first line of a thread message (R0-30, R0-40, R0-44).

``AG Vote: Jenny``; ``Vote: No Confidence``; ``Vote: End Embargo [on Bob]``; ``Audit: Bob [rounds 1-3]`` or
``Vote to Audit: Bob``; ``Vote: End Kanly [between Ann and Bob]``; ``Vote: End Game``; ``Unvote: <subject>``.
``Vote: No Confidence in <AG>`` names the Adjutant General (the vote's own title); the service checks the name.
As in a DM ballot, the colon may be left out when the intent is clear: ``vote no confidence`` is read, but only
when a subject (or a near miss of one) follows the keyword, so chat such as ``vote for pizza`` stays chat.
Names stay text here; the service resolves them to players."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import collapsed, first_line, whole_number
from engine.landsdraad.majority import Subject

ACCEPTED = (
    "`Vote: No Confidence`, `Vote: End Embargo` (or `on <Name>`), `Audit: <Player>` (optionally `rounds 1-3`), "
    "`Vote: End Kanly` (or `between <P> and <Q>`), `Vote: End Game`, `AG Vote: <Name>`, or `Unvote: <subject>`"
)
MAX_ROUND = 999
"""The highest round a vote or quote can name: more is refused (a game never gets near it)."""
ROUNDS_ACCEPTED = "rounds such as `round 2`, `rounds 1-3` or `rounds 1, 3`"


@dataclass(frozen=True)
class AgVote:
    candidate: str


@dataclass(frozen=True)
class Motion:
    """Support (or, with ``withdraw``, withdrawal of support) for a subject and its named targets."""

    subject: Subject
    names: tuple[str, ...] = ()
    rounds: tuple[int, ...] = ()
    withdraw: bool = False


_AG = re.compile(r"^ag ?vote ?:(?P<name>.*)$", re.IGNORECASE)
AG_NO_COLON = re.compile(r"^ag ?vote[ ;,.-]+(?P<name>[^ ;:,.-].*)$", re.IGNORECASE)
"""``AG vote Jenny``: an AG vote without its colon, not read as one (only a hint: by DM ``engine.landsdraad.ballot``,
in a thread when it names a player, ``bot/actions/landsdraad/politics.py``)."""
_HEAD = re.compile(r"^(?P<kw>vote to audit|vote|unvote|audit) ?:(?P<rest>.*)$", re.IGNORECASE)
"""Matched against a collapsed first line (``first_line``): one space at most between words, none at the ends."""
_BARE = re.compile(r"^(?P<kw>vote to audit|unvote|vote) (?P<rest>[a-z].*)$", re.IGNORECASE)
"""``vote no confidence``: the keyword without its colon (read only when a subject follows: ``_names_subject``)."""
_NEAR_HEAD = re.compile(r"^(?P<kw>[a-z][a-z ]{1,14}) ?:(?P<rest>.*)$", re.IGNORECASE)
"""``Vot: No Confidence``: a near miss of a keyword, before a colon."""
_KEYWORD_WORDS = ("vote", "unvote", "audit", "vote to audit")
_ROUND_WORD = re.compile(r"\brounds?\b", re.IGNORECASE)
_ROUNDS_SPEC = re.compile(r" ?(?P<spec>[\d ,\-–and]+)\)?", re.IGNORECASE)
_SUBJECT_WORDS = {
    "no confidence": Subject.NO_CONFIDENCE,
    "end embargo": Subject.END_EMBARGO,
    "audit": Subject.AUDIT,
    "end kanly": Subject.END_KANLY,
    "end game": Subject.END_GAME,
}


def audit_form(target: str, rounds: tuple[int, ...] | list[int]) -> str:
    """The form that calls for an audit of ``rounds`` (earlier ones; the current round is always in it):
    ``Audit: bob``, ``Audit: bob round 2``, ``Audit: bob rounds 1, 2``, as this module reads it."""
    if not rounds:
        return f"Audit: {target}"
    return f"Audit: {target} {'round' if len(rounds) == 1 else 'rounds'} {', '.join(map(str, rounds))}"


def parse_rounds(text: str, spec: str) -> tuple[int, ...]:
    rounds: set[int] = set()
    for part in re.split(r",|\band\b", spec):
        part = part.strip()
        if not part:
            continue
        span = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", part)
        if span:
            low, high = whole_number(span[1], MAX_ROUND), whole_number(span[2], MAX_ROUND)
            if low is None or high is None:
                raise ParseError(text, ROUNDS_ACCEPTED,
                                 problem=f"“{part[:20]}” is not a round number up to {MAX_ROUND}")
            if low > high:
                raise ParseError(text, ROUNDS_ACCEPTED, problem=f"“{part}” runs backwards")
            rounds.update(range(low, high + 1))
        elif (number := whole_number(part, MAX_ROUND)) is not None:
            rounds.add(number)
        else:
            raise ParseError(text, ROUNDS_ACCEPTED, problem=f"“{part}” is not a round number")
    return tuple(sorted(rounds))


def split_rounds(text: str, rest: str) -> tuple[str, tuple[int, ...]]:
    """``Bob rounds 1-3`` -> (``Bob``, (1, 2, 3)); no rounds named -> (rest, ()). Only the last ``round(s)`` can
    begin the list (the list has no ``r``, ``o`` or ``u`` in it), so it alone is tried: one pass over the text, where
    a pattern searched from every position backtracked cubically over a run of spaces (issue 14)."""
    rest = collapsed(rest)
    last = next(reversed(list(_ROUND_WORD.finditer(rest))), None)
    spec = _ROUNDS_SPEC.fullmatch(rest, last.end()) if last else None
    if last is None or spec is None:
        return rest.strip(" ,;"), ()
    name = rest[: last.start()].rstrip()
    name = name[:-1] if name.endswith(("(", ",", ";")) else name
    return name.strip(" ,;"), parse_rounds(text, spec["spec"])


def _named(text: str, subject: Subject, rest: str, withdraw: bool) -> Motion:
    if subject is Subject.AUDIT:
        name, rounds = split_rounds(text, rest)
        if not name:
            raise ParseError(text, ACCEPTED, problem="an audit names the player to audit, e.g. `Audit: Bob`")
        return Motion(subject, (name,), rounds, withdraw)
    if subject is Subject.END_EMBARGO:
        on = re.fullmatch(r"(?:on|against)\s+(?P<name>.+)", rest, re.IGNORECASE)
        if rest and not on:
            raise ParseError(text, ACCEPTED, problem="name the embargoed player with `on <Name>`")
        return Motion(subject, (on["name"].strip(),) if on else (), (), withdraw)
    if subject is Subject.END_KANLY:
        between = re.fullmatch(r"between\s+(?P<p>.+?)\s+(?:and|&)\s+(?P<q>.+)", rest, re.IGNORECASE)
        if rest and not between:
            raise ParseError(text, ACCEPTED, problem="name the two players with `between <P> and <Q>`")
        return Motion(subject, (between["p"].strip(), between["q"].strip()) if between else (), (), withdraw)
    if subject is Subject.NO_CONFIDENCE and rest:
        named = re.fullmatch(r"(?:in|of|on|against)\s+(?P<name>.+)", rest, re.IGNORECASE)
        if not named:
            raise ParseError(text, ACCEPTED, problem="name the Adjutant General with `in <Name>`, or nothing: "
                                                     "`Vote: No Confidence`")
        return Motion(subject, (named["name"].strip(),), (), withdraw)
    if rest:
        raise ParseError(text, ACCEPTED, problem=f"`{subject.title}` takes nothing after it")
    return Motion(subject, (), (), withdraw)


def _subject_near(rest: str, cutoff: float) -> str | None:
    """The subject words that ``rest`` starts with, or nearly does (``no confidance``), else None."""
    lowered = rest.lower()
    for words in (*_SUBJECT_WORDS, "audit"):
        if lowered == words or lowered.startswith(words + " ") or lowered.startswith(words + ":"):
            return words
    for words in _SUBJECT_WORDS:
        head = " ".join(lowered.split(" ")[:len(words.split())])
        if nearest(head, (words,), cutoff=cutoff) is not None:
            return words
    return None


def _with_colon(line: str) -> str:
    """``vote no confidence`` -> ``vote: no confidence`` when a subject (or a near miss) follows the keyword;
    otherwise the line as it is."""
    bare = _BARE.match(line)
    if bare and (bare["kw"].lower() == "vote to audit" or _subject_near(bare["rest"], 0.8) is not None):
        return f"{bare['kw']}: {bare['rest']}"
    return line


def _near_keyword(text: str, line: str) -> None:
    """``Vot: No Confidence``: a near miss of a keyword before a subject raises ParseError with the form meant."""
    near_head = _NEAR_HEAD.match(line)
    if near_head is None:
        return
    rest = near_head["rest"].strip()
    words = _subject_near(rest, 0.8)
    keyword = nearest(near_head["kw"], _KEYWORD_WORDS, cutoff=0.6)
    if words is None or keyword is None or keyword == "audit":
        return
    head = "Vote to Audit" if keyword == "vote to audit" else keyword.capitalize()
    raise ParseError(text, ACCEPTED, suggestion=f"{head}: {rest}",
                     problem=f"“{near_head['kw'].strip()}” is not a keyword of a player vote")


def parse_motion(text: str) -> AgVote | Motion | None:
    """The first line of a thread message as a vote, or None when it is not one (ordinary chat).
    A line that starts like a vote but cannot be read raises ParseError."""
    line = _with_colon(first_line(text))
    ag = _AG.match(line)
    if ag:
        if not ag["name"].strip():
            raise ParseError(text, "`AG Vote: <Name>`: a player's name, faction or @mention", problem="no name given")
        return AgVote(ag["name"].strip())
    head = _HEAD.match(line)
    if not head:
        _near_keyword(text, line)
        return None
    keyword = head["kw"].lower()
    rest = head["rest"].strip()
    withdraw = keyword == "unvote"
    if keyword in ("audit", "vote to audit"):
        return _named(text, Subject.AUDIT, rest, False)
    lowered = rest.lower()
    if withdraw and (lowered.startswith("vote to audit") or lowered.startswith("audit of ")):
        # ``Unvote: Vote to Audit: Bob`` (the form it withdraws) and ``Unvote: Audit of bob`` (the vote's own title on
        # its card) name the same vote as ``Unvote: Audit: Bob`` (play-test D5.3)
        target = rest[len("vote to audit"):] if lowered.startswith("vote to audit") else rest[len("audit of "):]
        return _named(text, Subject.AUDIT, target.strip(" :"), withdraw)
    if lowered.startswith("audit:") or lowered.startswith("audit "):
        return _named(text, Subject.AUDIT, rest.split(None, 1)[1] if " " in rest else "", withdraw)
    for words, subject in _SUBJECT_WORDS.items():
        if lowered == words or lowered.startswith(words + " "):
            return _named(text, subject, rest[len(words):].strip(), withdraw)
    if lowered.split(":")[0].strip() in ("aye", "nay", "abstain", "yes", "no", ""):
        return None
    near = nearest(lowered.split(" on ")[0].split(" between ")[0], _SUBJECT_WORDS, cutoff=0.7)
    suggestion = f"{'Unvote' if withdraw else 'Vote'}: {near.title()}" if near else None
    raise ParseError(text, ACCEPTED, suggestion=suggestion, problem=f"“{rest}” is not a subject players can vote on")
