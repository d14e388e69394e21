"""Transfer and Transfer Funds actions (for audits, R0-51) and the private requests players DM:
``Transfer: 500 MS to Bob``, ``Transfer: Planet Deneb to Bob``, ``Audit quote: Bob [rounds 1-3]``,
``Elector: Count Jasek, round 3`` (the Pro tempore's query, R0-71)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.errors import ParseError
from engine.core.text import MAX_DIGITS, first_line, whole_number
from engine.landsdraad.motions import split_rounds

TRANSFER_ACCEPTED = (
    "`Transfer: 500 MS to <Name>` (funds) or `Transfer: <what> to <Name>`, e.g. `Transfer: Planet Deneb to Bob`"
)
QUOTE_ACCEPTED = "`Audit quote: <Player>` or `Audit quote: <Player> rounds 1-3`"
ELECTOR_ACCEPTED = "`Elector: <Name>, round <N>`"


@dataclass(frozen=True)
class TransferCommand:
    """``amount`` is set for Transfer Funds (MS); otherwise ``item`` names what was transferred."""

    recipient: str
    amount: int | None = None
    item: str | None = None

    @property
    def kind(self) -> str:
        return "funds" if self.amount is not None else "item"

    def describe(self) -> str:
        return f"{self.amount} MS" if self.amount is not None else str(self.item)


@dataclass(frozen=True)
class AuditQuoteRequest:
    target: str
    rounds: tuple[int, ...] = ()


@dataclass(frozen=True)
class ElectorQuery:
    elector: str
    round: int


# Each is matched against a collapsed first line (``first_line``): one space at most between words, none at the ends,
# so no ``\s*`` meets a long run of blanks (issue 14: ``Elector: Count Jasek, round 1`` + spaces + ``x`` took
# minutes).
_TRANSFER = re.compile(r"^transfer(?: funds)?(?: ?: ?| )(?P<what>.+?) to (?P<to>.+)$", re.IGNORECASE)
"""``Transfer: 500 MS to Bob``; the colon may be left out (``Transfer 200 to jenny``: the intent is clear)."""
_FUNDS = re.compile(r"^(?P<n>[\d,]++) ?(?:ms|solaris|solari)?$", re.IGNORECASE)
_QUOTE = re.compile(r"^audit ?(?:quote|cost) ?:(?P<rest>.*)$", re.IGNORECASE)
_ELECTOR = re.compile(r"^elector ?: ?(?P<name>.+?) ?[,;]? ?\bround ?(?P<n>\d++)$", re.IGNORECASE)


def is_transfer(text: str) -> bool:
    return text.strip().lower().startswith("transfer")


def parse_transfer(text: str) -> TransferCommand:
    found = _TRANSFER.match(first_line(text))
    if not found:
        raise ParseError(text, TRANSFER_ACCEPTED)
    what, to = found["what"].strip(), found["to"].strip()
    funds = _FUNDS.match(what)
    if funds:
        amount = whole_number(funds["n"].replace(",", ""))
        if amount is None:
            raise ParseError(text, TRANSFER_ACCEPTED, problem=f"the amount is a whole number of MS of at most "
                                                              f"{MAX_DIGITS} digits")
        if amount <= 0:
            raise ParseError(text, TRANSFER_ACCEPTED, problem="the amount must be more than 0 MS")
        return TransferCommand(recipient=to, amount=amount)
    return TransferCommand(recipient=to, item=what)


def is_audit_quote(text: str) -> bool:
    return bool(_QUOTE.match(first_line(text)))


def parse_audit_quote(text: str) -> AuditQuoteRequest:
    found = _QUOTE.match(first_line(text))
    if not found or not found["rest"].strip():
        raise ParseError(text, QUOTE_ACCEPTED)
    target, rounds = split_rounds(text, found["rest"])
    if not target:
        raise ParseError(text, QUOTE_ACCEPTED, problem="name the player to audit")
    return AuditQuoteRequest(target, rounds)


def is_elector_query(text: str) -> bool:
    return text.strip().lower().startswith("elector")


def parse_elector_query(text: str) -> ElectorQuery:
    found = _ELECTOR.match(first_line(text))
    if not found:
        raise ParseError(text, ELECTOR_ACCEPTED)
    number = whole_number(found["n"])
    if number is None:
        raise ParseError(text, ELECTOR_ACCEPTED, problem=f"the round is a number of at most {MAX_DIGITS} digits")
    return ElectorQuery(found["name"].strip(), number)


_KIND_WORDS = {"planet": "planet", "world": "planet", "elector": "elector"}


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def holding_named(item: str, holdings: Sequence[tuple[str, str]]) -> int | None:
    """Which of ``holdings`` ((kind, name) pairs) the item of a Transfer names, by index, or None.

    ``Lankiveil``, ``Planet Lankiveil``, ``the planet Lankiveil`` and ``Elector Count Jasek`` name the holding of
    that name (any case); a kind word in front (``planet``, ``world``, ``elector``) must match the holding's kind.
    Anything else (``500 MS``, ``2 legions``, ``Planet Lankiveil and 300 MS``) names no holding."""
    words = _key(item).split(" ")
    if words and words[0] == "the":
        words = words[1:]
    wanted_kind = _KIND_WORDS.get(words[0]) if words else None
    candidates: list[tuple[str, str | None]] = [(" ".join(words), None)]
    if wanted_kind is not None and len(words) > 1:
        candidates.append((" ".join(words[1:]), wanted_kind))
    for name, kind in candidates:
        for index, (held_kind, held_name) in enumerate(holdings):
            if _key(held_name) == name and (kind is None or kind == held_kind):
                return index
    return None
