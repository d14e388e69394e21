"""The disclosure check: which secret choices a posted result gives away.

A result posts a total per choice (Aye 16, Nay 7, Abstain 0; or so many votes per candidate). When each voter's
weight is public (or known to lie in a small set), the totals can leave only one way a voter can have voted: with
weights 11, 7 and 5 and Aye = 16, the 11 and the 5 voted Aye and the 7 did not. ``exposures`` finds, for every voter
whose choice was secret, whether every ballot combination consistent with the posted totals gives them the same
choice, and which.

What else is public narrows the combinations: a voter known not to have voted (the status card names who has voted)
can only be counted where a missing ballot counts (``choices`` holds just that one); a voter whose choice is public
anyway (announced, a faction's posted die roll) is given that one choice and is never reported, since nothing secret
is given away about them. A die face rolled in secret by the moderator is not public: such a voter keeps every choice.

How: a subset-sum dynamic programme over the vector of partial totals (one count per choice), forwards over the
voters and backwards, never enumerating the ``|choices|^n`` combinations. A voter may take choice ``c`` with weight
``w`` exactly when some partial total of the voters before them plus ``w`` on ``c`` plus some partial total of the
voters after them is the posted vector. Partial totals never exceed the posted ones (weights are not negative), so
the work is bounded by the number of voters times the number of distinct partial totals.

Pure: no I/O, no discord, no database."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.core.settings import Setting

MODES = ("post", "coarsen", "hold")

def setting(secret: str, coarsened: str) -> Setting:
    """The ``disclosure`` setting, which each ruleset whose results can give a ballot away lists in its settings
    (docs/rulings.md), described in that ruleset's words (play-test M5.5): ``secret``, what a result could give
    away (``how a player voted``); ``coarsened``, what a coarsened result posts (``passed or failed and how wide the
    margin was``)."""
    return Setting(
        "disclosure", "post",
        f"What to do with a result whose posted totals would give away {secret} (the moderators are always told "
        f"privately who is exposed): post (post it anyway), coarsen (post only {coarsened}) or hold (post nothing "
        "until a moderator releases it).", choices=MODES)

Vector = tuple[int, ...]


class Voter(NamedTuple):
    """One voter as the public sees them. A named tuple, not a dataclass: a close builds one per player (10,000 in
    the benchmark's), and a frozen dataclass's ``__init__`` (a call of ``object.__setattr__`` per field) made
    building 10,000 of them cost 5.2 ms of CPU against 3.4 ms as a named tuple."""

    name: str
    weights: frozenset[int]
    """Every weight the voter may carry as far as the public knows: one, when the weight is public."""
    choices: frozenset[str]
    """The choices the voter may have made as far as the public knows: one, when it is public."""

    @staticmethod
    def public_weight(name: str, weight: int, choices: Iterable[str]) -> Voter:
        return Voter(name, frozenset((weight,)), frozenset(choices))


@dataclass(frozen=True)
class Exposure:
    name: str
    choice: str
    """The only choice the posted totals leave the voter."""


@dataclass(frozen=True)
class Leak:
    """A partial leak: the posted totals rule some of a voter's choices out, but leave more than one open."""

    name: str
    ruled_out: frozenset[str]
    """The choices the totals show the voter did not make."""
    left: frozenset[str]
    """The choices still open to the voter (two or more)."""


class InconsistentError(ValueError):
    """No combination of the voters' choices gives the posted totals (the input is wrong)."""


WORK = 1 << 27
"""Bits of partial-total sets the programme may hold (16 MB). A bigger electorate gets the quick check instead."""


@dataclass(frozen=True)
class Check:
    possible: dict[str, frozenset[str]]
    """For each voter, every choice left open to them (a superset of it when the check is not ``complete``)."""
    complete: bool
    """False when the electorate was too big for the full check and only the quick one ran: each voter's choices
    are then those whose total their weight fits in, which still finds every voter exposed by a total of 0 (a
    unanimous vote), but may miss one exposed by a sum only one subset of weights makes."""


class _Grid:
    """Sets of partial-total vectors as the bits of one integer, one digit per choice, each digit padded by the
    largest weight that fits under its total, so that adding or taking away a weight never carries into the next
    digit unseen (what lands in a padding is masked off)."""

    def __init__(self, target: Vector, pad: int, dropped: int | None) -> None:
        self.target = target
        self.dims = [i for i in range(len(target)) if i != dropped]
        self.stride: dict[int, int] = {}
        size = 1
        mask = 1
        for i in self.dims:
            width = target[i] + 1 + min(pad, target[i])  # a weight over the total is never moved there (_moves)
            self.stride[i] = size
            digits = 0
            for d in range(target[i] + 1):
                digits |= mask << (d * size)
            mask = digits
            size *= width
        self.size = size
        self.mask = mask
        self.target_bit = 1 << sum(target[i] * self.stride[i] for i in self.dims)

    def shift(self, choice: int, weight: int) -> int:
        return weight * self.stride[choice] if choice in self.stride else 0


def _moves(weights: frozenset[int], choices: frozenset[str], index: dict[str, int], grid: _Grid) -> set[int]:
    """The shifts of a voter's (choice, weight) pairs that fit under the posted totals."""
    return {grid.shift(index[c], w) for c in choices for w in weights if w <= grid.target[index[c]]}


Class = tuple[frozenset[int], frozenset[str]]
"""A class of voters: the weights and the choices the public knows of them. What the check finds depends on these
only, so voters of one class (most of a big electorate: a close of 10,000 has a few dozen) share it."""


@dataclass(frozen=True)
class ClassCheck:
    possible: dict[Class, frozenset[str]]
    """For each class, every choice left open to its voters (a superset of it when the check is not ``complete``)."""
    complete: bool
    """As ``Check.complete``."""


class _BadClass(ValueError):
    def __init__(self, key: Class) -> None:
        super().__init__("a voter needs at least one weight (none negative) and one choice")
        self.key = key


def check_classes(classes: Mapping[Class, int], totals: Mapping[str, int]) -> ClassCheck:
    """``check`` of an electorate given as how many voters there are of each class (none of them named): for each
    class, every choice some combination consistent with ``totals`` gives its voters. Two voters of one class are
    interchangeable in every combination, so what is open to one is open to the other: the result is ``check``'s
    for any list of these voters, in any order. The quick check is one step per class; the full one walks every
    voter, as ``check`` does. Raises ``InconsistentError`` when no combination gives the totals, ``ValueError`` for a
    class with no weight, a negative one or no choice."""
    names = sorted(set(totals) | {c for _, choices in classes for c in choices})
    index = {c: i for i, c in enumerate(names)}
    target = tuple(int(totals.get(c, 0)) for c in names)
    n = sum(classes.values())
    fits: dict[Class, frozenset[str]] = {}
    """The choices whose total the class's lightest weight fits in: the quick check."""
    for key in classes:
        weights, choices = key
        if not weights or not choices or (lightest := min(weights)) < 0:
            raise _BadClass(key)
        fits[key] = frozenset(c for c in choices if lightest <= target[index[c]])
    if not all(fits.values()):
        raise InconsistentError("no combination of the ballots gives the posted totals")
    dropped: int | None = None
    if all(len(weights) == 1 for weights, _ in classes):
        # every weight public: the partial totals add up to the weights so far, so one digit is implied (the largest)
        if sum(next(iter(weights)) * count for (weights, _), count in classes.items()) != sum(target):
            raise InconsistentError("the weights do not add up to the posted totals")
        dropped = max(range(len(target)), key=lambda i: target[i], default=None)
    pad = max((w for weights, _ in classes for w in weights), default=0)
    bits = 1
    for i, t in enumerate(target):
        if i != dropped:
            bits *= t + 1 + min(pad, t)
    if bits * (n + 1) > WORK:
        return ClassCheck(fits, complete=False)
    grid = _Grid(target, pad, dropped)
    members = [key for key, count in classes.items() for _ in range(count)]
    moves = [_moves(weights, choices, index, grid) for weights, choices in members]
    forward = [1]
    for m in moves:
        reached = 0
        for s in m:
            reached |= forward[-1] << s
        forward.append(reached & grid.mask)
    if not forward[-1] & grid.target_bit:
        raise InconsistentError("no combination of the ballots gives the posted totals")
    completes = grid.target_bit  # the partial totals from which the voters after k can still reach the target
    possible: dict[Class, frozenset[str]] = {}
    for k in range(len(members) - 1, -1, -1):
        weights, choices = key = members[k]
        if key not in possible:  # the same for every voter of the class: worked out for one
            possible[key] = frozenset(c for c in choices if any(
                forward[k] & (completes >> grid.shift(index[c], w)) for w in weights if w <= target[index[c]]))
        step = 0
        for s in moves[k]:
            step |= completes >> s
        completes = step & grid.mask
    return ClassCheck({key: possible.get(key, fits[key]) for key in classes}, complete=True)  # (none of a class: fits)


def check(voters: Sequence[Voter], totals: Mapping[str, int]) -> Check:
    """For each voter, every choice some combination consistent with ``totals`` gives them. ``totals`` names every
    choice any voter may make (a choice missing from it is read as posted 0). Raises ``InconsistentError`` when no
    combination gives the totals. Worked out once per class of voters (``check_classes``): the same frozensets,
    whose hashes Python keeps, make one class."""
    classes: dict[Class, int] = {}
    for v in voters:
        key = (v.weights, v.choices)
        classes[key] = classes.get(key, 0) + 1
    try:
        found = check_classes(classes, totals)
    except _BadClass as bad:
        name = next(v.name for v in voters if (v.weights, v.choices) == bad.key)
        raise ValueError(f"{name}: {bad}") from None
    return Check({v.name: found.possible[v.weights, v.choices] for v in voters}, complete=found.complete)


def possible_choices(voters: Sequence[Voter], totals: Mapping[str, int]) -> dict[str, frozenset[str]]:
    """``check(...).possible``."""
    return check(voters, totals).possible


def exposures(voters: Sequence[Voter], totals: Mapping[str, int]) -> tuple[Exposure, ...]:
    """The voters whose choice was secret (more than one was open to them) and whom the posted ``totals`` leave only
    one choice, in the order given."""
    return exposed(voters, check(voters, totals))


def exposed(voters: Sequence[Voter], found: Check) -> tuple[Exposure, ...]:
    """The voters ``found`` leaves one choice whose choice was secret."""
    possible = found.possible
    return tuple(Exposure(v.name, next(iter(possible[v.name]))) for v in voters
                 if len(v.choices) > 1 and len(possible[v.name]) == 1)


def leaks(voters: Sequence[Voter], found: Check) -> tuple[Leak, ...]:
    """The voters whose choice was secret and whom ``found`` leaves more than one choice but fewer than they had:
    the totals show they did not make the others ("did not vote Nay"), in the order given. Sound when the check
    was only the quick one too (``found.possible`` is then a superset of what is open, so what it rules out is ruled
    out), though it may then miss some."""
    possible = found.possible
    return tuple(Leak(v.name, v.choices - possible[v.name], possible[v.name]) for v in voters
                 if 1 < len(possible[v.name]) < len(v.choices))


def margin_band(margin: int, effective: int) -> str:
    """How wide a margin was, in words, for a result posted without its totals: the margin (``|Aye − Nay|``, or
    the winner's lead) as a share of the votes that counted (``Aye + Nay``). Bands, not numbers, so no total can be
    worked back from it: ``tied``, ``narrow`` (under 10%), ``clear`` (10% to under 30%) or ``wide`` (30% or more)."""
    if margin <= 0 or effective <= 0:
        return "tied" if effective > 0 else "nobody voted either way"
    if 10 * margin < effective:
        return "narrow (under 10% of the votes cast)"
    if 10 * margin < 3 * effective:
        return "clear (10% to 30% of the votes cast)"
    return "wide (30% or more of the votes cast)"


def exposure_text(found: Sequence[Exposure], label: Mapping[str, str] | None = None) -> str:
    """``alice (Aye), carol (Aye)``."""
    names = label or {}
    return ", ".join(f"{e.name} ({names.get(e.choice, e.choice.capitalize())})" for e in found)


def shown(found: Mapping[str, object] | None) -> str:
    """How a result whose stored ``disclosure`` is ``found`` may be shown to players: ``full``, ``coarse`` (the
    outcome and the margin's band) or ``held`` (nothing until a moderator releases it)."""
    if not found or found.get("released") or found.get("mode") == "post":
        return "full"
    return "held" if found.get("held") else "coarse"
