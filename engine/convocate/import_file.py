"""A Convocate set-up file (``/game import``, docs/import.md): the players at the table (``/convocate player``) and
the cards on the board (``/card add``), checked line by line before anything is written. Records are applied in
the order of the file; a player's ``homeworld`` is set once every card of the file is on the board."""

from __future__ import annotations

from engine.convocate.board import SOVEREIGNTIES, check_entered_vote
from engine.convocate.board import Kind as CardKind
from engine.convocate.parsing import parse_faces
from engine.core.errors import ParseError, RuleError
from engine.core.importing import Field, Kind, Record, collect, refuse

CARD_KINDS = tuple(k.value for k in CardKind)
SOVEREIGNTY_NAMES = tuple(name for name, _ in SOVEREIGNTIES.values())

KINDS = (
    Kind("player", (
        Field("user", "user", True),
        Field("name"),
        Field("sovereignty", "str", True, SOVEREIGNTY_NAMES),
        Field("order", "int", low=1),
        Field("homeworld"),
    ), "a player at the table: sovereignty, turn order, Homeworld card"),
    Kind("card", (
        Field("kind", "str", True, CARD_KINDS),
        Field("name", "str", True),
        Field("controller", "user"),
        Field("owner", "user"),
        Field("vote", "int", low=0),
        Field("pallarch", "bool"),
        Field("at"),
        Field("morality"),
        Field("penalty"),
        Field("sovereignty", choices=SOVEREIGNTY_NAMES),
        Field("faces"),
        Field("readied", "bool"),
    ), "a card on the board, as /card add takes it"),
)


def parse(filename: str, data: bytes) -> list[Record]:
    """The file's players and cards; ImportRefused names every bad line (nothing is written then)."""
    records, problems = collect(filename, data, KINDS)
    for r in records:
        faces = r.get("faces") if r.kind == "card" else None
        if faces is not None:
            try:  # read as /card add reads it, so a bad value is a named line with the others (play-test I4.3)
                parse_faces(str(faces))
            except ParseError as wrong:
                problems.append(f"{r.where()} (card): `faces`: {' '.join(str(wrong).split())}")
    refuse(filename, problems)  # every problem of the file's format first; the rules and each other once it is sound
    seen: dict[tuple[str, str], int] = {}
    cards: dict[str, str] = {}
    for r in records:
        if r.kind == "card":
            cards.setdefault(str(r.get("name")).lower(), str(r.get("kind")))
    for r in records:
        keys = [("user", str(r.get("user"))), ("name", str(r.get("name")))] if r.kind == "player" else \
            [("card", str(r.get("name")))]
        if r.kind == "player" and r.get("name") is None:
            keys = keys[:1]
        for what, key in keys:
            first = seen.setdefault((r.kind + what, key.lower()), r.line)
            if first != r.line:
                problems.append(f"{r.where()} ({r.kind}): {key} is already given on line {first}.")
        vote = r.get("vote") if r.kind == "card" else None
        if isinstance(vote, int) and str(r.get("kind")) in CARD_KINDS:
            try:  # the Vote the card can print, as /card add checks it (rules §6.1)
                check_entered_vote(CardKind(str(r.get("kind"))), vote, bool(r.get("pallarch")))
            except RuleError as wrong:
                problems.append(f"{r.where()} (card): {wrong}")
        home = r.get("homeworld") if r.kind == "player" else None
        if home is not None and cards.get(str(home).lower(), "homeworld") != "homeworld":
            problems.append(f"{r.where()} (player): {home} is a {cards[str(home).lower()]} card in this file, "
                            "not a Homeworld.")
    refuse(filename, problems)
    return records
