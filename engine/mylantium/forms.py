"""Reading what Faction players send by DM: ``Primary: <Candidate>``, ``General: <Party>``, ``Realign: <Party>``,
``Contribute: <amount>`` (or ``Contribute: <amount> to the Vanguard``) and ``Coup: yes|no``, each optionally
ending in ``#game``. Names of candidates stay text here; the service finds them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import (
    MAX_DIGITS,
    first_line,
    game_tags,
    head_and_rest,
    later_lines,
    several_games,
    split_game_tag,
    whole_number,
)
from engine.mylantium.model import Party, faction_code, party_of

KEYWORDS = ("primary", "general", "realign", "contribute", "coup")
ACCEPTED = ("`Primary: <Candidate>`, `General: Whig|Federalist`, `Realign: Whig|Federalist`, `Contribute: <amount>` "
            "(or `Contribute: <amount> to the Vanguard`) or `Coup: yes|no`, optionally ending in `#game`")
_FORM = re.compile(r"^(?P<kw>[a-z][a-z -]*?) ?:(?P<rest>.*)$", re.IGNORECASE)
"""Matched against a collapsed first line (``first_line``); the ``#game`` is split off by ``game_tags``: no pattern
here meets a run of blanks (issue 14)."""
_AMOUNT = re.compile(r"^\$? ?(?P<n>\d++) ?(?:\$|dollars?)? ?(?:to (?:the )?(?P<to>.+))?$", re.IGNORECASE)
"""Matched after the closing ``.``/``!`` are stripped (a lazy name before ``[.!]*$`` is quadratic in them)."""
_YES = {"yes", "y", "aye", "accept", "attempt", "yes please"}
_NO = {"no", "n", "nay", "decline", "refuse", "no thanks", "no thank you"}
NOBODY = frozenset({"none", "nobody", "no one", "abstain", "withdraw", "nothing", "neither"})
"""Words that after ``Primary:`` or ``General:`` choose nobody (play-test Q5.6): refused, so no candidate may be
called one of them."""
"""Words for choosing nobody in `Primary:` or `General:` (play-test Q5.6)."""
_QUOTES = {'"': '"', "“": "”", "'": "'", "‘": "’", "«": "»", "„": "“"}


def _unquoted(name: str) -> str:
    """``"Lee Adams"`` or ``“Lee Adams”`` -> ``Lee Adams``: quotation marks around the whole name are not part of it
    (play-test Q5.1)."""
    if len(name) > 2 and name[0] in _QUOTES and name[-1] in (_QUOTES[name[0]], '"', "”"):
        return name[1:-1].strip() or name
    return name
_NAMELESS = frozenset({"general", "realign", "contribute", "coup"})
"""The forms whose words after the keyword hold no name (a party, an amount, yes or no): a ``#game`` may stand
anywhere among them."""
_NOT_OURS = {"vote", "revote", "re-vote", "unvote", "ag vote", "agvote", "transfer", "transfer funds", "audit",
             "audit quote", "vote to audit", "elector"}
"""Landsdraad forms: never read as a near miss of a Mylantium form."""


@dataclass(frozen=True)
class PrimaryChoice:
    candidate: str
    game: str | None = None


@dataclass(frozen=True)
class GeneralChoice:
    party: Party
    game: str | None = None


@dataclass(frozen=True)
class Realign:
    party: Party
    game: str | None = None


@dataclass(frozen=True)
class Pledge:
    amount: int
    to_vanguard: bool = False
    game: str | None = None


@dataclass(frozen=True)
class CoupAnswer:
    accept: bool
    game: str | None = None


Form = PrimaryChoice | GeneralChoice | Realign | Pledge | CoupAnswer


def _keyword(text: str) -> str:
    return first_line(text).split(":", 1)[0].strip().lower()


def names_a_form(line: str) -> bool:
    """The line starts with one of these forms' own keyword and its colon (``Primary: Roy``), nothing nearer."""
    return ":" in line and _keyword(line) in KEYWORDS


def looks_like_form(text: str) -> bool:
    """The text is one of these forms, or a near miss of one (``Primery: Lee``), and not a Landsdraad form."""
    stripped = text.strip()
    if not stripped or ":" not in stripped.splitlines()[0]:
        return False
    word = _keyword(text)
    if word in KEYWORDS:
        return True
    if word in _NOT_OURS or not word:
        return False
    return nearest(word, KEYWORDS, cutoff=0.75) is not None


