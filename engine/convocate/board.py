"""The public board as far as politics needs it (rules-spec §4.1): players, cards, Seats, Galactic Factors,
Statutes in force, and whose turn and phase it is. Players and cards are named by strings; the service maps
Discord users to player names."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.convocate.rulings import Rulings
from engine.core.errors import NotFoundError, RuleError
from engine.core.suggest import nearest
from engine.core.text import find_named, same_name, typed_back

GF_LIMIT = 4
"""P4-02: a Galactic Factor runs from −4 to +4."""
GOVT = "GOVT"

SOVEREIGNTIES: dict[str, tuple[str, int]] = {
    "union": ("Union", +1),
    "republic": ("Republic", +1),
    "kingdom": ("Kingdom", -1),
    "hegemony": ("Hegemony", -1),
    "hlm": ("HLM", -1),
    "emberates": ("Emberates", 0),
}
"""Each sovereignty's name and the sign of its preferred GOVT (rules-spec §4.0; the Emberates: P4-11)."""


class Kind(Enum):
    CHARACTER = "character"
    GROUND_UNIT = "ground-unit"
    LOCATION = "location"
    HOMEWORLD = "homeworld"
    SEAT = "seat"
    PERMANENT = "permanent"

    @property
    def label(self) -> str:
        return {"ground-unit": "Ground Unit", "seat": "Convocate Seat"}.get(self.value, self.value.capitalize())

    @property
    def on_board(self) -> bool:
        """Locations, Homeworlds, Seats and other permanents count while on the Map (R4-04)."""
        return self in (Kind.LOCATION, Kind.HOMEWORLD, Kind.SEAT, Kind.PERMANENT)

    @property
    def place(self) -> bool:
        """A card a Character can stand on."""
        return self in (Kind.LOCATION, Kind.HOMEWORLD, Kind.SEAT)


class Phase(Enum):
    READY = "ready"
    ACTION = "action"
    ADMIN = "admin"

    @property
    def label(self) -> str:
        return f"{self.value.capitalize()} Phase"


def sovereignty(text: str) -> tuple[str, int]:
    """(name, preferred GOVT sign) of a sovereignty as typed; RuleError naming the six otherwise."""
    found = SOVEREIGNTIES.get(text.strip().lower())
    if found is None:
        names = ", ".join(name for name, _ in SOVEREIGNTIES.values())
        raise RuleError(f"“{text}” is not a sovereignty. The sovereignties are {names}.")
    return found


def printed_vote(kind: Kind, printed: int, pallarch: bool = False) -> int:
    """R4-01 (ruling of 2026-10-15): each Pallarch prints 2 on both faces; every other Character that prints
    Vote prints 1, and one that prints 0 keeps 0; each Homeworld prints 1; other cards keep their printed value.
    No card prints Vote 3."""
    if printed < 0:
        raise RuleError(f"A card's printed Vote is 0 or more, not {printed}.")
    if pallarch and kind is not Kind.CHARACTER:
        raise RuleError("Only a Character can be a Pallarch (one of the Ten).")
    if kind is Kind.CHARACTER:
        if pallarch:
            return 2
        return 1 if printed > 0 else 0
    if kind is Kind.HOMEWORLD:
        return 1
    if printed >= 3:
        raise RuleError(f"No card prints Vote {printed}: no card prints Vote 3 or more (ruling of 2026-10-15); "
                        "only a Pallarch prints 2.")
    return printed


def _vote_rule(kind: Kind) -> str:
    """What a card of this kind may print as its Vote (R4-01), in words."""
    if kind is Kind.CHARACTER:
        return "a Character prints 1, or 0 if its card prints 0, and a Pallarch (one of the Ten) 2"
    if kind is Kind.HOMEWORLD:
        return "every Homeworld prints 1"
    return f"a {kind.label} keeps the Vote it prints, 0, 1 or 2"


def check_entered_vote(kind: Kind, entered: int, pallarch: bool = False) -> None:
    """A Vote typed by a moderator or player (``/card add``, ``/card set``, a set-up file) must be one the rules let
    the card print (R4-01, ruling of 2026-10-15); RuleError saying the rule in words otherwise. Unlike
    ``printed_vote``, which reads old card data (Corovan's printed 3 is 1), nothing is mapped here: a value the
    card cannot print is refused, so the board never shows a Vote other than the one typed."""
    if entered > 2:  # the rule for the card's own kind, not only the Characters' (play-test I4.7)
        raise RuleError(f"No card prints Vote {entered} (rules §6.1): {_vote_rule(kind)}.")
    if kind is Kind.CHARACTER:
        if pallarch and entered != 2:
            raise RuleError(f"A Pallarch (one of the Ten) prints Vote 2 on both faces, not {entered} (rules §6.1); "
                            "leave `vote` out.")
        if not pallarch and entered == 2:
            raise RuleError("Only a Pallarch (one of the Ten) prints Vote 2; every other Character prints 1, or 0 if "
                            "its card prints 0 (rules §6.1). Give `pallarch:true` if it is one of the Ten.")
    elif kind is Kind.HOMEWORLD and entered != 1:
        raise RuleError(f"Every Homeworld prints Vote 1, not {entered} (rules §6.1); leave `vote` out.")


