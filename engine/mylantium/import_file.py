"""A Mylantium set-up file (``/game import``, docs/import.md): its Factions (``/faction register``), territories
(``/territory add``), buildings (``/building add``), military units (``/unit add``), Candidates (``/candidate add``)
and Faction Votes (``/faction votes``), checked line by line before anything is written. Records are applied in
the order of the file."""

from __future__ import annotations

from engine.core.errors import ParseError
from engine.core.importing import Field, Kind, Record, collect, refuse
from engine.mylantium.model import FACTION_CHOICES, Building, faction_code, party_of

BUILDINGS = tuple(b.value for b in Building)
STATUSES = ("on-station", "in-battle", "elsewhere")
FACTIONS = ", ".join(FACTION_CHOICES) + " (or PL, RB, GR, SH, BH, PR, BU, RN)"

KINDS = (
    Kind("faction", (
        Field("faction", "str", True),
        Field("user", "user", True),
        Field("party", "str", True),
        Field("vp", "int", low=0),
        Field("treasury", "int", low=0),
    ), "a Faction of the Republic, its player, party, VP and treasury"),
    Kind("territory", (Field("name", "str", True),), "a territory of the Republic"),
    Kind("building", (
        Field("territory", "str", True),
        Field("kind", "str", True, BUILDINGS),
        Field("count", "int", low=1),
        Field("name"),
    ), "ports, cities, temples or villages built in a territory"),
    Kind("unit", (
        Field("name", "str", True),
        Field("territory", "str", True),
        Field("maintenance", "int", True, low=0),
        Field("cost", "int", True, low=0),
        Field("status", choices=STATUSES),
    ), "a military unit, where it is, its maintenance and purchase cost"),
    Kind("candidate", (
        Field("name", "str", True),
        Field("faction", "str", True),
        Field("charisma", "int", True, low=1, high=13),
    ), "a Faction's Candidate with Charisma 1 to 13"),
    Kind("votes", (
        Field("faction", "str", True),
        Field("votes", "int", True, low=0),
        Field("territory"),
        Field("building", choices=BUILDINGS),
    ), "a Faction's votes in a territory, or per building of a kind in play"),
)


def parse(filename: str, data: bytes) -> list[Record]:
    """The file's records (``faction`` cells as their code, e.g. ``PL``; ``party`` as ``whig``/``federalist``);
    ImportRefused names every bad line (nothing is written then): every problem of the file's format first, and only
    in a file whose format is sound, the records against each other (a thing given twice)."""
    records, problems = collect(filename, data, KINDS)
    game: list[str] = []  # the records against each other: named only once the file's format is sound
    seen: dict[tuple[str, str], int] = {}
    given: dict[tuple[str, str], tuple[int, int]] = {}
    out: list[Record] = []

    def once(r: Record, what: str, key: str, shown: str, verb: str = "is") -> None:
        first = seen.setdefault((what, key.lower()), r.line)
        if first != r.line:
            game.append(f"{r.where()} ({r.kind}): {shown} {verb} already given on line {first}.")

    for r in records:
        values = dict(r.values)
        wrong: list[str] = []
        if "faction" in values:
            try:
                code = faction_code(str(values["faction"]))
            except ParseError:
                wrong.append(f"`faction` must be a Faction: {FACTIONS}, not “{values['faction']}”.")
            else:
                values["faction"] = code.name
        if r.kind == "faction":
            try:
                values["party"] = party_of(str(values["party"])).value
            except ParseError:
                wrong.append(f"`party` must be Whig or Federalist, not “{values['party']}”.")
            if not wrong:
                once(r, "faction", str(values["faction"]), f"the {code.plural}", "are")  # "the Grangers are"
            once(r, "user", str(values["user"]), str(values["user"]))
        elif r.kind == "territory":
            once(r, "territory", str(values["name"]), str(values["name"]))
        elif r.kind == "building":
            if values.get("name") is not None and values.get("count", 1) != 1:
                wrong.append("a named building is one building; leave `count` out.")
            elif values.get("name") is None:  # a repeat is a copy-and-paste far more often than meant (I3.1)
                kind = Building(str(values["kind"]))
                key = ("building", f"{values['territory']}/{kind.value}".lower())
                first, count = given.setdefault(key, (r.line, int(values.get("count", 1))))
                if first != r.line:
                    game.append(f"{r.where()} ({r.kind}): the {kind.plural} of {values['territory']} are already "
                                f"given on line {first} ({count}); give them on one line, with their `count` "
                                f"({count} + {values.get('count', 1)} if both lines are meant).")
        elif r.kind == "unit":
            once(r, "unit", str(values["name"]), str(values["name"]))
        elif r.kind == "candidate":
            once(r, "candidate", str(values["name"]), str(values["name"]))
            if not wrong:
                once(r, "candidate of", str(values["faction"]), f"a Candidate of the {code.plural}")
        elif (values.get("territory") is None) == (values.get("building") is None):
            wrong.append("give either `territory` (the Faction's votes there) or `building` (votes per building "
                         "of that kind in play, like the Plutocrats' 2 per port), not both or neither.")
        elif not wrong:  # the same Faction's votes in one place twice: which is meant? (I1.3)
            place = f"in {values['territory']}" if values.get("territory") is not None else \
                f"per {values['building']}"
            first, count = given.setdefault(("votes", f"{values['faction']} {place}".lower()),
                                            (r.line, int(values["votes"])))
            if first != r.line:
                game.append(f"{r.where()} ({r.kind}): the {code.plural}' votes {place} are already given on "
                            f"line {first} ({count}); give them once.")
        problems += [f"{r.where()} ({r.kind}): {w}" for w in wrong]
        out.append(Record(r.line, r.kind, values))
    refuse(filename, problems)  # every problem of the file's format first
    refuse(filename, game)
    return out