def _party(text: str, rest: str, label: str) -> Party:
    try:
        return party_of(rest)
    except ParseError as error:
        lead = leading_name(rest, _party_or_none)
        if lead is not None:  # ``General: whig, please``: only part was read (play-test M5.3)
            party, extra = lead
            raise ParseError(text, ACCEPTED, suggestion=f"{label}: {party.title}", understood=party.title,
                             problem=f"“{extra}”") from None
        raise ParseError(text, ACCEPTED, suggestion=f"{label}: {error.suggestion}" if error.suggestion else None,
                         problem=f"“{rest}” is not a Party (Whig or Federalist)") from None


def _party_or_none(words: str) -> Party | None:
    try:
        return party_of(words)
    except ParseError:
        return None


T = TypeVar("T")


def leading_name(rest: str, read: Callable[[str], T | None]) -> tuple[T, str] | None:
    """What ``read`` reads in the words before one of the first few breaks (a space, a comma, a semicolon) of
    ``rest`` when it cannot read the whole, and the words after it: ``Lee Adams, please`` -> (Lee Adams,
    ``please``). None when no start of ``rest`` reads, or nothing but punctuation follows it."""
    breaks = [i for i, c in enumerate(rest[:200]) if c in " ,;"][:8]
    for i in reversed(breaks):  # the longest start that reads: ``Lee Adams`` before ``Lee``
        head, tail = rest[:i].strip(" ,;"), rest[i:].strip(" ,;.!")
        found = read(head) if head else None
        if found is not None and tail:
            return found, tail
    return None


def parse_form(text: str) -> Form:
    found = _FORM.match(first_line(text))
    if not found:
        raise ParseError(text, ACCEPTED)
    word = found["kw"].lower().strip()
    # a ``#game`` anywhere after a party, an amount or yes/no; after a candidate's name only at the end, so a name may
    # hold `` #2`` (docs/input.md "A #game tag")
    rest, games = game_tags(found["rest"].strip(), anywhere=word in _NAMELESS)
    if len(games) > 1:
        raise ParseError(text, ACCEPTED, problem=several_games(games, "choice"))
    game = games[0] if games else None
    if word not in KEYWORDS:
        near = nearest(word, KEYWORDS)
        raise ParseError(text, ACCEPTED, suggestion=f"{near.capitalize()}: {rest}".strip() if near else None)
    if not rest:
        raise ParseError(text, ACCEPTED, problem=f"nothing follows `{word.capitalize()}:`")
    if word in ("primary", "general", "realign"):  # a closing full stop is forgiven, as in `Coup:` (play-test M5.3)
        rest = rest.rstrip(".!").rstrip() or rest
        rest = _unquoted(rest)  # `Primary: "Lee Adams"` (play-test Q5.1)
        if word != "realign" and rest.lower() in NOBODY:
            what = "candidate" if word == "primary" else "party"
            raise ParseError(text, ACCEPTED, problem=f"“{rest}” names no {what}: a choice cannot be taken back, only "
                                                     "replaced by another, and a Faction that never chooses gives its "
                                                     "votes to nobody")
    if word == "primary":
        return PrimaryChoice(rest, game)
    if word == "general":
        return GeneralChoice(_party(text, rest, "General"), game)
    if word == "realign":
        return Realign(_party(text, rest, "Realign"), game)
    if word == "coup":
        answer = " ".join(rest.lower().replace(",", " ").split()).rstrip(".!")
        if answer in _YES:
            return CoupAnswer(True, game)
        if answer in _NO:
            return CoupAnswer(False, game)
        near = nearest(answer, ("yes", "no"))
        raise ParseError(text, "`Coup: yes` or `Coup: no`", suggestion=f"Coup: {near}" if near else None,
                         problem=f"“{rest}” is not yes or no")
    amount = _AMOUNT.match(rest.rstrip(".!"))
    if not amount:
        raise ParseError(text, "`Contribute: 20` (whole dollars, to the Counter-Revolutionary Treasury) or "
                               "`Contribute: 20 to the Vanguard`", problem=f"“{rest}” is not a whole number of dollars")
    dollars = whole_number(amount["n"])
    if dollars is None:
        raise ParseError(text, "`Contribute: 20` or `Contribute: 20 to the Vanguard`",
                         problem=f"the amount is a whole number of dollars of at most {MAX_DIGITS} digits")
    to = (amount["to"] or "").lower().strip()
    if to and to not in ("vanguard", "revolution", "revolutionaries"):
        if to not in ("crt", "counter-revolution", "counter revolution", "counter-revolutionary treasury",
                      "counter-revolutionaries", "counter revolutionary treasury", "treasury"):
            try:  # `to the Proles`: the Vanguard named by its Faction (play-test Q5.3)
                named = faction_code(amount["to"]).plural
            except ParseError:
                named = None
            if named is not None:
                raise ParseError(text, "`Contribute: 20` or `Contribute: 20 to the Vanguard`",
                                 problem=f"a contribution names no Faction: it goes to the Counter-Revolutionary "
                                         f"Treasury, or to the Vanguard, whichever Faction that is (if the {named} "
                                         "are, write `to the Vanguard`)")
            raise ParseError(text, "`Contribute: 20` or `Contribute: 20 to the Vanguard`",
                             problem=f"“to {amount['to']}”: the money goes to the Counter-Revolutionary Treasury or "
                                     "to the Vanguard")
        return Pledge(dollars, False, game)
    return Pledge(dollars, bool(to), game)