def check_seat(board: Board, player: PlayerState, *, order: int | None, homeworld: str | None) -> None:
    """A player's turn order and Homeworld as the moderator gives them (``/convocate player`` and a set-up file):
    each place in turn order is one player's, and a Homeworld is its own player's card, not another's (play-test
    I1.6). ``order``/``homeworld`` are what was given (None: not changed, not checked)."""
    if order is not None:
        other = next((p for p in board.players if p.order == order and p.name != player.name), None)
        if other is not None:
            raise RuleError(f"Turn order {order} is {other.name}'s; each player has their own place (free "
                            f"{order} first by moving {other.name}, or give {player.name} another number).")
    if homeworld is not None:
        card = board.card(homeworld)
        whose = card.owner or card.controller
        if whose is not None and whose != player.name:
            raise RuleError(f"{card.name} is {whose}'s Homeworld (its {'owner' if card.owner else 'controller'}), "
                            f"not {player.name}'s.")


@dataclass(frozen=True)
class Face:
    """One face of a Convocate Seat: the GOVT values where it is active, and whether it prints Directive."""

    name: str
    active_govt: frozenset[int] | None = None
    """None: the card data gives no range, so the ruleset's default for the Seat's bloc applies (P4-14)."""
    prints_directive: bool = False


@dataclass(frozen=True)
class Card:
    name: str
    kind: Kind
    controller: str | None = None
    owner: str | None = None
    vote: int = 0
    """The printed Vote, normalised by R4-01 (``printed_vote``)."""
    pallarch: bool = False
    morality: str | None = None
    penalty: str | None = None
    """A Character's Penalty as printed in its Penalties block, when someone entered it."""
    at: str | None = None
    """Where a Character or Ground Unit stands: the name of a Location, Homeworld or Seat."""
    readied: bool = True
    on_map: bool = True
    suppressed: bool = False
    bonus: int = 0
    """A temporary "+N Vote until end of turn" on this card (P4-09)."""
    sovereignty: str | None = None
    """A Homeworld's or a Seat's sovereignty."""
    faces: tuple[Face, ...] = ()
    face: str | None = None
    """A Seat's face now up (the first of ``faces`` when None)."""

    @property
    def current_face(self) -> Face:
        for f in self.faces:
            if self.face is None or f.name.lower() == self.face.lower():
                return f
        return Face(self.face or "prime")


@dataclass(frozen=True)
class PlayerState:
    name: str
    sovereignty: str
    order: int
    directive: str | None = None
    """The player's current Directive (the name of a Galactic Factor), or None."""
    homeworld: str | None = None
    pool: int = 0
    """Committed Votes in the Resource Pool; emptied at the end of every Phase (R4-07)."""
    temp: int = 0
    """A temporary "+N Vote until end of turn" on the player (R4-04)."""
    repealed_turn: int | None = None
    """The turn of the player's last Motion of Repeal (for ``repeals_per_turn = one``, P4-06)."""

    @property
    def pref_sign(self) -> int:
        return SOVEREIGNTIES[self.sovereignty.lower()][1]


@dataclass(frozen=True)
class Section:
    number: int
    one_time: bool = False
    cost: str | None = None
    """The printed cost of a one-time Section ("Rank + 1 = 3"), paid each time it resolves."""


@dataclass(frozen=True)
class Statute:
    name: str
    controller: str
    owner: str
    section: int
    sections: tuple[Section, ...]
    changed_turn: int | None = None
    """The turn its Section was last changed in an Admin Phase: one change per Admin Phase."""

    def numbered(self, number: int) -> Section:
        for s in self.sections:
            if s.number == number:
                return s
        numbers = ", ".join(str(s.number) for s in self.sections)
        raise RuleError(f"{self.name} has no Section {number}; its Sections are {numbers}.")


