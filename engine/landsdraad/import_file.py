"""A Landsdraad set-up file (``/game import``, docs/import.md): its players (``/player add``) and their holdings
(``/holding add``), checked line by line before anything is written."""

from __future__ import annotations

from engine.core.importing import Field, Kind, Record, collect, refuse
from engine.landsdraad.model import ATTRIBUTE_MAX, ATTRIBUTE_MIN

KINDS = (
    Kind("player", (
        Field("user", "user", True),
        Field("name"),
        Field("diplomacy", "int", True, low=ATTRIBUTE_MIN, high=ATTRIBUTE_MAX),
        Field("command", "int", True, low=ATTRIBUTE_MIN, high=ATTRIBUTE_MAX),
        Field("intrigue", "int", True, low=ATTRIBUTE_MIN, high=ATTRIBUTE_MAX),
        Field("roll", "int", low=1, high=3),
        Field("faction"),
    ), "a player with Diplomacy, Command, Intrigue, the d3 (rolled if left out) and faction"),
    Kind("holding", (
        Field("player", "user", True),
        Field("kind", "str", True, ("elector", "planet")),
        Field("name", "str", True),
        Field("tier", choices=("weak", "average", "strong")),
        Field("quality", choices=("poor", "average", "rich")),
        Field("votes", "int", low=0),
        Field("homeworld", "bool"),
    ), "an Elector (tier and votes) or a planet (quality; homeworld true for the Homeworld, which needs no quality)"),
)


def parse(filename: str, data: bytes) -> list[Record]:
    """The file's players and holdings; ImportRefused names every bad line (nothing is written then): every problem
    of the file's format (columns, cells, fields a record needs) first, and only in a file whose format is sound,
    the records against each other (a player or holding given twice)."""
    records, problems = collect(filename, data, KINDS)
    problems += [f"{r.where()} (holding): {p}" for r in records if r.kind == "holding" for p in _holding(r)]
    refuse(filename, problems)  # the file's format first; its records against each other once it is sound
    users: dict[str, int] = {}
    holdings: dict[str, int] = {}
    for r in records:
        if r.kind == "player":
            key = str(r.get("user")).lower()
            if key in users:
                problems.append(f"{r.where()} (player): {r.get('user')} is already added on line {users[key]}.")
            users.setdefault(key, r.line)
            continue
        name = str(r.get("name")).lower()
        if name in holdings:
            problems.append(f"{r.where()} (holding): {r.get('name')} is already given on line {holdings[name]}.")
        holdings.setdefault(name, r.line)
    refuse(filename, problems)
    return records


def _holding(r: Record) -> list[str]:
    if r.get("kind") == "elector":
        wrong = [f"an Elector has no {f}." for f in ("quality", "homeworld") if r.get(f) is not None]
        if r.get("tier") is None:
            wrong.append("an Elector needs its `tier` (weak, average or strong).")
        if r.get("votes") is None:
            wrong.append("an Elector needs its `votes` (0 or more).")
        return wrong
    wrong = [f"a planet has no {f}." for f in ("tier",) if r.get(f) is not None]
    if r.get("votes") is not None:
        wrong.append("a Homeworld gives no votes; leave `votes` out." if r.get("homeworld") else
                     "a planet's votes come from its quality (poor 2, average 3, rich 4); leave `votes` out.")
    if r.get("quality") is None and not r.get("homeworld"):
        wrong.append("a planet needs its `quality` (poor, average or rich); a Homeworld needs none.")
    return wrong