def _describe(form: Form) -> str:
    """A form's choice in a few words, for a refusal that names two of them."""
    if isinstance(form, PrimaryChoice):
        return form.candidate
    if isinstance(form, GeneralChoice | Realign):
        return form.party.title
    if isinstance(form, Pledge):
        return f"${form.amount}" + (" to the Vanguard" if form.to_vanguard else "")
    return "yes" if form.accept else "no"


def _same(one: Form, other: Form) -> bool:
    if isinstance(one, PrimaryChoice) and isinstance(other, PrimaryChoice):
        return " ".join(one.candidate.lower().split()) == " ".join(other.candidate.lower().split())
    return _describe(one) == _describe(other)


_WHAT = {PrimaryChoice: "Primary choices", GeneralChoice: "General Election choices", Realign: "realignments",
         Pledge: "contributions", CoupAnswer: "answers to the coup offer"}


def check_one_choice(text: str, form: Form) -> None:
    """Refuse a DM whose later line (up to a few) is the same form with another choice than its first line's
    (``Primary: Roy Dunn`` then ``Primary: Lee Adams``): only the first line is read, but which choice is meant is
    not clear, so neither is recorded (play-test Q3.1, as P3.1 for crisis ballots). The same choice again, or a body
    that is no form, is left alone."""
    for number, row in later_lines(text):
        if not names_a_form(row):
            continue
        try:
            other = parse_form(row)
        except ParseError:
            continue
        if type(other) is type(form) and not _same(form, other):
            both = (isinstance(form, Pledge) and isinstance(other, Pledge) and form.to_vanguard != other.to_vanguard)
            then = ("send each part in a message of its own" if both else "send the one you mean, alone")
            raise ParseError(text, ACCEPTED, problem=f"your message holds two {_WHAT[type(form)]}, "
                                                     f"{_describe(form)} on its first line and {_describe(other)} on "
                                                     f"line {number}; {then}")


_CHOOSING = {"vote", "revote", "re-vote", "ballot", "choose", "choice", "elect", "nominate", "pick", "candidate"}
"""Words a player may put before the name they choose when they mean ``Primary:`` or ``General:``."""


def meant_form(text: str) -> str | None:
    """The Mylantium form a text that none of them reads most likely meant, or None: ``Vote: Debs`` -> ``Primary:
    Debs``, ``Vote: Whig`` -> ``General: Whig``, ``Yes`` -> ``Coup: yes``, ``20`` -> ``Contribute: 20``. A hint for
    the answer (nothing is read from it); linear in the text."""
    line, game = split_game_tag(first_line(text))
    tag = f" #{game}" if game else ""
    if len(line) > 100:
        return None
    head, rest = head_and_rest(line, ("for",))
    words = line.strip(" .!").lower()
    if words in _YES or words in _NO:
        return f"Coup: {'yes' if words in _YES else 'no'}{tag}"
    if whole_number(words.removeprefix("$").strip()) is not None:
        return f"Contribute: {words.removeprefix('$').strip()}{tag}"
    rest = rest.lstrip(" -–—=>;,.").strip()  # ``Primary - Lee``: the separator is not part of the name (5.4)
    if head in KEYWORDS and rest:  # ``primary kit``, ``Coup; yes``: the form without its colon
        return f"{head.capitalize()}: {rest}{tag}"
    if head not in _CHOOSING or not rest:
        return None
    if rest.lower() in _YES or rest.lower() in _NO:
        return f"Coup: {'yes' if rest.lower() in _YES else 'no'}{tag}"
    try:
        return f"General: {party_of(rest).title}{tag}"
    except ParseError:
        return f"Primary: {rest}{tag}"