@dataclass(frozen=True)
class Board:
    players: tuple[PlayerState, ...] = ()
    cards: tuple[Card, ...] = ()
    factors: tuple[tuple[str, int], ...] = ((GOVT, 0),)
    statutes: tuple[Statute, ...] = ()
    active: str | None = None
    """Whose turn it is (None before the first turn)."""
    phase: Phase | None = None
    turn: int = 0
    rulings: Rulings = field(default_factory=Rulings)

    # -- reading -------------------------------------------------------------------------------------------------

    @property
    def govt(self) -> int:
        return self.factor(GOVT)

    def factor(self, name: str) -> int:
        for n, value in self.factors:
            if same_name(n, name):
                return value
        known = ", ".join(n for n, _ in self.factors)
        raise NotFoundError(f"There is no Galactic Factor {typed_back(name)}. The Factors are {known}.")

    def factor_name(self, name: str) -> str:
        for n, _ in self.factors:
            if same_name(n, name):
                return n
        self.factor(name)
        raise AssertionError

    def player(self, name: str) -> PlayerState:
        found = find_named(self.players, name, lambda p: p.name)
        if found is not None:
            return found
        known = ", ".join(p.name for p in self.players) or "none yet"
        raise NotFoundError(f"No player called {typed_back(name)} sits at this table. Players: {known}.")

    def find(self, name: str) -> Card | None:
        return find_named(self.cards, name, lambda c: c.name)

    def card(self, name: str) -> Card:
        found = self.find(name)
        if found is None:
            breaks = [i for i, c in enumerate(name[:200]) if c in " ,;"][:8]
            for i in reversed(breaks):  # `Lady Mirel please`: the longest start that is a card (play-test Q5.2)
                head, tail = name[:i].strip(" ,;"), name[i:].strip(" ,;.!")
                lead = self.find(head) if head else None
                if lead is not None and tail:
                    raise NotFoundError(f"I read {lead.name} in “{name.strip()[:60]}”, but not “{tail[:40]}”: name "
                                        "one card alone.")
            near = nearest(name, (c.name for c in self.cards), cutoff=0.7)
            hint = f" Did you mean {near}?" if near else ""
            raise NotFoundError(f"There is no card called {typed_back(name)} on the board.{hint}")
        return found

    def statute(self, name: str) -> Statute:
        found = find_named(self.statutes, name, lambda s: s.name)
        if found is not None:
            return found
        known = ", ".join(s.name for s in self.statutes) or "none"
        raise NotFoundError(f"No Statute called {typed_back(name)} is in force. In force: {known}.")

    def controlled_by(self, player: str, kinds: Iterable[Kind] | None = None) -> list[Card]:
        wanted = set(kinds) if kinds is not None else None
        return [c for c in self.cards if c.controller == player and (wanted is None or c.kind in wanted)]

    def occupants(self, place: str) -> list[Card]:
        return [c for c in self.cards if c.kind is Kind.CHARACTER and c.at is not None
                and c.at.lower() == place.lower()]

    def turn_order(self) -> list[PlayerState]:
        return sorted(self.players, key=lambda p: (p.order, p.name.lower()))

    def in_phase(self, player: str, phase: Phase) -> bool:
        return self.active == player and self.phase is phase

    def when(self) -> str:
        """``alice's Action Phase``, for messages."""
        if self.active is None or self.phase is None:
            return "before the first turn (a moderator starts it with /phase next)"
        return f"{self.active}'s {self.phase.label}"

    # -- changing ------------------------------------------------------------------------------------------------

    def with_card(self, card: Card) -> Board:
        cards = tuple(card if c.name == card.name else c for c in self.cards)
        if cards == self.cards and card not in self.cards:
            cards = (*self.cards, card)
        return replace(self, cards=cards)

    def without_card(self, name: str) -> Board:
        return replace(self, cards=tuple(c for c in self.cards if c.name != name))

    def with_player(self, player: PlayerState) -> Board:
        players = tuple(player if p.name == player.name else p for p in self.players)
        if not any(p.name == player.name for p in self.players):
            players = (*self.players, player)
        return replace(self, players=players)

    def with_factor(self, name: str, value: int) -> Board:
        if not -GF_LIMIT <= value <= GF_LIMIT:
            raise RuleError(f"A Galactic Factor runs from -{GF_LIMIT} to +{GF_LIMIT}, not {value:+d}.")
        factors = tuple((n, value) if n.lower() == name.lower() else (n, v) for n, v in self.factors)
        if not any(n.lower() == name.lower() for n, _ in self.factors):
            factors = (*self.factors, (name, value))
        return replace(self, factors=factors)

    def with_statute(self, statute: Statute) -> Board:
        statutes = tuple(statute if s.name == statute.name else s for s in self.statutes)
        if not any(s.name == statute.name for s in self.statutes):
            statutes = (*self.statutes, statute)
        return replace(self, statutes=statutes)

    def without_statute(self, name: str) -> Board:
        return replace(self, statutes=tuple(s for s in self.statutes if s.name != name))

    def activate(self, card: Card) -> Board:
        return self.with_card(replace(card, readied=False))


def signed(value: int) -> str:
    """GOVT values as players write them: ``0``, ``+2``, ``−3``."""
    return "0" if value == 0 else f"{value:+d}".replace("-", "−")
